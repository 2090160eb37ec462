r"""Events of the LLM cache proofs: offline costs and arrival frequencies, the online stream.

Offline, the standard-view lemma (Algorithm ``alg:CLCB-LLM_std``)
    Theorem 1 applied with :math:`2m` base arms (the costs, observed :math:`N_c(q)`
    times, and the arrival probabilities, observed :math:`n` times), so its
    :math:`\mathcal E_{\text{arm}}` has the radius
    :math:`\rho_E(N) = \sqrt{\log(2\cdot 2m\cdot n/\delta)/(2N)}` and fails with
    probability at most :math:`\delta` (Hoeffding and a union bound over :math:`2m`
    arms and :math:`n` counts; costs and indicators lie in [0, 1]).  The printed UCBs
    add :math:`r(N) = \sqrt{2\log(4mn/\delta)/N} = 2\rho_E(N)`, so on the event
    :math:`c \le \bar c \le c + 3\rho_E` and :math:`p \le \bar p \le p + 3\rho_E`.
Offline, Theorem 3 (Algorithm ``alg:CLCB-LLM``)
    :math:`\mathcal E_{\text{arm}}` over the :math:`m` costs at
    :math:`\rho_E(N) = \sqrt{\log(2mn/\delta)/(2N)}` (probability :math:`\le \delta`,
    then :math:`c \le \bar c \le c + \rho_E + r`), and :math:`\mathcal E_{\text{arv}}`:
    :math:`\|\hat p - p\|_1 \le \sqrt{2m\log(2/\delta)/n}` (``apdx_lem:vec_concen``,
    probability :math:`\le \delta`).
Online, the regret bound (Algorithm ``alg:CUCB-LLM_stream``)
    ``apdx_lem:stream_oracle``: in every round the streaming cache maximises
    :math:`\sum_{\mathcal M}\hat p_t\underline c_t` over :math:`|\mathcal M| \le k`, the
    step (b) "oracle gap :math:`\le 0`" of the regret proof.  A deterministic claim
    (promised failure 0).  It is false for the printed radius :math:`\sqrt{6\log t/N}`
    (erratum ``apdx_lem:stream_oracle``) and holds with a radius fixed between two
    feedbacks (the ``fixed-log`` variant, the erratum's correction).  The cost event
    :math:`|\hat c_t(q) - c(q)| \le \sqrt{\log(3mT/\delta)/(2N_{c,t}(q))}` for every
    :math:`q` and :math:`t` fails with probability at most :math:`2\delta/3`; on it the
    LCBs the printed algorithm computes satisfy steps (c) and (f) in the corrected form of
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

from offcmab.reference.clcb_llm import clcb_llm
from offcmab.reference.cucb_llm_stream import cucb_llm_stream
from offcmab.reference.problems.llm_cache import sample_costs, sample_log, sample_queries
from offcmab.validation.events import subject as substitute
from offcmab.validation.events.core import EventCase
from offcmab.validation.scenarios import llm_instances
from offcmab.validation.scenarios.llm_instances import small_ood, zipf_random
from offcmab.validation.scenarios.llm_online import printed_stream

#: A cache algorithm under test: (log, k, delta, variant) -> its result (fields of
#: :class:`offcmab.reference.clcb_llm.CLCBLLMResult`: counts, cost_counts, p_hat, c_hat, c_ucb,
#: p_ucb).
CacheAlgorithm = Callable[[Any, int, float, str], Any]

#: Relative allowance for float rounding at the edges of an interval.
ROUNDING = 1e-12


def reference_cache(log: Any, k: int, delta: float, variant: str) -> Any:
    """CLCB-LLM-C of :mod:`offcmab.reference.clcb_llm`."""
    return clcb_llm(log, k, delta, variant)  # type: ignore[arg-type]


def _within(value: np.ndarray, low: np.ndarray, high: np.ndarray) -> bool:
    slack = ROUNDING * (1.0 + np.abs(high))
    return bool(np.all((value >= low - slack) & (value <= high + slack)))


def _radius(log_term: float, counts: np.ndarray) -> np.ndarray:
    return np.sqrt(log_term / (2.0 * counts))


def cost_event_fails(result: Any, c: np.ndarray, n: int, delta: float, variant: str) -> bool:
    r"""On observed costs: :math:`|\hat c - c| \le \rho_E` and
    :math:`c \le \bar c \le c + \rho_E + r`."""
    m = c.size
    seen = np.asarray(result.cost_counts) > 0
    counts = np.asarray(result.cost_counts)[seen]
    arms = 2 * m if variant == "standard" else m
    rho = _radius(float(np.log(2.0 * arms * n / delta)), counts)
    printed = np.sqrt(2.0 * np.log(4.0 * m * n / delta) / counts)
    c_seen = c[seen]
    c_hat = np.asarray(result.c_hat, dtype=float)[seen]
    c_ucb = np.asarray(result.c_ucb, dtype=float)[seen]
    return not (_within(c_hat, c_seen - rho, c_seen + rho)
                and _within(c_ucb, c_seen, c_seen + rho + printed))


def frequency_event_fails(result: Any, p: np.ndarray, n: int, delta: float,
                          variant: str) -> bool:
    r"""Standard: :math:`|\hat p - p| \le \rho_E(n)`, :math:`p \le \bar p \le p + 3\rho_E(n)`;
    improved: :math:`\|\hat p - p\|_1 \le \sqrt{2m\log(2/\delta)/n}`."""
    m = p.size
    p_hat = np.asarray(result.p_hat, dtype=float)
    if variant == "standard":
        rho = float(np.sqrt(np.log(4.0 * m * n / delta) / (2.0 * n)))
        p_ucb = np.asarray(result.p_ucb, dtype=float)
        return not (_within(p_hat, p - rho, p + rho) and _within(p_ucb, p, p + 3.0 * rho))
    return float(np.abs(p_hat - p).sum()) > np.sqrt(2.0 * m * np.log(2.0 / delta) / n) \
        * (1.0 + ROUNDING)


def cache_case(event_id: str, variant: str, which: str, instance: str,
               params: dict[str, Any], n: int, delta: float,
               run: CacheAlgorithm | None = None) -> EventCase:
    """One offline cache event row (``which`` is ``cost`` or ``frequency``)."""
    setup = llm_instances.build(params)
    problem, method = setup.problem, run or reference_cache
    p, c = np.asarray(problem.p, dtype=float), np.asarray(problem.c, dtype=float)

    def draw(rng: np.random.Generator) -> bool:
        log = sample_log(problem, setup.law, n, rng, params["noise"])
        result = method(log, problem.k, delta, variant)
        if which == "cost":
            return cost_event_fails(result, c, n, delta, variant)
        return frequency_event_fails(result, p, n, delta, variant)

    statements = {
        ("cost", "standard"): "|c_hat - c| <= rho_E and c <= c_ucb <= c + 3 rho_E, "
                              "rho_E = sqrt(log(4mn/delta)/(2 N_c)) (2m arms)",
        ("cost", "improved"): "|c_hat - c| <= rho_E and c <= c_ucb <= c + rho_E + r, "
                              "rho_E = sqrt(log(2mn/delta)/(2 N_c)), r the printed radius",
        ("frequency", "standard"): "|p_hat - p| <= rho_E and p <= p_ucb <= p + 3 rho_E, "
                                   "rho_E = sqrt(log(4mn/delta)/(2n))",
        ("frequency", "improved"): "||p_hat - p||_1 <= sqrt(2m log(2/delta)/n) (E_arv)",
    }
    lemma = ("apdx_lem:arm_concen (via thm:upper_bound, 2m arms)" if variant == "standard"
             else "apdx_lem:arm_concen" if which == "cost" else "apdx_lem:vec_concen")
    # Standard: one E_arm over 2m arms (probability <= delta), split here into its
    # cost and frequency halves, each failing with probability <= delta/2.
    failure = delta / 2.0 if variant == "standard" else delta
    return EventCase(event_id, (), "offcmab.reference.clcb_llm", lemma,
                     statements[(which, variant)], instance, n, delta, failure, draw)


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


def stream_case(event_id: str, variant: str, horizon: int, delta: float, trials: int,
                erratum: str = "") -> EventCase:
    r"""``apdx_lem:stream_oracle`` on :data:`STREAM_INSTANCE`.

    Each trial runs ``variant`` for ``horizon`` rounds on a fresh stream (Bernoulli costs)
    and fails when some round ends with a cache that is not a maximiser of the score sum.
    """
    problem = llm_instances.build(STREAM_INSTANCE).problem

    def draw(rng: np.random.Generator) -> bool:
        run = cucb_llm_stream(problem, horizon, rng, variant)  # type: ignore[arg-type]
        return bool(not np.all(run.equals_reference))

    radius = "sqrt(6 log t/N_c) (printed)" if variant == "printed" else "sqrt(6 log T/N_c)"
    return EventCase(event_id, (), "offcmab.reference.cucb_llm_stream",
                     "apdx_lem:stream_oracle",
                     f"every round's cache maximises sum p_hat_t lcb_t over |M| <= k; "
                     f"radius {radius}", "stream-erratum", horizon, delta, 0.0, draw,
                     erratum, trials)


def online_cost_event_fails(queries: np.ndarray, costs: np.ndarray, hits: np.ndarray,
                            c: np.ndarray, delta: float) -> bool:
    r"""Whether :math:`|\hat c_t(q) - c(q)| > \sqrt{\log(3mT/\delta)/(2N_{c,t}(q))}` for some
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
    radius = np.sqrt(np.log(3.0 * m * T / delta) / (2.0 * position))
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
    every observed :math:`q`; :math:`r_E = \sqrt{\log(3mT/\delta)/(2N_{c,t}(q))}`.  The
    LCBs are rebuilt from the run's own trace (queries, hits, observed costs) with the
    printed radius: one row per miss, one column per query (no loop).
    """
    T, m = queries.size, c.size
    missed, counts, safe = _miss_counts(queries, hits, m)
    observed = np.zeros((T, m))
    observed[missed, queries[missed]] = costs[missed]
    sums = np.cumsum(observed, axis=0)[missed]
    rounds = (missed + 1.0)[:, None]
    lcb = np.maximum(sums / safe - np.sqrt(6.0 * np.log(rounds) / safe), 0.0)
    r_e = np.sqrt(np.log(3.0 * m * T / delta) / (2.0 * safe))
    slack = ROUNDING * (1.0 + c)
    outside = (lcb > c + slack) | (lcb < c - 2.0 * r_e - slack)
    return bool(np.any(outside & (counts > 0)))


def online_lcb_fails(queries: np.ndarray, hits: np.ndarray, lcbs: np.ndarray, c: np.ndarray,
                     delta: float) -> bool:
    r"""Whether the LCBs an online algorithm computed after its misses break the corrected
    steps (c) and (f) for the printed radius :math:`\rho_t(N) = \sqrt{6\log t/N}`.

    On :math:`\mathcal E_{\text{arm}}` (:math:`|\hat c_t - c| \le r_E`,
    :math:`r_E = \sqrt{\log(3mT/\delta)/(2N_{c,t}(q))}`) the printed LCB
    :math:`\max\{\hat c_t - \rho_t, 0\}` satisfies, after the miss of every round
    :math:`t` and for every observed :math:`q`,

    * (c) :math:`\underline c_t(q) \le c(q)` once :math:`\rho_t \ge r_E`, i.e.
      :math:`12\log t \ge \log(3mT/\delta)` (the printed statement claims every
      :math:`t`: erratum ``alg:CUCB-LLM_stream/radius-vs-proof``);
    * (f) :math:`c(q) - \underline c_t(q) \le r_E + \rho_t` (the printed :math:`2r_E`
      holds only while :math:`\rho_t \le r_E`).

    ``lcbs[t]`` is the LCB vector in force at the end of round ``t`` (0-based); only miss
    rounds are inspected, where the printed algorithm recomputes it.
    """
    T, m = queries.size, c.size
    missed, counts, safe = _miss_counts(queries, hits, m)
    rounds = (missed + 1.0)[:, None]
    log_term = float(np.log(3.0 * m * T / delta))
    r_e = np.sqrt(log_term / (2.0 * safe))
    rho = np.sqrt(6.0 * np.log(rounds) / safe)
    lcb = np.asarray(lcbs, dtype=float)[missed]
    slack = ROUNDING * (1.0 + c)
    above = (lcb > c + slack) & (12.0 * np.log(rounds) >= log_term)
    below = lcb < c - r_e - rho - slack
    return bool(np.any((above | below) & (counts > 0)))


def printed_radius_case(horizon: int, delta: float, trials: int) -> EventCase:
    """Steps (c) and (f) of the online proof for the printed radius: a known failure."""
    problem = llm_instances.build(STREAM_INSTANCE).problem
    c = np.asarray(problem.c, dtype=float)

    def draw(rng: np.random.Generator) -> bool:
        trace = cucb_llm_stream(problem, horizon, rng, "printed")
        return printed_lcb_sandwich_fails(trace.queries, trace.costs, trace.hits, c, delta)

    return EventCase("event-online-lcb-printed", (),
                     "offcmab.reference.cucb_llm_stream",
                     "apdx_sec:app_LLM_cache_online steps (c), (f)",
                     "c(q) - 2 r_E <= lcb_t(q) <= c(q) for all q, t with the printed radius "
                     "sqrt(6 log t/N_c) (corrected: event-online-cost, the radius r_E)",
                     "stream-erratum", horizon, delta, 2.0 * delta / 3.0, draw,
                     "alg:CUCB-LLM_stream/radius-vs-proof", trials)


#: An online cache algorithm under test: (queries, costs, m, k, delta) -> hits per round.
StreamAlgorithm = Callable[[Any, Any, int, int, float], np.ndarray]

#: The same, returning (hits, lcbs): which rounds hit, and the LCBs in force after each round.
StreamStatistics = Callable[[Any, Any, int, int, float], tuple[np.ndarray, np.ndarray]]


def _stream(params: dict[str, Any], horizon: int,
            rng: np.random.Generator) -> tuple[Any, np.ndarray, np.ndarray]:
    """The problem of ``params`` and a fresh stream of ``horizon`` queries and their costs
    (drawn in the order :func:`offcmab.reference.cucb_llm_stream.cucb_llm_stream` draws them)."""
    problem = llm_instances.build(params).problem
    queries = sample_queries(problem.p, horizon, rng)
    return problem, queries, sample_costs(problem.c[queries], rng, params["noise"])


def online_cost_case(params: dict[str, Any], instance: str, horizon: int, delta: float,
                     trials: int, run: StreamAlgorithm | None = None) -> EventCase:
    """The online cost event, on the streaming algorithm with the corrected radius by default.

    ``run`` replaces it: it gets the stream and returns which rounds hit its cache.
    """
    problem = llm_instances.build(params).problem
    c = np.asarray(problem.c, dtype=float)

    def draw(rng: np.random.Generator) -> bool:
        if run is None:
            trace = cucb_llm_stream(problem, horizon, rng, "fixed-log", params["noise"])
            return online_cost_event_fails(trace.queries, trace.costs, trace.hits, c, delta)
        _problem, queries, costs = _stream(params, horizon, rng)
        hits = run(queries, costs, problem.m, problem.k, delta)
        return online_cost_event_fails(queries, costs, hits, c, delta)

    return EventCase("event-online-cost", (), "offcmab.reference.cucb_llm_stream",
                     "apdx_sec:app_LLM_cache_online (E_arm)",
                     "|c_hat_t(q) - c(q)| <= sqrt(log(3mT/delta)/(2 N_c,t(q))) for all q, t",
                     instance, horizon, delta, 2.0 * delta / 3.0, draw, "", trials)


def online_lcb_case(params: dict[str, Any], instance: str, horizon: int, delta: float,
                    trials: int, run: StreamStatistics) -> EventCase:
    r"""Corrected steps (c), (f) (:func:`online_lcb_fails`) on the LCBs ``run`` computed.

    Implied by the cost event :math:`\mathcal E_{\text{arm}}` (probability
    :math:`\ge 1 - 2\delta/3`) for the printed radius, so the row's promised failure is
    :math:`2\delta/3`; the printed algorithm (the subject validate checks against the online bound)
    is the reference.
    """
    def draw(rng: np.random.Generator) -> bool:
        problem, queries, costs = _stream(params, horizon, rng)
        hits, lcbs = run(queries, costs, problem.m, problem.k, delta)
        return online_lcb_fails(queries, hits, lcbs, np.asarray(problem.c, dtype=float), delta)

    return EventCase("event-online-lcb", (),
                     "offcmab.validation.scenarios.llm_online.printed_stream",
                     "apdx_sec:app_LLM_cache_online steps (c), (f), corrected for the printed "
                     "radius", "after each miss in round t, for every observed q: lcb_t(q) <= "
                     "c(q) once 12 log t >= log(3mT/delta), and c(q) - lcb_t(q) <= r_E + "
                     "sqrt(6 log t/N_c,t(q)), r_E = sqrt(log(3mT/delta)/(2 N_c,t(q)))",
                     instance, horizon, delta, 2.0 * delta / 3.0, draw, "", trials)


def offline_cases(profile: str, variant: str, function: Callable[..., Any] | None = None,
                  spec: str = "") -> list[EventCase]:
    """The cost and frequency rows of CLCB-LLM-C's ``variant`` (``standard`` or ``improved``).

    ``function`` replaces the reference algorithm (its result must expose the reference's
    statistics, or the rows are n/a); ``spec`` names it in messages.
    """
    method = None if function is None else substitute.cache_algorithm(function, spec)
    instances = [("ood-small", small_ood())]
    if profile != "quick":
        instances.append(("zipf-random", zipf_random()))
    return [cache_case(f"event-llm-{which}-{variant}", variant, which, name, params, 2000,
                       0.05, method)
            for name, params in instances for which in ("cost", "frequency")]


#: Why the rows that inspect the reference's own statistics say nothing about a subject.
REFERENCE_ONLY = {
    "event-stream-oracle": "checks the corrected algorithm (radius with log T), which a "
                           "subject of the online cache bound does not replace",
    "event-stream-oracle-printed": "checks the reference's own scores against a brute-force "
                                   "top-k (a known failure)",
    "event-online-lcb-printed": "checks the printed statement on the reference (a known "
                                "failure); event-online-lcb checks the subject's LCBs "
                                "against the corrected one"}


def online_cases(profile: str, function: Callable[..., Any] | None = None,
                 spec: str = "") -> list[EventCase]:
    """The streaming lemma (corrected and printed), the online cost and LCB events.

    With ``function`` in place of the printed CUCB-LLM-S, the cost row checks its caches,
    the LCB row its ``lcbs``, and the rows that check the reference's own statistics are
    n/a (:data:`REFERENCE_ONLY`).
    """
    stream_trials = {"quick": 10, "default": 20, "full": 60}[profile]  # ~80 ms per run
    rows = [stream_case("event-stream-oracle", "fixed-log", 600, 0.05, stream_trials),
            stream_case("event-stream-oracle-printed", "printed", 600, 0.05, stream_trials,
                        erratum="apdx_lem:stream_oracle")]
    online = None if function is None else substitute.stream_hits(function)
    statistics = substitute.stream_statistics(function or printed_stream, spec or "reference")
    rows.append(online_cost_case(STREAM_INSTANCE, "stream-erratum", 300, 0.05, stream_trials,
                                 online))
    rows.append(online_lcb_case(STREAM_LCB_INSTANCE, "stream-lcb", 500, 0.05, stream_trials,
                                statistics))
    rows.append(printed_radius_case(300, 0.05, stream_trials))
    if function is None:
        return rows

    def hidden(event_id: str) -> Any:
        def draw(rng: np.random.Generator) -> bool:
            raise substitute.NotExposedError(f"subject {spec}: n/a, the row "
                                             f"{REFERENCE_ONLY[event_id]}")
        return draw

    return [replace(row, draw=hidden(row.id)) if row.id in REFERENCE_ONLY else row
            for row in rows]
