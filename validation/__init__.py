r"""Validation of Off-CMAB: Monte-Carlo and property-based checks, reproductions, the CLI.

Depends on :mod:`reference` (algorithms) and :mod:`bounds` (theory); nothing
depends on it.
"""
