r"""Independent cascade (IC) diffusion, vectorized across simulations, at a cost that follows
the cascades.

Many cascades run at once, frontier by frontier.  Simulation ``r``'s node ``v`` is the key
``r * V + v`` outside; inside a batch of ``R`` runs it is the *cell* ``v * 2^s + r``
(:math:`2^s \ge R`), so that the cells of one node across runs are adjacent (the hubs most
cascades reach keep their cells in cache, and a sorted frontier lists each node's runs
together).  The frontier is the sorted
array of cells activated at the last step (nothing is dense over runs x nodes), and each step
is a handful of array operations over all runs together:

1. draw the live out-edges of every frontier entry
   (:func:`~offcmab.reference.im.live_edges.live_targets`: coins in rows of four for likely
   edges, geometric skips across all the runs of a node for long runs of unlikely ones, so
   the random draws follow the live edges rather than every out-edge of every run);
2. keep the targets not yet active, once each (a :class:`~offcmab.reference.im.keyset.KeySet` of the
   visited cells, or a bit or a byte per cell once cascades cover enough of the graph): they form
   :math:`S_h \setminus S_{h-1}`.

Time and memory are proportional to the edges tried (or, with skips, the live ones) and the
active (run, node) pairs; batches of runs are sized from the cascade sizes seen so far so that
one batch holds about :data:`BATCH_ACTIVE` active pairs.

The cascade :math:`(S_0, S_1, \dots)` is recorded as the activation step of every active node,
so :math:`S_h = \{v : \text{step}(v) \le h\}` is cumulative, as the paper defines it.  When
edge-level feedback is recorded, every tried edge is listed with its outcome, so that path
flips one coin per tried edge.

References
----------
``apdx_app:OIM_node`` (the IC model, influence cascade, :math:`\sigma(S;G)`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import IntArray
from offcmab.reference.errors import InputError
from offcmab.reference.im.graph import ICGraph, out_edges_of
from offcmab.reference.im.keyset import HASH_SET, KeySet, Store, store_kind
from offcmab.reference.im.live_edges import live_targets
from offcmab.reference.im.seeds import check_seed_set

#: Active (run, node) pairs one batch of runs aims at (a few tens of bytes each).
BATCH_ACTIVE = 1 << 19
#: Most cells of a batch's byte map (:class:`~offcmab.reference.im.keyset.DenseKeys`, 64 MB): larger
#: maps miss the cache more often, smaller ones cut large graphs into many short batches whose
#: fixed cost per step dominates (measured on 1,000 to 100,000-node graphs).
DENSE_CELLS = 1 << 26
#: Most cells of a batch's bit map (:class:`~offcmab.reference.im.keyset.BitKeys`, also 64 MB).
BIT_CELLS = 8 * DENSE_CELLS

#: Most runs of the first batch of a :class:`BatchPlan` (before any cascade size is known).
PILOT_RUNS = 1024

#: Most cascades one spread estimate may simulate (their sizes alone take 8 bytes each).
MAX_SAMPLES = 10**9


@dataclass(frozen=True)
class Diffusion:
    r"""The outcome of a batch of IC cascades, as flat arrays.

    Attributes
    ----------
    runs
        Number of simulated cascades ``R``.
    active_keys
        Keys ``r * V + v`` of every active node of every cascade, in activation order.
    steps
        Activation step of each entry of ``active_keys`` (0 for seeds).
    tried_keys, fired
        When edge feedback was recorded: keys ``r * E + e`` of every edge whose source became
        active (the edge was triggered), and whether it fired; otherwise empty arrays.
    """

    runs: int
    active_keys: IntArray
    steps: IntArray
    tried_keys: IntArray
    fired: npt.NDArray[np.bool_]


def diffuse(
    graph: ICGraph, seed_keys: IntArray, runs: int, rng: np.random.Generator,
    record_edges: bool = False, store: Store = HASH_SET,
) -> Diffusion:
    r"""Run ``runs`` IC cascades at once from the given seed cells.

    Parameters
    ----------
    graph
        The weighted digraph :math:`G(\mathcal V,\mathcal E,p)`.
    seed_keys
        Keys ``r * V + v`` of the seeds of every cascade (each key at most once).
    runs
        Number of cascades ``R``.
    rng
        Source of randomness.
    record_edges
        Also record every triggered edge and its outcome (edge-level feedback).
    store
        The set of visited (run, node) cells to start with (:meth:`BatchPlan.store`): a hash
        set, a byte or a bit per cell; the hash set switches to a map once the visited pairs
        are enough of the cells (:func:`~offcmab.reference.im.keyset.store_kind`), so memory stays
        proportional to them.
    """
    V = graph.nodes
    # Inside, the pair (run r, node v) is the cell v * 2^s + r with 2^s >= runs: the cells of
    # one node across runs are adjacent, so the visited set's reads and writes gather on the
    # few nodes most cascades reach (the hubs) and stay in cache far more often than with
    # r * V + v; and shifts and masks split a cell (an integer division costs several times
    # more).
    shift = max(int(runs - 1).bit_length(), 0)
    mask = (1 << shift) - 1
    cells = V << shift
    seed_sims, seed_nodes = np.divmod(seed_keys, V)
    seen = store.make(cells, seed_keys.size)
    frontier = seen.add((seed_nodes << shift) | seed_sims)
    found, found_steps = [frontier], [np.zeros(frontier.size, dtype=np.int64)]
    tried: list[IntArray] = []
    fired_parts: list[npt.NDArray[np.bool_]] = []
    step = 0
    while frontier.size:
        step += 1
        nodes, sims = frontier >> shift, frontier & mask
        if record_edges:  # every tried edge is part of the output: one coin each
            edge, owner = out_edges_of(graph, nodes)
            success = rng.random(edge.size) < graph.p[edge]
            tried.append(sims[owner] * graph.edges + edge)
            fired_parts.append(success)
            target, owner = graph.targets[edge[success]], owner[success]
        else:
            target, owner = live_targets(graph.live_edges, nodes, rng)
        frontier = seen.add((target << shift) | sims[owner])
        found.append(frontier)
        kind = store_kind(runs * V, len(seen)) if isinstance(seen, KeySet) else "hash"
        if kind != "hash":  # a map is cheaper from here on
            seen = Store(kind).make(cells)
            seen.add(np.concatenate(found))
        found_steps.append(np.full(frontier.size, step, dtype=np.int64))
    empty = np.zeros(0, dtype=np.int64)
    tried_keys = np.concatenate(tried) if tried else empty
    fired = np.concatenate(fired_parts) if fired_parts else np.zeros(0, dtype=bool)
    edge_order = np.argsort(tried_keys, kind="stable")
    active = np.concatenate(found)
    return Diffusion(runs, (active & mask) * V + (active >> shift), np.concatenate(found_steps),
                     tried_keys[edge_order], fired[edge_order])


class BatchPlan:
    """``(start, size)`` batches of ``total`` runs holding about :data:`BATCH_ACTIVE` pairs each.

    The first batch is a pilot of at most :data:`PILOT_RUNS` runs (fewer when cascades of 64
    times ``seeds_per_run`` nodes would overfill it); after each batch the caller reports the
    active pairs it produced (:meth:`record`), and the next batch is sized from the mean
    cascade size so far.  (A large first batch sized on a guess can hold many times
    :data:`BATCH_ACTIVE` pairs in a hash set, the slowest case.)
    """

    def __init__(self, total: int, nodes: int, seeds_per_run: float) -> None:
        self.total, self.nodes = int(total), int(nodes)
        guess = int(BATCH_ACTIVE / (64.0 * max(seeds_per_run, 1.0)))
        self._size = max(1, min(guess, PILOT_RUNS))
        self._runs = self._active = 0

    def __iter__(self) -> Iterator[tuple[int, int]]:
        start = 0
        while start < self.total:
            size = min(self._size, self.total - start)
            yield start, size
            start += size

    def store(self, runs: int) -> Store:
        """The visited set for a next batch of ``runs`` runs (:func:`~offcmab.reference.im.keyset.
        store_kind` at the mean cascade size so far; a hash set before the first batch, sized
        for a quarter more pairs than that mean predicts)."""
        if self._runs == 0:
            return Store()
        mean = self._active / self._runs
        kind = store_kind(self.nodes, mean)
        return Store(kind, int(1.25 * runs * mean) if kind == "hash" else 0)

    def record(self, runs: int, active: int) -> None:
        """Report that a batch of ``runs`` runs produced ``active`` active pairs."""
        self._runs += runs
        self._active += active
        self._size = max(1, int(BATCH_ACTIVE / max(self._active / self._runs, 1.0)))
        kind = store_kind(self.nodes, self._active / self._runs)
        if kind != "hash":  # a power of two of runs: the map is V x 2^s cells
            most = max(1, (DENSE_CELLS if kind == "bytes" else BIT_CELLS) // self.nodes)
            self._size = 1 << (min(self._size, most).bit_length() - 1)


@dataclass(frozen=True)
class SpreadEstimate:
    r"""A Monte-Carlo estimate of :math:`\sigma(S;G)` and its standard error."""

    spread: float
    stderr: float
    samples: int


def cascade_sizes(
    graph: ICGraph, seeds: npt.ArrayLike, samples: int, rng: np.random.Generator
) -> IntArray:
    r"""Sizes :math:`|\Phi(S)|` of ``samples`` independent cascades from the seed set ``S``."""
    seed_set = check_seed_set(seeds, graph.nodes)
    if isinstance(samples, bool) or int(samples) != samples or samples < 1:
        raise InputError("samples", f"must be a positive integer, got {samples!r}")
    if samples > MAX_SAMPLES:  # checked before allocating one size per cascade
        raise InputError("samples", f"at most {MAX_SAMPLES:.0e} cascades are supported, "
                         f"got {samples}")
    sizes = np.zeros(int(samples), dtype=np.int64)
    V = graph.nodes
    plan = BatchPlan(int(samples), V, seed_set.size)
    for start, runs in plan:
        keys = (np.arange(runs, dtype=np.int64)[:, None] * V + seed_set[None, :]).reshape(-1)
        outcome = diffuse(graph, keys, runs, rng, store=plan.store(runs))
        sizes[start : start + runs] = np.bincount(outcome.active_keys // V, minlength=runs)
        plan.record(runs, outcome.active_keys.size)
    return sizes


def estimate_spread(
    graph: ICGraph, seeds: npt.ArrayLike, samples: int, rng: np.random.Generator
) -> SpreadEstimate:
    r"""Influence spread :math:`\sigma(S;G)=\mathbb E|\Phi(S)|` by Monte-Carlo, with its error.

    The standard error is the sample standard deviation over :math:`\sqrt R`.
    """
    sizes = cascade_sizes(graph, seeds, samples, rng).astype(np.float64)
    stderr = float(sizes.std(ddof=1) / np.sqrt(sizes.size)) if sizes.size > 1 else float("inf")
    return SpreadEstimate(float(sizes.mean()), stderr, int(sizes.size))
