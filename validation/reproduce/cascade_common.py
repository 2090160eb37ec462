r"""Shared pieces of the cascade reproductions (Figures 1(a) and 2): the three algorithms.

Each algorithm maps a cascade log to a ranked list of ``k`` items; the exact
suboptimality gap :math:`r(S^*;\mu) - r(\hat S;\mu)` is then computed from the
true means.  CLCB-Cascade and CUCB-Offline use the same radius
:math:`\log(2mn/\delta)` (``line:LCB_cascade``) and :math:`\delta` = ``DELTA``
(the paper does not print its :math:`\delta`); EMP ranks unobserved items last.
The paper does not say how its EMP treats unobserved items, so
``EMP-optimistic`` (unobserved items first) is run too, as a sensitivity check.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from offcmab.reference.baselines import cucb_offline, emp
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.confidence import arm_statistics, hoeffding_radius
from offcmab.reference.dataset import IntArray, OfflineDataset
from offcmab.reference.oracles import TopK

#: Failure probability used by CLCB-Cascade and CUCB-Offline in the reproductions.
DELTA = 0.05

Algorithm = Callable[[OfflineDataset, int], IntArray]

#: Algorithm name (as in the paper's legends) -> (log, k) -> ranked list.
ALGORITHMS: dict[str, Algorithm] = {
    "CLCB": lambda data, k: clcb_cascade(data, k, DELTA).action,
    "CUCB-Offline": lambda data, k: cucb_offline(data, TopK(k), DELTA, "cascade").action,
    "EMP": lambda data, k: emp(data, TopK(k)).action,
    "EMP-optimistic": lambda data, k: emp(data, TopK(k), unobserved=float("inf")).action,
}


def clcb_scaled(data: OfflineDataset, k: int, scale: float) -> IntArray:
    r"""CLCB-Cascade with its radius multiplied by ``scale`` (the confidence-width sweep).

    ``scale = 1`` is :func:`offcmab.reference.clcb_cascade.clcb_cascade`; a scale below 1 is not an
    algorithm of the paper (see :mod:`offcmab.validation.reproduce.width_sweep` for what it does to
    the guarantee).
    """
    stats = arm_statistics(data)  # line:counter_cascade, line:empirical_mean_cascade
    radius = scale * hoeffding_radius(stats.counts, data.n, data.m, DELTA, "cascade")
    lcb = np.where(stats.counts > 0, stats.means - radius, -np.inf)  # line:LCB_cascade
    return TopK(k)(lcb)  # cascade_line:oracle
