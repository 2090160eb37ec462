"""OPIM-C: the subset-sampled RR sets, the stopping rule's bookkeeping, and the guarantee.

Statistical content (fixed seeds, so every test is deterministic):

* RR-set membership against exact probabilities: each node's count is Binomial(N, sigma(u)/V)
  on a graph where sigma({u}) is a closed form; each of the 64 two-sided exact binomial
  tests runs at 1e-7, so a correct sampler fails the test with probability at most 6.4e-6.
* Subset sampling against one coin per edge: given a node's total count over both samplers,
  its count from the first is Binomial(total, 1/2) under equal laws (exact conditional
  test); 64 tests at 1e-7 (6.4e-6 in all).  The set sizes are compared by a chi-square test
  of homogeneity at 1e-6.
* The guarantee: per run OPIM-C falls below (1 - 1/e - eps) OPT with probability at most
  delta = 0.05, so the shortfalls of T = 60 independent runs are at most Binomial(60, 0.05);
  the test fails at 12 or more, probability below 1e-4 for a correct oracle.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from offcmab.reference.im.diffusion import diffuse
from offcmab.reference.im.exact import activation_probabilities
from offcmab.reference.im.generators import weighting
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.opim import (
    E_FACTOR,
    OPIMOracle,
    Schedule,
    opim_c,
    optimum_upper,
    spread_lower,
)
from offcmab.reference.im.oracles import RRSets, covered_sets, greedy_coverage, sample_rr_sets
from offcmab.validation.parts.verdict import binomial_tail

SEED = 20180610
PER_NODE = 1e-7


def in_tree() -> ICGraph:
    """64 nodes, weighted cascade: 40 in-neighbours of node 0 (p = 1/40, skipped), 20 of
    node 1 (p = 1/20, skipped) and 3 of node 2 (p = 1/3, coins).  A tree, so
    sigma({u}) is the sum of the path products from u."""
    sources = [*range(1, 41), *range(41, 61), *range(61, 64)]
    targets = [0] * 40 + [1] * 20 + [2] * 3
    structure = ICGraph.from_edges(64, sources, targets, 0.0)
    return structure.with_probabilities(weighting(structure, "weighted-cascade"))


def exact_membership(graph: ICGraph) -> np.ndarray:
    """P(u in a random RR set) = sigma({u}) / V, by the closed form on the tree."""
    sigma = np.ones(graph.nodes)
    sigma[1:41] += 1 / 40
    sigma[41:61] += 1 / 20 * (1 + 1 / 40)
    sigma[61:64] += 1 / 3 * (1 + 1 / 40)
    return sigma / graph.nodes


def two_sided(count: int, trials: int, p: float) -> float:
    """Exact two-sided binomial p-value (twice the smaller tail, capped at 1)."""
    upper = binomial_tail(count, trials, p)
    lower = 1.0 - binomial_tail(count + 1, trials, p)
    return min(1.0, 2.0 * min(upper, lower))


def membership_counts(rr: RRSets) -> np.ndarray:
    return np.bincount(rr.nodes, minlength=rr.nodes_total)


def test_the_tree_uses_both_skips_and_coins() -> None:
    sampler = in_tree().reversed().live_edges
    assert sampler.skip_target.size == 60  # the in-edges of nodes 0 and 1
    assert int((sampler.row_threshold > 0).sum()) == 3  # node 2's, by coins


def test_subset_sampled_membership_matches_the_exact_probabilities() -> None:
    graph = in_tree()
    sets = 200_000
    rr = sample_rr_sets(graph.reversed(), sets, np.random.default_rng(SEED))
    counts = membership_counts(rr)
    p = exact_membership(graph)
    p_values = [two_sided(int(c), sets, float(q)) for c, q in zip(counts, p, strict=True)]
    assert min(p_values) > PER_NODE, (int(np.argmin(p_values)), min(p_values))


def coin_rr_sets(reverse: ICGraph, count: int, rng: np.random.Generator) -> RRSets:
    """RR sets by one coin per tried in-edge (the diffusion's edge-feedback path)."""
    V = reverse.nodes
    roots = np.arange(count, dtype=np.int64) * V + rng.integers(0, V, size=count)
    keys = np.sort(diffuse(reverse, roots, count, rng, record_edges=True).active_keys)
    offsets = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys // V, minlength=count), out=offsets[1:])
    return RRSets(V, offsets, keys % V)


def test_subset_sampling_matches_one_coin_per_edge() -> None:
    graph = in_tree()
    reverse = graph.reversed()
    sets = 100_000
    skipped = sample_rr_sets(reverse, sets, np.random.default_rng(SEED))
    coins = coin_rr_sets(reverse, sets, np.random.default_rng(SEED + 1))
    a, b = membership_counts(skipped), membership_counts(coins)
    p_values = [two_sided(int(x), int(x + y), 0.5) for x, y in zip(a, b, strict=True)]
    assert min(p_values) > PER_NODE, (int(np.argmin(p_values)), min(p_values))
    sizes = [np.bincount(np.diff(rr.offsets), minlength=6)[1:6] for rr in (skipped, coins)]
    table = np.array(sizes)
    table = table[:, table.sum(axis=0) > 0]
    assert stats.chi2_contingency(table).pvalue > 1e-6, table


@pytest.mark.parametrize(("nodes", "k", "eps", "delta"),
                         [(10, 2, 0.5, 0.1), (3000, 50, 0.1, 1 / 3000), (75000, 50, 0.1, 1e-5),
                          (10**6, 1, 1e-3, 1e-6)])
def test_schedule_reaches_theta_max_in_its_last_round_and_splits_delta(
        nodes: int, k: int, eps: float, delta: float) -> None:
    schedule = Schedule.of(nodes, k, eps, delta)
    assert schedule.theta_0 * 2.0 ** (schedule.rounds - 1) >= schedule.theta_max
    if schedule.rounds > 1:  # one round fewer would not reach it
        assert schedule.theta_0 * 2.0 ** (schedule.rounds - 2) < schedule.theta_max
    assert schedule.bound_failure == pytest.approx(delta / (3 * schedule.rounds))
    assert schedule.failure == pytest.approx(delta)


@pytest.mark.parametrize("failure", [1e-2, 1e-6])
@pytest.mark.parametrize("covered", [0, 3, 10, 100, 10_000])
def test_lower_and_upper_bounds_invert_the_martingale_tails(failure: float, covered: int) -> None:
    """At the returned value x (in units of sets), the tail bound of IMM's Corollaries equals
    the stated failure probability: exp(-l^2/(2x + 2l/3)) with l = covered - x (lower) and
    exp(-l^2/(2x)) with l = x - covered (upper)."""
    sets, nodes = 50_000, 1000
    a = -math.log(failure)
    x = spread_lower(covered, sets, nodes, failure) * sets / nodes
    if covered <= 2 * a / 3:
        assert x == 0.0
    else:
        gap = covered - x
        assert math.exp(-gap * gap / (2 * x + 2 * gap / 3)) == pytest.approx(failure)
    y = optimum_upper(covered, sets, nodes, failure) * sets / nodes
    gap = y - covered
    assert math.exp(-gap * gap / (2 * y)) == pytest.approx(failure)


def random_rr_sets(rng: np.random.Generator, nodes: int, count: int) -> RRSets:
    sizes = rng.integers(1, 4, count)
    members = [rng.choice(nodes, size, replace=False) for size in sizes]
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return RRSets(nodes, offsets, np.concatenate(members).astype(np.int64))


def test_greedy_upper_bound_is_above_the_best_coverage_and_below_greedys_certificate() -> None:
    rng = np.random.default_rng(SEED)
    for _ in range(30):
        nodes, k = int(rng.integers(4, 9)), int(rng.integers(1, 4))
        rr = random_rr_sets(rng, nodes, int(rng.integers(5, 40)))
        greedy = greedy_coverage(rr, k, upper_bound=True)
        best = max(covered_sets(rr, np.array(chosen))
                   for chosen in itertools.combinations(range(nodes), k))
        assert greedy.covered == covered_sets(rr, greedy.seeds) <= best
        assert best <= greedy.upper <= greedy.covered / (1 - (1 - 1 / k) ** k) + 1e-9


def test_a_run_records_its_rounds_sets_and_stopping_reason() -> None:
    graph = in_tree()
    schedule = Schedule.of(graph.nodes, 3, 0.3, 0.1)
    result = opim_c(graph, 3, 0.3, 0.1, np.random.default_rng(SEED))
    assert 1 <= result.rounds <= schedule.rounds
    assert result.rr_sets == 2 * schedule.size(result.rounds)
    assert result.stopped_early == (result.lower >= (E_FACTOR - 0.3) * result.upper)
    assert result.stopped_early or result.rounds == schedule.rounds
    assert np.unique(result.seeds).size == 3


def test_without_an_early_stop_the_last_round_holds_theta_max_sets(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from offcmab.reference.im import opim

    monkeypatch.setattr(opim, "spread_lower", lambda *args: 0.0)  # the test never passes
    graph = in_tree()
    schedule = Schedule.of(graph.nodes, 2, 0.5, 0.1)
    result = opim_c(graph, 2, 0.5, 0.1, np.random.default_rng(SEED))
    assert not result.stopped_early and result.rounds == schedule.rounds
    assert result.rr_sets / 2 >= schedule.theta_max


def small_graph() -> ICGraph:
    """Nine nodes, two overlapping hubs and a weak chain: 11 edges, exact spreads by
    enumerating 2^11 live-edge worlds."""
    sources = [0, 0, 0, 0, 1, 1, 1, 2, 5, 6, 7]
    targets = [3, 4, 5, 6, 4, 7, 8, 3, 6, 7, 8]
    p = [0.9, 0.8, 0.7, 0.6, 0.5, 0.9, 0.9, 0.3, 0.2, 0.2, 0.2]
    return ICGraph.from_edges(9, sources, targets, p)


def test_opim_meets_its_guarantee_against_the_exact_optimum() -> None:
    graph, k, eps, delta, runs = small_graph(), 2, 0.1, 0.05, 60
    spread = {chosen: float(activation_probabilities(graph, np.array(chosen)).sum())
              for chosen in itertools.combinations(range(graph.nodes), k)}
    best = max(spread.values())
    alpha = E_FACTOR - eps
    # power: 23 of the 36 seed pairs fall short, so an oracle picking pairs at random would
    # fall short in about 38 of 60 runs, far above the flag at 12
    assert sum(value < alpha * best for value in spread.values()) > len(spread) / 2
    rng = np.random.default_rng(SEED)
    short = 0
    for _ in range(runs):
        seeds = opim_c(graph, k, eps, delta, np.random.default_rng(int(rng.integers(2**63))))
        short += spread[tuple(sorted(int(s) for s in seeds.seeds))] < alpha * best - 1e-12
    assert binomial_tail(12, runs, delta) < 1e-4
    assert short < 12, short


def test_the_oracle_object_clips_weights_and_repeats_itself() -> None:
    graph = small_graph()
    oracle = OPIMOracle(graph.with_probabilities(np.zeros(graph.edges)), 2, seed=3)
    weights = np.append(graph.p[:-1], -np.inf)  # an unobserved edge's LCB
    first, second = oracle(weights), oracle(weights)
    assert np.array_equal(first, second) and first.size == 2
    assert oracle.alpha == pytest.approx(1 - 1 / math.e - 0.1)
