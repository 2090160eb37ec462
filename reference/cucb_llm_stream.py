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

The learner is :class:`StreamingCache`, an object fed one round at a time (``cache()``, then
``observe(query, cost_or_None)``, the cost only on a miss), so it cannot see the future;
:func:`cucb_llm_stream` is the runner that draws or takes a stream, feeds it round by round
and records the trace.

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
from offcmab.reference.errors import InputError, check_cardinality
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


def printed_lcb(c_hat: FloatArray, cost_counts: IntArray, log_term: float,
         scale: float = 1.0) -> FloatArray:
    r""":math:`\max\{\hat c - s\sqrt{6\,\mathrm{log\_term}/N_c}, 0\}`, 0 where :math:`N_c = 0`.

    ``scale`` :math:`s` is 1 in the printed algorithm (other values: negative controls).
    """
    seen = cost_counts > 0
    radius = np.sqrt(6.0 * log_term / np.maximum(cost_counts, 1))  # unseen: replaced by 0
    return np.where(seen, clip_bound(c_hat - scale * radius, low=0.0), 0.0)


def _topk_value(scores: FloatArray, k: int) -> float:
    r""":math:`\max_{|\mathcal M| \le k} \sum_{\mathcal M} s` for :math:`s \ge 0`."""
    return float(np.sum(np.sort(scores)[::-1][:k]))


class StreamingCache:
    r"""The CUCB-LLM-S learner, fed one round at a time: :meth:`cache`, then :meth:`observe`.

    It holds :math:`N(q)` (arrivals), :math:`N_{c}(q)`, :math:`\hat c(q)`, the LCBs
    :math:`\underline c(q)` and the cache :math:`\mathcal M_t`.  In round ``t`` the caller
    reads :math:`\mathcal M_t` from :meth:`cache`, then reports the query with
    :meth:`observe`: with its cost on a miss, ``None`` on a hit (a hit reveals nothing).  The
    learner never sees a later round before it has chosen the cache for it.

    Parameters
    ----------
    m, k
        Number of distinct queries and cache size, :math:`1 \le k \le m`.
    variant
        ``"printed"``, ``"fixed-log"`` or ``"global-topk"`` (module docstring).
    T
        The horizon, needed by ``"fixed-log"`` only (its radius uses :math:`\log T`).
    radius_scale
        Multiplies the LCB's radius (1 as printed; other values: negative controls).
    """

    def __init__(self, m: int, k: int, variant: StreamVariant = "printed",
                 T: int | None = None, radius_scale: float = 1.0) -> None:
        if variant not in VARIANTS:
            raise InputError("variant", f"must be one of {', '.join(VARIANTS)}, got {variant!r}")
        if T is not None and (isinstance(T, bool) or int(T) != T or T < 1):
            raise InputError("T", f"must be a positive integer, got {T!r}")
        if variant == "fixed-log" and T is None:
            raise InputError("T", "the fixed-log variant needs the horizon T")
        self.m, self.k = m, check_cardinality(k, m)
        self.variant: StreamVariant = variant
        self.radius_scale = radius_scale
        self.rounds = 0
        self._fixed_log = float(np.log(T)) if T is not None else np.nan
        # Initialize: N_c = 0, c_hat = 0, LCB = 0, p_hat = 0, M_1 = {} .
        self.arrivals = np.zeros(m, dtype=np.int64)
        self.cost_counts = np.zeros(m, dtype=np.int64)
        self.c_hat = np.zeros(m)
        self.lcb = np.zeros(m)
        self._in_cache = np.zeros(m, dtype=bool)

    def cache(self) -> npt.NDArray[np.bool_]:
        r""":math:`\mathcal M_t` as a boolean mask over the queries (a copy)."""
        return self._in_cache.copy()

    def scores(self) -> FloatArray:
        r""":math:`\hat p_t(q)\,\underline c_t(q)` after round ``t`` (0 before round 1)."""
        if self.rounds == 0:  # Initialize: p_hat = 0
            return np.zeros(self.m)
        return self.arrivals / self.rounds * self.lcb

    def cost_lcbs(self, log_t: float) -> FloatArray:
        r""":math:`\underline c_t(q) = \max\{\hat c_t(q) - \sqrt{6\,\mathrm{log\_t}/N_{c,t}(q)},
        0\}` for every query (0 while :math:`N_{c,t}(q) = 0`), the radius times
        ``radius_scale``."""
        return printed_lcb(self.c_hat, self.cost_counts, log_t, self.radius_scale)

    def observe(self, query: int, cost: float | None) -> None:
        r"""Round :math:`t`: :math:`q_t` arrives; ``cost`` is :math:`C_t` on a miss, else ``None``.

        References
        ----------
        ``alg:CUCB-LLM_stream`` lines ``apdx_line:if_1`` to ``apdx_line:stream_proc_end``.
        """
        q = int(query)
        if not 0 <= q < self.m:
            raise InputError("query", f"ids must lie in [0, {self.m})")
        if (cost is None) != bool(self._in_cache[q]):
            raise InputError("cost", "must be given on a miss and only on a miss")
        self.rounds += 1
        t = self.rounds
        self.arrivals[q] += 1  # p_hat_t = arrivals / t (both branches)
        if cost is None:  # apdx_line:if_1 -- a hit: no cost feedback, cache kept
            return
        # a miss: observe C_t, update N_c and c_hat of q_t
        self.cost_counts[q] += 1
        self.c_hat[q] += (cost - self.c_hat[q]) / self.cost_counts[q]
        log_t = self._fixed_log if self.variant == "fixed-log" else np.log(t)
        self.lcb = self.cost_lcbs(log_t)
        scores = self.scores()
        in_cache = self._in_cache.copy()  # becomes M_{t+1}
        if self.variant == "global-topk":
            in_cache[:] = False
            in_cache[top_k(scores, self.k)] = True
        elif np.count_nonzero(in_cache) < self.k:  # apdx_line:stream_proc_start
            in_cache[q] = True
        else:
            cached = np.flatnonzero(in_cache)
            q_min = int(cached[np.argmin(scores[cached])])  # ties: smaller id
            if scores[q_min] <= scores[q]:  # apdx_line:if_3
                in_cache[q_min] = False  # apdx_line:replace
                in_cache[q] = True
        self._in_cache = in_cache  # apdx_line:stream_proc_end


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
    r"""Run CUCB-LLM-S for ``T`` rounds: a :class:`StreamingCache` fed one round at a time.

    ``queries`` and ``costs`` (length ``T``) fix the stream; otherwise queries are drawn
    from ``problem.p`` and costs by ``noise`` with ``rng``.  ``diagnostics=False`` skips the
    per-round comparison with the global top-k (``cache_value_gap`` is then NaN and
    ``equals_reference``, ``same_set_as_topk`` False); the caches are the same.
    ``radius_scale`` multiplies the LCB's radius (1 as printed; the negative controls of
    :mod:`offcmab.validation.controls` pass 0, 0.1, -1 or a huge value).
    """
    learner = StreamingCache(problem.m, problem.k, variant, T, radius_scale)
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
    hits = np.zeros(T, dtype=bool)
    regret = np.zeros(T)
    value_gap = np.zeros(T) if diagnostics else np.full(T, np.nan)
    equal = np.zeros(T, dtype=bool)
    same_set = np.zeros(T, dtype=bool)
    held = np.zeros((T, m), dtype=bool)
    lcb_trace = np.zeros((T, m))
    for t in range(T):
        q = int(q_stream[t])
        in_cache = learner.cache()
        regret[t] = best_saving - float(np.sum(weights[in_cache]))
        held[t] = in_cache
        hits[t] = in_cache[q]
        learner.observe(q, None if hits[t] else c_stream[t])  # a hit reveals no cost
        lcb_trace[t] = learner.lcb
        if not diagnostics:
            continue
        scores = learner.scores()
        in_cache = learner.cache()
        best = _topk_value(scores, k)
        value_gap[t] = best - float(np.sum(scores[in_cache]))
        equal[t] = value_gap[t] <= VALUE_TOLERANCE * max(best, 1e-300)
        same_set[t] = _same_set(scores, in_cache, k)
    return StreamRun(q_stream, c_stream, hits, regret, value_gap, equal, same_set,
                     np.flatnonzero(learner.cache()).astype(np.int64), held, lcb_trace)


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
