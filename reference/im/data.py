r"""Offline IM data: node-level cascades and edge-level feedback, from a product seed law.

Each record draws a seed set :math:`S_{t,0}` from the product distribution (node ``u`` is a
seed with probability :math:`q_u`, independently) and runs one IC cascade from it.

* **Node-level feedback** (:class:`NodeCascades`) keeps the cascade
  :math:`(S_{t,0}, S_{t,1}, \dots)` as the activation step of every active node, CSR style:
  record ``t`` owns ``nodes[offsets[t]:offsets[t+1]]`` and the aligned ``steps``, and
  :math:`S_{t,h} = \{v : \text{step}_t(v) \le h\}` (cumulative sets).
* **Edge-level feedback** (:class:`EdgeFeedback`) keeps, for every record, the edges whose
  source became active (the triggered base arms of the CMAB-T view) and whether each fired,
  as an :class:`~offcmab.reference.dataset.OfflineDataset` over ``m = E`` arms (arm id = edge id).

References
----------
``apdx_app:OIM_node`` (offline dataset, product distribution :math:`\mathbb D_{\mathcal S}`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import IntArray, OfflineDataset, offsets_from_lengths
from offcmab.reference.errors import InputError
from offcmab.reference.im.bernoulli import bernoulli_positions
from offcmab.reference.im.diffusion import BatchPlan, Diffusion, diffuse
from offcmab.reference.im.graph import ICGraph, out_edges_of
from offcmab.reference.im.ranges import expand_ranges
from offcmab.reference.im.seeds import check_seed_probabilities

#: Entries per run of :meth:`NodeCascades.blocks` (at least; ``V`` when larger).
BLOCK = 1 << 14


def cascade_of(offsets: IntArray, entry: int) -> int:
    return int(np.searchsorted(offsets, entry, side="right") - 1)


def check_increasing_per_record(active: IntArray, offsets: IntArray, field: str = "active"
                                ) -> None:
    """Node ids strictly increase within every record (one pass over neighbouring entries).

    Raises
    ------
    InputError
        ``field``, naming the first offending cascade.
    """
    if active.size < 2:
        return
    bad = active[1:] <= active[:-1]
    starts = offsets[1:-1]
    bad[starts[(starts > 0) & (starts < active.size)] - 1] = False  # pairs across records
    if not bad.any():
        return
    entry = int(np.flatnonzero(bad)[0]) + 1
    t = cascade_of(offsets, entry)
    if active[entry] == active[entry - 1]:
        raise InputError(field, f"cascade {t} lists node {int(active[entry])} more than once",
                         sample=t)
    raise InputError(field, f"cascade {t}: node ids must increase within a cascade (stored "
                     "sorted by node id)", sample=t)


def lookup(keys: IntArray, query: IntArray) -> tuple[IntArray, npt.NDArray[np.bool_]]:
    """Positions of ``query`` in the increasing ``keys`` and whether each is there."""
    if keys.size == 0:
        return np.zeros(query.size, dtype=np.int64), np.zeros(query.size, dtype=bool)
    where = np.minimum(np.searchsorted(keys, query), keys.size - 1)
    return where, keys[where] == query


def _offsets(owner: IntArray, count: int) -> IntArray:
    """CSR offsets of ``count`` groups from the (sorted) group id of every entry."""
    return offsets_from_lengths(np.bincount(owner, minlength=count))


@dataclass(frozen=True)
class NodeCascades:
    r"""``n`` node-level cascades on ``V`` nodes, as activation steps in CSR layout.

    Attributes
    ----------
    nodes
        :math:`V`.
    offsets
        Length ``n + 1``; record ``t`` owns entries ``offsets[t]:offsets[t+1]``.
    active
        Node ids of the active nodes of each record, strictly increasing within a record
        (each node at most once; checked on construction, one pass).
    steps
        Activation step of each entry (0 for seeds).
    """

    nodes: int
    offsets: IntArray
    active: IntArray
    steps: IntArray

    def __post_init__(self) -> None:
        check_increasing_per_record(self.active, self.offsets)

    @property
    def n(self) -> int:
        """Number of cascades."""
        return int(self.offsets.size - 1)

    def record_of_entry(self) -> IntArray:
        return np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.offsets))

    def blocks(self) -> Iterator[tuple[int, int, int, IntArray]]:
        """Consecutive runs of whole records, as ``(first record, start, stop, keys)``.

        Each run holds about ``max(BLOCK, V)`` entries (one long record may exceed it), so
        that the per-run temporaries stay small and per-run ``V``-sized work is amortised;
        ``keys`` are ``(record - first) * V + node`` for entries ``start:stop``, increasing
        (the canonical order).
        """
        size = max(BLOCK, self.nodes)
        total = int(self.offsets[-1])
        cuts = np.searchsorted(self.offsets, np.arange(0, total, size), side="right") - 1
        bounds = np.unique(np.concatenate([[0], cuts, [self.n]])).tolist()
        for t0, t1 in itertools.pairwise(bounds):
            a, b = int(self.offsets[t0]), int(self.offsets[t1])
            local = np.repeat(np.arange(t1 - t0, dtype=np.int64),
                              np.diff(self.offsets[t0:t1 + 1]))
            yield t0, a, b, local * self.nodes + self.active[a:b]

    def membership(self, step: int) -> npt.NDArray[np.bool_]:
        r"""Boolean ``n x V`` matrix of :math:`v \in S_{t,h}` for ``h = step``."""
        matrix = np.zeros((self.n, self.nodes), dtype=bool)
        keep = self.steps <= step
        matrix[self.record_of_entry()[keep], self.active[keep]] = True
        return matrix

    def head(self, n: int) -> NodeCascades:
        """The first ``n`` cascades."""
        if not 1 <= n <= self.n:
            raise InputError("n", f"must lie in [1, {self.n}], got {n}")
        end = int(self.offsets[n])
        return NodeCascades(self.nodes, self.offsets[: n + 1], self.active[:end],
                            self.steps[:end])

    def as_sets(self) -> list[list[list[int]]]:
        r"""Each cascade as its cumulative sets ``[S_0, S_1, ..., S_H]`` (``H`` its last step)."""
        out: list[list[list[int]]] = []
        for t in range(self.n):
            a, b = int(self.offsets[t]), int(self.offsets[t + 1])
            nodes, steps = self.active[a:b], self.steps[a:b]
            last = int(steps.max(initial=0))
            out.append([sorted(nodes[steps <= h].tolist()) for h in range(last + 1)])
        return out

    @classmethod
    def from_steps(cls, nodes: int, record: IntArray, active: IntArray,
                   steps: IntArray, n: int) -> NodeCascades:
        """Build from unsorted (record, node, step) triples, each (record, node) at most once.

        Sorted here by record, then node id: the canonical order (the ``.npz`` format's, and
        the one in which the ``(record, node)`` keys the statistics look up are sorted).
        """
        order = np.lexsort((active, record))
        return cls(nodes, _offsets(record, n), active[order].astype(np.int64),
                   steps[order].astype(np.int64))


def sample_seed_keys(q: npt.NDArray[np.float64], runs: int, rng: np.random.Generator) -> IntArray:
    r"""Sorted keys ``r * V + u`` of seeds drawn from the product law (``u`` a seed w.p. ``q_u``).

    Work proportional to the seeds drawn, not to ``runs * V``: nodes are grouped by dyadic level
    (:math:`q_u \in (2^{-j-1}, 2^{-j}]`); within a level, the ``runs x members`` cells are
    candidates independently with the level's envelope :math:`\bar q` (the largest
    :math:`q_u` there), found by geometric gaps (:func:`bernoulli_positions`), and a candidate
    cell of node ``u`` is kept with probability :math:`q_u/\bar q`, so each cell is a seed with
    probability exactly :math:`q_u`, independently.
    """
    V = q.size
    positive = np.flatnonzero(q > 0)
    level = np.floor(-np.log2(q[positive])).astype(np.int64)
    parts = [np.zeros(0, dtype=np.int64)]
    for j in np.unique(level):
        members = positive[level == j]
        envelope = float(q[members].max())
        cell = bernoulli_positions(runs * members.size, envelope, rng)
        run, node = np.divmod(cell, members.size)
        node = members[node]
        keep = rng.random(cell.size) * envelope < q[node]
        parts.append(run[keep] * V + node[keep])
    return np.sort(np.concatenate(parts))


def _simulate_from_product_law(
    graph: ICGraph, q: npt.ArrayLike, n: int, rng: np.random.Generator, record_edges: bool
) -> list[tuple[int, Diffusion]]:
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise InputError("n", f"must be a positive integer, got {n!r}")
    probabilities = check_seed_probabilities(q, graph.nodes)
    parts = []
    plan = BatchPlan(int(n), graph.nodes, float(probabilities.sum()))
    for start, runs in plan:
        keys = sample_seed_keys(probabilities, runs, rng)
        part = diffuse(graph, keys, runs, rng, record_edges=record_edges,
                       store=plan.store(runs))
        plan.record(runs, part.active_keys.size + part.tried_keys.size)
        parts.append((start, part))
    return parts


def sample_node_cascades(
    graph: ICGraph, q: npt.ArrayLike, n: int, rng: np.random.Generator
) -> NodeCascades:
    r"""``n`` node-level cascades with seeds from the product law :math:`q`."""
    V = graph.nodes
    records, nodes, steps = [], [], []
    for start, part in _simulate_from_product_law(graph, q, n, rng, record_edges=False):
        records.append(part.active_keys // V + start)
        nodes.append(part.active_keys % V)
        steps.append(part.steps)
    return NodeCascades.from_steps(V, np.concatenate(records), np.concatenate(nodes),
                                   np.concatenate(steps), int(n))


@dataclass(frozen=True)
class EdgeFeedback:
    r"""Edge-level feedback: seed sets and, per record, the triggered edges and their outcomes.

    Attributes
    ----------
    nodes
        :math:`V`.
    seed_offsets, seeds
        :math:`S_{t,0}` of every record, CSR layout.
    dataset
        The CMAB-T view: arm ``e`` is edge ``e`` of the graph; record ``t`` triggered the edges
        whose source was active, with outcome 1 if the edge fired (the cascade went through it).
    """

    nodes: int
    seed_offsets: IntArray
    seeds: IntArray
    dataset: OfflineDataset

    @property
    def n(self) -> int:
        return self.dataset.n


def sample_edge_feedback(
    graph: ICGraph, q: npt.ArrayLike, n: int, rng: np.random.Generator
) -> EdgeFeedback:
    r"""``n`` records of edge-level feedback with seeds from the product law :math:`q`."""
    V, E = graph.nodes, graph.edges
    seed_records, seed_nodes, edge_records, edge_ids, fired = [], [], [], [], []
    for start, part in _simulate_from_product_law(graph, q, n, rng, record_edges=True):
        seeds = part.active_keys[part.steps == 0]
        seed_records.append(seeds // V + start)
        seed_nodes.append(seeds % V)
        edge_records.append(part.tried_keys // E + start)
        edge_ids.append(part.tried_keys % E)
        fired.append(part.fired)
    seed_record = np.concatenate(seed_records)
    seed_order = np.lexsort((np.concatenate(seed_nodes), seed_record))
    edge_record = np.concatenate(edge_records)  # already sorted by record within each batch
    dataset = OfflineDataset(max(E, 1), _offsets(edge_record, int(n)), np.concatenate(edge_ids),
                             np.concatenate(fired).astype(np.float64))
    return EdgeFeedback(V, _offsets(seed_record, int(n)),
                        np.concatenate(seed_nodes)[seed_order], dataset)


def _unmatched(keys: IntArray, want_keys: IntArray, steps: IntArray | None = None,
               want_steps: IntArray | None = None) -> IntArray:
    """Indices of the ``(want_keys, want_steps)`` pairs absent from ``(keys, steps)``.

    One ``lexsort`` over both lists (no combined key, so nothing can overflow); steps default
    to 0 (plain key membership).
    """
    is_want = np.concatenate([np.zeros(keys.size, bool), np.ones(want_keys.size, bool)])
    all_keys = np.concatenate([keys, want_keys])
    all_steps = (np.zeros(all_keys.size, np.int64) if steps is None or want_steps is None
                 else np.concatenate([steps, want_steps]))
    order = np.lexsort((is_want, all_steps, all_keys))  # offers before wants in each pair run
    k, s, w = all_keys[order], all_steps[order], is_want[order]
    starts = np.ones(order.size, dtype=bool)
    starts[1:] = (k[1:] != k[:-1]) | (s[1:] != s[:-1])
    offered = ~w[starts][np.cumsum(starts) - 1]  # a run starting with an offer is offered
    return np.sort(order[w & ~offered] - keys.size)


def _first_by_record(missing: IntArray, record: IntArray) -> int | None:
    """The entry of ``missing`` with the smallest record (then index), or None."""
    return int(missing[np.argmin(record[missing])]) if missing.size else None


def check_cascades_follow_graph(graph: ICGraph, cascades: NodeCascades) -> NodeCascades:
    r"""Return ``cascades`` after checking every activation is explained by an edge of ``graph``.

    Under the IC model a node first active at step :math:`h \ge 1` has an in-neighbour first
    active at step :math:`h-1` (the only step at which that neighbour tries its out-edges).
    Cascades recorded on another graph fail this; learning from them would give edge
    estimates for the wrong structure without any warning.  The work is that of
    :func:`step_counts` with ``check=True`` (which CLCB-IM-N can run instead, to check
    and count in one pass); :class:`_FollowCheck` says how each run is checked.

    Raises
    ------
    InputError
        ``active``, with the first offending cascade as ``InputError.sample``.
    """
    step_counts(graph, cascades, check=True)
    return cascades


def step_counts(graph: ICGraph, cascades: NodeCascades, check: bool = False
                ) -> tuple[IntArray, IntArray, IntArray]:
    r"""Per node :math:`n_{0,u}` and :math:`\#\{t : v \in S_{t,1}\}`; per edge
    :math:`\#\{t : u \in S_{t,0},\ v \in S_{t,1}\}`: one pass over runs of records.

    In each run (:meth:`NodeCascades.blocks`) the node counts are ``bincount`` calls; for the
    edge count the out-edges of every seed are gathered and each target is looked up among
    the run's sorted ``(record, node)`` keys, a target found at step :math:`\le 1` counting
    for the edge.  With ``check=True`` the run is also checked by :class:`_FollowCheck`.

    Raises
    ------
    InputError
        With ``check=True``: ``active``, the first offending cascade as ``InputError.sample``.
    """
    if cascades.nodes != graph.nodes:
        raise InputError("nodes", f"cascades have {cascades.nodes} nodes, graph has {graph.nodes}")
    V = graph.nodes
    seeded, active_1 = np.zeros(V, dtype=np.int64), np.zeros(V, dtype=np.int64)
    both = np.zeros(graph.edges, dtype=np.int64)
    follow = _FollowCheck.of(graph) if check else None
    for t0, a, b, keys in cascades.blocks():
        steps, nodes = cascades.steps[a:b], cascades.active[a:b]
        seeded += np.bincount(nodes[steps == 0], minlength=V)
        active_1 += np.bincount(nodes[steps <= 1], minlength=V)
        seeds = np.flatnonzero(steps == 0)
        edge, owner = out_edges_of(graph, nodes[seeds])
        where, found = lookup(keys, (keys - nodes)[seeds][owner] + graph.targets[edge])
        both += np.bincount(edge[found & (steps[where] <= 1)], minlength=graph.edges)
        if follow is not None:
            follow(t0, keys, nodes, steps)
    return seeded, active_1, both


@dataclass(frozen=True)
class _FollowCheck:
    r"""The rule of :func:`check_cascades_follow_graph` on one run of records, at the cost
    :math:`\sum_v \min(|L_{t,h-1}|, d_{in}(v))` over the later entries ``v`` (at step
    :math:`h \ge 1` of cascade ``t``, :math:`L_{t,h-1}` the nodes that joined one step earlier).

    Each later entry is tested the cheaper way: either every pair ``(u, v)`` with ``u`` in
    :math:`L_{t,h-1}` is looked up among the graph's sorted edge keys, or every in-edge
    ``(u, v)`` of ``v`` is looked up among the run's ``(record, node)`` keys and ``u``'s step
    compared with :math:`h-1`.  Small cascades on a graph with hubs take the first way, large
    levels the second, so neither a hub's thousand in-edges nor a level of a thousand nodes
    is ever expanded in full.
    """

    graph: ICGraph
    into: ICGraph  # the reversed graph: its out-edges are the in-edges
    edge_keys: IntArray  # u * V + v of every edge, increasing
    in_degree: IntArray

    @classmethod
    def of(cls, graph: ICGraph) -> _FollowCheck:
        return cls(graph, graph.reversed(), graph.sources * graph.nodes + graph.targets,
                   graph.in_degree())

    def __call__(self, t0: int, keys: IntArray, nodes: IntArray, steps: IntArray) -> None:
        V = self.graph.nodes
        later = np.flatnonzero(steps >= 1)
        if later.size == 0:
            return
        group = (keys // V) * (int(steps.max()) + 1) + steps  # (record, step), one per level
        order = np.argsort(group, kind="stable")
        level = group[order]
        first = np.searchsorted(level, group[later] - 1, side="left")  # the level before
        size = np.searchsorted(level, group[later] - 1, side="right") - first
        by_pairs = size <= self.in_degree[nodes[later]]
        explained = np.zeros(steps.size, dtype=bool)
        pair, owner = expand_ranges(first[by_pairs], size[by_pairs])
        target = later[by_pairs][owner]
        hit = lookup(self.edge_keys, nodes[order[pair]] * V + nodes[target])[1]
        explained[target[hit]] = True
        rest = later[~by_pairs]
        edge, owner = out_edges_of(self.into, nodes[rest])
        where, found = lookup(keys, (keys - nodes)[rest][owner] + self.into.targets[edge])
        found &= steps[where] == steps[rest][owner] - 1
        explained[rest[owner[found]]] = True
        if explained[later].all():
            return
        entry = int(later[np.argmin(explained[later])])
        t = t0 + int(keys[entry] // V)
        raise InputError("active", f"cascade {t}: node {int(nodes[entry])} joins "
                         f"S_{int(steps[entry])} but no edge reaches it from a node that "
                         f"joined S_{int(steps[entry]) - 1}", sample=t)


def check_feedback_follows_graph(graph: ICGraph, feedback: EdgeFeedback) -> EdgeFeedback:
    r"""Return ``feedback`` after checking each record lists the out-edges of its active nodes.

    The active nodes of a record are its seeds and the targets of its fired edges; IC tries
    every out-edge of every active node once, so a listed edge from an inactive node, or an
    active node with an out-edge missing from the list, means the record does not come from
    an IC cascade on ``graph``.

    Raises
    ------
    InputError
        ``edges``, with the first offending record as ``InputError.sample``.
    """
    data = feedback.dataset
    seed_record = np.repeat(np.arange(feedback.n, dtype=np.int64), np.diff(feedback.seed_offsets))
    edge_record = data.sample_of_entry()
    fired = data.outcomes == 1
    active_record = np.concatenate([seed_record, edge_record[fired]])
    active_node = np.concatenate([feedback.seeds, graph.targets[data.triggered[fired]]])
    V, E = graph.nodes, max(graph.edges, 1)
    listed = _unmatched(active_record * V + active_node,
                        edge_record * V + graph.sources[data.triggered])
    bad = _first_by_record(listed, edge_record)
    if bad is not None:
        e = int(data.triggered[bad])
        raise InputError("edges", f"({int(graph.sources[e])}, {int(graph.targets[e])}) is listed "
                         "but its source is neither a seed nor the target of a fired edge",
                         sample=int(edge_record[bad]))
    edge, owner = out_edges_of(graph, active_node)
    omitted = _unmatched(edge_record * E + data.triggered, active_record[owner] * E + edge)
    bad = _first_by_record(omitted, active_record[owner])
    if bad is not None:
        e = int(edge[bad])
        raise InputError("edges", f"({int(graph.sources[e])}, {int(graph.targets[e])}) is "
                         "missing: its source is active, so IC tried it",
                         sample=int(active_record[owner][bad]))
    return feedback
