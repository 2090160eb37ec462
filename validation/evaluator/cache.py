r"""LLM cache instances: expected costs and their extremes.

A cache :math:`\mathcal M` of ``k`` queries costs :math:`\sum_{q\notin\mathcal M}p(q)c(q)`
in expectation.  As a reward (to be maximized) it enters as minus that cost, so
:meth:`~offcmab.validation.evaluator.extremes.Extremes.gap` is :math:`c(\hat{\mathcal M}) -
c(\mathcal M^*)`.  The cheapest cache holds the ``k`` largest :math:`p(q)c(q)`, the
dearest the ``k`` smallest; small instances are enumerated instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from offcmab.validation.evaluator import feasible
from offcmab.validation.evaluator.extremes import Extremes, tabulated


def costs(params: Mapping[str, Any], caches: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    r"""Expected cost :math:`\sum_{q\notin\mathcal M}p(q)c(q)` of each cache (one per row)."""
    p = np.asarray(params["p"], dtype=np.float64)
    c = np.asarray(params["c"], dtype=np.float64)
    outside = np.ones((len(caches), p.size), dtype=bool)
    outside[np.arange(len(caches))[:, None], caches] = False
    return np.asarray(outside.astype(np.float64) @ (p * c), dtype=np.float64)


def extremes(params: Mapping[str, Any]) -> Extremes:
    """Cheapest and dearest cache of ``k`` queries, as rewards (minus costs)."""
    m, k = len(params["p"]), params["k"]
    if feasible.small(m, k):
        table = feasible.subsets(m, k)
        return tabulated(table, -costs(params, table), 1.0, f"every cache of {k} of {m}")
    weights = np.asarray(params["p"], dtype=np.float64) * np.asarray(params["c"], dtype=np.float64)
    order = np.argsort(weights, kind="stable")
    ends = np.stack([order[-k:], order[:k]])
    best, worst = -costs(params, ends)
    return Extremes(float(best), float(worst), tuple(sorted(int(i) for i in ends[0])),
                    tuple(sorted(int(i) for i in ends[1])), 1.0,
                    "the k largest and the k smallest p(q)c(q)")
