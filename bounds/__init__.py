r"""The theory of Off-CMAB as mathematics: bounds, conditions, proof steps, claims, errata.

Depends on :mod:`reference` only (for exact triggering probabilities of problem
instances); never on :mod:`validation`.
"""
