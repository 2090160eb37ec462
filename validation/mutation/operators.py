r"""The mutation catalogue: per reference algorithm, its mutants and its equivalent mutants.

Each operator stands for a class of mistakes a user could make when writing one of the
paper's algorithms (:data:`OPERATORS` says which).  A mutant that is exactly an existing
negative control of :mod:`offcmab.validation.controls` *is* that control (reused, never
rewritten); the others are built here from the same public pieces the reference uses
(:func:`~offcmab.reference.confidence.arm_statistics`,
:func:`~offcmab.reference.confidence.hoeffding_radius`, the controls' scaled indices).

Families (module attributes; a mutant's spec is
``offcmab.validation.mutation.operators:FAMILY.attribute``):

* :data:`CLCB`: ``f(dataset, oracle, delta)``, CLCB (Algorithm 1);
* :data:`CASCADE`: ``f(dataset, k, delta)``, CLCB-Cascade;
* :data:`LLM_IMPROVED`, :data:`LLM_STANDARD`: ``f(log, k, delta)``, CLCB-LLM-C;
* :data:`STREAM`: ``f(m, k, delta)``, a CUCB-LLM-S learner factory;
* :data:`IM`: ``f(graph, cascades, oracle, delta)``, CLCB-IM-N.

The dropped union bound (the radius of one interval at the stated :math:`\delta`, its
union-bound term over arms and sample sizes left out) is each family's ``no-union-bound``
negative control.

A mutant that no runnable size can kill carries the arithmetic that shows it
(:attr:`~offcmab.validation.mutation.mutant.Mutant.no_power`, :func:`no_power_reason`): a
survivor with such a reason is *explained* and does not fail ``offcmab mutation``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from offcmab.bounds import symbols
from offcmab.bounds.events import (
    IM_DELTA_PRIME,
    IM_INTERVAL_EVENTS,
    radius_text,
    union_failure,
)
from offcmab.bounds.theorems.cascade import COR1_CASCADE
from offcmab.bounds.theorems.im import THM4_IM
from offcmab.bounds.theorems.llm import LEM_LLM_STD, THM3_LLM
from offcmab.bounds.theorems.upper import THM1_INF, THM1_ONE
from offcmab.reference.clcb import CLCBResult, clcb, lower_confidence_bounds
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.clcb_llm import (
    CLCBLLMResult,
    Variant,
    cache_statistics,
    clcb_llm,
    ucb_radius,
)
from offcmab.reference.confidence import (
    RadiusRule,
    arm_statistics,
    clip_bound,
    hoeffding_radius,
)
from offcmab.reference.cucb_llm_stream import StreamingCache, printed_lcb
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.im.clcb_im_node import CLCBIMResult, clcb_im_node, edge_lcbs
from offcmab.reference.im.data import NodeCascades
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.oracles import Oracle, TopK, top_k
from offcmab.reference.problems.llm_cache import CacheLog, QueryLog
from offcmab.validation.controls import cmab, im, stream
from offcmab.validation.controls.llm import IMPROVED_CONTROLS, STANDARD_CONTROLS, rescored
from offcmab.validation.controls.oracles import BrokenOracle, Mistake
from offcmab.validation.events import proof
from offcmab.validation.mutation.mutant import (
    EVERY_ID,
    Family,
    Mutant,
    RelabelledOracle,
    relabelling,
    ties_to_larger_ids,
)
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.radius_facts import share_value
from offcmab.validation.scenarios import im as im_scenarios
from offcmab.validation.scenarios.llm_online import printed_cache

#: Radius multipliers of the ``radius-scale`` operator (the power curve's abscissae).
RADIUS_SCALES = (0.3, 0.5, 0.7, 0.9)

DROPPED_UNION = "dropped-union-bound"

#: Operator -> the class of user mistakes it stands for (equivalents: the freedom it uses).
OPERATORS: dict[str, str] = {
    "radius-scale": "a confidence radius too narrow by a constant factor (a wrong constant, "
                    "a missing factor 2, a variance proxy too small), relative to the radius "
                    "the proof's event needs",
    DROPPED_UNION: "the union bound over arms and sample sizes left out of the radius",
    "optimism": "the sign of the radius flipped: an upper bound where a lower one belongs",
    "sum-for-mean": "a total (of rewards, of observed costs) where the average belongs",
    "counts-for-mean": "ranking by how often an arm was logged: copying the logger "
                       "(behaviour cloning)",
    "data-ignored": "the data never reach the decision (a fixed action)",
    "oracle-first-k": "the oracle ignores its weights and returns the first feasible action",
    "oracle-smallest-k": "the oracle minimizes instead of maximizing",
    "oracle-random": "the oracle returns an action unrelated to its weights",
    "unseen-optimism": "optimism toward arms the data never observed, milder than an LCB of "
                       "+inf: the bound of a never-observed arm set to the middle of its range "
                       "(1/2) or to its optimistic end (a reward's UCB, a cost's LCB) while "
                       "every observed arm keeps its pessimistic bound",
    "oracle-fixed-ids": "the oracle ignores its weights and returns fixed ids, the k "
                        "smallest, without calling the oracle it was given",
    "wrong-estimator": "a plausible but wrong estimator (the paper's printed one)",
    "off-by-one": "a sample count off by one (N+1) in the mean or in the radius",
    "ties-larger-ids": "equivalent: exact ties broken toward larger ids instead of smaller",
    "proof-constant": "equivalent: the radius of the proof's event instead of the printed one, "
                      "where the two differ (offcmab.bounds.events; sympy shows that it "
                      "covers the event)",
    "relabelled": "equivalent: arms renamed by a fixed permutation, the action mapped back",
}

_NO_ESTIMATOR = "the algorithm has one estimator, the empirical mean"

#: The ids whose proofs rest on a Hoeffding event over the arms the mutants narrow.
_HOEFFDING_EVENTS = ((THM1_INF.id, "arm"), (THM1_ONE.id, "arm"), (COR1_CASCADE.id, "arm"),
                     (LEM_LLM_STD.id, "arm"), (THM3_LLM.id, "cost"))

#: The instance of the narrowest-radius arithmetic: many arms, many samples, delta 0.05.
_WIDE_M, _WIDE_N, _WIDE_DELTA = 600, 12000, 0.05


def _event_logs(m_value: int) -> dict[str, float]:
    """The log term of each of those events at ``m_value`` arms and the wide ``n``."""
    return {proof.log_text(bound_id, name):
            proof.log_term(bound_id, name, {"m": m_value, "n": _WIDE_N}, _WIDE_DELTA)
            for bound_id, name in _HOEFFDING_EVENTS}


def _smallest_event_log(m_value: int = _WIDE_M) -> tuple[str, float]:
    """The smallest log term among those events, and its text."""
    logs = _event_logs(m_value)
    text = min(logs, key=logs.__getitem__)
    return text, logs[text]


def _union_miss(scale: float, m_value: int) -> tuple[float, float]:
    """Per arm and union miss probabilities of the smallest event radius times ``scale``
    (two-sided normal tail at ``scale * sqrt(2 L)``) for ``m_value`` arms near 1/2."""
    log_value = _smallest_event_log(m_value)[1]
    arm = math.erfc(scale * math.sqrt(log_value))
    return arm, -math.expm1(m_value * math.log1p(-arm))


def _arms_to_fail(scale: float) -> int:
    """The first doubling of the wide instance's arms at which the union misses more often
    than delta (the search stops at 2**200 arms)."""
    arms = _WIDE_M
    while _union_miss(scale, arms)[1] < _WIDE_DELTA and arms < 2**200:
        arms *= 2
    return arms


def _narrow_hoeffding() -> str:
    """Why a Hoeffding radius times 0.7 or 0.9 keeps the proof's event at every runnable
    size, with the miss probabilities computed at the smallest of the events' radii."""
    text = _smallest_event_log()[0]
    arm_7, union_7 = _union_miss(0.7, _WIDE_M)
    arm_9 = _union_miss(0.9, _WIDE_M)[0]
    arms_7, arms_9 = _arms_to_fail(0.7), _arms_to_fail(0.9)
    return (
        f"the radius the proof's event needs (offcmab.bounds.events; the smallest is "
        f"sqrt({text}/(2N))) times c leaves an arm with mean near 1/2 outside its interval "
        f"with probability about 2 PhiBar(c sqrt(2 {text})): at m = {_WIDE_M} arms and "
        f"n = {_WIDE_N} samples (delta = {_WIDE_DELTA:g}) that is {arm_7:.1g} per arm at "
        f"c = 0.7 (the union event fails in about {union_7:.1%} of datasets, below delta) and "
        f"{arm_9:.1g} at c = 0.9; the miss probability per arm falls almost as fast as the "
        "number of arms grows, so at this n the event fails more often than delta only from "
        f"about {arms_7:.1e} arms at c = 0.7 and {arms_9:.1e} at c = 0.9 (doubling from "
        f"{_WIDE_M}): the mutant keeps the theorem's event on every runnable instance")


#: Why a Hoeffding radius times 0.7 or 0.9 keeps the proof's event at every runnable size.
NARROW_HOEFFDING = _narrow_hoeffding()

#: Why a count off by one keeps the theorems of the offline algorithms with Hoeffding radii.
OFF_BY_ONE_HOEFFDING = (
    "dividing a sum by N + 1 moves an estimate by at most 1/(N + 1), below the radius "
    f"sqrt({_smallest_event_log()[0]}/(2N)) of every such proof's event for every N >= 1 "
    "(offcmab.bounds.events), so on the proof's event the gap stays below 3/2 of the bound "
    "(the proven bounds have more slack than that); a radius with N + 1 samples is the "
    "radius times sqrt(N/(N + 1)) >= 0.7, the radius-x0.7 case")

def _narrow_bernstein(cascades: int = 5000, delta_value: float = 0.05) -> str:
    """Why CLCB-IM-N's narrower radii keep its events, at the interval row's size on the
    six-node graph, with L and the promised failure from the registry."""
    graph = im_scenarios.build(im_scenarios.star_and_chain()).graph
    sizes = {"n": cascades, "E": graph.edges}
    log_value = proof.im_log_term(sizes, delta_value)
    # the radius over the standard deviation sqrt(x(1-x)/N) of an estimate at x = 1/2
    spans = math.sqrt(6.0 * log_value) + 18.0 * log_value / math.sqrt(cascades)
    promised = float(union_failure(THM4_IM.id, IM_INTERVAL_EVENTS).subs(
        {symbols.n: cascades, symbols.E: graph.edges, symbols.delta: delta_value}))
    return (
        "CLCB-IM-N's Bernstein radius sqrt(6 x(1-x) L/N) + 9 L/N, L = log(1/delta') "
        f"(offcmab.bounds.events), spans about {spans:.0f} standard deviations of an estimate "
        f"near 1/2 at n = {cascades} cascades on the six-node graph (L = {log_value:.1f}) and "
        f"more elsewhere; times 0.3 it still spans about {0.3 * spans:.0f}, so an interval "
        "misses with probability below 1e-4 and the union event (promised failure "
        f"{promised:.3g} at delta = {delta_value:g}) would need tens of thousands of "
        "intervals, each observed thousands of times, to fail visibly: far beyond a runnable "
        "node-level instance")


#: Why CLCB-IM-N's narrower radii keep its events at every runnable size.
NARROW_BERNSTEIN = _narrow_bernstein()

#: Why an off-by-one count keeps CLCB-IM-N's events.
OFF_BY_ONE_BERNSTEIN = (
    "the counts are numbers of cascades (thousands): one more in a denominator moves an "
    "estimate by at most 1/(N + 1) and scales the radius by sqrt(N/(N + 1)), both far "
    "inside the Bernstein radius's margin (see radius-x0.3), so the events hold")

#: Why the fixed-ids oracle is no new mutant where the oracle-first-k mutant already is it.
_FIRST_K_IS_FIXED = ("called with constant weights, this family's oracle already returns "
                     "the first k ids (the first feasible action): that is oracle-first-k")


def _narrow(scale: float, reason: str) -> dict[str, str]:
    """The no-power reason of a radius times ``scale``: ``reason`` from 0.7 up, none below."""
    return {EVERY_ID: reason} if scale >= 0.7 else {}


def _reused(operator: str, control: str, controls: Mapping[str, Callable[..., Any]],
            name: str | None = None) -> Mutant:
    """The negative control ``control`` of ``controls``, as the mutant of ``operator``."""
    return Mutant(name or control, operator, controls[control], control=control)


# ---- CLCB (Algorithm 1): f(dataset, oracle, delta, radius) ---------------------------------

def _clcb_index(dataset: OfflineDataset, oracle: Oracle, delta: float, rule: RadiusRule,
                total: bool = False, mean_shift: int = 0, radius_shift: int = 0) -> CLCBResult:
    r"""CLCB with its index :math:`\text{centre}_i - \rho_i` built from shifted pieces.

    ``total``: the sum of outcomes in place of the mean; ``mean_shift``, ``radius_shift``:
    the count :math:`N_i` plus this in the mean's denominator or in the radius.
    """
    stats = arm_statistics(dataset)
    observed = stats.counts > 0
    centre = stats.sums if total else stats.sums / np.maximum(stats.counts + mean_shift, 1)
    radius = hoeffding_radius(np.where(observed, stats.counts + radius_shift, 0), dataset.n,
                              dataset.m, delta, rule)
    index = np.full(dataset.m, -np.inf)
    index[observed] = centre[observed] - radius[observed]
    return CLCBResult(oracle(index), stats.counts, stats.means, index)


def _clcb_unseen(value: float | None) -> Callable[..., CLCBResult]:
    r"""CLCB with the LCB of every never-observed arm set to ``value`` (``None``: to its UCB,
    the top 1 of the reward range), every observed arm's LCB kept."""
    def run(dataset: OfflineDataset, oracle: Oracle, delta: float,
            radius: RadiusRule = "alg1") -> CLCBResult:
        stats = arm_statistics(dataset)
        lcb = lower_confidence_bounds(stats, dataset.n, delta, radius)
        index = np.where(stats.counts > 0, lcb, 1.0 if value is None else value)
        return CLCBResult(oracle(index), stats.counts, stats.means, index)

    return run


def _clcb_scaled(scale: float) -> Callable[..., CLCBResult]:
    def run(dataset: OfflineDataset, oracle: Oracle, delta: float,
            radius: RadiusRule = "alg1") -> CLCBResult:
        stats, index = cmab.scaled_index(dataset, delta, scale, radius)
        return CLCBResult(oracle(index), stats.counts, stats.means, index)

    return run


def _clcb_sum(dataset: OfflineDataset, oracle: Oracle, delta: float,
              radius: RadiusRule = "alg1") -> CLCBResult:
    """The LCB of the total reward: sum of outcomes minus the radius."""
    return _clcb_index(dataset, oracle, delta, radius, total=True)


def _clcb_counts(dataset: OfflineDataset, oracle: Oracle, delta: float,
                 radius: RadiusRule = "alg1") -> CLCBResult:
    """Behaviour cloning: the oracle maximizes how often each arm was observed."""
    stats = arm_statistics(dataset)
    index = stats.counts.astype(np.float64)
    return CLCBResult(oracle(index), stats.counts, stats.means, index)


def _clcb_mean_plus_one(dataset: OfflineDataset, oracle: Oracle, delta: float,
                        radius: RadiusRule = "alg1") -> CLCBResult:
    """The mean divides the sum by N_i + 1."""
    return _clcb_index(dataset, oracle, delta, radius, mean_shift=1)


def _clcb_radius_plus_one(dataset: OfflineDataset, oracle: Oracle, delta: float,
                          radius: RadiusRule = "alg1") -> CLCBResult:
    """The radius uses N_i + 1 samples."""
    return _clcb_index(dataset, oracle, delta, radius, radius_shift=1)


def _clcb_ties(dataset: OfflineDataset, oracle: Oracle, delta: float,
               radius: RadiusRule = "alg1") -> CLCBResult:
    """CLCB with exact ties between LCBs broken toward larger arm ids."""
    stats = arm_statistics(dataset)
    index = ties_to_larger_ids(lower_confidence_bounds(stats, dataset.n, delta, radius))
    return CLCBResult(oracle(index), stats.counts, stats.means, index)


def _clcb_relabelled(dataset: OfflineDataset, oracle: Oracle, delta: float,
                     radius: RadiusRule = "alg1") -> CLCBResult:
    """CLCB on the same log with its arms renamed by a fixed permutation, mapped back."""
    perm, inverse = relabelling(dataset.m)
    renamed = replace(dataset, triggered=perm[dataset.triggered],
                      actions=None if dataset.actions is None else perm[dataset.actions])
    result = clcb(renamed, RelabelledOracle(oracle, perm), delta, radius)
    return CLCBResult(inverse[result.action], result.counts[perm], result.means[perm],
                      result.lcb[perm])


def _clcb_mutants() -> tuple[Mutant, ...]:
    controls = cmab.CLCB_CONTROLS
    return (
        *(Mutant(f"radius-x{scale}", "radius-scale", _clcb_scaled(scale),
                 no_power=_narrow(scale, NARROW_HOEFFDING))
          for scale in RADIUS_SCALES),
        _reused(DROPPED_UNION, "no-union-bound", controls, DROPPED_UNION),
        _reused("optimism", "optimism", controls),
        Mutant("unseen-at-half", "unseen-optimism", _clcb_unseen(0.5)),
        Mutant("unseen-at-ucb", "unseen-optimism", _clcb_unseen(None)),
        Mutant("sum-for-mean", "sum-for-mean", _clcb_sum),
        Mutant("counts-for-mean", "counts-for-mean", _clcb_counts),
        _reused("data-ignored", "ignores-data", controls, "data-ignored"),
        _reused("oracle-first-k", "oracle-ignores-weights", controls, "oracle-first-k"),
        _reused("oracle-smallest-k", "oracle-reversed", controls, "oracle-smallest-k"),
        _reused("oracle-random", "oracle-random", controls),
        Mutant("mean-n-plus-1", "off-by-one", _clcb_mean_plus_one,
               no_power={EVERY_ID: OFF_BY_ONE_HOEFFDING}),
        Mutant("radius-n-plus-1", "off-by-one", _clcb_radius_plus_one,
               no_power={EVERY_ID: OFF_BY_ONE_HOEFFDING}),
        Mutant("ties-larger-ids", "ties-larger-ids", _clcb_ties, equivalent=True),
        Mutant("relabelled", "relabelled", _clcb_relabelled, equivalent=True),
    )


def _prints_the_event_radius(algorithm: str, bound_id: str) -> str:
    """Why no proof-constant mutant exists: the algorithm prints its event's radius."""
    return (f"{algorithm} prints the radius {radius_text(bound_id, 'arm')} that the proof's "
            "arm event needs (offcmab.bounds.events)")


CLCB = Family("CLCB", _clcb_mutants(), {
    "proof-constant": _prints_the_event_radius("Algorithm 1", THM1_INF.id),
    "wrong-estimator": _NO_ESTIMATOR,
    "oracle-fixed-ids": "a general oracle's actions (paths, matchings) are no sets of k ids; "
                        "the oracle that returns a fixed feasible action whatever its weights "
                        "is oracle-first-k"})


# ---- CLCB-Cascade: f(dataset, k, delta) -----------------------------------------------------

def _as_cascade(function: Callable[..., CLCBResult]) -> Callable[..., CLCBResult]:
    """A CLCB mutant as CLCB-Cascade: the top-k oracle and the cascade radius."""
    def run(dataset: OfflineDataset, k: int, delta: float) -> CLCBResult:
        return function(dataset, TopK(k), delta, "cascade")

    return run


def _cascade_mutants() -> tuple[Mutant, ...]:
    controls = cmab.CASCADE_CONTROLS
    built = {mutant.name: mutant for mutant in _clcb_mutants() if mutant.control is None}
    return tuple(
        _reused(mutant.operator, mutant.control, controls, mutant.name)
        if mutant.control is not None
        else replace(mutant, function=_as_cascade(built[mutant.name].function))
        for mutant in _clcb_mutants())


CASCADE = Family("CASCADE", _cascade_mutants(), {
    "wrong-estimator": _NO_ESTIMATOR, "oracle-fixed-ids": _FIRST_K_IS_FIXED,
    "proof-constant": _prints_the_event_radius("CLCB-Cascade", COR1_CASCADE.id)})


# ---- CLCB-LLM-C: f(log, k, delta) -----------------------------------------------------------

def _llm_index(log: QueryLog, k: int, delta: float, variant: Variant, total: bool = False,
               mean_shift: int = 0, radius_shift: int = 0, unseen: float | None = None
               ) -> CLCBLLMResult:
    r"""CLCB-LLM-C with its cost UCB :math:`\text{centre}(q) + \rho(q)` built from shifted
    pieces (``total``: the sum of observed costs in place of their mean; ``unseen``: the
    cost UCB of a query whose cost was never observed, ``None`` for the printed
    :math:`+\infty`)."""
    ref = clcb_llm(log, k, delta, variant)
    stats = cache_statistics(log)
    seen = stats.cost_counts > 0
    centre = stats.cost_sums if total else \
        stats.cost_sums / np.maximum(stats.cost_counts + mean_shift, 1)
    radius = ucb_radius(np.where(seen, stats.cost_counts + radius_shift, 0), log.n, log.m,
                        delta)
    c_ucb = np.where(seen, centre, np.inf) + radius
    if unseen is not None:
        c_ucb = np.where(seen, c_ucb, unseen)
    with np.errstate(invalid="ignore"):
        scores = np.where(ref.p_ucb == 0, 0.0, clip_bound(ref.p_ucb, high=1.0)
                          * clip_bound(c_ucb, high=1.0))
    return replace(ref, cache=top_k(scores, k), c_ucb=c_ucb, scores=scores)


def _llm_relabel(log: QueryLog, perm: Any) -> QueryLog:
    if isinstance(log, CacheLog):
        return replace(log, queries=perm[log.queries], caches=perm[log.caches])
    return replace(log, queries=perm[log.queries])


def _llm_mutants(variant: Variant, controls: Mapping[str, Callable[..., CLCBLLMResult]],
                 bound_id: str, event: str) -> tuple[Mutant, ...]:
    def scaled(scale: float) -> Callable[..., CLCBLLMResult]:
        def run(log: CacheLog, k: int, delta: float) -> CLCBLLMResult:
            share = share_value(bound_id, event, log.m, log.n, delta)
            return rescored(log, k, delta, variant, cost_scale=scale * share)

        return run

    def proof_radius(log: CacheLog, k: int, delta: float) -> CLCBLLMResult:
        """The cost radius the proof's event needs (:mod:`offcmab.bounds.events`)."""
        return rescored(log, k, delta, variant,
                        cost_scale=share_value(bound_id, event, log.m, log.n, delta))

    def total(log: QueryLog, k: int, delta: float) -> CLCBLLMResult:
        """The UCB of the total observed cost of each query."""
        return _llm_index(log, k, delta, variant, total=True)

    def unseen_at(value: float) -> Callable[..., CLCBLLMResult]:
        def run(log: QueryLog, k: int, delta: float) -> CLCBLLMResult:
            """The cost UCB of a query whose cost was never observed set to ``value``."""
            return _llm_index(log, k, delta, variant, unseen=value)

        return run

    def counts(log: QueryLog, k: int, delta: float) -> CLCBLLMResult:
        """Behaviour cloning: cache the queries the logged caches served most often."""
        ref = clcb_llm(log, k, delta, variant)
        return replace(ref, cache=top_k((ref.counts - ref.cost_counts).astype(float), k))

    def broken(mistake: Mistake) -> Callable[..., CLCBLLMResult]:
        def run(log: QueryLog, k: int, delta: float) -> CLCBLLMResult:
            ref = clcb_llm(log, k, delta, variant)
            return replace(ref, cache=BrokenOracle(TopK(k), mistake)(ref.scores))

        return run

    def mean_plus_one(log: QueryLog, k: int, delta: float) -> CLCBLLMResult:
        """The mean cost divides by N_c + 1."""
        return _llm_index(log, k, delta, variant, mean_shift=1)

    def radius_plus_one(log: QueryLog, k: int, delta: float) -> CLCBLLMResult:
        """The cost radius uses N_c + 1 samples."""
        return _llm_index(log, k, delta, variant, radius_shift=1)

    def ties(log: QueryLog, k: int, delta: float) -> CLCBLLMResult:
        """CLCB-LLM-C with ties between scores broken toward larger query ids."""
        ref = clcb_llm(log, k, delta, variant)
        return replace(ref, cache=top_k(ties_to_larger_ids(ref.scores), k))

    def relabelled(log: QueryLog, k: int, delta: float) -> CLCBLLMResult:
        """CLCB-LLM-C on the log with its queries renamed, the cache mapped back."""
        perm, inverse = relabelling(log.m)
        result = clcb_llm(_llm_relabel(log, perm), k, delta, variant)
        return replace(result, cache=inverse[result.cache], counts=result.counts[perm],
                       cost_counts=result.cost_counts[perm], p_hat=result.p_hat[perm],
                       c_hat=result.c_hat[perm], c_ucb=result.c_ucb[perm],
                       p_ucb=result.p_ucb[perm], scores=result.scores[perm])

    return (
        *(Mutant(f"radius-x{scale}", "radius-scale", scaled(scale),
                 no_power=_narrow(scale, NARROW_HOEFFDING)) for scale in RADIUS_SCALES),
        _reused(DROPPED_UNION, "no-union-bound", controls, DROPPED_UNION),
        _reused("optimism", "optimism", controls),
        Mutant("unseen-at-half", "unseen-optimism", unseen_at(0.5)),
        Mutant("unseen-at-lcb", "unseen-optimism", unseen_at(0.0)),
        Mutant("sum-for-mean", "sum-for-mean", total),
        Mutant("counts-for-mean", "counts-for-mean", counts),
        _reused("data-ignored", "ignores-data", controls, "data-ignored"),
        Mutant("oracle-first-k", "oracle-first-k", broken("first")),
        Mutant("oracle-smallest-k", "oracle-smallest-k", broken("reversed")),
        Mutant("oracle-random", "oracle-random", broken("random")),
        Mutant("mean-n-plus-1", "off-by-one", mean_plus_one,
               no_power={EVERY_ID: OFF_BY_ONE_HOEFFDING}),
        Mutant("radius-n-plus-1", "off-by-one", radius_plus_one,
               no_power={EVERY_ID: OFF_BY_ONE_HOEFFDING}),
        Mutant("ties-larger-ids", "ties-larger-ids", ties, equivalent=True),
        Mutant("proof-constant", "proof-constant", proof_radius, equivalent=True),
        Mutant("relabelled", "relabelled", relabelled, equivalent=True),
    )


_LLM_NOT_APPLICABLE = {"wrong-estimator": _NO_ESTIMATOR, "oracle-fixed-ids": _FIRST_K_IS_FIXED}
LLM_IMPROVED = Family(
    "LLM_IMPROVED", _llm_mutants("improved", IMPROVED_CONTROLS, THM3_LLM.id, "cost"),
    _LLM_NOT_APPLICABLE)
LLM_STANDARD = Family(
    "LLM_STANDARD", _llm_mutants("standard", STANDARD_CONTROLS, LEM_LLM_STD.id, "arm"),
    _LLM_NOT_APPLICABLE)


# ---- CUCB-LLM-S: f(m, k, delta) -> learner ----------------------------------------------------

class _RescoredCache(StreamingCache):
    r"""The printed learner with its score :math:`\hat p_t(q)\,\underline c_t(q)` replaced."""

    def __init__(self, m: int, k: int, score: str) -> None:
        super().__init__(m, k, "printed")
        self.score = score

    def scores(self) -> Any:
        if self.rounds == 0:
            return np.zeros(self.m)
        p_hat = self.arrivals / self.rounds
        if self.score == "total":  # total observed cost in place of its LCB
            return p_hat * self.cost_counts * self.c_hat
        if self.score == "counts":  # how often the cost was seen in place of its LCB
            return p_hat * self.cost_counts
        return ties_to_larger_ids(p_hat * self.lcb)  # ties toward larger ids


class _RelabelledLearner:
    """The printed learner run on renamed queries; its cache and LCBs mapped back."""

    def __init__(self, m: int, k: int) -> None:
        self.perm, _ = relabelling(m)
        self.inner = printed_cache(m, k, 0.0)

    def cache(self) -> Any:
        return self.inner.cache()[self.perm]

    def observe(self, query: int, cost: float | None) -> None:
        self.inner.observe(int(self.perm[query]), cost)

    @property
    def lcb(self) -> Any:
        return self.inner.lcb[self.perm]


class _ShiftedCountCache(StreamingCache):
    r"""The printed learner with :math:`N_{c,t}(q) + 1` in the mean or in the radius."""

    def __init__(self, m: int, k: int, mean_shift: int, radius_shift: int) -> None:
        super().__init__(m, k, "printed")
        self.mean_shift, self.radius_shift = mean_shift, radius_shift

    def cost_lcbs(self, log_t: float) -> Any:
        # an unseen query has c_hat = 0, so a count shifted above 0 still gives it LCB 0
        counts = self.cost_counts
        mean = self.c_hat * counts / np.maximum(counts + self.mean_shift, 1)
        return printed_lcb(mean, counts + self.radius_shift, log_t)


def _stream_mean_plus_one(m: int, k: int, delta: float) -> StreamingCache:
    """The cost mean divided by N_c + 1."""
    return _ShiftedCountCache(m, k, 1, 0)


def _stream_radius_plus_one(m: int, k: int, delta: float) -> StreamingCache:
    """The radius with N_c + 1 observations."""
    return _ShiftedCountCache(m, k, 0, 1)


def _stream_scaled(scale: float) -> Callable[[int, int, float], StreamingCache]:
    def factory(m: int, k: int, delta: float) -> StreamingCache:
        return stream.scaled_cache(m, k, scale)

    return factory


def _stream_total(m: int, k: int, delta: float) -> StreamingCache:
    """Scores by the total observed cost instead of its LCB."""
    return _RescoredCache(m, k, "total")


def _stream_counts(m: int, k: int, delta: float) -> StreamingCache:
    """Scores by how often the cost was observed instead of its LCB."""
    return _RescoredCache(m, k, "counts")


def _stream_ties(m: int, k: int, delta: float) -> StreamingCache:
    """The printed learner with score ties broken toward larger query ids."""
    return _RescoredCache(m, k, "ties")


def _stream_relabelled(m: int, k: int, delta: float) -> _RelabelledLearner:
    """The printed learner on renamed queries."""
    return _RelabelledLearner(m, k)


_NO_ORACLE = "the learner's replacement rule is its oracle, inside the reference class"
STREAM = Family("STREAM", (
    *(Mutant(f"radius-x{scale}", "radius-scale", _stream_scaled(scale))
      for scale in RADIUS_SCALES),
    _reused(DROPPED_UNION, "no-union-bound", stream.STREAM_CONTROLS, DROPPED_UNION),
    _reused("optimism", "optimism", stream.STREAM_CONTROLS),
    Mutant("sum-for-mean", "sum-for-mean", _stream_total),
    Mutant("counts-for-mean", "counts-for-mean", _stream_counts),
    _reused("data-ignored", "ignores-data", stream.STREAM_CONTROLS, "data-ignored"),
    Mutant("mean-n-plus-1", "off-by-one", _stream_mean_plus_one),
    Mutant("radius-n-plus-1", "off-by-one", _stream_radius_plus_one),
    Mutant("ties-larger-ids", "ties-larger-ids", _stream_ties, equivalent=True),
    Mutant("relabelled", "relabelled", _stream_relabelled, equivalent=True),
), {
    "oracle-first-k": _NO_ORACLE, "oracle-smallest-k": _NO_ORACLE, "oracle-random": _NO_ORACLE,
    "oracle-fixed-ids": _NO_ORACLE, "wrong-estimator": _NO_ESTIMATOR,
    "unseen-optimism": "an online learner explores: the printed learner already gives a query "
                       "whose cost it never saw the optimistic cost LCB 0, so that the query "
                       "stays out of the cache and its cost is observed",
    "proof-constant": "the online radius has no delta (nothing to change)",
})


# ---- CLCB-IM-N: f(graph, cascades, oracle, delta) -----------------------------------------------

def _im_scaled(scale: float) -> Callable[..., CLCBIMResult]:
    def run(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
            delta: float) -> CLCBIMResult:
        result = im.interval_edges(graph, cascades, delta, scale, scale)
        return replace(result, seeds=oracle(result.lcb))

    return run


def _im_fixed_ids(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
                  delta: float) -> CLCBIMResult:
    """An oracle that ignores the edge LCBs and returns the seeds 0..k-1 (the reference's
    LCBs are reported unchanged)."""
    ref = edge_lcbs(graph, cascades, delta)
    k = oracle(ref.lcb).size
    return replace(ref, seeds=np.arange(k, dtype=np.int64))


def _im_counts(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
               delta: float) -> CLCBIMResult:
    """Behaviour cloning: seed the k nodes the log seeded most often."""
    ref = edge_lcbs(graph, cascades, delta)
    k = oracle(ref.lcb).size
    return replace(ref, seeds=top_k(ref.counters.seeded.astype(np.float64), k))


def _im_ties(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
             delta: float) -> CLCBIMResult:
    """CLCB-IM-N with ties between edge LCBs broken toward larger edge ids (above 0)."""
    ref = edge_lcbs(graph, cascades, delta)
    lcb = np.clip(ties_to_larger_ids(ref.lcb), 0.0, 1.0)
    return replace(ref, lcb=lcb, seeds=oracle(lcb))


def _im_shifted(mean_shift: int, radius_shift: int) -> Callable[..., CLCBIMResult]:
    def run(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
            delta: float) -> CLCBIMResult:
        result = im.interval_edges(graph, cascades, delta, 1.0, 1.0, mean_shift=mean_shift,
                                   radius_shift=radius_shift)
        return replace(result, seeds=oracle(result.lcb))

    return run


def _im_renamed(graph: ICGraph, cascades: NodeCascades, perm: Any
                ) -> tuple[ICGraph, NodeCascades, Any]:
    """``graph`` and ``cascades`` with node ``v`` called ``perm[v]``, and the renamed graph's
    id of every original edge."""
    sources, targets = perm[graph.sources], perm[graph.targets]
    renamed = ICGraph.from_edges(graph.nodes, sources, targets, graph.p)
    active = perm[cascades.active]
    order = np.lexsort((active, cascades.record_of_entry()))  # increasing ids per record
    data = NodeCascades(cascades.nodes, cascades.offsets, active[order], cascades.steps[order])
    return renamed, data, renamed.edge_index(sources, targets)


def _im_relabelled(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
                   delta: float) -> CLCBIMResult:
    """CLCB-IM-N on the cascades with the nodes renamed, every statistic mapped back."""
    perm, _ = relabelling(graph.nodes)
    renamed, data, edge = _im_renamed(graph, cascades, perm)
    new = edge_lcbs(renamed, data, delta)
    counters = replace(new.counters, seeded=new.counters.seeded[perm],
                       not_active_1=new.counters.not_active_1[perm],
                       neither=new.counters.neither[edge])
    estimates = replace(new.estimates, q=new.estimates.q[perm],
                        p_not=new.estimates.p_not[perm],
                        p_not_given_not=new.estimates.p_not_given_not[edge],
                        p_hat=new.estimates.p_hat[edge])
    lcb = new.lcb[edge]
    return replace(new, seeds=oracle(lcb), counters=counters, estimates=estimates,
                   q_ucb=new.q_ucb[perm], p_not_ucb=new.p_not_ucb[perm],
                   p_cond_lcb=new.p_cond_lcb[edge], lcb=lcb)


IM = Family("IM", (
    *(Mutant(f"radius-x{scale}", "radius-scale", _im_scaled(scale),
             no_power={EVERY_ID: NARROW_BERNSTEIN}) for scale in RADIUS_SCALES),
    _reused(DROPPED_UNION, "no-union-bound", im.IM_CONTROLS, DROPPED_UNION),
    _reused("optimism", "optimism", im.IM_CONTROLS),
    Mutant("counts-for-mean", "counts-for-mean", _im_counts),
    _reused("data-ignored", "ignores-data", im.IM_CONTROLS, "data-ignored"),
    _reused("oracle-first-k", "oracle-first-k", im.IM_CONTROLS),
    _reused("oracle-smallest-k", "oracle-reversed", im.IM_CONTROLS, "oracle-smallest-k"),
    _reused("oracle-random", "oracle-random", im.IM_CONTROLS),
    Mutant("oracle-fixed-ids", "oracle-fixed-ids", _im_fixed_ids),
    _reused("wrong-estimator", "printed-estimator", im.IM_CONTROLS),
    Mutant("mean-n-plus-1", "off-by-one", _im_shifted(1, 0),
           no_power={EVERY_ID: OFF_BY_ONE_BERNSTEIN}),
    Mutant("radius-n-plus-1", "off-by-one", _im_shifted(0, 1),
           no_power={EVERY_ID: OFF_BY_ONE_BERNSTEIN}),
    Mutant("ties-larger-ids", "ties-larger-ids", _im_ties, equivalent=True),
    Mutant("relabelled", "relabelled", _im_relabelled, equivalent=True),
), {
    "sum-for-mean": "the estimates are ratios of node-event counts; a count in place of a "
                    "ratio is the counts-for-mean mutant",
    "proof-constant": "the printed log(12nE/delta) is the proof's log(1/delta'), delta' = "
                      f"{IM_DELTA_PRIME} (offcmab.bounds.events)",
    "unseen-optimism": "not built for this algorithm: every cascade records every node, so "
                       "only the conditional estimate of a node seeded in every cascade can "
                       "go unobserved, and the reference then sets its edges' LCBs to 0",
})

#: Every family, in catalogue order.
FAMILIES: tuple[Family, ...] = (CLCB, CASCADE, LLM_IMPROVED, LLM_STANDARD, STREAM, IM)

#: (reference algorithm, its variant keyword) -> the family of its mutants.
_BY_REFERENCE: dict[tuple[Callable[..., Any], Any], Family] = {
    (clcb, None): CLCB, (clcb_cascade, None): CASCADE,
    (clcb_llm, "improved"): LLM_IMPROVED, (clcb_llm, "standard"): LLM_STANDARD,
    (printed_cache, None): STREAM, (clcb_im_node, None): IM,
}


def family_of(theorem: Theorem) -> Family | None:
    """The family whose mutants replace ``theorem``'s reference algorithm (``None``: none)."""
    signature = theorem.signature
    return _BY_REFERENCE.get((signature.reference, signature.keywords.get("variant")))


def spec(family: Family, mutant: Mutant) -> str:
    """The ``module:FAMILY.attribute`` target that names ``mutant`` to worker processes."""
    return f"{__name__}:{family.name}.{mutant.attribute}"


def no_power_reason(theorem: Theorem, mutant: Mutant) -> str | None:
    """Why no runnable size of ``theorem``'s instances can kill ``mutant`` (``None``: one
    should): the mutant's own reason for this id, else, for a mutant that is one of the
    theorem's controls, the record's reason for that control."""
    own = mutant.no_power_reason(theorem.id)
    if own is not None or mutant.control is None:
        return own
    return theorem.no_power.get(mutant.control)


def skipped(theorem: Theorem, mutant: Mutant) -> str | None:
    """Why ``theorem`` skips ``mutant`` (a reused control its record leaves out), else None."""
    if mutant.control is None or theorem.controls.get(mutant.control) is mutant.function:
        return None
    return f"the theorem's record leaves the control {mutant.control!r} out"
