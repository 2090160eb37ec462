r"""Validation of Off-CMAB: Monte-Carlo and property-based checks, reproductions, the CLI.

Depends on :mod:`offcmab.reference` (algorithms) and :mod:`offcmab.bounds` (theory); nothing
depends on it.  :func:`check` (from :mod:`offcmab.validation.api`) checks your own
algorithm against a bound from Python.
"""

from __future__ import annotations

from typing import Any

_API = ("check", "CheckReport", "BoundViolation")


def __getattr__(name: str) -> Any:
    """``check``, ``CheckReport`` and ``BoundViolation``, imported on first use."""
    if name in _API:
        # imported on first use: the command line imports this package on every start
        from offcmab.validation import api

        return getattr(api, name)
    raise AttributeError(f"module 'validation' has no attribute {name!r}")
