r"""CUCB-LLM-S: the online streaming LLM cache, as printed, with its global top-k reference.

In round :math:`t` query :math:`q_t` arrives.  A hit costs nothing and reveals no cost;
a miss reveals :math:`C_t` and lets the learner put :math:`q_t` into the cache, evicting
at most one query, so :math:`\mathcal M_{t+1} \subseteq \mathcal M_t \cup \{q_t\}`.
After a miss the printed algorithm recomputes, for every query,

.. math::

    \underline c_t(q) = \max\Big\{\hat c_t(q) - \sqrt{\tfrac{6 \log t}{N_{c,t}(q)}},\ 0\Big\}

(0 when :math:`N_{c,t}(q) = 0`) and keeps the cache ranked by the score
:math:`\hat p_t(q) \underline c_t(q)`.  ``apdx_lem:stream_oracle`` claims the streaming
cache always maximises :math:`\sum_{q \in \mathcal M} \hat p_t(q)\underline c_t(q)` over
:math:`|\mathcal M| \le k`.

Variants (selected by name):

``"printed"``
    Exactly ``alg:CUCB-LLM_stream``.  Its radius grows with :math:`\log t`, so after a
    miss the LCB of *every* observed query moves, by different amounts; the lemma's proof
    (Case 3: ":math:`\underline c_t(q) = \underline c_{t-1}(q)` for :math:`q \ne q_t`")
    does not hold and the streaming cache can stop being a global top-k.
``"fixed-log"``
    The same with :math:`\log t` replaced by :math:`\log T` (known horizon).  Then a
    miss changes only :math:`q_t`'s LCB and the lemma's induction goes through.
``"global-topk"``
    The reference policy the lemma compares with: after each round the cache is the
    global top-k of the printed scores (not streaming-feasible; ties toward smaller ids).

Regret is accounted per round as :math:`c(\mathcal M_t) - c(\mathcal M^*)` with the true
means (``StreamRun.regret``).

References
----------
``alg:CUCB-LLM_stream`` lines ``apdx_line:if_1``, ``apdx_line:stream_proc_start``,
``apdx_line:if_3``, ``apdx_line:replace``, ``apdx_line:stream_proc_end``;
``apdx_lem:stream_oracle``; the online regret theorem of ``apdx_sec:app_LLM_cache_online``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from offcmab.reference.confidence import clip_bound
from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.errors import InputError
from offcmab.reference.oracles import top_k
from offcmab.reference.problems.llm_cache import (
    CostNoise,
    LLMCacheProblem,
    sample_costs,
    sample_queries,
)

THEORY = ("thm-llm-online",)

StreamVariant = Literal["printed", "fixed-log", "global-topk"]
VARIANTS: tuple[StreamVariant, ...] = ("printed", "fixed-log", "global-topk")

#: Relative tolerance when comparing the cache's score sum with the top-k sum.
VALUE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class StreamRun:
    r"""Trace of one run.

    Attributes
    ----------
    queries, costs
        The stream :math:`q_t` and the realised costs (used on misses only).
    hits
        :math:`1\{q_t \in \mathcal M_t\}`.
    regret
        :math:`c(\mathcal M_t) - c(\mathcal M^*)` per round (true means).
    cache_value_gap
        :math:`\max_{|\mathcal M| \le k}\sum_{\mathcal M} s_t - \sum_{\mathcal M_{t+1}} s_t
        \ge 0` with :math:`s_t = \hat p_t \underline c_t` (0 when the lemma holds).
    equals_reference
        Whether :math:`\mathcal M_{t+1}` is a maximiser of the score sum (value within
        ``VALUE_TOLERANCE``), i.e. ``apdx_lem:stream_oracle`` holds in round ``t``.
    same_set_as_topk
        Whether :math:`\mathcal M_{t+1}` equals, as a set, the positive-score part of
        ``top_k(s_t, k)`` padded by the cache's own zero-score queries (ties explicit:
        equal only when no tie decides membership).
    final_cache
        :math:`\mathcal M_{T+1}`.
    caches
        :math:`1\{q \in \mathcal M_t\}`, shape ``(T, m)``: the cache held in each round.
    lcbs
        :math:`\underline c_t(q)` in force at the end of round ``t``, shape ``(T, m)``: the
        LCBs the cache was ranked by (recomputed after each miss, kept after a hit).
    """

    queries: IntArray
    costs: FloatArray
    hits: npt.NDArray[np.bool_]
    regret: FloatArray
    cache_value_gap: FloatArray
    equals_reference: npt.NDArray[np.bool_]
    same_set_as_topk: npt.NDArray[np.bool_]
    final_cache: IntArray
    caches: npt.NDArray[np.bool_] | None = None
    lcbs: FloatArray | None = None

    @property
    def cumulative_regret(self) -> FloatArray:
        """Running sum of ``regret``."""
        return np.cumsum(self.regret)

    @property
    def first_violation(self) -> int | None:
        """1-based round of the first failure of ``apdx_lem:stream_oracle`` (None if none)."""
        bad = np.flatnonzero(~self.equals_reference)
        return int(bad[0]) + 1 if bad.size else None


def _lcb(c_hat: FloatArray, cost_counts: IntArray, log_term: float,
         scale: float = 1.0) -> FloatArray:
    r""":math:`\max\{\hat c - s\sqrt{6\,\mathrm{log\_term}/N_c}, 0\}`, 0 where :math:`N_c = 0`.

    ``scale`` :math:`s` is 1 in the printed algorithm (other values: negative controls).
    """
    lcb = np.zeros(c_hat.size)
    seen = cost_counts > 0
    radius = np.sqrt(6.0 * log_term / cost_counts[seen])
    lcb[seen] = clip_bound(c_hat[seen] - scale * radius, low=0.0)
    return lcb


def _topk_value(scores: FloatArray, k: int) -> float:
    r""":math:`\max_{|\mathcal M| \le k} \sum_{\mathcal M} s` for :math:`s \ge 0`."""
    return float(np.sum(np.sort(scores)[::-1][:k]))


def cucb_llm_stream(
    problem: LLMCacheProblem,
    T: int,
    rng: np.random.Generator,
    variant: StreamVariant = "printed",
    noise: CostNoise = "bernoulli",
    queries: npt.ArrayLike | None = None,
    costs: npt.ArrayLike | None = None,
    diagnostics: bool = True,
    radius_scale: float = 1.0,
) -> StreamRun:
    r"""Run CUCB-LLM-S for ``T`` rounds (a Python loop over rounds: the algorithm is online).

    ``queries`` and ``costs`` (length ``T``) fix the stream; otherwise queries are drawn
    from ``problem.p`` and costs by ``noise`` with ``rng``.  ``diagnostics=False`` skips the
    per-round comparison with the global top-k (``cache_value_gap`` is then NaN and
    ``equals_reference``, ``same_set_as_topk`` False); the caches are the same.
    ``radius_scale`` multiplies the LCB's radius (1 as printed; the negative controls of
    :mod:`offcmab.validation.controls` pass 0, 0.1, -1 or a huge value).
    """
    if variant not in VARIANTS:
        raise InputError("variant", f"must be one of {', '.join(VARIANTS)}, got {variant!r}")
    if isinstance(T, bool) or int(T) != T or T < 1:
        raise InputError("T", f"must be a positive integer, got {T!r}")
    m, k = problem.m, problem.k
    q_stream = sample_queries(problem.p, T, rng) if queries is None \
        else np.asarray(queries, dtype=np.int64)
    c_stream = sample_costs(problem.c[q_stream], rng, noise) if costs is None \
        else np.asarray(costs, dtype=np.float64)
    if q_stream.shape != (T,) or c_stream.shape != (T,):
        raise InputError("queries", f"queries and costs must have length T={T}")
    if q_stream.min() < 0 or q_stream.max() >= m:
        raise InputError("queries", f"ids must lie in [0, {m})")
    weights = problem.p * problem.c
    best_saving = float(np.sum(weights[problem.optimal_cache()]))
    # Initialize: N_c = 0, c_hat = 0, LCB = 0, p_hat = 0, M_1 = {} .
    arrivals = np.zeros(m, dtype=np.int64)
    cost_counts = np.zeros(m, dtype=np.int64)
    c_hat = np.zeros(m)
    lcb = np.zeros(m)
    in_cache = np.zeros(m, dtype=bool)
    hits = np.zeros(T, dtype=bool)
    regret = np.zeros(T)
    value_gap = np.zeros(T) if diagnostics else np.full(T, np.nan)
    equal = np.zeros(T, dtype=bool)
    same_set = np.zeros(T, dtype=bool)
    held = np.zeros((T, m), dtype=bool)
    lcb_trace = np.zeros((T, m))
    fixed_log = float(np.log(T))
    for t in range(1, T + 1):
        q = int(q_stream[t - 1])
        regret[t - 1] = best_saving - float(np.sum(weights[in_cache]))
        held[t - 1] = in_cache
        arrivals[q] += 1  # p_hat_t = arrivals / t (both branches)
        if in_cache[q]:  # apdx_line:if_1 -- a hit: no cost feedback, cache kept
            hits[t - 1] = True
        else:  # a miss: observe C_t, update N_c and c_hat of q_t
            cost_counts[q] += 1
            c_hat[q] += (c_stream[t - 1] - c_hat[q]) / cost_counts[q]
            lcb = _lcb(c_hat, cost_counts, fixed_log if variant == "fixed-log" else np.log(t),
                       radius_scale)
            scores = arrivals / t * lcb
            if variant == "global-topk":
                in_cache[:] = False
                in_cache[top_k(scores, k)] = True
            elif in_cache.sum() < k:  # apdx_line:stream_proc_start
                in_cache[q] = True
            else:
                cached = np.flatnonzero(in_cache)
                q_min = int(cached[np.argmin(scores[cached])])  # ties: smaller id
                if scores[q_min] <= scores[q]:  # apdx_line:if_3
                    in_cache[q_min] = False  # apdx_line:replace
                    in_cache[q] = True
            # apdx_line:stream_proc_end
        lcb_trace[t - 1] = lcb
        if not diagnostics:
            continue
        scores = arrivals / t * lcb
        best = _topk_value(scores, k)
        value_gap[t - 1] = best - float(np.sum(scores[in_cache]))
        equal[t - 1] = value_gap[t - 1] <= VALUE_TOLERANCE * max(best, 1e-300)
        same_set[t - 1] = _same_set(scores, in_cache, k)
    return StreamRun(q_stream, c_stream, hits, regret, value_gap, equal, same_set,
                     np.flatnonzero(in_cache).astype(np.int64), held, lcb_trace)


def _same_set(scores: FloatArray, in_cache: npt.NDArray[np.bool_], k: int) -> bool:
    r"""The cache holds exactly the queries of positive score that every top-k must hold.

    A query whose score is strictly above the k-th largest must be cached; one strictly
    below must not be (unless its score is 0, where caching it is harmless but useless).
    Queries tied with the k-th largest may go either way.
    """
    kth = np.sort(scores)[::-1][k - 1]
    must = scores > kth
    must_not = (scores < kth) & (scores > 0)
    return bool(np.all(in_cache[must]) and not np.any(in_cache[must_not]))


def stream_oracle_holds(run: StreamRun) -> npt.NDArray[np.bool_]:
    r"""Per round, whether ``apdx_lem:stream_oracle`` holds (the cache is a score maximiser)."""
    return run.equals_reference
