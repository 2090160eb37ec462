r"""Events of the LLM cache proofs: offline costs and arrival frequencies, the online stream.

Every radius and failure probability below is the proof's, taken from
:mod:`offcmab.bounds.events` at the row's sizes (:mod:`offcmab.validation.events.proof`);
:math:`\rho_E` is an event's radius and :math:`r` the printed UCB radius
(:func:`offcmab.reference.clcb_llm.ucb_radius`), which is at least :math:`\rho_E` in both
variants, so on the event :math:`c \le \bar c \le c + \rho_E + r`.

Offline, the standard-view lemma (Algorithm ``alg:CLCB-LLM_std``)
    Theorem 1 applied with :math:`2m` base arms (the costs, observed :math:`N_c(q)`
    times, and the arrival probabilities, observed :math:`n` times): one event
    :math:`\mathcal E_{\text{arm}}` over the :math:`2m` arms (Hoeffding and a union bound;
    costs and indicators lie in [0, 1]).  The cost row checks its half over the costs,
    the frequency row its half over the arrival probabilities, each promising its half's
    failure probability.
Offline, Theorem 3 (Algorithm ``alg:CLCB-LLM``)
    The cost event over the :math:`m` costs, and :math:`\mathcal E_{\text{arv}}`, an
    :math:`\ell_1` bound on :math:`\hat p - p` (``apdx_lem:vec_concen``), each at its
    share of :math:`\delta`.
Online, the regret bound (Algorithm ``alg:CUCB-LLM_stream``)
    ``apdx_lem:stream_oracle``: in every round the streaming cache maximises
    :math:`\sum_{\mathcal M}\hat p_t\underline c_t` over :math:`|\mathcal M| \le k`, the
    step (b) "oracle gap :math:`\le 0`" of the regret proof.  A deterministic claim
    (promised failure 0).  It is false for the printed radius :math:`\sqrt{6\log t/N}`
    (erratum ``apdx_lem:stream_oracle``) and holds with a radius fixed between two
    feedbacks (the ``fixed-log`` variant, the erratum's correction).  The cost event
    :math:`|\hat c_t(q) - c(q)| \le r_E` for every :math:`q` and :math:`t`, with
    :math:`r_E` the radius of the proof's cost event; on it the LCBs the printed
    algorithm computes satisfy steps (c) and (f) in the corrected form of
    :func:`online_lcb_fails` (``event-online-lcb``, read from the result's ``lcbs``).

The rows read :math:`\hat p`, :math:`\hat c`, :math:`\bar p`, :math:`\bar c` and the
counters from the algorithm's result.  Costs must be bounded in [0, 1] (Bernoulli or
uniform noise) for Hoeffding's inequality.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from offcmab.bounds import symbols
from offcmab.bounds.theorems.llm import LEM_LLM_STD, THM3_LLM, THM_LLM_ONLINE
from offcmab.reference.clcb_llm import ucb_radius
from offcmab.reference.cucb_llm_stream import VALUE_TOLERANCE, StreamingCache
from offcmab.reference.problems.llm_cache import sample_log
from offcmab.validation.events import proof
from offcmab.validation.events import subject as substitute
from offcmab.validation.events.core import run_case
from offcmab.validation.parts.event_case import EventCase, KnownRate
from offcmab.validation.scenarios import llm_instances
from offcmab.validation.scenarios.llm_instances import (
    small_ood,
    wide_cache,
    wide_stream,
    zipf_random,
)
from offcmab.validation.scenarios.llm_online import OnlineRun, draw_stream, feed, printed_cache

#: A cache algorithm under test: (log, k, delta) -> its result (fields of
#: :class:`offcmab.reference.clcb_llm.CLCBLLMResult`: counts, cost_counts, p_hat, c_hat, c_ucb,
#: p_ucb).
CacheAlgorithm = Callable[[Any, int, float], Any]

#: Relative allowance for float rounding at the edges of an interval.
ROUNDING = 1e-12


def _within(value: np.ndarray, low: np.ndarray, high: np.ndarray) -> bool:
    slack = ROUNDING * (1.0 + np.abs(high))
    return bool(np.all((value >= low - slack) & (value <= high + slack)))


#: The bound id of each offline variant; its proof's events give the rows their radii and
#: failure probabilities (:mod:`offcmab.validation.events.proof`).
OFFLINE_BOUND = {"standard": LEM_LLM_STD.id, "improved": THM3_LLM.id}

#: The name of the Hoeffding event over the costs in each variant's proof.
COST_EVENT = {"standard": "arm", "improved": "cost"}


def cost_event_fails(result: Any, c: np.ndarray, n: int, delta: float,
                     log_term: float) -> bool:
    r"""On observed costs: :math:`|\hat c - c| \le \rho_E` and
    :math:`c \le \bar c \le c + \rho_E + r`, with :math:`\rho_E = \sqrt{L/(2N_c)}` for
    ``log_term`` :math:`L` and :math:`r` the printed radius
    (:func:`offcmab.reference.clcb_llm.ucb_radius`)."""
    seen = np.asarray(result.cost_counts) > 0
    counts = np.asarray(result.cost_counts)[seen]
    rho = proof.radius(log_term, counts)
    printed = ucb_radius(counts, n, c.size, delta)
    c_seen = c[seen]
    c_hat = np.asarray(result.c_hat, dtype=float)[seen]
    c_ucb = np.asarray(result.c_ucb, dtype=float)[seen]
    return not (_within(c_hat, c_seen - rho, c_seen + rho)
                and _within(c_ucb, c_seen, c_seen + rho + printed))


def frequency_event_fails(result: Any, p: np.ndarray, n: int, delta: float,
                          log_term: float) -> bool:
    r"""Standard variant: :math:`|\hat p - p| \le \rho_E(n)` and
    :math:`p \le \bar p \le p + \rho_E(n) + r(n)`, :math:`\rho_E(n) = \sqrt{L/(2n)}`."""
    rho = float(proof.radius(log_term, np.array([n]))[0])
    printed = float(ucb_radius(np.array([n]), n, p.size, delta)[0])
    p_hat = np.asarray(result.p_hat, dtype=float)
    p_ucb = np.asarray(result.p_ucb, dtype=float)
    return not (_within(p_hat, p - rho, p + rho) and _within(p_ucb, p, p + rho + printed))


def arrival_event_fails(result: Any, p: np.ndarray, threshold: float) -> bool:
    r"""Improved variant (:math:`\mathcal E_{\text{arv}}`):
    :math:`\|\hat p - p\|_1 > \text{threshold}`."""
    p_hat = np.asarray(result.p_hat, dtype=float)
    return float(np.abs(p_hat - p).sum()) > threshold * (1.0 + ROUNDING)


def cache_case(event_id: str, variant: str, which: str, instance: str,
               params: dict[str, Any], n: int, delta: float,
               run: CacheAlgorithm) -> EventCase:
    r"""One offline cache event row (``which`` is ``cost`` or ``frequency``) of the subject
    ``run`` (:func:`offcmab.validation.events.subject.cache_algorithm`).

    The standard variant's proof runs one event over :math:`2m` base arms (costs and arrival
    indicators); each row checks the half over its :math:`m` arms and promises that half's
    failure probability.  The improved variant's cost row checks the cost event, its
    frequency row the event :math:`\mathcal E_{\text{arv}}`.
    """
    setup = llm_instances.build(params)
    problem = setup.problem
    p, c = np.asarray(problem.p, dtype=float), np.asarray(problem.c, dtype=float)
    bound_id, sizes = OFFLINE_BOUND[variant], {"m": c.size, "n": n}
    arrival = variant == "improved" and which == "frequency"
    name = "arv" if arrival else COST_EVENT[variant]
    half = symbols.m if variant == "standard" else None
    level = proof.threshold(bound_id, name, sizes, delta) if arrival else \
        proof.log_term(bound_id, name, sizes, delta)

    def draw(rng: np.random.Generator) -> bool:
        log = sample_log(problem, setup.law, n, rng, params["noise"])
        result = run(log, problem.k, delta)
        if which == "cost":
            return cost_event_fails(result, c, n, delta, level)
        if arrival:
            return arrival_event_fails(result, p, level)
        return frequency_event_fails(result, p, n, delta, level)

    count = "N_c" if which == "cost" else "n"
    radius = "" if arrival else f", rho_E = {proof.radius_text(bound_id, name, count)}"
    statements = {
        "cost": "|c_hat - c| <= rho_E and c <= c_ucb <= c + rho_E + r",
        "frequency": "|p_hat - p| <= rho_E and p <= p_ucb <= p + rho_E + r",
    }
    statement = (f"||p_hat - p||_1 <= {proof.threshold_text(bound_id, name)} (E_arv)"
                 if arrival else
                 f"{statements[which]}{radius}, r the printed radius"
                 + (" (the event over 2m arms, its half over m)" if half is not None else ""))
    lemma = ("apdx_lem:arm_concen (via thm:upper_bound, 2m arms)" if variant == "standard"
             else "apdx_lem:vec_concen" if arrival else "apdx_lem:arm_concen")
    return EventCase(event_id, (bound_id,), "offcmab.reference.clcb_llm", lemma, statement,
                     instance, n, delta, proof.failure(bound_id, name, sizes, delta, half),
                     draw)


#: Arrivals of the ``cache-wide`` cost rows (each of the 800 costs observed ~25 times).
WIDE_CACHE_N = 20000
#: Trials of the ``cache-wide`` cost rows in every profile: a cost radius half as wide as the
#: event's breaks the event in about one dataset of eight, which forty trials at a row's
#: share of the budget do not always show.
WIDE_CACHE_TRIALS = 100


def offline_cases(profile: str, variant: str, function: Callable[..., Any],
                  spec: str) -> list[EventCase]:
    """The cost and frequency rows of CLCB-LLM-C's ``variant`` (``standard`` or ``improved``).

    ``function`` is the algorithm in CLCB-LLM-C's place, ``f(log, k, delta)`` (the reference
    with its variant bound in a reference run); its result must expose the reference's
    statistics, or the rows are n/a; ``spec`` names it in messages.
    The ``cache-wide`` cost row (:func:`~offcmab.validation.scenarios.llm_instances.wide_cache`:
    800 queries, costs near 1/2, :data:`WIDE_CACHE_N` arrivals) tests the event over all
    costs at once where a cost UCB narrower than the event's radius shows.
    """
    method = substitute.cache_algorithm(function, spec)
    instances = [("ood-small", small_ood())]
    if profile != "quick":
        instances.append(("zipf-random", zipf_random()))
    return [*(cache_case(f"event-llm-{which}-{variant}", variant, which, name, params, 2000,
                         0.05, method)
              for name, params in instances for which in ("cost", "frequency")),
            replace(cache_case(f"event-llm-cost-{variant}", variant, "cost", "cache-wide",
                               wide_cache(), WIDE_CACHE_N, 0.05, method),
                    trials=WIDE_CACHE_TRIALS)]


#: How rows name the printed learner, the online bound's reference (``module:function``).
PRINTED = f"{printed_cache.__module__}:{printed_cache.__qualname__}"


#: The instance of erratum ``apdx_lem:stream_oracle``'s evidence (its seed 24) on which the
#: printed streaming cache most often stops being a top-k: m = 4, k = 1.
STREAM_INSTANCE = {"p": [0.0433, 0.152, 0.4249, 0.3798], "c": [0.6993, 0.9117, 0.3612, 0.8205],
                   "k": 1, "noise": "bernoulli", "law": {"kind": "empty"}}


#: The instance of the online LCB row: one costly query (c = 0.95) that a learner caches
#: once it has seen it often, and three half-cost queries whose running means wander:
#: their frequent misses give a too-narrow LCB many chances to rise above c, and the costly
#: query's many feedbacks expose an LCB that stays far below c.
STREAM_LCB_INSTANCE = {"p": [0.4, 0.2, 0.2, 0.2], "c": [0.95, 0.5, 0.5, 0.5], "k": 1,
                       "noise": "bernoulli", "law": {"kind": "empty"}}

#: Rounds of the LCB row on :func:`~offcmab.validation.scenarios.llm_instances.wide_stream`
#: (50 queries, costs near 1/2): every query's LCB is checked after each of its ~30 misses,
#: so a radius that lets each check miss with probability ~1e-3 breaks the row's event often.
WIDE_HORIZON = 1500

#: Rounds of the streaming-lemma rows and of the printed-radius row.
ORACLE_HORIZON, RADIUS_HORIZON = 600, 300

#: Run seed at which the printed algorithm's rates below were measured (:func:`measured`).
MEASURE_SEED = 20250

#: ``event-stream-oracle-printed`` on the printed learner (:func:`printed_cache`):
#: ``measured(stream_oracle_case(), 1000)`` at :data:`MEASURE_SEED`.
STREAM_ORACLE_RATE = KnownRate(407, 1000, MEASURE_SEED)

#: ``event-online-lcb-printed`` on the printed learner:
#: ``measured(printed_radius_case(), 1000)`` at :data:`MEASURE_SEED`.
PRINTED_RADIUS_RATE = KnownRate(1000, 1000, MEASURE_SEED)


def measured(case: EventCase, trials: int) -> int:
    """Failures of ``case`` in ``trials`` trials at :data:`MEASURE_SEED` (how the stored
    rates were measured, on the reference learner)."""
    return run_case(replace(case, trials=trials), trials, MEASURE_SEED).failures


def _trace(problem: Any, factory: Callable[..., Any], horizon: int, delta: float,
           noise: Any, rng: np.random.Generator, name: str
           ) -> tuple[np.ndarray, np.ndarray, OnlineRun]:
    """A fresh stream of ``horizon`` rounds and the run of ``factory``'s learner on it."""
    queries, costs = draw_stream(problem, horizon, rng, noise)
    run = feed(factory(problem.m, problem.k, delta), queries, costs, problem.m, problem.k,
               name)
    return queries, costs, run


def _printed_lcbs(queries: np.ndarray, costs: np.ndarray, hits: np.ndarray,
                  m: int) -> np.ndarray:
    r"""The printed LCBs in force after every round, rebuilt from the trace: shape
    ``(T, m)``, no loop.

    After the miss of round :math:`s` the printed algorithm sets
    :math:`\underline c_s(q) = \max\{\hat c_s(q) - \sqrt{6\log s/N_{c,s}(q)}, 0\}` (0 while
    :math:`N_{c,s}(q) = 0`) and keeps it through the hits that follow; :math:`\hat c` and
    :math:`N_c` change on misses only, so after round :math:`t` the LCB is that formula at
    the last miss :math:`s \le t`.
    """
    T = queries.size
    observed = np.zeros((T, m))
    missed = np.flatnonzero(~hits)
    observed[missed, queries[missed]] = 1.0
    counts = np.cumsum(observed, axis=0)
    safe = np.where(counts > 0, counts, 1.0)
    sums = np.cumsum(observed * costs[:, None], axis=0)
    last_miss = np.maximum.accumulate(np.where(hits, 1, np.arange(1, T + 1)))[:, None]
    lcb = np.maximum(sums / safe - np.sqrt(6.0 * np.log(last_miss) / safe), 0.0)
    return np.where(counts > 0, lcb, 0.0)


def cache_not_topk(queries: np.ndarray, run: OnlineRun, lcb: np.ndarray, k: int) -> bool:
    r"""Whether some round ends with a cache that is not a top-k of the scores.

    ``apdx_lem:stream_oracle`` for the cache :math:`\mathcal M_{t+1}` held after round
    :math:`t`: :math:`\sum_{\mathcal M_{t+1}} s_t \ge \max_{|\mathcal M| \le k}
    \sum_{\mathcal M} s_t`, :math:`s_t = \hat p_t\,\underline c_t` with ``lcb[t]`` the LCBs
    after round ``t`` (0-based), within a relative ``VALUE_TOLERANCE`` (the reference's).
    """
    m = run.caches.shape[1]
    arrivals = np.cumsum(np.eye(m)[queries], axis=0)
    scores = arrivals / np.arange(1, queries.size + 1)[:, None] * lcb
    best = -np.sort(-scores, axis=1)[:, :k].sum(axis=1)
    after = np.vstack([run.caches[1:], run.final[None, :]])
    held = np.where(after, scores, 0.0).sum(axis=1)
    return bool(np.any(best - held > VALUE_TOLERANCE * np.maximum(best, 1e-300)))


def stream_oracle_fails(queries: np.ndarray, costs: np.ndarray, run: OnlineRun,
                        k: int) -> bool:
    """The printed lemma on a run: :func:`cache_not_topk` with the printed LCBs rebuilt
    from the run's own trace (:func:`_printed_lcbs`), whatever LCBs the learner used."""
    return cache_not_topk(queries, run, _printed_lcbs(queries, costs, run.hits,
                                                      run.caches.shape[1]), k)


def stream_oracle_case(event_id: str = "event-stream-oracle-printed",
                       factory: Callable[..., Any] = printed_cache,
                       name: str = PRINTED, trials: int = 0) -> EventCase:
    r"""``apdx_lem:stream_oracle`` as printed, on ``factory``'s learner: a known failure.

    Each trial feeds the learner a fresh stream of :data:`ORACLE_HORIZON` rounds on
    :data:`STREAM_INSTANCE` and fails when some round ends with a cache that is not a
    top-k of the printed scores (:func:`stream_oracle_fails`).  The printed algorithm
    breaks it at the rate :data:`STREAM_ORACLE_RATE`; a learner breaking it significantly
    more often fails the row.
    """
    problem = llm_instances.build(STREAM_INSTANCE).problem

    def draw(rng: np.random.Generator) -> bool:
        queries, costs, run = _trace(problem, factory, ORACLE_HORIZON, 0.05, "bernoulli",
                                     rng, name)
        return stream_oracle_fails(queries, costs, run, problem.k)

    return EventCase(event_id, (), name, "apdx_lem:stream_oracle",
                     "every round's cache maximises sum p_hat_t lcb_t over |M| <= k, lcb_t "
                     "with the printed radius sqrt(6 log t/N_c)", "stream-erratum",
                     ORACLE_HORIZON, 0.05, 0.0, draw, "apdx_lem:stream_oracle", trials,
                     STREAM_ORACLE_RATE)


def corrected_oracle_case(trials: int) -> EventCase:
    r"""``apdx_lem:stream_oracle`` for the ``fixed-log`` variant: the erratum's correction.

    The erratum does not weaken the lemma's statement for the printed algorithm (no weaker
    top-k property holds for a radius that moves with :math:`t`); it changes the
    algorithm: a radius fixed between two feedbacks of a query (:math:`\log T` for a known
    horizon) makes Case 3 of the proof valid.  So this row checks the lemma as printed on
    that other algorithm, :class:`~offcmab.reference.cucb_llm_stream.StreamingCache` with
    ``variant="fixed-log"``, and says so in its algorithm and statement; the printed
    algorithm, the one the online bound covers, is checked by
    ``event-stream-oracle-printed``.  A deterministic claim (promised failure 0).
    """
    problem = llm_instances.build(STREAM_INSTANCE).problem

    def fixed_log(m: int, k: int, delta: float) -> StreamingCache:
        return StreamingCache(m, k, "fixed-log", T=ORACLE_HORIZON)

    def draw(rng: np.random.Generator) -> bool:
        queries, _costs, run = _trace(problem, fixed_log, ORACLE_HORIZON, 0.05, "bernoulli",
                                      rng, "fixed-log")
        return cache_not_topk(queries, run, np.asarray(run.lcbs), problem.k)

    return EventCase("event-stream-oracle", (),
                     "offcmab.reference.cucb_llm_stream.StreamingCache(variant='fixed-log'), "
                     "the erratum's corrected algorithm (not the printed one)",
                     "apdx_lem:stream_oracle (corrected algorithm)",
                     "fixed-log variant: every round's cache maximises sum p_hat_t lcb_t over "
                     "|M| <= k, lcb_t with the radius sqrt(6 log T/N_c)", "stream-erratum",
                     ORACLE_HORIZON, 0.05, 0.0, draw, "", trials, subject_free=True)


def online_log_term(m: int, T: int, delta: float) -> float:
    r""":math:`L` of the online proof's cost event radius :math:`r_E = \sqrt{L/(2N)}`."""
    return proof.log_term(THM_LLM_ONLINE.id, "cost", {"m": m, "T": T}, delta)


def online_failure(m: int, T: int, delta: float) -> float:
    """The failure probability of the online proof's cost event."""
    return proof.failure(THM_LLM_ONLINE.id, "cost", {"m": m, "T": T}, delta)


#: The online proof's cost event radius, as the rows state it.
R_E = proof.radius_text(THM_LLM_ONLINE.id, "cost", "N_c,t(q)")


def online_cost_event_fails(queries: np.ndarray, costs: np.ndarray, hits: np.ndarray,
                            c: np.ndarray, delta: float) -> bool:
    r"""Whether :math:`|\hat c_t(q) - c(q)| > r_E` (:func:`online_log_term`) for some
    :math:`q, t` (every running mean after each miss, grouped by query, no loop)."""
    T, m = queries.size, c.size
    missed = np.flatnonzero(~hits)
    order = missed[np.argsort(queries[missed], kind="stable")]
    q_sorted = queries[order]
    starts = np.r_[0, np.flatnonzero(np.diff(q_sorted)) + 1]
    group = np.repeat(starts, np.diff(np.r_[starts, q_sorted.size]))
    position = np.arange(q_sorted.size) - group + 1
    totals = np.cumsum(costs[order])
    before = np.where(group > 0, totals[np.maximum(group - 1, 0)], 0.0)
    means = (totals - before) / position
    radius = proof.radius(online_log_term(m, T, delta), position)
    return bool(np.any(np.abs(means - c[q_sorted]) > radius * (1.0 + ROUNDING)))


def _miss_counts(queries: np.ndarray, hits: np.ndarray,
                 m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The miss rounds (0-based), the cost counts after each miss (one row per miss) and
    those counts with 1 where a query is unobserved (safe to divide by)."""
    missed = np.flatnonzero(~hits)
    observed = np.zeros((queries.size, m))
    observed[missed, queries[missed]] = 1.0
    counts = np.cumsum(observed, axis=0)[missed]
    return missed, counts, np.where(counts > 0, counts, 1.0)


def printed_lcb_sandwich_fails(queries: np.ndarray, costs: np.ndarray, hits: np.ndarray,
                               c: np.ndarray, delta: float) -> bool:
    r"""Whether the printed LCB leaves :math:`[c(q) - 2r_E, c(q)]` after some miss.

    After the miss of round :math:`t` the printed algorithm recomputes
    :math:`\underline c_t(q) = \max\{\hat c_t(q) - \sqrt{6\log t/N_{c,t}(q)}, 0\}` for
    every observed :math:`q`; :math:`r_E` is the cost event's radius.  The
    LCBs are rebuilt from the run's own trace (queries, hits, observed costs) with the
    printed radius (:func:`_printed_lcbs`), at the miss rounds only.
    """
    T, m = queries.size, c.size
    missed, counts, safe = _miss_counts(queries, hits, m)
    lcb = _printed_lcbs(queries, costs, hits, m)[missed]
    r_e = proof.radius(online_log_term(m, T, delta), safe)
    slack = ROUNDING * (1.0 + c)
    outside = (lcb > c + slack) | (lcb < c - 2.0 * r_e - slack)
    return bool(np.any(outside & (counts > 0)))


def online_lcb_fails(queries: np.ndarray, hits: np.ndarray, lcbs: np.ndarray, c: np.ndarray,
                     delta: float) -> bool:
    r"""Whether the LCBs an online algorithm computed after its misses break the corrected
    steps (c) and (f) for the printed radius :math:`\rho_t(N) = \sqrt{6\log t/N}`.

    On :math:`\mathcal E_{\text{arm}}` (:math:`|\hat c_t - c| \le r_E`,
    :math:`r_E = \sqrt{L/(2N_{c,t}(q))}`, :math:`L` from :func:`online_log_term`) the
    printed LCB
    :math:`\max\{\hat c_t - \rho_t, 0\}` satisfies, after the miss of every round
    :math:`t` and for every observed :math:`q`,

    * (c) :math:`\underline c_t(q) \le c(q)` once :math:`\rho_t \ge r_E`, i.e.
      :math:`12\log t \ge L` (the printed statement claims every
      :math:`t`: erratum ``alg:CUCB-LLM_stream/radius-vs-proof``);
    * (f) :math:`c(q) - \underline c_t(q) \le r_E + \rho_t` (the printed :math:`2r_E`
      holds only while :math:`\rho_t \le r_E`).

    ``lcbs[t]`` is the LCB vector in force at the end of round ``t`` (0-based); only miss
    rounds are inspected, where the printed algorithm recomputes it.
    """
    T, m = queries.size, c.size
    missed, counts, safe = _miss_counts(queries, hits, m)
    rounds = (missed + 1.0)[:, None]
    log_term = online_log_term(m, T, delta)
    r_e = proof.radius(log_term, safe)
    rho = np.sqrt(6.0 * np.log(rounds) / safe)
    lcb = np.asarray(lcbs, dtype=float)[missed]
    slack = ROUNDING * (1.0 + c)
    above = (lcb > c + slack) & (12.0 * np.log(rounds) >= log_term)
    below = lcb < c - r_e - rho - slack
    return bool(np.any((above | below) & (counts > 0)))


def printed_radius_case(factory: Callable[..., Any] = printed_cache, name: str = PRINTED,
                        trials: int = 0) -> EventCase:
    """Steps (c) and (f) of the online proof for the printed radius, on ``factory``'s
    learner's trace: a known failure (rate :data:`PRINTED_RADIUS_RATE` for the printed
    algorithm)."""
    problem = llm_instances.build(STREAM_INSTANCE).problem
    c = np.asarray(problem.c, dtype=float)

    def draw(rng: np.random.Generator) -> bool:
        queries, costs, run = _trace(problem, factory, RADIUS_HORIZON, 0.05, "bernoulli",
                                     rng, name)
        return printed_lcb_sandwich_fails(queries, costs, run.hits, c, 0.05)

    return EventCase("event-online-lcb-printed", (THM_LLM_ONLINE.id,), name,
                     "apdx_sec:app_LLM_cache_online steps (c), (f)",
                     "c(q) - 2 r_E <= lcb_t(q) <= c(q) for all q, t with the printed radius "
                     f"sqrt(6 log t/N_c) (corrected: event-online-cost, r_E = {R_E})",
                     "stream-erratum", RADIUS_HORIZON, 0.05,
                     online_failure(c.size, RADIUS_HORIZON, 0.05), draw,
                     "alg:CUCB-LLM_stream/radius-vs-proof", trials, PRINTED_RADIUS_RATE)


def online_cost_case(params: dict[str, Any], instance: str, horizon: int, delta: float,
                     trials: int, factory: Callable[..., Any] = printed_cache,
                     name: str = PRINTED) -> EventCase:
    """The online cost event on the caches of ``factory``'s learner (which rounds miss)."""
    problem = llm_instances.build(params).problem
    c = np.asarray(problem.c, dtype=float)

    def draw(rng: np.random.Generator) -> bool:
        queries, costs, run = _trace(problem, factory, horizon, delta, params["noise"], rng,
                                     name)
        return online_cost_event_fails(queries, costs, run.hits, c, delta)

    return EventCase("event-online-cost", (THM_LLM_ONLINE.id,), name,
                     "apdx_sec:app_LLM_cache_online (E_arm)",
                     f"|c_hat_t(q) - c(q)| <= {R_E} for all q, t",
                     instance, horizon, delta, online_failure(c.size, horizon, delta), draw,
                     "", trials)


def online_lcb_case(params: dict[str, Any], instance: str, horizon: int, delta: float,
                    trials: int, factory: Callable[..., Any] = printed_cache,
                    name: str = PRINTED) -> EventCase:
    r"""Corrected steps (c), (f) (:func:`online_lcb_fails`) on the LCBs the learner exposes.

    The runner reads the learner's ``lcb`` after every round; a learner without one makes
    the row ``n/a``.  Implied by the cost event :math:`\mathcal E_{\text{arm}}` for the
    printed radius, so the row promises that event's failure probability
    (:func:`online_failure`).
    """
    problem = llm_instances.build(params).problem
    c = np.asarray(problem.c, dtype=float)

    def draw(rng: np.random.Generator) -> bool:
        queries, _costs, run = _trace(problem, factory, horizon, delta, params["noise"], rng,
                                      name)
        if run.lcbs is None:
            raise substitute.NotExposedError(
                f"subject {name} returns no lcbs: its learner has no lcb (an array of length "
                "m, attribute or method), which event-online-lcb inspects")
        return online_lcb_fails(queries, run.hits, run.lcbs, c, delta)

    return EventCase("event-online-lcb", (THM_LLM_ONLINE.id,), name,
                     "apdx_sec:app_LLM_cache_online steps (c), (f), corrected for the printed "
                     "radius", "after each miss in round t, for every observed q: lcb_t(q) <= "
                     "c(q) once sqrt(6 log t/N_c,t(q)) >= r_E, and c(q) - lcb_t(q) <= r_E + "
                     f"sqrt(6 log t/N_c,t(q)), r_E = {R_E}",
                     instance, horizon, delta, online_failure(c.size, horizon, delta), draw,
                     "", trials)


def online_cases(profile: str, function: Callable[..., Any], spec: str) -> list[EventCase]:
    """The streaming lemma (corrected algorithm and printed), the online cost and LCB events
    (the LCB event also on many queries, ``stream-wide``).

    ``function`` is the learner factory in the printed CUCB-LLM-S's place (the printed
    learner itself in a reference run), named ``spec``: every row but the corrected
    algorithm's feeds its learner, the LCB rows read its ``lcb``.  The corrected algorithm's
    row checks the erratum's fixed-log learner, which no subject replaces, so it is
    ``subject_free`` (reference runs only).
    """
    # ~13 ms per 600 rounds; 16 trials let the printed-lemma row flag a learner that breaks
    # the lemma in every trial at a quick run's row level (0.455^16 ~ 3e-6, 0.455 the upper
    # limit of the printed rate).
    trials = {"quick": 16, "default": 20, "full": 60}[profile]
    return [corrected_oracle_case(trials),
            stream_oracle_case(factory=function, name=spec, trials=trials),
            online_cost_case(STREAM_INSTANCE, "stream-erratum", RADIUS_HORIZON, 0.05, trials,
                             function, spec),
            online_lcb_case(STREAM_LCB_INSTANCE, "stream-lcb", 500, 0.05, trials, function,
                            spec),
            online_lcb_case(wide_stream(), "stream-wide", WIDE_HORIZON, 0.05, trials, function,
                            spec),
            printed_radius_case(function, spec, trials)]
