r"""Influence maximization with node-level feedback (``thm4-im``): CLCB-IM-N.

Each trial draws ``n`` node-level cascades (seeds from the product law ``q``, then
independent-cascade diffusion) with :func:`reference.im.data.sample_node_cascades`,
runs :func:`reference.im.clcb_im_node.clcb_im_node` (its ``THEORY`` names this id) and
measures :math:`\alpha\sigma(S^*;G) - \sigma(\hat S;G)`.

The graphs are small enough for exact spreads: :func:`reference.im.exact.exact_spread`
sums over every live-edge graph, so the gap is exact (no estimation error to carry)
and the oracle is exact too: :class:`reference.oracles.BruteForceOracle` over every
seed set of size ``k`` with the exact spread on the LCB graph (:math:`\alpha = 1`).
The bound's :math:`\gamma, \eta` are the tightest values of the paper's assumption
(:func:`reference.im.one_step.assumption_parameters`), :math:`\sigma^*` the exact
optimal spread, :math:`d_{\max}` the largest out-degree.

The theorem's sample-size condition (:math:`n \ge 392\log(12nE/\delta)/(\eta\gamma)`,
1536 in the proved variant) needs tens of thousands of cascades even here; grids
start there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from reference.dataset import FloatArray, IntArray
from validation.runner.scenario import BoundValue, Kind, TrialOutcome
from validation.runner.spec import Instance, Profile
from validation.scenarios.common import bound_value, generated_instances

GRIDS: dict[str, tuple[int, ...]] = {
    "quick": (60000,),
    "default": (60000, 250000),
    "full": (60000, 250000, 1000000),
}


@dataclass(frozen=True)
class Setup:
    """The graph, seed law and exact optimum of an instance."""

    graph: Any
    q: np.ndarray
    k: int
    optimal: np.ndarray
    sigma_star: float


_CACHE: dict[str, Setup] = {}


def build(params: Mapping[str, Any]) -> Setup:
    """Graph, seed probabilities and the exact optimum (cached)."""
    key = json.dumps(params, sort_keys=True)
    if key not in _CACHE:
        from reference.im.exact import brute_force_im
        from reference.im.graph import ICGraph

        graph = ICGraph.from_edges(params["nodes"], params["sources"], params["targets"],
                                   params["p"])
        optimal, sigma = brute_force_im(graph, params["k"])
        _CACHE[key] = Setup(graph, np.asarray(params["q"], dtype=float), params["k"],
                            optimal, sigma)
    return _CACHE[key]


def exact_oracle(setup: Setup) -> Any:
    """Exact IM oracle on a weight vector (one probability per edge), by enumeration."""
    from reference.im.exact import exact_spread
    from reference.oracles import BruteForceOracle

    structure = setup.graph

    def spread(action: IntArray, weights: FloatArray) -> float:
        return exact_spread(structure.with_probabilities(np.clip(weights, 0.0, 1.0)), action)

    subsets = tuple(combinations(range(structure.nodes), setup.k))
    return BruteForceOracle(subsets, spread)


def star_and_chain() -> dict[str, Any]:
    """Six nodes: a hub with three leaves, a chain of two, one isolated node; k = 2."""
    sources = [0, 0, 0, 3, 4, 1]
    targets = [1, 2, 3, 4, 5, 2]
    return {"nodes": 6, "sources": sources, "targets": targets,
            "p": [0.6, 0.5, 0.4, 0.7, 0.5, 0.3], "q": [0.5] * 6, "k": 2}


def strategy() -> Any:
    """Generated graphs: 4-6 nodes, 3-8 distinct edges, edge and seed probabilities, delta."""
    from hypothesis import strategies as st

    @st.composite
    def draw_graph(draw: Any) -> dict[str, Any]:
        nodes = draw(st.integers(4, 6))
        pairs = [(u, v) for u in range(nodes) for v in range(nodes) if u != v]
        chosen = draw(st.lists(st.sampled_from(pairs), min_size=3, max_size=8, unique=True))
        p = draw(st.lists(st.integers(1, 9).map(lambda x: x / 10), min_size=len(chosen),
                          max_size=len(chosen)))
        q = draw(st.lists(st.integers(2, 8).map(lambda x: x / 10), min_size=nodes,
                          max_size=nodes))
        return {"nodes": nodes, "sources": [u for u, _ in chosen],
                "targets": [v for _, v in chosen], "p": p, "q": q,
                "k": draw(st.integers(1, 2))}

    return st.tuples(draw_graph(), st.sampled_from((0.05, 0.1)))


@dataclass(frozen=True)
class IMScenario:
    """Theorem 4 for CLCB-IM-N on small graphs with exact spreads."""

    bound_id: str = "thm4-im"
    kind: Kind = "upper"
    algorithm: str = "reference.im.clcb_im_node"

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        grid = GRIDS[profile.name]
        # quick: skip the minimal example, to stay within the quick budget
        skip = 1 if profile.name == "quick" else 0
        return [Instance("star-and-chain", star_and_chain(), 0.05, grid),
                *generated_instances(strategy(), profile, seed, self.bound_id, grid, skip)]

    def trial(self, instance: Instance, n: int, rng: np.random.Generator) -> TrialOutcome:
        from reference.im.clcb_im_node import clcb_im_node
        from reference.im.data import sample_node_cascades
        from reference.im.exact import exact_spread

        setup = build(instance.params)
        cascades = sample_node_cascades(setup.graph, setup.q, n, rng)
        oracle = exact_oracle(setup)
        seeds = clcb_im_node(setup.graph, cascades, oracle, instance.delta).seeds
        return TrialOutcome(oracle.alpha * setup.sigma_star - exact_spread(setup.graph, seeds))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        from reference.im.one_step import assumption_parameters

        setup = build(instance.params)
        assumption = assumption_parameters(setup.graph, setup.q, setup.optimal)
        if not assumption.holds:
            return BoundValue.not_applicable("the seed/activation assumption fails "
                                             f"(gamma={assumption.gamma}, eta={assumption.eta})")
        params = {"V": setup.graph.nodes, "d_max": setup.graph.d_max,
                  "sigma_star": setup.sigma_star, "eta": assumption.eta,
                  "gamma": assumption.gamma, "E": setup.graph.edges, "n": n,
                  "delta": instance.delta}
        return bound_value(self.bound_id, variant, params)


SCENARIOS = {"thm4-im": IMScenario()}
