r"""Weighted directed graphs :math:`G(\mathcal V, \mathcal E, p)` for the independent cascade model.

Edges are stored once, as three aligned arrays (``sources``, ``targets``, ``p``) sorted by
source, with CSR offsets ``out_offsets`` so that the out-edges of ``u`` are the rows
``out_offsets[u]:out_offsets[u + 1]``.  The edge row index is the edge's id: it is the base arm
of the edge-level CMAB-T view and the position of :math:`p_{uv}` in every weight vector.

References
----------
``apdx_app:OIM_node`` (definition of :math:`G(\mathcal V,\mathcal E,p)`, :math:`V`, :math:`E`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.errors import MAX_SIZE, InputError, check_dense
from offcmab.reference.im.live_edges import LiveEdgeSampler
from offcmab.reference.im.ranges import expand_ranges

#: Largest number of nodes accepted (guards against a stray huge id allocating gigabytes).
MAX_NODES = MAX_SIZE


def _check_node_ids(ids: IntArray, nodes: int, field: str) -> None:
    if ids.size and (ids.min() < 0 or ids.max() >= nodes):
        bad = int(ids[(ids < 0) | (ids >= nodes)][0])
        raise InputError(field, f"node id {bad} is outside [0, {nodes})")


@dataclass(frozen=True)
class ICGraph:
    r"""A directed graph with an activation probability :math:`p_{uv}` on every edge.

    Build it with :meth:`from_edges`, which sorts the edges by source and checks them.

    Attributes
    ----------
    nodes
        :math:`V`; node ids lie in ``[0, V)``.
    sources, targets, p
        Edge ``e`` goes from ``sources[e]`` to ``targets[e]`` with probability ``p[e]``.
    out_offsets
        CSR offsets (length ``V + 1``) of the out-edges of every node.
    """

    nodes: int
    sources: IntArray
    targets: IntArray
    p: FloatArray
    out_offsets: IntArray

    @classmethod
    def from_edges(
        cls, nodes: int, sources: npt.ArrayLike, targets: npt.ArrayLike,
        p: npt.ArrayLike | float,
    ) -> ICGraph:
        """Check and sort an edge list (no self-loops, no repeated edge, ``p`` in [0, 1])."""
        if isinstance(nodes, bool) or int(nodes) != nodes or int(nodes) < 1:
            raise InputError("nodes", f"must be a positive integer, got {nodes!r}")
        nodes = int(nodes)
        if nodes > MAX_NODES:
            raise InputError("nodes", f"at most {MAX_NODES} nodes are supported, got {nodes}")
        src = np.asarray(sources, dtype=np.int64).reshape(-1)
        dst = np.asarray(targets, dtype=np.int64).reshape(-1)
        if src.size != dst.size:
            raise InputError("targets", f"has {dst.size} entries but sources has {src.size}")
        prob = np.broadcast_to(np.asarray(p, dtype=np.float64), src.shape).copy()
        _check_node_ids(src, nodes, "source")
        _check_node_ids(dst, nodes, "target")
        check_dense(nodes, src.size + dst.size, "nodes")
        if np.any(~np.isfinite(prob)) or np.any((prob < 0) | (prob > 1)):
            raise InputError("p", "edge probabilities must lie in [0, 1]")
        if np.any(src == dst):
            raise InputError("target", f"self-loop at node {int(src[src == dst][0])}")
        order = np.lexsort((dst, src))
        src, dst, prob = src[order], dst[order], prob[order]
        if src.size > 1:
            same = (src[1:] == src[:-1]) & (dst[1:] == dst[:-1])
            if np.any(same):
                i = int(np.flatnonzero(same)[0])
                raise InputError("target", f"edge ({src[i]}, {dst[i]}) is listed twice")
        offsets = np.zeros(nodes + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=nodes), out=offsets[1:])
        return cls(nodes, src, dst, prob, offsets)

    @property
    def edges(self) -> int:
        """:math:`E`, the number of edges."""
        return int(self.sources.size)

    @cached_property
    def live_edges(self) -> LiveEdgeSampler:
        """Live out-edge sampling tables (:mod:`offcmab.reference.im.live_edges`), built once."""
        return LiveEdgeSampler.of(self.nodes, self.sources, self.targets, self.p)

    def with_probabilities(self, p: npt.ArrayLike) -> ICGraph:
        r"""The same structure with new probabilities (e.g. the LCB graph :math:`\underline G`)."""
        prob = np.asarray(p, dtype=np.float64)
        if prob.shape != self.p.shape:
            raise InputError("p", f"needs shape {self.p.shape} (one per edge), got shape "
                                  f"{prob.shape}")
        if np.any(~np.isfinite(prob)) or np.any((prob < 0) | (prob > 1)):
            raise InputError("p", "edge probabilities must lie in [0, 1]")
        return ICGraph(self.nodes, self.sources, self.targets, prob, self.out_offsets)

    def reversed(self) -> ICGraph:
        """The transposed graph (used by reverse-reachable sampling)."""
        return ICGraph.from_edges(self.nodes, self.targets, self.sources, self.p)

    def out_degree(self) -> IntArray:
        return np.diff(self.out_offsets)

    def in_degree(self) -> IntArray:
        return np.bincount(self.targets, minlength=self.nodes).astype(np.int64)

    @property
    def d_max(self) -> int:
        r""":math:`d_{\max}`, the largest out-degree (``thm:IM``)."""
        return int(self.out_degree().max(initial=0))

    def edge_index(self, sources: npt.ArrayLike, targets: npt.ArrayLike) -> IntArray:
        """Edge ids of the pairs ``(sources[i], targets[i])``; -1 where no such edge exists."""
        key = self.sources * self.nodes + self.targets  # sorted, since edges are sorted
        query = np.asarray(sources, dtype=np.int64) * self.nodes + np.asarray(targets, np.int64)
        if key.size == 0:
            return np.full(query.shape, -1, dtype=np.int64)
        where = np.minimum(np.searchsorted(key, query), key.size - 1)
        hit = key[where] == query
        for ids in (sources, targets):  # an id outside [0, V) would alias another pair's key
            ids = np.asarray(ids, dtype=np.int64)
            hit &= (ids >= 0) & (ids < self.nodes)
        return np.where(hit, where, -1).astype(np.int64)


def out_edges_of(graph: ICGraph, nodes: IntArray) -> tuple[IntArray, IntArray]:
    """Edge ids of all out-edges of ``nodes`` and, aligned, the position in ``nodes`` owning each.

    A vectorized CSR gather: no Python loop over nodes.
    """
    starts = graph.out_offsets[nodes]
    return expand_ranges(starts, graph.out_offsets[nodes + 1] - starts)

