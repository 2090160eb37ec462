"""The sparse IC simulator's building blocks against exact laws.

* the cascade-size law of :func:`cascade_sizes` equals the exact law from live-edge enumeration,
  by a chi-square test, with every edge on the coin-per-edge path, then every edge on the
  skip path (thinned and exact levels), and with the default split;
* every (entry, edge) cell of a frontier with many entries per node is live with its own
  probability (a chi-square over the cells), and the test rejects a skip path that gives a
  block's candidates to its first entry;
* negative control: the same test rejects a sampler whose thinning is switched off; an edge
  with p below 2^-16 fires only through the coin's tie refinement, at the right rate;
* the hash set, the byte map and the bit map return exactly the new keys, once each (and the
  check rejects a bit map that sets one bit per byte only);
* the product-law seed sampler has the exact law of the number of seeds per run.

Every Monte-Carlo assertion has false-alarm probability ALPHA (seeded generators throughout).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import offcmab.reference.im.keyset as keyset
import offcmab.reference.im.live_edges as live_edges
from offcmab.reference.im.bernoulli import bernoulli_positions
from offcmab.reference.im.data import sample_seed_keys
from offcmab.reference.im.diffusion import cascade_sizes
from offcmab.reference.im.exact import spread_distribution
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.keyset import (
    BIT_RATIO,
    DENSE_RATIO,
    BitKeys,
    DenseKeys,
    KeySet,
    store_kind,
)

#: False-alarm probability of each Monte-Carlo assertion.
ALPHA = 1e-6
RUNS = 40000


def star_and_chain() -> ICGraph:
    """Node 0 has 9 out-edges over two dyadic levels (one repeated probability, so one run of
    the skip path is exact and one is thinned); a chain, an edge with p = 1 and one with p = 0."""
    src = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5]
    dst = [1, 2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 9, 6, 7]
    p = [0.3, 0.3, 0.3, 0.2, 0.15, 0.1, 0.45, 0.35, 0.3, 0.5, 1.0, 0.6, 0.0, 0.25]
    return ICGraph.from_edges(10, src, dst, p)


def chi_square_p_value(sizes: np.ndarray, law: np.ndarray) -> float:
    """Chi-square goodness of fit of observed sizes to ``law``, pooling bins expected < 5."""
    observed = np.bincount(sizes, minlength=law.size).astype(float)
    expected = law * sizes.size
    order = np.argsort(-expected)  # pool the small bins into one
    big = order[expected[order] >= 5]
    small = np.setdiff1d(np.arange(law.size), big)
    obs = np.append(observed[big], observed[small].sum())
    exp = np.append(expected[big], expected[small].sum())
    if exp[-1] < 5:  # fold a tiny pooled bin into the last big one
        obs[-2] += obs[-1]
        exp[-2] += exp[-1]
        obs, exp = obs[:-1], exp[:-1]
    assert observed[law == 0].sum() == 0  # impossible sizes never appear
    return float(stats.chisquare(obs, exp).pvalue)


def with_split(monkeypatch: pytest.MonkeyPatch, skip_below: float, block_cost: float,
               candidate_cost: float) -> ICGraph:
    monkeypatch.setattr(live_edges, "SKIP_BELOW", skip_below)
    monkeypatch.setattr(live_edges, "BLOCK_COST", block_cost)
    monkeypatch.setattr(live_edges, "CANDIDATE_COST", candidate_cost)
    return star_and_chain()  # a fresh graph builds its sampler under the patched constants


@pytest.mark.parametrize(("skip_below", "block_cost", "candidate_cost"), [
    (0.0, 5.0, 10.0),  # every edge flips a coin (node 0 has three rows)
    (1.0, 0.0, 0.0),  # every edge with p < 1 is skipped, over four levels
    (live_edges.SKIP_BELOW, live_edges.BLOCK_COST, live_edges.CANDIDATE_COST),  # the defaults
])
@pytest.mark.parametrize("seeds", [[0], [0, 4]])
def test_cascade_size_law_is_exact(monkeypatch: pytest.MonkeyPatch, skip_below: float,
                                   block_cost: float, candidate_cost: float,
                                   seeds: list[int]) -> None:
    graph = with_split(monkeypatch, skip_below, block_cost, candidate_cost)
    sampler = graph.live_edges
    if skip_below == 1.0:  # only the p = 1 edge flips a coin; thinned and exact levels
        assert (sampler.row_threshold > 0).sum() == 1 and sampler.row_count.sum() == 1
        assert sampler.skip_p.size == 12
        assert not sampler.skip_exact.all() and sampler.skip_exact.any()
        assert np.unique(sampler.segment_level).size == 4 and sampler.segment_length.max() > 1
    if skip_below == 0.0:
        assert sampler.skip_p.size == 0 and sampler.row_count[0] == 3  # 9 coin edges
    sizes = cascade_sizes(graph, seeds, RUNS, np.random.default_rng(21))
    assert chi_square_p_value(sizes, spread_distribution(graph, seeds)) > ALPHA


@pytest.mark.parametrize(("kind", "broken"), [
    ("hash", False), ("bytes", False), ("bits", False),
    ("bits", True),  # negative control: a bit map losing bits lets nodes activate twice
])
def test_cascade_size_law_is_exact_with_each_visited_set(monkeypatch: pytest.MonkeyPatch,
                                                         kind: str, broken: bool) -> None:
    """Every batch after the pilot keeps its visited cells in the given set."""
    if broken:
        monkeypatch.setattr(BitKeys, "add", one_bit_per_byte)
    ratios = {"hash": (0, 0), "bytes": (1 << 20, 1 << 20), "bits": (0, 1 << 20)}[kind]
    monkeypatch.setattr(keyset, "DENSE_RATIO", ratios[0])
    monkeypatch.setattr(keyset, "BIT_RATIO", ratios[1])
    made: list[str] = []
    make = keyset.Store.make
    monkeypatch.setattr(keyset.Store, "make",
                        lambda self, *a: made.append(self.kind) or make(self, *a))
    graph = star_and_chain()
    sizes = cascade_sizes(graph, [0], RUNS, np.random.default_rng(23))
    assert made[0] == "hash" and set(made[1:]) == {kind}  # the pilot, then the chosen set
    law = spread_distribution(graph, [0])
    if broken:
        assert sizes.max() >= law.size or chi_square_p_value(sizes, law) <= ALPHA
    else:
        assert chi_square_p_value(sizes, law) > ALPHA


def test_chi_square_rejects_a_sampler_without_thinning(monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: keeping every skip candidate (envelope instead of p) is detected."""
    graph = with_split(monkeypatch, 1.0, 0.0, 0.0)
    broken = dataclasses.replace(graph.live_edges,
                                 skip_exact=np.ones_like(graph.live_edges.skip_exact))
    graph.__dict__["live_edges"] = broken
    sizes = cascade_sizes(graph, [0], RUNS, np.random.default_rng(21))
    assert chi_square_p_value(sizes, spread_distribution(graph, [0])) < ALPHA


def live_cell_counts(graph: ICGraph, nodes: np.ndarray, repeats: int) -> np.ndarray:
    """How often each (entry, target) cell was live over ``repeats`` calls of live_targets."""
    rng = np.random.default_rng(17)
    counts = np.zeros((nodes.size, graph.nodes), dtype=np.int64)
    for _ in range(repeats):
        target, owner = live_edges.live_targets(graph.live_edges, nodes, rng)
        assert np.unique(owner * graph.nodes + target).size == target.size  # once per cell
        np.add.at(counts, (owner, target), 1)
    return counts


def cell_law_p_value(graph: ICGraph, nodes: np.ndarray, counts: np.ndarray,
                     repeats: int) -> float:
    """Chi-square of every (entry, out-edge) cell's live count against Binomial(repeats, p)."""
    p = np.zeros((graph.nodes, graph.nodes))
    p[graph.sources, graph.targets] = graph.p
    expected = p[nodes]  # per entry and target
    assert counts[expected == 0].sum() == 0  # no edge, or p = 0: never live
    assert np.all(counts[expected == 1] == repeats)
    cells = (expected > 0) & (expected < 1)
    mean, var = repeats * expected[cells], repeats * expected[cells] * (1 - expected[cells])
    statistic = float((((counts[cells] - mean) ** 2) / var).sum())
    return float(stats.chi2.sf(statistic, int(cells.sum())))


@pytest.mark.parametrize(("skip_below", "block_cost", "candidate_cost"), [
    (0.0, 5.0, 10.0), (1.0, 0.0, 0.0),
    (live_edges.SKIP_BELOW, live_edges.BLOCK_COST, live_edges.CANDIDATE_COST),
])
def test_every_cell_of_a_frontier_has_its_law(monkeypatch: pytest.MonkeyPatch, skip_below: float,
                                              block_cost: float, candidate_cost: float) -> None:
    """A frontier holding nodes 0, 1, 3 and 4 in many runs each (so blocks of the skip path
    span several entries and several edges): each (entry, edge) cell is live w.p. p_e.
    The statistic sums ~300 squared standardized counts (normal approximation, every
    expected count >= 40); false alarm about ALPHA."""
    graph = with_split(monkeypatch, skip_below, block_cost, candidate_cost)
    nodes = np.repeat([0, 1, 3, 4], [25, 7, 5, 3])
    counts = live_cell_counts(graph, nodes, 400)
    assert cell_law_p_value(graph, nodes, counts, 400) > ALPHA


def test_cell_law_rejects_candidates_given_to_the_wrong_entry(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: a skip path whose blocks give every candidate to the block's first
    entry (the entries sharing a node forgotten) is detected by the cell test."""
    graph = with_split(monkeypatch, 1.0, 0.0, 0.0)

    def first_entry_only(offset: np.ndarray, width: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros_like(offset), offset % width

    monkeypatch.setattr(live_edges, "_entry_and_column", first_entry_only)
    nodes = np.repeat([0, 1, 3, 4], [25, 7, 5, 3])
    rng = np.random.default_rng(17)
    counts = np.zeros((nodes.size, graph.nodes), dtype=np.int64)
    for _ in range(400):  # (candidates may now share a cell: count each)
        target, owner = live_edges.live_targets(graph.live_edges, nodes, rng)
        np.add.at(counts, (owner, target), 1)
    assert cell_law_p_value(graph, nodes, counts, 400) < ALPHA


def test_ties_of_the_16_bit_coin_are_resolved() -> None:
    """p = 2^-16 exactly hits the tie branch only: without it the edge would never fire."""
    graph = ICGraph.from_edges(2, [0], [1], [0.75 / 65536])
    sampler = graph.live_edges
    row = sampler.row_start[0]
    assert sampler.row_threshold[row, 0] == 0 and sampler.row_remainder[row, 0] > 0
    sizes = cascade_sizes(graph, [0], 2_000_000, np.random.default_rng(3))
    fired = int((sizes == 2).sum())
    assert stats.binomtest(fired, sizes.size, 0.75 / 65536).pvalue > ALPHA
    assert fired > 0


def returns_exactly_the_new_keys(keys: KeySet | DenseKeys | BitKeys, first: list[int],
                                 second: list[int]) -> bool:
    a, b = np.asarray(first, dtype=np.int64), np.asarray(second, dtype=np.int64)
    return (np.array_equal(keys.add(a), np.unique(a))  # sorted, once each
            and np.array_equal(keys.add(b), np.setdiff1d(b, a))
            and len(keys) == np.union1d(a, b).size)


@given(st.lists(st.integers(0, 5000), max_size=300), st.lists(st.integers(0, 5000), max_size=300))
def test_key_sets_return_exactly_the_new_keys(first: list[int], second: list[int]) -> None:
    for keys in (KeySet(0), DenseKeys(5001), BitKeys(5001), BitKeys(5003)):
        assert returns_exactly_the_new_keys(keys, first, second)


def one_bit_per_byte(self: BitKeys, keys: np.ndarray) -> np.ndarray:
    """A broken :meth:`BitKeys.add`: plain fancy ``|=`` keeps one of the new bits of a byte."""
    keys = np.unique(keys)
    fresh = keys[((self._bytes[keys >> 3] >> (keys & 7).astype(np.uint8)) & 1) == 0]
    self._bytes[fresh >> 3] |= np.left_shift(np.uint8(1), (fresh & 7).astype(np.uint8))
    self.size += fresh.size
    return fresh


def test_key_set_check_rejects_a_bit_map_losing_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: the contract check sees the keys a broken bit map forgets."""
    monkeypatch.setattr(BitKeys, "add", one_bit_per_byte)
    assert not returns_exactly_the_new_keys(BitKeys(64), [8, 9, 10], [9, 10, 11])


def test_store_kind_keeps_memory_within_128_bytes_per_key() -> None:
    for capacity in (1000, 10**6, 10**9):
        for keys in (1, capacity // 2000, capacity // 1000, capacity // 200, capacity // 100):
            kind = store_kind(capacity, keys)
            byte_count = {"bytes": capacity, "bits": capacity / 8, "hash": 32 * keys}[kind]
            assert byte_count <= 128 * max(keys, 1)
            if kind == "hash":  # a map is taken whenever it fits that bound
                assert BIT_RATIO * keys < capacity
    assert store_kind(DENSE_RATIO, 1) == "bytes" and store_kind(BIT_RATIO, 1) == "bits"
    assert store_kind(BIT_RATIO + 1, 1) == "hash"


def test_key_set_grows_past_its_first_table() -> None:
    keys = np.random.default_rng(0).integers(0, 1 << 40, size=50000)
    table = KeySet(0)
    for part in np.array_split(keys, 7):
        table.add(part)
    assert len(table) == np.unique(keys).size
    assert table.add(keys).size == 0


@pytest.mark.parametrize("q", [0.003, 0.2, 0.6])
def test_bernoulli_positions_count_is_binomial(q: float) -> None:
    n, draws = 5000, 400
    rng = np.random.default_rng(5)
    counts = [bernoulli_positions(n, q, rng).size for _ in range(draws)]
    # the sum of 400 Binomial(n, q) counts is Binomial(400 n, q): exact two-sided test
    assert stats.binomtest(int(np.sum(counts)), n * draws, q).pvalue > ALPHA
    positions = bernoulli_positions(n, q, rng)
    assert np.all(np.diff(positions) > 0) and positions.min(initial=0) >= 0
    assert positions.max(initial=0) < n


def test_product_law_seed_count_has_its_exact_law() -> None:
    """Seeds per run follow the Poisson-binomial law of q (levels 0 to 9, a zero, a one)."""
    q = np.array([0.0, 1.0, 0.5, 0.3, 0.26, 0.1, 0.07, 0.02, 0.011, 0.004, 0.0015])
    runs = 50000
    keys = sample_seed_keys(q, runs, np.random.default_rng(9))
    assert np.all(np.diff(keys) > 0)
    per_run = np.bincount(keys // q.size, minlength=runs)
    law = np.array([1.0])
    for qu in q:
        law = np.convolve(law, [1 - qu, qu])
    assert chi_square_p_value(per_run, law) > ALPHA
    per_node = np.bincount(keys % q.size, minlength=q.size)
    assert per_node[0] == 0 and per_node[1] == runs
    for u in range(2, q.size):  # false alarm <= ALPHA each
        assert stats.binomtest(int(per_node[u]), runs, q[u]).pvalue > ALPHA
