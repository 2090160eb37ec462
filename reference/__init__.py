r"""Algorithms of Off-CMAB: offline datasets, confidence bounds, oracles, problems.

This package depends on numpy only.  It never imports ``sympy``, ``scipy``,
``bounds`` or ``validation``: a reader who opens it sees algorithms, problems,
oracles and data, nothing else.

References
----------
Liu et al., "Offline Learning for Combinatorial Multi-armed Bandits", ICML 2025.
"""

from offcmab.reference.clcb import CLCBResult, clcb
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.errors import InputError

__all__ = ["CLCBResult", "InputError", "OfflineDataset", "clcb"]
