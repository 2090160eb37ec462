r"""Cascade and k-path instances (and edge-level IM): rewards and extremes from their means.

Cascade: the reward of a list is :math:`1-\prod_{i\in S}(1-\mu_i)`, which does not depend
on the order and grows with every mean, so the best (worst) list holds the ``k`` largest
(smallest) means.  k-path: path ``j`` holds arms ``j*k .. j*k+k-1``, each of mean
``path_means[j]``, and its reward is the sum of its arm means.  Edge-level IM: a seed set's
reward is its exact spread (:mod:`offcmab.validation.evaluator.spread`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from offcmab.validation.evaluator import feasible
from offcmab.validation.evaluator.extremes import Extremes, tabulated
from offcmab.validation.evaluator.spread import spreads

IntRows = npt.NDArray[np.int64]


def cascade_rewards(mu: npt.ArrayLike, actions: IntRows) -> npt.NDArray[np.float64]:
    r""":math:`1-\prod_{i\in S}(1-\mu_i)` for each list (one per row of ``actions``)."""
    means = np.asarray(mu, dtype=np.float64)
    return np.asarray(1.0 - np.prod(1.0 - means[actions], axis=1), dtype=np.float64)


def arm_means(path_means: npt.ArrayLike, k: int) -> npt.NDArray[np.float64]:
    """Every arm's mean: each path's mean once per arm of the path."""
    means = np.asarray(path_means, dtype=np.float64)
    return np.asarray(np.repeat(means, k), dtype=np.float64)


def path_rewards(path_means: npt.ArrayLike, k: int, actions: IntRows) -> npt.NDArray[np.float64]:
    """The sum of the arm means of each action (one per row of ``actions``)."""
    return np.asarray(arm_means(path_means, k)[actions].sum(axis=1), dtype=np.float64)


def rewards(params: Mapping[str, Any], actions: IntRows) -> npt.NDArray[np.float64]:
    """The true reward of each action (one per row) of a CMAB-T instance's parameters."""
    family = params["family"]
    if family == "cascade":
        return cascade_rewards(params["mu"], actions)
    if family == "kpath":
        return path_rewards(params["path_means"], params["k"], actions)
    graph = params["graph"]
    return spreads(graph["nodes"], graph["sources"], graph["targets"], graph["p"], actions)


def extremes(params: Mapping[str, Any], alpha: float) -> Extremes:
    """Best and worst reward of a CMAB-T instance, against an oracle of ratio ``alpha``."""
    k = params["k"]
    family = params["family"]
    if family == "kpath":
        table = feasible.paths(len(params["path_means"]), k)
        return tabulated(table, rewards(params, table), alpha, "every path")
    m = len(params["mu"]) if family == "cascade" else params["graph"]["nodes"]
    if family == "cascade" and not feasible.small(m, k):
        return sorted_cascade(params["mu"], k, alpha)
    table = feasible.subsets(m, k)
    return tabulated(table, rewards(params, table), alpha, f"every set of {k} of {m}")


def sorted_cascade(mu: npt.ArrayLike, k: int, alpha: float) -> Extremes:
    """Cascade extremes in closed form: the ``k`` largest and the ``k`` smallest means."""
    order = np.argsort(np.asarray(mu, dtype=np.float64), kind="stable")
    ends = np.stack([order[-k:], order[:k]])
    best, worst = cascade_rewards(mu, ends)
    return Extremes(float(best), float(worst), tuple(sorted(int(i) for i in ends[0])),
                    tuple(sorted(int(i) for i in ends[1])), float(alpha),
                    "the k largest and the k smallest means")
