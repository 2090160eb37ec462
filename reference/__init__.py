r"""Algorithms of Off-CMAB: offline datasets, confidence bounds, oracles, problems.

This package depends on numpy only.  It never imports ``sympy``, ``scipy``,
``bounds`` or ``validation``: a reader who opens it sees algorithms, problems,
oracles and data, nothing else.

References
----------
Liu et al., "Offline Learning for Combinatorial Multi-armed Bandits", ICML 2025.
"""

from reference.clcb import CLCBResult, clcb
from reference.dataset import OfflineDataset
from reference.errors import InputError

__all__ = ["CLCBResult", "InputError", "OfflineDataset", "clcb"]
__version__ = "0.1.0"
