r"""Offline IM data: node-level cascades and edge-level feedback, from a product seed law.

Each record draws a seed set :math:`S_{t,0}` from the product distribution (node ``u`` is a
seed with probability :math:`q_u`, independently) and runs one IC cascade from it.

* **Node-level feedback** (:class:`NodeCascades`) keeps the cascade
  :math:`(S_{t,0}, S_{t,1}, \dots)` as the activation step of every active node, CSR style:
  record ``t`` owns ``nodes[offsets[t]:offsets[t+1]]`` and the aligned ``steps``, and
  :math:`S_{t,h} = \{v : \text{step}_t(v) \le h\}` (cumulative sets).
* **Edge-level feedback** (:class:`EdgeFeedback`) keeps, for every record, the edges whose
  source became active (the triggered base arms of the CMAB-T view) and whether each fired,
  as an :class:`~reference.dataset.OfflineDataset` over ``m = E`` arms (arm id = edge id).

References
----------
``apdx_app:OIM_node`` (offline dataset, product distribution :math:`\mathbb D_{\mathcal S}`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reference.dataset import IntArray, OfflineDataset, offsets_from_lengths
from reference.errors import InputError
from reference.im.diffusion import Diffusion, batches, diffuse
from reference.im.graph import ICGraph
from reference.im.one_step import check_seed_probabilities


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
        Node ids of the active nodes of each record (each at most once per record).
    steps
        Activation step of each entry (0 for seeds).
    """

    nodes: int
    offsets: IntArray
    active: IntArray
    steps: IntArray

    @property
    def n(self) -> int:
        """Number of cascades."""
        return int(self.offsets.size - 1)

    def record_of_entry(self) -> IntArray:
        return np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.offsets))

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
        """Build from unsorted (record, node, step) triples (sorted here by record, then step)."""
        order = np.lexsort((active, steps, record))
        return cls(nodes, _offsets(record, n), active[order].astype(np.int64),
                   steps[order].astype(np.int64))


def sample_seed_keys(q: npt.NDArray[np.float64], runs: int, rng: np.random.Generator) -> IntArray:
    """Keys ``r * V + u`` of seeds drawn from the product law (``u`` a seed w.p. ``q_u``)."""
    return np.flatnonzero(rng.random((runs, q.size)) < q[None, :]).astype(np.int64)


def _simulate_from_product_law(
    graph: ICGraph, q: npt.ArrayLike, n: int, rng: np.random.Generator, record_edges: bool
) -> list[tuple[int, Diffusion]]:
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise InputError("n", f"must be a positive integer, got {n!r}")
    probabilities = check_seed_probabilities(q, graph.nodes)
    parts = []
    for start, runs in batches(int(n), graph.nodes):
        keys = sample_seed_keys(probabilities, runs, rng)
        parts.append((start, diffuse(graph, keys, runs, rng, record_edges=record_edges)))
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
