"""IM oracles: IMM within its (1 - 1/e - eps) guarantee of brute force; greedy; max coverage."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from test_im_diffusion import random_graph

from offcmab.reference.im.exact import brute_force_im, exact_spread
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.oracles import (
    IMMOracle,
    RRSets,
    greedy_monte_carlo,
    imm,
    max_coverage,
    sample_rr_sets,
)


def test_max_coverage_picks_greedily() -> None:
    # sets {0,1}, {1}, {1,2}, {3}: node 1 covers three sets, then node 3 (or 0/2) one more
    rr = RRSets(4, np.array([0, 2, 3, 5, 6]), np.array([0, 1, 1, 1, 2, 3]))
    seeds, fraction = max_coverage(rr, 2)
    assert seeds.tolist() == [1, 3]
    assert fraction == 1.0


def plain_greedy(sets: list[set[int]], nodes: int, k: int) -> list[int]:
    """Greedy maximum coverage written out with Python sets: ties to the smaller id."""
    chosen: list[int] = []
    left = list(sets)
    for _ in range(k):
        gain = [-1 if v in chosen else sum(v in s for s in left) for v in range(nodes)]
        u = max(range(nodes), key=lambda v: (gain[v], -v))
        chosen.append(u)
        left = [s for s in left if u not in s]
    return chosen


@given(st.lists(st.sets(st.integers(0, 7), min_size=1), max_size=40), st.integers(1, 8))
def test_max_coverage_matches_plain_greedy(sets: list[set[int]], k: int) -> None:
    offsets = np.cumsum([0] + [len(s) for s in sets])
    nodes = np.array([v for s in sets for v in sorted(s)], dtype=np.int64)
    seeds, fraction = max_coverage(RRSets(8, offsets, nodes), k)
    assert seeds.tolist() == plain_greedy(sets, 8, k)
    covered = sum(bool(s & set(seeds.tolist())) for s in sets)
    assert fraction == (covered / len(sets) if sets else 0.0)


def test_rr_sets_estimate_spread_without_bias() -> None:
    graph = random_graph(4)
    rr = sample_rr_sets(graph.reversed(), 40000, np.random.default_rng(1))
    hit = np.zeros(rr.count, dtype=bool)
    owner = np.repeat(np.arange(rr.count), np.diff(rr.offsets))
    hit[owner[np.isin(rr.nodes, [0, 1])]] = True
    truth = exact_spread(graph, [0, 1]) / graph.nodes
    # covered count ~ Binomial(40000, sigma/V): exact test, false alarm 1e-6
    assert stats.binomtest(int(hit.sum()), rr.count, truth).pvalue > 1e-6


def test_imm_within_guarantee_of_brute_force() -> None:
    """Each run fails its guarantee with probability <= delta'; we allow a number of failures
    whose binomial tail probability (the test's false alarm) is below 1e-6."""
    eps, delta_prime, instances = 0.2, 0.01, 8
    failures = 0
    for seed in range(instances):
        graph = random_graph(seed, nodes=6, edges=10)
        _, optimum = brute_force_im(graph, 2)
        result = imm(graph, 2, eps, delta_prime, np.random.default_rng(100 + seed))
        achieved = exact_spread(graph, result.seeds)
        failures += achieved < (1 - 1 / math.e - eps) * optimum - 1e-12
    allowed = 3
    assert stats.binom.sf(allowed, instances, delta_prime) < 1e-6
    assert failures <= allowed


def test_imm_oracle_is_deterministic_and_accepts_infinite_lcbs() -> None:
    graph = random_graph(5)
    oracle = IMMOracle(graph, 2, seed=3)
    weights = graph.p.copy()
    weights[0] = -np.inf
    first, second = oracle(weights), oracle(weights)
    assert first.tolist() == second.tolist()
    assert len(set(first.tolist())) == 2
    assert oracle.alpha == pytest.approx(1 - 1 / math.e - 0.1)


def test_zero_graph_still_returns_k_distinct_seeds() -> None:
    graph = ICGraph.from_edges(4, [0, 1], [1, 2], [0.0, 0.0])
    result = imm(graph, 3, 0.3, 0.1, np.random.default_rng(0))
    assert len(set(result.seeds.tolist())) == 3
    assert result.spread >= 3.0 - 1e-12  # every RR set is its root; the 3 commonest cover >= 3/4
    # once every set is covered, the remaining picks are the smallest unused ids
    covered_all = RRSets(4, np.array([0, 1]), np.array([2]))
    assert max_coverage(covered_all, 3)[0].tolist() == [2, 0, 1]


def test_greedy_monte_carlo_finds_the_hub() -> None:
    # node 0 reaches 1, 2, 3 surely; any other single seed reaches nobody
    graph = ICGraph.from_edges(5, [0, 0, 0], [1, 2, 3], [1.0, 1.0, 1.0])
    seeds, values = greedy_monte_carlo(graph, 2, 50, np.random.default_rng(0))
    assert seeds[0] == 0 and seeds[1] == 4
    assert values.tolist() == [4.0, 5.0]


def test_bad_oracle_inputs() -> None:
    graph = random_graph(1)
    with pytest.raises(ValueError, match="eps"):
        imm(graph, 2, 0.9, 0.1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="k"):
        imm(graph, 99, 0.1, 0.1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="delta_prime"):
        imm(graph, 2, 0.1, 1.5, np.random.default_rng(0))
