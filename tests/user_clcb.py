"""A user's copy of CLCB as the file their CI checks, with a chosen radius factor.

``write(folder, factor)`` writes ``my_clcb.py`` into ``folder``: empirical means minus
``factor`` times CLCB's Hoeffding radius, then the oracle; it exposes its counts and both
confidence bounds (so its certificate rows run as the reference's do).  Factor 1 computes
exactly what the reference CLCB computes (the same LCBs, so the same actions and gaps on every
dataset); factor 0.5 halves the radius.
"""

from __future__ import annotations

from pathlib import Path

SOURCE = '''"""My CLCB: empirical means minus a Hoeffding radius, then the oracle.{note}"""
from types import SimpleNamespace

import numpy as np

from offcmab.reference.confidence import arm_statistics, hoeffding_radius

RADIUS_FACTOR = {factor!r}


def my_clcb(dataset, oracle, delta):
    stats = arm_statistics(dataset)
    radius = RADIUS_FACTOR * hoeffding_radius(stats.counts, dataset.n, dataset.m, delta)
    lcb = np.where(stats.counts > 0, stats.means - radius, -np.inf)
    ucb = np.where(stats.counts > 0, stats.means + radius, np.inf)
    return SimpleNamespace(action=oracle(lcb), counts=stats.counts, lcb=lcb, ucb=ucb)
'''

#: The target string of the written function, relative to its folder.
TARGET = "my_clcb.py:my_clcb"


def write(folder: Path, factor: float, note: str = "") -> Path:
    """Write (or overwrite) ``folder/my_clcb.py`` with radius factor ``factor``.

    ``note`` is added to the module docstring: a change that alters no result.
    """
    path = folder / "my_clcb.py"
    path.write_text(SOURCE.format(factor=factor, note=note), encoding="utf-8")
    return path
