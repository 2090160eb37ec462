"""The tests' own brute force for the largest gap: plain loops, no shared code with the package.

Each function lists every feasible action (or, for the lower bound's pair, every pair of
paths chosen on the two instances), computes its reward from the instance's parameters
with an explicit formula, and returns the largest gap alpha * best - reward.  Influence
spreads are computed world by world with networkx reachability, a third route beside the
reference's and the evaluator's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import combinations, product
from typing import Any

import networkx as nx

#: Instances with more feasible actions than this are skipped by the tests.
AFFORDABLE = 20_000


def affordable(m: int, k: int) -> bool:
    """Whether every ``k``-subset of ``m`` ids can be listed quickly."""
    return math.comb(m, k) <= AFFORDABLE


def cascade_largest_gap(mu: Sequence[float], k: int) -> float:
    """Every list of ``k`` items: reward 1 - prod(1 - mu), alpha = 1."""
    rewards = [1.0 - math.prod(1.0 - mu[i] for i in items)
               for items in combinations(range(len(mu)), k)]
    return max(rewards) - min(rewards)


def kpath_largest_gap(path_means: Sequence[float], k: int) -> float:
    """Every path: reward is the sum over its k arms of the path's mean, alpha = 1."""
    rewards = [sum(mean for _ in range(k)) for mean in path_means]
    return max(rewards) - min(rewards)


def cache_largest_gap(p: Sequence[float], c: Sequence[float], k: int) -> float:
    """Every cache of ``k`` queries: cost sum over queries outside it of p c."""
    costs = [sum(p[q] * c[q] for q in range(len(p)) if q not in cache)
             for cache in combinations(range(len(p)), k)]
    return max(costs) - min(costs)


def online_largest_regret(p: Sequence[float], c: Sequence[float], k: int, rounds: int) -> float:
    """Every cache of at most ``k`` queries, held for ``rounds`` rounds: largest regret."""
    costs = [sum(p[q] * c[q] for q in range(len(p)) if q not in cache)
             for size in range(k + 1) for cache in combinations(range(len(p)), size)]
    return rounds * (max(costs) - min(costs))


def spreads(graph: Mapping[str, Any], k: int) -> list[float]:
    """Exact spread of every seed set of size ``k``: live-edge worlds, networkx reachability."""
    edges = list(zip(graph["sources"], graph["targets"], graph["p"], strict=True))
    seed_sets = list(combinations(range(graph["nodes"]), k))
    totals = [0.0] * len(seed_sets)
    for alive in product((False, True), repeat=len(edges)):
        weight = math.prod(p if on else 1.0 - p for (_, _, p), on in zip(edges, alive,
                                                                           strict=True))
        world = nx.DiGraph()
        world.add_nodes_from(range(graph["nodes"]))
        world.add_edges_from((u, v) for (u, v, _), on in zip(edges, alive, strict=True) if on)
        reach = {v: nx.descendants(world, v) | {v} for v in world.nodes}
        for j, seeds in enumerate(seed_sets):
            totals[j] += weight * len(set().union(*(reach[s] for s in seeds)))
    return totals


def spread_largest_gap(graph: Mapping[str, Any], k: int, alpha: float) -> float:
    """alpha times the largest spread minus the smallest, over every seed set of size ``k``."""
    values = spreads(graph, k)
    return alpha * max(values) - min(values)


def pair_largest_gap(first: Sequence[float], second: Sequence[float], k: int) -> float:
    """Largest average of a path's gap on the first instance and a path's gap on the second."""
    def gaps(means: Sequence[float]) -> list[float]:
        return [k * max(means) - k * mean for mean in means]

    return max(0.5 * (a + b) for a, b in product(gaps(first), gaps(second)))
