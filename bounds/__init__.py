r"""The theory of Off-CMAB as mathematics: bounds, conditions, proof steps, claims, errata.

Depends on :mod:`offcmab.reference` only (for exact triggering probabilities of problem
instances); never on :mod:`offcmab.validation`.
"""
