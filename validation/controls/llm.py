r"""Controls of CLCB-LLM-C (Theorem 3: improved; the standard-view lemma: standard).

Each control runs :func:`offcmab.reference.clcb_llm.clcb_llm` for its counters and estimates
and changes one factor of the score :math:`\hat p(q)\,\bar c(q)` (improved) or
:math:`\bar p(q)\,\bar c(q)` (standard) of ``line:LLM_oracle``.  The cost index is
:math:`\hat c(q) + s\,\rho(q)` with the printed radius :math:`\rho`; the arrival index
:math:`\hat p(q) + s_p (\bar p(q) - \hat p(q))`.  Scores are clipped as the reference
clips them (factors at most 1, :math:`0\cdot\infty = 0`).  A cost never observed counts
as :math:`+\infty` for an upper index, :math:`-\infty` for a lower one (an infinite
radius either way) and 0 for the empirical mean (Zhu et al.'s LEC convention: nothing
observed, nothing saved).

``radius-0.5`` halves the cost radius; ``no-union-bound`` (:func:`no_union_bound`) replaces
every printed radius by a lone Hoeffding interval at :math:`\delta`.

Pessimism for a cache means *over*-estimating costs: a query whose cost is uncertain is
kept in the cache.  So ``no-pessimism`` is the empirical cost (LEC's score) and
``optimism`` the cost LCB.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from offcmab.reference.clcb_llm import CLCBLLMResult, Variant, clcb_llm, ucb_radius
from offcmab.reference.confidence import log_over_delta
from offcmab.reference.oracles import top_k
from offcmab.reference.problems.llm_cache import CacheLog


def rescored(log: CacheLog, k: int, delta: float, variant: Variant, cost_scale: float = 1.0,
             frequency_scale: float = 1.0) -> CLCBLLMResult:
    r"""CLCB-LLM-C with cost index :math:`\hat c + s\rho` and arrival index scaled likewise.

    ``cost_scale = frequency_scale = 1`` reproduces the reference's cache and scores.
    """
    ref = clcb_llm(log, k, delta, variant)
    seen = ref.cost_counts > 0
    c_index = np.full(log.m, np.sign(cost_scale) * np.inf if cost_scale else 0.0)
    radius = ucb_radius(ref.cost_counts, log.n, log.m, delta)
    c_index[seen] = ref.c_hat[seen] + cost_scale * radius[seen]
    p_index = ref.p_hat + frequency_scale * (ref.p_ucb - ref.p_hat)
    with np.errstate(invalid="ignore"):
        scores = np.where(p_index == 0, 0.0,
                          np.minimum(p_index, 1.0) * np.minimum(c_index, 1.0))
    return replace(ref, cache=top_k(scores, k), c_ucb=c_index, p_ucb=p_index, scores=scores)


def single_interval_scale(m: int, n: int, delta: float) -> float:
    r"""The factor :math:`\sqrt{\log(2/\delta)/(4\log(4mn/\delta))}` that turns the printed
    radius :math:`\sqrt{2\log(4mn/\delta)/N}` into :math:`\sqrt{\log(2/\delta)/(2N)}`, the
    radius of one two-sided Hoeffding interval at :math:`\delta`."""
    return float(np.sqrt(np.log(2.0 / delta) / (4.0 * log_over_delta((4.0, m, n), delta))))


def no_union_bound(log: CacheLog, k: int, delta: float,
                   variant: Variant = "improved") -> CLCBLLMResult:
    r"""No union bound: every UCB is a lone Hoeffding interval at the stated delta.

    The cost UCB adds :math:`\sqrt{\log(2/\delta)/(2N_c(q))}` in place of the printed
    :math:`\sqrt{2\log(4mn/\delta)/N_c(q)}` (the standard variant's arrival UCB likewise,
    with :math:`n`).  The factor :math:`2mn` inside the logarithm, which pays for the union
    over the :math:`m` queries and the :math:`n` values of a counter, is dropped, and with it
    the printed factor 2 in front (costs in [0, 1] do not need it).
    """
    scale = single_interval_scale(log.m, log.n, delta)
    return rescored(log, k, delta, variant, cost_scale=scale,
                    frequency_scale=scale if variant == "standard" else 1.0)


def _controls(variant: Variant) -> dict[str, Callable[..., CLCBLLMResult]]:
    def no_pessimism(log: CacheLog, k: int, delta: float) -> CLCBLLMResult:
        """Cost empirical mean: the score uses the mean cost instead of the cost UCB."""
        return rescored(log, k, delta, variant, cost_scale=0.0)

    def optimism(log: CacheLog, k: int, delta: float) -> CLCBLLMResult:
        """Cost LCB instead of UCB: uncertain costs count as low, so they leave the cache."""
        return rescored(log, k, delta, variant, cost_scale=-1.0)

    def radius_tenth(log: CacheLog, k: int, delta: float) -> CLCBLLMResult:
        """Radius times 0.1: the cost UCB adds a tenth of the printed radius."""
        return rescored(log, k, delta, variant, cost_scale=0.1)

    def radius_half(log: CacheLog, k: int, delta: float) -> CLCBLLMResult:
        """Radius times 0.5: the cost UCB adds half the printed radius."""
        return rescored(log, k, delta, variant, cost_scale=0.5)

    def lone_intervals(log: CacheLog, k: int, delta: float) -> CLCBLLMResult:
        """No union bound: each UCB is one Hoeffding interval at delta (:func:`no_union_bound`)."""
        return no_union_bound(log, k, delta, variant)

    def ignores_data(log: CacheLog, k: int, delta: float) -> CLCBLLMResult:
        """Ignores its data: caches the k queries with the largest ids."""
        ref = clcb_llm(log, k, delta, variant)
        return replace(ref, cache=top_k(np.arange(log.m, dtype=np.float64), k))

    controls: dict[str, Callable[..., CLCBLLMResult]] = {
        "no-pessimism": no_pessimism, "optimism": optimism, "radius-0.1": radius_tenth,
        "radius-0.5": radius_half, "no-union-bound": lone_intervals, "ignores-data": ignores_data}
    if variant == "standard":
        def frequency_lcb(log: CacheLog, k: int, delta: float) -> CLCBLLMResult:
            """Frequency LCB instead of UCB: the standard score uses p_hat minus its radius."""
            return rescored(log, k, delta, variant, frequency_scale=-1.0)

        controls["frequency-lcb"] = frequency_lcb
    return controls


IMPROVED_CONTROLS = _controls("improved")
STANDARD_CONTROLS = _controls("standard")
