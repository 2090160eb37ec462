r"""LLM cache, online streaming: the regret of a learner fed one round at a time.

The subject of the online bound is a *learner factory* ``f(m, k, delta) -> learner``.  A
learner has two methods:

``cache()``
    The cache for the next round: an array of at most ``k`` distinct query ids in
    ``[0, m)``, or a boolean mask of length ``m`` with at most ``k`` entries set.
``observe(query, cost_or_None)``
    The round's query, with its realised cost when it missed the cache and ``None`` when it
    hit (a hit reveals no cost).

and optionally ``lcb``: the cost LCBs in force after the latest :meth:`observe`, an array of
length ``m`` (an attribute, or a method without arguments).  The event row
``event-online-lcb`` reads it; a learner without it gets ``n/a`` there.

:func:`feed` is the runner: in round :math:`t` it reads :math:`\mathcal M_t` from
``cache()``, reveals :math:`q_t`, and calls ``observe(q_t, None)`` on a hit, else
``observe(q_t, C_t)``.  The learner receives its three factory arguments and, per round,
one query id and one cost or ``None``: no argument ever references the stream, so it
cannot read a later round or a hit's cost (a learner that walks the interpreter's frames
is beyond what any in-process door can stop).  The regret
:math:`\sum_{t\le T} [c(\mathcal M_t) - c(\mathcal M^*)]` is measured from the caches the
runner recorded (closed-form expected costs).  Each trial runs the learner for ``T``
rounds, ``n`` of the report standing for ``T``; the theorem bounds the regret with
probability :math:`1-\delta`.  The instances are those of the offline scenarios without
their logged caches, with their ids relabelled by a seeded permutation, and (beyond the
quick profile) a region instance on the rate row's grid (:func:`region_instances`): ties
and costs at 0 and 1.

:func:`replay` runs a learner factory on a stream the caller already holds (the
whole-stream call ``(queries, costs, m, k, delta)`` of offline replays); it is a
convenience for analyses, not a door: the causal guarantee comes from :func:`feed`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from offcmab.bounds.bound import Bound
from offcmab.reference.cucb_llm_stream import StreamingCache
from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.problems.llm_cache import (
    LLMCacheProblem,
    sample_costs,
    sample_queries,
)
from offcmab.validation.evaluator import cache as evaluator_cache
from offcmab.validation.parts.scenario import BoundValue, Kind, MaxGap, Subject, TrialOutcome
from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.scenarios import llm_instances as cases
from offcmab.validation.scenarios.common import (
    Traps,
    bound_value,
    generated_instances,
    scenario_seed,
)
from offcmab.validation.user_algorithm import guarded, source_files

GRIDS: dict[str, tuple[int, ...]] = {
    "quick": (150,),
    "default": (200, 800),
    "full": (500, 2000, 8000),
}

#: The rate row's instance and grid (every profile): four queries, cache of two, where the
#: printed learner's regret flattens within the grid.
RATE_INSTANCE = "four-queries-rate"
RATE_GRID = (200, 800, 3200)


def four_queries() -> dict[str, Any]:
    """Four queries, cache 2, Bernoulli costs; the best cache {0, 2} saves 0.52 a round."""
    return {"p": [0.4, 0.3, 0.2, 0.1], "c": [0.9, 0.2, 0.8, 0.3], "k": 2, "noise": "bernoulli",
            "law": {"kind": "empty"}}


def region_instances(seed: int) -> list[Instance]:
    """One instance on :data:`RATE_GRID`, drawn from ``seed`` and relabelled: costs 0, 1/2
    and 1 with ties (:func:`~offcmab.validation.scenarios.llm_instances.ties_and_extremes`)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    ties = cases.ties_and_extremes(rng) | {"law": {"kind": "empty"}}
    return [Instance("ties-and-extremes", cases.shuffled(ties, rng), 0.05, RATE_GRID,
                     "generated")]


def rate_factor(instance: Instance, n: int) -> float:
    r"""The logarithmic factor of the regret bound, :math:`\sqrt{\log(3mT/\delta)}`."""
    return float(np.sqrt(np.log(3 * len(instance.params["p"]) * n / instance.delta)))


class Learner(Protocol):
    """An online cache learner: the cache for the next round, then that round's feedback."""

    def cache(self) -> Any: ...

    def observe(self, query: int, cost: float | None) -> None: ...


@dataclass(frozen=True)
class OnlineRun:
    r"""What the runner recorded while feeding a learner.

    Attributes
    ----------
    caches
        :math:`1\{q \in \mathcal M_t\}`, shape ``(T, m)``: the cache held in each round.
    final
        :math:`\mathcal M_{T+1}`, the cache after the last round, shape ``(m,)``.
    hits
        :math:`1\{q_t \in \mathcal M_t\}`, shape ``(T,)``.
    lcbs
        The learner's ``lcb`` after each round, shape ``(T, m)``; ``None`` when it has none.
    """

    caches: npt.NDArray[np.bool_]
    final: npt.NDArray[np.bool_]
    hits: npt.NDArray[np.bool_]
    lcbs: FloatArray | None


def round_cache(value: Any, m: int, k: int, name: str, t: int) -> npt.NDArray[np.bool_]:
    """The cache a learner returned for round ``t`` as a mask, checked (``ValueError``)."""
    if isinstance(value, np.ndarray) and value.dtype == np.bool_ and value.shape == (m,) \
            and np.count_nonzero(value) <= k:
        return value  # the common case, checked without building a message
    where = f"cache of {name} in round {t}"
    values = np.asarray(value)
    if values.ndim != 1:
        raise ValueError(f"{where}: must be a flat array, got shape {values.shape}")
    if values.dtype.kind == "b":
        if values.size != m:
            raise ValueError(f"{where}: a boolean mask must have length m={m}, "
                             f"got {values.size}")
        mask = values.copy()
    else:
        if values.size and values.dtype.kind not in "iu":
            raise ValueError(f"{where}: ids must be integers, got dtype {values.dtype}")
        ids = values.astype(np.int64)
        if ids.size and (ids.min() < 0 or ids.max() >= m):
            raise ValueError(f"{where}: ids must lie in [0, {m}), got {ids.tolist()}")
        if np.unique(ids).size != ids.size:
            raise ValueError(f"{where}: duplicate ids in {ids.tolist()}")
        mask = np.zeros(m, dtype=bool)
        mask[ids] = True
    if mask.sum() > k:
        raise ValueError(f"{where}: holds {int(mask.sum())} queries, more than k={k}")
    return mask


def _lcb_reader(learner: Any, name: str) -> Callable[[], Any] | None:
    """A reader of the learner's optional ``lcb`` (attribute or method), or None."""
    if not hasattr(learner, "lcb"):
        return None
    if callable(learner.lcb):
        return guarded(learner.lcb, f"{name} lcb()", source_files(learner.lcb), timed=False)
    return lambda: learner.lcb


def feed(learner: Learner, queries: IntArray, costs: FloatArray, m: int, k: int,
         name: str = "learner") -> OnlineRun:
    r"""Run ``learner`` over the stream, one round at a time (the runner of the online door).

    Round :math:`t`: record :math:`\mathcal M_t` = ``cache()``; reveal :math:`q_t`; on a
    hit call ``observe(q_t, None)``, on a miss ``observe(q_t, C_t)``; read ``lcb`` if the
    learner has one.  The stream stays here: the learner is handed one query id and one
    cost (or ``None``) per round.  A learner's exception becomes one
    :class:`~offcmab.validation.user_algorithm.AlgorithmError` line naming ``name``.
    """
    if not (callable(getattr(learner, "cache", None))
            and callable(getattr(learner, "observe", None))):
        raise ValueError(f"learner built by {name}: must have the methods cache() and "
                         f"observe(query, cost_or_None), got a {type(learner).__name__}")
    T = int(np.size(queries))
    if np.size(costs) != T:
        raise ValueError(f"costs: must have one entry per round ({T}), got {np.size(costs)}")
    # The deadline covers the whole stream (one trial); arming a timer per round would cost
    # more than a round of the reference learner.  Each method still turns its own failure
    # into a message that names it.
    cache = guarded(learner.cache, f"{name} cache()", source_files(learner.cache), timed=False)
    observe = guarded(learner.observe, f"{name} observe()", source_files(learner.observe),
                      timed=False)
    read_lcb = _lcb_reader(learner, name)

    def rounds() -> OnlineRun:
        caches = np.zeros((T, m), dtype=bool)
        lcbs = None if read_lcb is None else np.zeros((T, m))
        stream = zip(np.asarray(queries, dtype=np.int64).tolist(),
                     np.asarray(costs, dtype=float).tolist(), strict=True)
        for t, (q, cost) in enumerate(stream):
            caches[t] = round_cache(cache(), m, k, name, t + 1)
            held = caches[t]  # our copy: the learner may reuse the array it returned
            observe(q, None if held[q] else cost)  # a hit reveals no cost
            if read_lcb is not None and lcbs is not None:
                lcbs[t] = _lcb_row(read_lcb(), m, name, t + 1)
        final = round_cache(cache(), m, k, name, T + 1).copy()
        hits = caches[np.arange(T), np.asarray(queries, dtype=np.int64)]
        return OnlineRun(caches, final, hits, lcbs)

    return guarded(rounds, f"{name} (over {T} rounds)", source_files(learner.cache))()


def _lcb_row(value: Any, m: int, name: str, t: int) -> FloatArray:
    if isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.shape == (m,):
        return value  # copied by the caller's assignment
    row = np.asarray(value, dtype=float)
    if row.shape != (m,):
        raise ValueError(f"lcb of {name} after round {t}: must have shape ({m},), "
                         f"got {row.shape}")
    return row


def replay(factory: Callable[..., Any], queries: IntArray, costs: FloatArray, m: int, k: int,
           delta: float, name: str = "learner") -> OnlineRun:
    """A learner built by ``factory(m, k, delta)`` fed a stream the caller holds.

    The whole-stream call of offline replays and analyses: not a door (the caller has the
    stream), though the learner still sees one round at a time through :func:`feed`.
    """
    return feed(factory(m, k, delta), queries, costs, m, k, name)


def printed_cache(m: int, k: int, delta: float) -> StreamingCache:
    r"""The reference learner: CUCB-LLM-S as printed (``variant="printed"``).

    The printed algorithm does not use ``delta`` (its radius is :math:`\sqrt{6\log t/N}`).
    """
    return StreamingCache(m, k, "printed")


def draw_stream(problem: LLMCacheProblem, n: int, rng: np.random.Generator,
                noise: Any) -> tuple[IntArray, FloatArray]:
    """``n`` queries and the cost each would have on a miss (queries first, then costs)."""
    queries = sample_queries(problem.p, n, rng)
    return queries, sample_costs(problem.c[queries], rng, noise)


def stream_regret(params: Mapping[str, Any], caches: np.ndarray) -> float:
    r"""Pseudo-regret :math:`\sum_t [c(\mathcal M_t) - c(\mathcal M^*)]` of per-round caches.

    Computed by the independent evaluator (:mod:`offcmab.validation.evaluator.cache`): the
    expected cost of a cache and the cheapest cache of ``k`` queries, not the problem's own.
    """
    weights = np.asarray(params["p"], dtype=np.float64) * np.asarray(params["c"], dtype=np.float64)
    cheapest = -evaluator_cache.extremes(params).best
    return float(np.sum((weights.sum() - caches @ weights) - cheapest))


def round_regret_range(params: Mapping[str, Any]) -> float:
    r"""The largest regret of one round, :math:`c(\emptyset) - c(\mathcal M^*)` (the evaluator's):
    a cache holds at most ``k`` queries, so no round does worse than the empty one."""
    weights = np.asarray(params["p"], dtype=np.float64) * np.asarray(params["c"], dtype=np.float64)
    return float(weights.sum() + evaluator_cache.extremes(params).best)


@dataclass(frozen=True)
class StreamScenario:
    """The online regret bound (``formula``) and the printed CUCB-LLM-S."""

    formula: Bound
    traps: Traps
    kind: Kind = "upper"
    algorithm: str = "offcmab.reference.cucb_llm_stream"

    @property
    def bound_id(self) -> str:
        return str(self.formula.id)

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        grid = GRIDS[profile.name]
        named = cases.named(grid, grid if profile.name == "full" else None)
        named.append(Instance(RATE_INSTANCE, four_queries(), 0.05, RATE_GRID,
                              note="the rate row's grid"))
        regions = ([] if profile.name == "quick"  # a smoke run: rounds are fed one at a time
                   else region_instances(scenario_seed(seed, f"{self.bound_id}/regions")))
        return (cases.relabeled_named(named + self.traps(profile), seed) + regions
                + generated_instances(cases.strategy(), profile, seed, self.bound_id, grid))

    def regions(self, instance: Instance) -> frozenset[str]:
        """The regions the instance lies in, its logging law aside (a learner collects its
        own data: :func:`~offcmab.validation.scenarios.llm_instances.online_regions`)."""
        return cases.online_regions(instance.params, instance.n_grid)

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        problem = cases.build(instance.params).problem
        queries, costs = draw_stream(problem, n, rng, instance.params["noise"])
        learner = subject.function(problem.m, problem.k, instance.delta)
        run = feed(learner, queries, costs, problem.m, problem.k, subject.spec)
        return TrialOutcome(stream_regret(instance.params, run.caches))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        params = {"m": len(instance.params["p"]), "T": n, "delta": instance.delta}
        return bound_value(self.formula, variant, params)

    def gap_range(self, instance: Instance, n: int) -> tuple[float, float]:
        r"""Every trial's regret lies in :math:`[0, T\,(c(\emptyset) - c(\mathcal M^*))]`."""
        return 0.0, n * round_regret_range(instance.params)

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        r"""Exact :math:`T\,[c(\emptyset) - c(\mathcal M^*)]`: a learner that never caches."""
        return MaxGap(n * round_regret_range(instance.params), True,
                      "T rounds of the empty cache")
