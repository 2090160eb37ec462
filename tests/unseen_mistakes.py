"""CLCB variants that mistreat arms the data never show, written as a user might write them.

CLCB gives an arm with no observation the lower confidence bound :math:`-\\infty`: the data
say nothing about it, so a pessimistic learner never prefers it.  A user who avoids the
division by zero ``sum / count`` at ``count = 0`` has to put *some* value there, and the
class of mistakes here is every value that can exceed the lower confidence bound of an
optimal arm: optimism toward never-observed arms short of :math:`+\\infty`.  Each member
below computes CLCB's statistics and LCBs for the observed arms exactly, then sets the
unseen arms' LCB to one such value:

* :func:`half_prior`: a prior mean 1/2 with a radius of 0 (``np.divide(..., out=0.5)``);
* :func:`optimistic_one`: the top of the range, 1 (an unseen arm at its UCB, or an
  optimistic initial mean with no radius);
* :func:`observed_average`: the average of the observed arms' empirical means;
* :func:`best_seen_mean`: the largest empirical mean of any observed arm;
* :func:`pooled_mean`: the mean of every logged outcome, pooled over arms.

Two variants keep the guarantee, since every value they give is below every mean in [0, 1]
and Theorem 1's proof needs LCBs below the means and within the radius on the optimum's
arms only: :func:`zero_floor` (unseen arms at 0) and :func:`count_one_mean_one` (a count of 1
with mean 1: the radius at one sample, :math:`\\sqrt{\\log(4mn/\\delta)/2} > 1`, puts the
LCB below 0).  Each function has the signature of Theorem 1 (``f(dataset, oracle, delta)``)
and, as ``*_cascade``, of Corollary 1 (``f(dataset, k, delta)``).
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np

from offcmab.reference.confidence import arm_statistics, hoeffding_radius
from offcmab.reference.oracles import top_k

#: The value an unseen arm gets, from the observed arms' empirical means, the dataset and
#: the confidence radius at one sample.
Fill = Callable[[np.ndarray, Any, float], float]


def _clcb_with(fill: Fill, dataset: Any, oracle: Callable[[np.ndarray], Any], delta: float,
               rule: str = "alg1") -> SimpleNamespace:
    """CLCB's LCBs on the observed arms, ``fill(...)`` on the unseen ones, then the oracle."""
    stats = arm_statistics(dataset)
    seen = stats.counts > 0
    radius = hoeffding_radius(stats.counts, dataset.n, dataset.m, delta, rule)
    one = float(hoeffding_radius(np.ones(1, dtype=np.int64), dataset.n, dataset.m, delta,
                                 rule)[0])
    lcb = np.where(seen, stats.means - radius, 0.0)
    lcb[~seen] = fill(stats.means[seen], dataset, one)
    return SimpleNamespace(action=oracle(lcb), counts=stats.counts, lcb=lcb)


FILLS: dict[str, Fill] = {
    "half_prior": lambda means, data, one: 0.5,
    "optimistic_one": lambda means, data, one: 1.0,
    "observed_average": lambda means, data, one: float(np.mean(means)),
    "best_seen_mean": lambda means, data, one: float(np.max(means)),
    "pooled_mean": lambda means, data, one: float(np.mean(data.outcomes)),
    "zero_floor": lambda means, data, one: 0.0,
    "count_one_mean_one": lambda means, data, one: 1.0 - one,
}


def _variants(name: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``name`` with Theorem 1's signature and with Corollary 1's (top-k oracle, its radius)."""
    fill = FILLS[name]

    def general(dataset: Any, oracle: Any, delta: float) -> SimpleNamespace:
        return _clcb_with(fill, dataset, oracle, delta)

    def cascade(dataset: Any, k: int, delta: float) -> SimpleNamespace:
        return _clcb_with(fill, dataset, lambda weights: top_k(weights, k), delta, "cascade")

    general.__name__, cascade.__name__ = name, f"{name}_cascade"
    return general, cascade


half_prior, half_prior_cascade = _variants("half_prior")
optimistic_one, optimistic_one_cascade = _variants("optimistic_one")
observed_average, observed_average_cascade = _variants("observed_average")
best_seen_mean, best_seen_mean_cascade = _variants("best_seen_mean")
pooled_mean, pooled_mean_cascade = _variants("pooled_mean")
zero_floor, zero_floor_cascade = _variants("zero_floor")
count_one_mean_one, count_one_mean_one_cascade = _variants("count_one_mean_one")

#: The members of the class (each must be flagged) and the variants that keep the guarantee.
MISTAKES = ("half_prior", "optimistic_one", "observed_average", "best_seen_mean", "pooled_mean")
EQUIVALENT = ("zero_floor", "count_one_mean_one")
