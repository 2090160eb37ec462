r"""The oracles' promise, checked on the oracle objects the scenarios hand to the subjects.

An :math:`\alpha`-approximate oracle called with weights :math:`w` promises
:math:`r(S; w) \ge \alpha\max_{S'} r(S'; w)` (``eq:def_oracle``); step (b) of the proof of
``thm:upper_bound`` (and step (2) of ``apdx_sec:app_IM_node``) uses it at :math:`w` = the
algorithm's LCBs.  Every row here takes the chosen action's value and the exact optimum
from the independent evaluator (:mod:`offcmab.validation.evaluator`: every feasible action
of a small instance, rewards in closed form or by live-edge enumeration), never from the
oracle's own code.  An action that is not feasible fails the trial.

``event-oracle-promise``
    The oracle the scenario hands over (``setup.oracle`` of a CMAB-T instance, the exact
    brute-force IM oracle of the node-level scenario), called with weights drawn uniformly
    from the grid :math:`\{0, 0.1, \dots, 1\}` (ties occur).  These oracles are exact: promise
    0, one shortfall fails the row.  It catches an oracle that returns a fixed action
    (first or last ``k``), minimizes, or picks at random; it cannot catch an algorithm that
    bypasses the oracle (see the choice rows).  It checks the package's own oracle, not the
    algorithm, so it runs in reference runs only (``subject_free``).
``event-oracle-imm``
    The IMM oracle object the node-level IM scenario hands to the subject on its IMM
    instance (:class:`offcmab.reference.im.oracles.IMMOracle`), grid weights as above, with
    :math:`\alpha = 1-1/e-\varepsilon`.  Its guarantee holds with probability
    :math:`1-\delta'` over its own randomness, so each trial redraws the object's ``seed``
    (the trials are then independent) and the row is the exact binomial test at
    :math:`\delta'`.  It catches an IMM whose approximation fails more often than
    :math:`\delta'`; it cannot see a failure rate below the row's detectable rate.  Like
    the promise rows it runs in reference runs only.  On this six-node graph the hub has
    id 0 and every seed set spreads at least ``k``, so even an oracle returning the first
    ``k`` ids meets :math:`\alpha`: the two rows below give the promise its power.
``event-oracle-imm-exact``
    The same IMM oracle (as the node-level scenario builds it for an IMM instance) on a
    fresh graph per trial
    (:func:`~offcmab.validation.scenarios.oracle_instances.small_hub_graph`: nine nodes,
    three hubs of equal out-degree of which the weights make ``k`` strong, every id
    relabeled by a random permutation), called with the graph's edge
    probabilities, against the exact optimum of the evaluator.  Per trial a correct IMM
    falls short with probability at most :math:`\delta'` whatever the graph, so the row is
    the exact binomial test at :math:`\delta'`.  An oracle that returns fixed ids (the
    ``k`` smallest), random seeds, or seeds chosen from the structure without the weights
    falls below :math:`\alpha` on most graphs.
``event-oracle-imm-celf``
    The same at 300 nodes
    (:func:`~offcmab.validation.scenarios.oracle_instances.large_hub_graph`), too many
    for exact spreads: IMM's seeds against a CELF lazy-greedy baseline
    (:mod:`offcmab.validation.events.celf`) on fresh reverse-reachable sets.  The baseline
    spreads at most the optimum, so :math:`\sigma(S_{IMM}) \ge \alpha\sigma(S_{CELF})` is
    implied by the promise.  Both spreads are estimated by the evaluator's own forward
    simulation (:mod:`offcmab.validation.evaluator.sampled_spread`, a Bernoulli indicator
    per sampled world), and a trial fails only when the upper Clopper-Pearson limit of
    IMM's spread is below :math:`\alpha` times the lower limit of the baseline's, each
    limit wrong with probability at most :data:`ETA`: per trial, a correct IMM fails with
    probability at most :math:`\delta' + 2\,\mathrm{ETA}`, the row's promised rate.
``event-oracle-opim-exact`` and ``event-oracle-opim-celf``
    The same two rows for the OPIM-C oracle
    (:class:`offcmab.reference.im.opim.OPIMOracle`), which the node-level scenario hands over
    for an instance whose ``oracle`` is ``"opim"``: the same promise
    :math:`\alpha = 1-1/e-\varepsilon` at the same failure probability :math:`\delta'`
    (plus :math:`2\,\mathrm{ETA}` on the CELF row), on the same fresh graphs.
``event-oracle-choice`` (CLCB) and ``event-oracle-choice-cascade`` (CLCB-Cascade)
    Each trial renames the instance's ids by a fresh random permutation
    (:func:`~offcmab.validation.scenarios.oracle_instances.relabel_cmabt`: paths, items or
    nodes), so the best action of the LCBs sits at the first ids in few trials.  The
    subject runs on a dataset as its theorem calls it; on the LCBs it returns, both the
    action it returned and the scenario's oracle's action must reach the optimum (exact
    oracles: promise 0).  Rewards are the closed forms on the LCBs themselves, which may
    leave :math:`[0,1]` (the proof applies the oracle there): k-path sums as they are,
    cascade weights capped at 1 (the reward then stays increasing in each weight),
    edge-level IM probabilities clipped to :math:`[0,1]` as the oracle clips them.  It catches
    a subject that computes LCBs and then calls a broken oracle, or none (first, last,
    reversed or random ``k``, the ``k`` smallest ids); it cannot catch a subject whose
    reported ``lcb`` is the very
    index its oracle saw (a wrong index is the arm rows' business), and it is ``n/a`` for a
    subject that exposes no ``lcb``.
``event-im-oracle-step`` on ``star-and-chain-relabeled`` (CLCB-IM-N)
    The oracle step of the node-level proof on the subject's own edge LCBs (as the row of
    :mod:`offcmab.validation.events.im_node` checks it on the six-node graph), with the
    graph's nodes relabeled by a fresh random permutation in every trial, so that the
    seeds a fixed-id oracle returns are rarely the best for the LCBs.
``event-oracle-topk``
    :class:`offcmab.reference.oracles.TopK` (CLCB-Cascade's oracle, which its subject never
    receives) on grid weights at a size too large to enumerate: the chosen sum equals the
    sum of the ``k`` largest weights.  Promise 0.

Each builder takes the oracle (or the subject) under test as an argument, so a broken
oracle (:mod:`offcmab.validation.controls.oracles`) is checked the same way.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt

from offcmab.reference.im.oracles import sample_rr_sets
from offcmab.reference.oracles import TopK
from offcmab.validation.evaluator import feasible
from offcmab.validation.evaluator.cmab import cascade_rewards
from offcmab.validation.evaluator.sampled_spread import reach_hits
from offcmab.validation.evaluator.spread import spreads
from offcmab.validation.events import arms
from offcmab.validation.events.celf import lazy_greedy
from offcmab.validation.events.im_node import oracle_step_fails
from offcmab.validation.events.subject import node_choice, require
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.parts.verdict import clopper_pearson
from offcmab.validation.scenarios import cmabt
from offcmab.validation.scenarios.im import (
    build,
    exact_oracle,
    ic_graph,
    instance_oracle,
    star_and_chain,
)
from offcmab.validation.scenarios.oracle_instances import (
    HubGraph,
    large_hub_graph,
    relabel_cmabt,
    relabel_node_instance,
    small_hub_graph,
)
from offcmab.validation.scenarios.traps import imm_oracle

ROUNDING = 1e-12

#: Grid weights take the values 0, 1/GRID, ..., 1.
GRID = 10

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Feasible:
    """Every feasible action of a small instance (one per row) and their rewards on weights.

    ``values(w)`` is the reward of every row under weights ``w``, by the evaluator's route.
    """

    actions: npt.NDArray[np.int64]
    values: Callable[[FloatArray], FloatArray]
    size: int  # the length of a weight vector

    @functools.cached_property
    def rows(self) -> dict[tuple[int, ...], int]:
        """The row of each feasible action, keyed by its sorted ids."""
        return {tuple(sorted(row)): i for i, row in enumerate(self.actions.tolist())}


def _cascade_values(actions: npt.NDArray[np.int64]) -> Callable[[FloatArray], FloatArray]:
    def values(w: FloatArray) -> FloatArray:
        capped = np.minimum(w, 1.0)  # 1 - w >= 0: the reward increases in every weight
        with np.errstate(invalid="ignore", over="ignore"):
            found = cascade_rewards(capped, actions)
        return np.where(np.any(capped[actions] == 1.0, axis=1), 1.0, found)

    return values


def _sum_values(actions: npt.NDArray[np.int64]) -> Callable[[FloatArray], FloatArray]:
    def values(w: FloatArray) -> FloatArray:
        with np.errstate(invalid="ignore"):
            found = w[actions].sum(axis=1)
        return np.where(np.isnan(found), -np.inf, found)  # +inf and -inf: nothing certified

    return values


def _spread_values(graph: Mapping[str, Any],
                   actions: npt.NDArray[np.int64]) -> Callable[[FloatArray], FloatArray]:
    # A weight vector holds one probability per edge in (source, target) order, the order
    # of the graph handed to the subject and its oracle.
    sources, targets = np.asarray(graph["sources"]), np.asarray(graph["targets"])
    order = np.lexsort((targets, sources))

    def values(w: FloatArray) -> FloatArray:
        return spreads(graph["nodes"], sources[order].tolist(), targets[order].tolist(),
                       np.clip(w, 0.0, 1.0).tolist(), actions)

    return values


def cmabt_feasible(params: Mapping[str, Any]) -> Feasible:
    """The feasible actions of a CMAB-T instance (cascade, k-path, edge-level IM)."""
    k = int(params["k"])
    if params["family"] == "kpath":
        actions = feasible.paths(len(params["path_means"]), k)
        return Feasible(actions, _sum_values(actions), actions.size)
    if params["family"] == "cascade":
        m = len(params["mu"])
        actions = feasible.subsets(m, k)
        return Feasible(actions, _cascade_values(actions), m)
    return node_feasible(params["graph"], k)


def node_feasible(graph: Mapping[str, Any], k: int) -> Feasible:
    """Every seed set of ``k`` nodes, valued by the exact spread under edge weights."""
    actions = feasible.subsets(int(graph["nodes"]), k)
    return Feasible(actions, _spread_values(graph, actions), len(graph["p"]))


def shortfall(space: Feasible, action: npt.ArrayLike, weights: FloatArray,
              alpha: float) -> bool:
    r"""Whether ``action`` is infeasible or below :math:`\alpha\max_S r(S; w)` (rounding aside)."""
    ids = np.asarray(action).ravel()
    if ids.dtype.kind not in "iu" or np.unique(ids).size != ids.size:
        return True
    row = space.rows.get(tuple(sorted(int(i) for i in ids)))
    if row is None:
        return True
    values = space.values(weights)
    best = float(np.max(values))
    if best == -math.inf:
        return False
    return bool(values[row] < alpha * best - ROUNDING * (1.0 + abs(best)))


def _fresh(oracle: Any, rng: np.random.Generator) -> Any:
    """``oracle`` with its ``seed`` redrawn, when it has one (a randomized oracle)."""
    if (dataclasses.is_dataclass(oracle) and not isinstance(oracle, type)
            and any(f.name == "seed" for f in dataclasses.fields(oracle))):
        return dataclasses.replace(oracle, seed=int(rng.integers(2**63)))
    return oracle


def promise_case(event_id: str, instance: str, space: Feasible, oracle: Any, algorithm: str,
                 failure: float = 0.0) -> EventCase:
    """The oracle's promise on grid weights, against the evaluator's optimum."""
    alpha = float(oracle.alpha)

    def draw(rng: np.random.Generator) -> bool:
        weights = rng.integers(0, GRID + 1, space.size) / GRID
        return shortfall(space, _fresh(oracle, rng)(weights), weights, alpha)

    return EventCase(event_id, (), algorithm, "eq:def_oracle",
                     f"r(ORACLE(w); w) >= {alpha:.4g} max_S r(S; w), w on a 0.1 grid, "
                     "exact optimum by the evaluator", instance, space.size, failure, failure,
                     draw, subject_free=True)


def choice_case(event_id: str, instance: str, params: Mapping[str, Any], n: int, delta: float,
                subject: Callable[..., Any], spec: str, cascade: bool = False) -> EventCase:
    """The subject's action and the scenario's oracle, both exact on the subject's LCBs, with
    the instance's ids relabeled by a fresh permutation in every trial."""

    def draw(rng: np.random.Generator) -> bool:
        relabeled = relabel_cmabt(params, rng)
        setup = cmabt.build(relabeled)
        space = cmabt_feasible(relabeled)
        second = int(params["k"]) if cascade else setup.oracle
        result = require(subject(setup.law.sample(n, rng), second, delta), ("lcb",), spec)
        action = cmabt.checked_action(setup.problem, result, spec)
        lcb = np.asarray(result.lcb, dtype=np.float64)
        return (shortfall(space, action, lcb, 1.0)
                or shortfall(space, setup.oracle(lcb), lcb, 1.0))

    return EventCase(event_id, (), spec, "thm:upper_bound proof step (b), eq:def_oracle",
                     "r(S_hat; lcb) = max_S r(S; lcb) and r(ORACLE(lcb); lcb) = max_S "
                     "r(S; lcb) on the subject's own LCBs (exact oracle), ids relabeled by "
                     "a random permutation in every trial", instance, n, delta, 0.0, draw)


def topk_case(m: int, k: int, oracle: Any = None) -> EventCase:
    """Top-k exactness on random grid-valued weights (``oracle``: TopK(k) unless given)."""
    chosen_by = oracle or TopK(k)

    def draw(rng: np.random.Generator) -> bool:
        weights = rng.integers(0, GRID, m) / GRID
        chosen = np.asarray(chosen_by(weights))
        best = float(np.sort(weights)[::-1][:k].sum())
        valid = chosen.size == k and np.unique(chosen).size == k
        return not (valid and float(weights[chosen].sum()) >= best - ROUNDING)

    return EventCase("event-oracle-topk", (),
                     "offcmab.reference.oracles.TopK", "alg:CLCB_cascade (Top-k exact)",
                     "sum of the chosen k weights = sum of the k largest", f"m{m}-k{k}", m,
                     0.0, 0.0, draw, subject_free=True)


def topk_cases() -> list[EventCase]:
    """Top-k exactness on two shapes."""
    return [topk_case(10, 3), topk_case(100, 40)]


CMABT_INSTANCES: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("kpath-close", arms.CLOSE), ("cascade-ood", arms.OOD), ("im-edge", arms.im_edge_params()))


def cmabt_cases(profile: str, subject: Callable[..., Any], spec: str,
                oracle: Callable[[Any], Any] | None = None) -> list[EventCase]:
    """Theorem 1: the scenario's oracle on grid weights and the choice on the LCBs, on
    k-path, cascade and edge-level IM instances.

    ``subject`` is the algorithm in CLCB's place (named ``spec``; the reference CLCB in a
    reference run); ``oracle(setup)`` replaces the oracle under test in the promise rows
    (the scenario's ``setup.oracle`` by default).
    """
    pick = oracle or (lambda setup: setup.oracle)
    promise = [promise_case("event-oracle-promise", name, cmabt_feasible(params),
                            pick(cmabt.build(params)), f"{name}: the scenario's oracle")
               for name, params in CMABT_INSTANCES]
    choice = [choice_case("event-oracle-choice", name, params, arms.size(profile), 0.05,
                          subject, spec)
              for name, params in CMABT_INSTANCES]
    return promise + choice


def cascade_cases(profile: str, subject: Callable[..., Any], spec: str) -> list[EventCase]:
    """Corollary 1: top-k exactness (two shapes, and the cascade reward on the
    out-of-distribution instance) and the choice on the LCBs of ``subject`` (in
    CLCB-Cascade's place, named ``spec``)."""
    return [*topk_cases(),
            promise_case("event-oracle-promise", "cascade-ood", cmabt_feasible(arms.OOD),
                         cmabt.build(arms.OOD).oracle, "cascade-ood: the scenario's oracle"),
            choice_case("event-oracle-choice-cascade", "cascade-ood", arms.OOD,
                        arms.size(profile), 0.05, subject, spec, cascade=True)]


def im_cases(profile: str = "default", oracle: Callable[[Any, int], Any] | None = None,
             imm: Callable[[Any], Any] | None = None) -> list[EventCase]:
    """Theorem 4: the exact oracle of the six-node graph on grid weights, and the IMM oracle
    object the scenario hands over on its IMM instance; then IMM and OPIM-C, each against the
    exact optimum on fresh relabeled graphs and against a CELF baseline at 300 nodes
    (``oracle(graph, k)`` and ``imm(oracle)`` replace them, e.g. by a broken oracle)."""
    params, imm_params = star_and_chain(), imm_oracle()
    k = int(params["k"])
    graph = build(params).graph
    exact = (oracle or exact_oracle)(graph, k)
    handed = instance_oracle(imm_params, build(imm_params))
    tested = imm(handed) if imm else handed
    return [promise_case("event-oracle-promise", "star-and-chain", node_feasible(params, k),
                         exact, "star-and-chain: the scenario's exact oracle"),
            promise_case("event-oracle-imm", "trap-imm-oracle", node_feasible(imm_params, k),
                         tested, "trap-imm-oracle: the scenario's IMMOracle",
                         float(handed.delta_prime)),
            *(case(profile, imm, kind) for kind in SAMPLED_ORACLES
              for case in (imm_exact_case, imm_celf_case))]


#: Each confidence limit of the CELF row misses the true spread with probability at most ETA.
ETA = 1e-3

#: RR sets behind the CELF baseline; sampled (live-edge world, node) pairs per spread estimate.
BASELINE_SETS, WORLDS = 20000, 4096

#: Trials of the exact IMM row (about 50 ms each: IMM and every seed set's exact spread)
#: and of the CELF row (about 150 ms each: IMM, the baseline and two estimates).
EXACT_TRIALS = {"quick": 20, "default": 40, "full": 120}
CELF_TRIALS = {"quick": 8, "default": 16, "full": 48}


#: The sampled oracles the node-level scenario can hand over: its name in an instance's
#: ``oracle`` parameter, the rows' label and the class it is.
SAMPLED_ORACLES = {"imm": ("IMM", "offcmab.reference.im.oracles.IMMOracle"),
                   "opim": ("OPIM-C", "offcmab.reference.im.opim.OPIMOracle")}


def handed_imm(hub: HubGraph, kind: str = "imm") -> tuple[Any, FloatArray]:
    """The sampled oracle (``kind``: IMM or OPIM-C) the node-level scenario hands over for
    ``hub``'s graph (knowing its structure, not its probabilities), and the weights it is
    called with (the graph's)."""
    graph = ic_graph(hub.params)
    structure = graph.with_probabilities(np.zeros(graph.edges))
    problem = SimpleNamespace(graph=structure, k=int(hub.params["k"]))
    return instance_oracle({"oracle": kind}, problem), graph.p


def _tested(hub: HubGraph, imm: Callable[[Any], Any] | None, rng: np.random.Generator,
            kind: str) -> tuple[Any, FloatArray]:
    handed, weights = handed_imm(hub, kind)
    return _fresh(imm(handed) if imm else handed, rng), weights


def imm_exact_case(profile: str, imm: Callable[[Any], Any] | None = None,
                   kind: str = "imm") -> EventCase:
    r"""IMM's promise against the exact optimum, on a fresh relabeled hub graph per trial.

    Each trial draws a graph of
    :func:`~offcmab.validation.scenarios.oracle_instances.small_hub_graph` (nine nodes, the
    strong hubs at ids drawn at random) and a fresh IMM seed; IMM fails its
    promise with probability at most :math:`\delta'` on every graph, so the failures of the
    independent trials are below :math:`\mathrm{Binomial}(T, \delta')`.  ``imm`` replaces
    the handed oracle (e.g. by a broken one).
    """
    sample, _ = handed_imm(small_hub_graph(np.random.default_rng(0)), kind)
    label, spec = SAMPLED_ORACLES[kind]

    def draw(rng: np.random.Generator) -> bool:
        hub = small_hub_graph(rng)
        oracle, weights = _tested(hub, imm, rng, kind)
        space = node_feasible(hub.params, int(hub.params["k"]))
        return shortfall(space, oracle(weights), weights, float(sample.alpha))

    return EventCase(f"event-oracle-{kind}-exact", (), spec, "eq:def_oracle",
                     f"sigma({label}(w); w) >= {sample.alpha:.4g} max_S sigma(S; w), a fresh "
                     "9-node graph per trial with its strong hubs at random ids, exact "
                     "optimum by the evaluator", "relabeled-hub-graphs-9", 9,
                     float(sample.delta_prime), float(sample.delta_prime), draw,
                     trials=EXACT_TRIALS[profile], subject_free=True)


def celf_shortfall(hub: HubGraph, seeds: Any, alpha: float, rng: np.random.Generator) -> bool:
    r"""Whether ``seeds`` is infeasible or certainly below :math:`\alpha\sigma(S_{CELF})`:
    the upper confidence limit of its spread below :math:`\alpha` times the baseline's lower
    limit (each limit wrong with probability at most :data:`ETA`)."""
    params = hub.params
    nodes, k = int(params["nodes"]), int(params["k"])
    ids = np.asarray(seeds).ravel()
    if (ids.dtype.kind not in "iu" or ids.size != k or np.unique(ids).size != k
            or ids.min() < 0 or ids.max() >= nodes):
        return True
    graph = ic_graph(params)
    baseline = lazy_greedy(sample_rr_sets(graph.reversed(), BASELINE_SETS, rng), k)
    hits = [reach_hits(nodes, params["sources"], params["targets"], params["p"], chosen,
                       WORLDS, rng) for chosen in (ids, baseline)]
    _, upper = clopper_pearson(hits[0], WORLDS, ETA)
    lower, _ = clopper_pearson(hits[1], WORLDS, ETA)
    return upper < alpha * lower


def imm_celf_case(profile: str, imm: Callable[[Any], Any] | None = None,
                  kind: str = "imm") -> EventCase:
    r"""IMM's promise against a CELF greedy baseline on a fresh 300-node graph per trial.

    A trial fails when the spread of IMM's seeds is certainly below :math:`\alpha` times
    the baseline's (:func:`celf_shortfall`).  Since the baseline spreads at most the
    optimum, a trial of a correct IMM fails only if IMM misses its promise or one of the
    two confidence limits is wrong: probability at most :math:`\delta' + 2\,` :data:`ETA`.
    """
    sample, _ = handed_imm(large_hub_graph(np.random.default_rng(0)), kind)
    alpha, failure = float(sample.alpha), float(sample.delta_prime) + 2.0 * ETA
    label, spec = SAMPLED_ORACLES[kind]

    def draw(rng: np.random.Generator) -> bool:
        hub = large_hub_graph(rng)
        oracle, weights = _tested(hub, imm, rng, kind)
        return celf_shortfall(hub, oracle(weights), alpha, rng)

    return EventCase(f"event-oracle-{kind}-celf", (), spec, "eq:def_oracle",
                     f"sigma({label}(w)) >= {alpha:.4g} sigma(S_CELF), a fresh 300-node graph per "
                     f"trial with its strong hubs at random ids; spreads by {WORLDS} sampled "
                     f"worlds, Clopper-Pearson limits at {ETA:g} each", "relabeled-hub-graphs-300",
                     300, float(sample.delta_prime), failure, draw,
                     trials=CELF_TRIALS[profile], subject_free=True)


#: Dataset size and trials of the relabeled oracle-step row (as the six-node graph's own).
STEP_N, STEP_TRIALS = 20000, 10


def relabeled_step_case(subject: Callable[..., Any], spec: str) -> EventCase:
    r"""CLCB-IM-N's oracle step on its own LCBs, the six-node graph relabeled in every trial.

    Each trial renames the nodes of
    :func:`~offcmab.validation.scenarios.im.star_and_chain` by a fresh random permutation
    (:func:`~offcmab.validation.scenarios.oracle_instances.relabel_node_instance`), runs the
    subject as Theorem 4 calls it with the exact oracle on :data:`STEP_N` cascades, and
    fails when its seeds fall short of the best seeds on the graph weighted by its own
    edge LCBs (exact oracle, promise 0).  The hub is at id 0 in one trial of six, so a
    subject whose seeds are fixed ids (the ``k`` smallest) fails most trials; ``subject``
    replaces CLCB-IM-N (named ``spec``), and the row is ``n/a`` for a subject that exposes
    no ``lcb``.
    """
    run = node_choice(subject, spec)

    def draw(rng: np.random.Generator) -> bool:
        params = relabel_node_instance(star_and_chain(), rng)
        problem = build(params)
        graph, k = problem.graph, int(params["k"])
        hidden = graph.with_probabilities(np.zeros(graph.edges))  # the subject sees no truth
        result = run(hidden, problem.sample(STEP_N, rng), exact_oracle(graph, k), 0.05)
        return oracle_step_fails(result, graph, k)

    return EventCase("event-im-oracle-step", (), "offcmab.reference.im.clcb_im_node",
                     "apdx_sec:app_IM_node step (2)",
                     "sigma_LCB(S_hat) >= max_S sigma_LCB(S) (exact oracle, alpha = 1), "
                     "nodes relabeled by a random permutation in every trial",
                     "star-and-chain-relabeled", STEP_N, 0.05, 0.0, draw, trials=STEP_TRIALS)
