r"""Influence maximization with node-level feedback (Theorem 4): CLCB-IM-N.

Each trial draws ``n`` node-level cascades (seeds from the product law ``q``, then
independent-cascade diffusion) with :func:`offcmab.reference.im.data.sample_node_cascades`,
runs :func:`offcmab.reference.im.clcb_im_node.clcb_im_node` (its ``THEORY`` names Theorem 4) and
measures :math:`\alpha\sigma(S^*;G) - \sigma(\hat S;G)`.

The instance is an :class:`offcmab.reference.im.problem.NodeLevelIM`; its graphs are small
enough for exact spreads (live-edge enumeration), so the gap is exact and the
estimation error carried into the verdict (``gap_error``, the spread's standard error)
is 0.  The oracle is exact too: :class:`offcmab.reference.oracles.BruteForceOracle` over every
seed set of size ``k`` with the exact spread on the LCB graph (:math:`\alpha = 1`, a
stricter check than IMM's :math:`1-1/e-\varepsilon`).  The bound's parameters come
from ``NodeLevelIM.theorem_parameters`` (tightest :math:`\gamma, \eta` of the paper's
assumption, exact :math:`\sigma^*`, :math:`d_{\max}`).

The theorem's sample-size condition is
:math:`n \ge 392\log(12nE/\delta)/(\eta\gamma)` (1536 in the proved variant).  Even
here it asks for tens of thousands of cascades; grids start there.

Every instance but the trap has its node ids relabelled by a seeded permutation
(``permutation`` in its params: node ``i`` as first drawn is node ``permutation[i]``; the
trap keeps its first order, and so does the six-node graph of the event rows), and each
run draws
region instances (:func:`region_instances`): graphs where a node has several parents,
and a graph whose data never inform the out-edges of one node (never or always a seed)
while the optimum's hub is rarely seeded.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
from hypothesis import strategies as st

from offcmab.bounds.bound import Bound
from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.im.exact import exact_spread
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.one_step import assumption_parameters, one_step_probabilities
from offcmab.reference.im.opim import OPIMOracle
from offcmab.reference.im.oracles import IMMOracle
from offcmab.reference.im.problem import NodeLevelIM
from offcmab.reference.oracles import BruteForceOracle
from offcmab.validation.actions import as_action
from offcmab.validation.evaluator import influence
from offcmab.validation.evaluator.crosscheck import agree
from offcmab.validation.evaluator.extremes import Extremes
from offcmab.validation.parts.scenario import BoundValue, Kind, MaxGap, Subject, TrialOutcome
from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.regions import (
    MULTI_PARENT,
    RARE_OPTIMUM,
    RELABELED,
    TIES_AND_EXTREMES,
    UNOBSERVED_ARMS,
)
from offcmab.validation.scenarios import permutations
from offcmab.validation.scenarios.common import (
    Traps,
    bound_value,
    generated_instances,
    scenario_seed,
)
from offcmab.validation.scenarios.permutations import composed, is_relabeled, moving_permutation

GRIDS: dict[str, tuple[int, ...]] = {
    "quick": (45000,),
    "default": (60000,),
    "full": (60000, 250000),
}

#: The rate row's instance and grid (every profile): the six-node graph where CLCB-IM-N's
#: gap drops from its pessimistic choice to 0 within the grid, cheap at these sizes.
RATE_INSTANCE = "star-and-chain-rate"
RATE_GRID = (1000, 4000, 16000, 64000)


def rate_factor(instance: Instance, n: int) -> float:
    r"""The logarithmic factor of Theorem 4's bound, :math:`\sqrt{\log(12nE/\delta)}`."""
    edges = len(instance.params["sources"])
    return float(np.sqrt(np.log(12 * n * edges / instance.delta)))


_CACHE: dict[str, Any] = {}


def build(params: Mapping[str, Any]) -> Any:
    """The :class:`offcmab.reference.im.problem.NodeLevelIM` of an instance (cached)."""
    key = json.dumps(params, sort_keys=True)
    if key not in _CACHE:
        _CACHE[key] = NodeLevelIM(ic_graph(params), np.asarray(params["q"], dtype=float),
                                  params["k"])
    return _CACHE[key]


def seed_gap(problem: Any, alpha: float, seeds: IntArray) -> tuple[float, float]:
    r"""A trial's gap :math:`\alpha\sigma(S^*) - \sigma(S)` and its standard error (0: exact)."""
    spread = problem.spread(seeds)
    return alpha * problem.sigma_star - spread.spread, spread.stderr


_EVALUATION: dict[str, Extremes] = {}


def evaluation(params: Mapping[str, Any]) -> Extremes:
    r"""The independent evaluator's extremes of the spread, against the instance's oracle.

    :math:`\alpha` is the ratio of the oracle the instance names (1 for brute force,
    :math:`1-1/e-\varepsilon` for IMM).  The first call per instance compares
    :func:`seed_gap` with the evaluator's gap (live-edge enumeration of
    :mod:`offcmab.validation.evaluator.spread`) on the best, the worst and the first seed
    set; a disagreement is an :class:`~offcmab.validation.evaluator.crosscheck.InternalError`.
    """
    key = json.dumps(params, sort_keys=True)
    if key not in _EVALUATION:
        problem = build(params)
        alpha = float(instance_oracle(params, problem).alpha)
        found = influence.extremes(params, alpha)
        for seeds in (found.best_action, found.worst_action, tuple(range(params["k"]))):
            agree(f"gap of seed set {list(seeds)}",
                  seed_gap(problem, alpha, np.asarray(seeds, dtype=np.int64))[0],
                  found.gap(influence.spread(params, seeds)))
        _EVALUATION[key] = found
    return _EVALUATION[key]


def positive_gap(params: Mapping[str, Any]) -> bool:
    """Whether some seed set of ``k`` spreads less than the best (brute-force oracle)."""
    return influence.extremes(params, 1.0).max_gap > 0.0


def exact_oracle(graph: Any, k: int) -> Any:
    """Exact IM oracle on a weight vector (one probability per edge of ``graph``).

    :class:`offcmab.reference.oracles.BruteForceOracle` over every seed set of size ``k``,
    scoring each by the exact spread on the graph reweighted by the (clipped) weights.
    """
    def spread(action: IntArray, weights: FloatArray) -> float:
        return exact_spread(graph.with_probabilities(np.clip(weights, 0.0, 1.0)), action)

    return BruteForceOracle(tuple(combinations(range(graph.nodes), k)), spread)


def instance_oracle(params: Mapping[str, Any], problem: Any) -> Any:
    """The oracle an instance names: exact brute force (default), IMM (``"imm"``) or OPIM-C
    (``"opim"``).

    IMM is :class:`offcmab.reference.im.oracles.IMMOracle` and OPIM-C
    :class:`offcmab.reference.im.opim.OPIMOracle`, each with its defaults
    (:math:`\alpha = 1 - 1/e - \varepsilon`, failure ``delta_prime``), run on the
    graph's structure with the weights it is given.
    """
    kind = params.get("oracle", "exact")
    if kind == "imm":
        return IMMOracle(problem.graph, problem.k)
    if kind == "opim":
        return OPIMOracle(problem.graph, problem.k)
    return exact_oracle(problem.graph, problem.k)


_STRUCTURE: dict[str, Any] = {}


def structure(params: Mapping[str, Any]) -> Any:
    """The instance's graph with every edge probability 0: what an algorithm may know.

    The algorithm learns the probabilities from the cascades only (the reference
    ignores the graph's own), so a substituted algorithm is not shown the truth.
    """
    key = json.dumps(params, sort_keys=True)
    if key not in _STRUCTURE:
        graph = build(params).graph
        _STRUCTURE[key] = graph.with_probabilities(np.zeros(graph.edges))
    return _STRUCTURE[key]


def ic_graph(params: Mapping[str, Any]) -> Any:
    """The :class:`offcmab.reference.im.graph.ICGraph` of an instance's parameters."""
    return ICGraph.from_edges(params["nodes"], params["sources"], params["targets"],
                              params["p"])


def star_and_chain() -> dict[str, Any]:
    """Six nodes: a hub with three leaves, a chain of two, one isolated node; k = 2."""
    sources = [0, 0, 0, 3, 4, 1]
    targets = [1, 2, 3, 4, 5, 2]
    return {"nodes": 6, "sources": sources, "targets": targets,
            "p": [0.6, 0.5, 0.4, 0.7, 0.5, 0.3], "q": [0.5] * 6, "k": 2}


def permuted(params: Mapping[str, Any], permutation: Any) -> dict[str, Any]:
    """``params`` with node ``i`` renamed ``permutation[i]`` (recorded under ``permutation``,
    composed with one already recorded); edges keep their order and probabilities."""
    labels = [int(j) for j in permutation]
    q = np.empty(len(labels))
    q[labels] = params["q"]
    return dict(params) | {"sources": [labels[u] for u in params["sources"]],
                           "targets": [labels[v] for v in params["targets"]],
                           "q": q.tolist(),
                           "permutation": composed(params.get("permutation"), labels)}


def unpermuted(params: Mapping[str, Any]) -> dict[str, Any]:
    """The graph in the order it had before :func:`permuted` (``params`` if never)."""
    return permutations.unpermuted(params, permuted)


def shuffled(params: Mapping[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """``params`` relabelled by a random permutation of the nodes drawn from ``rng`` (see
    :func:`~offcmab.validation.scenarios.permutations.moving_permutation`)."""
    return permuted(params, moving_permutation(params["nodes"], rng))


#: An edge the optimum can trigger counts as rarely observed when its source is seeded, or
#: left out, in at most this fraction of cascades, or its target is inactive after one step
#: at most this often (:math:`\gamma` or :math:`\eta` of the theorem's assumption).
RARE = 0.15


def graph_regions(params: Mapping[str, Any]) -> frozenset[str]:
    r"""The regions of :mod:`offcmab.validation.regions` a graph instance lies in.

    Read from the instance: ``multi-parent`` when some node has two in-edges or more;
    ``unobserved-arms`` when the data never inform some edge :math:`(u, v)` (:math:`q_u` is 0
    or 1, or :math:`p(\bar v) = 0`); ``rare-optimum`` when some edge the optimum can trigger
    has :math:`\min(q_u, 1-q_u)` or :math:`p(\bar v)` in :math:`(0,` :data:`RARE` :math:`]`;
    ``ties-and-extremes`` when two edges share a probability or one is 0 or 1;
    ``relabeled`` when the node ids were permuted.
    """
    found = set()
    targets = np.asarray(params["targets"], dtype=np.int64)
    if np.bincount(targets, minlength=params["nodes"]).max() >= 2:
        found.add(MULTI_PARENT)
    problem = build(params)
    graph = problem.graph
    q = np.asarray(params["q"], dtype=float)
    exact = one_step_probabilities(graph, q)
    q_u = np.minimum(q, 1.0 - q)[graph.sources]
    p_not = exact.p_not[graph.targets]
    if np.any((q_u == 0.0) | (p_not == 0.0)):
        found.add(UNOBSERVED_ARMS)
    triggerable = assumption_parameters(graph, q, problem.optimal_seeds).triggerable
    rare = ((q_u > 0.0) & (q_u <= RARE)) | ((p_not > 0.0) & (p_not <= RARE))
    if np.any(rare & triggerable):
        found.add(RARE_OPTIMUM)
    p = np.asarray(params["p"], dtype=float)
    if np.unique(p).size < p.size or np.any((p == 0.0) | (p == 1.0)):
        found.add(TIES_AND_EXTREMES)
    if is_relabeled(params):
        found.add(RELABELED)
    return frozenset(found)


#: Edge probabilities of the multi-parent family: weak or strong.
EDGE_P = (0.1, 0.2, 0.3, 0.7, 0.8, 0.9)


def multi_parent(rng: np.random.Generator) -> dict[str, Any]:
    r"""Six nodes, ``k = 2``: nodes 4 and 5 each have the four parents 0-3, with edge
    probabilities weak or strong (:data:`EDGE_P`) and seed probabilities 0.3-0.7.

    A node with several parents is where node-level feedback is hardest to read: whether
    :math:`v` stays inactive depends on all its parents, and an estimator of
    :math:`p(\bar v\mid\bar u)` that conditions the wrong way round (the printed one)
    over-estimates a weak edge into a node with strong co-parents.  Redrawn until some
    seed set spreads less than another.
    """
    while True:
        edges = [(u, target) for u in range(4) for target in (4, 5)]
        params = {"nodes": 6, "sources": [u for u, _ in edges],
                  "targets": [v for _, v in edges],
                  "p": [float(x) for x in rng.choice(EDGE_P, len(edges))],
                  "q": [round(float(x), 1) for x in rng.uniform(0.3, 0.7, 6)], "k": 2}
        if positive_gap(params):
            return params


def unobserved_edges(rng: np.random.Generator) -> dict[str, Any]:
    """Six nodes, ``k = 1``: a hub (node 0, seeded in 10-15% of cascades) reaching leaves 1-3
    (seeded in 10%) with probabilities 0.6-0.9, and node 4, never a seed or always one, with
    out-edges of probability 0.05-0.3 to leaves 5 and 3.  The data never inform node 4's
    out-edges (the theorem allows it: the optimum, the hub, cannot trigger them), and an
    algorithm that takes an unknown edge for a sure one seeds node 4; the hub's edges are
    informed rarely, so the reference needs tens of thousands of cascades to pick it."""
    strong = [round(float(x), 2) for x in rng.uniform(0.6, 0.9, 3)]
    weak = [round(float(x), 2) for x in rng.uniform(0.05, 0.3, 2)]
    q = [round(float(rng.uniform(0.1, 0.15)), 2), 0.1, 0.1, 0.1,
         float(rng.choice([0.0, 1.0])), 0.5]
    return {"nodes": 6, "sources": [0, 0, 0, 4, 4], "targets": [1, 2, 3, 5, 3],
            "p": strong + weak, "q": q, "k": 1}


#: The region instances' grid: three sizes for a rate row, up to where the reference's gap
#: has dropped to 0 on these families.
REGION_GRID = (4000, 16000, 64000)


def region_instances(seed: int) -> list[Instance]:
    """Two multi-parent graphs and one with unobserved edges, drawn from ``seed`` and
    relabelled, on :data:`REGION_GRID`."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    drawn = [("multi-parent-0", multi_parent(rng)), ("multi-parent-1", multi_parent(rng)),
             ("unobserved-edges", unobserved_edges(rng))]
    return [Instance(name, shuffled(params, rng), 0.05, REGION_GRID, "generated")
            for name, params in drawn]


def strategy() -> Any:
    """Generated graphs: 4-6 nodes, 3-8 distinct edges, edge and seed probabilities, delta,
    the node ids relabelled by a random permutation.

    Graphs on which every seed set of ``k`` has the same spread are left out: no gap
    could exceed 0 there.
    """
    @st.composite
    def draw_graph(draw: Any) -> dict[str, Any]:
        nodes = draw(st.integers(4, 6))
        pairs = [(u, v) for u in range(nodes) for v in range(nodes) if u != v]
        chosen = draw(st.lists(st.sampled_from(pairs), min_size=3, max_size=8, unique=True))
        p = draw(st.lists(st.integers(1, 9).map(lambda x: x / 10), min_size=len(chosen),
                          max_size=len(chosen)))
        q = draw(st.lists(st.integers(2, 8).map(lambda x: x / 10), min_size=nodes,
                          max_size=nodes))
        labels = moving_permutation(nodes, np.random.default_rng(draw(st.integers(0, 2**32 - 1))))
        return permuted({"nodes": nodes, "sources": [u for u, _ in chosen],
                         "targets": [v for _, v in chosen], "p": p, "q": q,
                         "k": draw(st.integers(1, 2))}, labels)

    return st.tuples(draw_graph().filter(positive_gap), st.sampled_from((0.05, 0.1)))


def relabeled_named(instances: list[Instance], seed: int) -> list[Instance]:
    """Each named instance relabelled by a permutation drawn from ``seed`` and its name."""
    out = []
    for instance in instances:
        rng = np.random.default_rng([seed, *instance.name.encode()])
        out.append(dataclasses.replace(instance, params=shuffled(instance.params, rng)))
    return out


@dataclass(frozen=True)
class IMScenario:
    """Theorem 4 (``formula``) for CLCB-IM-N on small graphs with exact spreads."""

    formula: Bound
    traps: Traps
    kind: Kind = "upper"
    algorithm: str = "offcmab.reference.im.clcb_im_node"

    @property
    def bound_id(self) -> str:
        return str(self.formula.id)

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        grid = GRIDS[profile.name]
        first = [Instance("star-and-chain", star_and_chain(), 0.05, grid),
                 Instance(RATE_INSTANCE, star_and_chain(), 0.05, RATE_GRID,
                          note="the rate row's grid")]
        named = relabeled_named(first, seed)
        if profile.name == "quick":  # cascades are costly: the named graph only
            return named
        # the trap keeps its first order: it is where the controls must differ from the
        # reference, and a relabelling can let a tie rule of a control land on the optimum
        return (named + self.traps(profile)
                + region_instances(scenario_seed(seed, f"{self.bound_id}/regions"))
                + generated_instances(strategy(), profile, seed, self.bound_id, grid))

    def regions(self, instance: Instance) -> frozenset[str]:
        """The regions the instance lies in (:func:`graph_regions`)."""
        return graph_regions(instance.params)

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        problem = build(instance.params)
        oracle = instance_oracle(instance.params, problem)
        cascades = problem.sample(n, rng)
        result = subject.function(structure(instance.params), cascades, oracle, instance.delta)
        seeds = as_action(result, problem.graph.nodes, problem.k, subject.spec)
        return TrialOutcome(*seed_gap(problem, oracle.alpha, seeds))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        problem = build(instance.params)
        assumption = problem.assumption()
        if not assumption.holds:
            return BoundValue.not_applicable("the seed/activation assumption fails "
                                             f"(gamma={assumption.gamma}, eta={assumption.eta})")
        return bound_value(self.formula, variant,
                           problem.theorem_parameters(n, instance.delta))

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        r"""Exact :math:`\alpha\sigma(S^*) - \min_{|S| = k}\sigma(S)` (see :func:`evaluation`)."""
        found = evaluation(instance.params)
        return MaxGap(found.max_gap, True,
                      f"alpha sigma* - least spread over {found.how} (alpha {found.alpha:.4g})",
                      found.smallest_positive)

    def gap_range(self, instance: Instance, n: int) -> tuple[float, float]:
        r""":math:`[(\alpha-1)\sigma^*, \alpha\sigma^* - \min_S\sigma(S)]` (:func:`evaluation`)."""
        return evaluation(instance.params).gap_range()
