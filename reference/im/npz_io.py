r"""IM logs as ``.npz`` archives: node-level cascades and edge-level feedback.

Both are written uncompressed with aligned members (:func:`offcmab.reference.npz.write_npz_aligned`)
and read member by member, never unpickling (:func:`offcmab.reference.npz.read_npz_members`); every
check is a few whole-array passes (no loop over cascades) and a failure is an
:class:`~offcmab.reference.errors.InputError` naming the member (or ``edges`` for a pair of
``sources``/``targets``) and the cascade.

**Node-level cascades** (:class:`NodeCascades`), members:

``nodes``
    Scalar integer :math:`V`.
``offsets``
    Integers, length ``n + 1``, from 0 up to ``len(active)``, non-decreasing: cascade ``t``
    owns entries ``offsets[t]:offsets[t+1]``.
``active``
    Node ids in ``[0, V)``; within a cascade **strictly increasing** (each active node once,
    sorted by id, so that "each node at most once" is one comparison of neighbours).
``steps``
    Aligned with ``active``: the step at which the node first became active (0 for seeds),
    an integer in ``[0, V)`` (under IC a node joining at step ``h`` ends a chain of ``h + 1``
    distinct active nodes, so ``h < V``).

The sets of the JSON Lines form are :math:`S_{t,h} = \{v : \text{step}_t(v) \le h\}`, cumulative
by construction (the increasing order is checked by :class:`NodeCascades` itself, whatever its
source).

**Edge-level feedback** (:class:`EdgeFeedback`), members:

``nodes``
    Scalar integer :math:`V` (at least the graph's node count).
``seed_offsets``, ``seeds``
    The seed set of every cascade in the same CSR layout, node ids in ``[0, V)`` strictly
    increasing within a cascade.
``edge_offsets``, ``sources``, ``targets``, ``fired``
    Cascade ``t`` tried the edges ``(sources[i], targets[i])`` for ``i`` in
    ``edge_offsets[t]:edge_offsets[t+1]`` (each an edge of the graph, at most once per
    cascade), ``fired[i]`` 1 if the attempt activated the target and 0 if not (integers or
    booleans).  Both offsets describe the same number of cascades.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from offcmab.reference.dataset import IntArray, OfflineDataset, _as_int_array, _check_offsets
from offcmab.reference.errors import InputError, check_size
from offcmab.reference.im.data import (
    EdgeFeedback,
    NodeCascades,
    cascade_of,
    check_increasing_per_record,
)
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.npz import read_npz_members, write_npz_aligned

KEYS = ("nodes", "offsets", "active", "steps")
FEEDBACK_KEYS = ("nodes", "seed_offsets", "seeds", "edge_offsets", "sources", "targets", "fired")


def _check_range(values: IntArray, nodes: int, field: str, what: str,
                 offsets: IntArray) -> None:
    if values.size and (values.min() < 0 or values.max() >= nodes):
        entry = int(np.flatnonzero((values < 0) | (values >= nodes))[0])
        raise InputError(field, f"cascade {cascade_of(offsets, entry)}: {what} "
                         f"{int(values[entry])} is outside [0, {nodes})")


def _node_count(nodes: object, min_nodes: int | None) -> int:
    size = np.asarray(nodes)
    if size.shape != () or size.dtype.kind not in "iu":
        raise InputError("nodes", "must be a scalar integer")
    V = check_size(int(size), "nodes")
    if min_nodes is not None and min_nodes > V:
        raise InputError("nodes", f"archive says {V} but the graph has {min_nodes} nodes")
    return V


def _csr(offsets: object, values: object, offsets_field: str, field: str
         ) -> tuple[IntArray, IntArray]:
    """Checked integer offsets (at least one cascade) and the integer values they index."""
    ids = _as_int_array(np.asarray(values), field)
    starts = _as_int_array(np.asarray(offsets), offsets_field)
    _check_offsets(starts, ids.size, offsets_field)
    if starts.size < 2:
        raise InputError("data", "no cascades in the archive")
    return starts, ids


def node_cascades_from_arrays(nodes: object, offsets: object, active: object, steps: object,
                              min_nodes: int | None = None) -> NodeCascades:
    """Check the four arrays of the archive format (module docstring) and wrap them.

    ``min_nodes``, when given, is a lower bound on ``nodes`` (the graph's size).
    """
    V = _node_count(nodes, min_nodes)
    starts, ids = _csr(offsets, active, "offsets", "active")
    when = _as_int_array(np.asarray(steps), "steps")
    if when.size != ids.size:
        raise InputError("steps", f"must align with active ({ids.size} entries), got {when.size}")
    _check_range(ids, V, "active", "node id", starts)
    _check_range(when, V, "steps", "activation step", starts)
    return NodeCascades(V, starts, ids, when)


def read_node_cascades_npz(path: str | Path, nodes: int | None = None) -> NodeCascades:
    """Read node-level cascades from a ``.npz`` archive (module docstring), checking them."""
    arrays = read_npz_members(path, KEYS, KEYS)
    return node_cascades_from_arrays(arrays["nodes"], arrays["offsets"], arrays["active"],
                                     arrays["steps"], min_nodes=nodes)


def write_node_cascades_npz(cascades: NodeCascades, path: str | Path) -> None:
    """Write node-level cascades as an uncompressed ``.npz`` (members 64-byte aligned)."""
    write_npz_aligned(path, {"nodes": np.asarray(cascades.nodes, dtype=np.int64),
                             "offsets": cascades.offsets, "active": cascades.active,
                             "steps": cascades.steps})


def edge_feedback_from_arrays(graph: ICGraph, arrays: dict[str, np.ndarray]) -> EdgeFeedback:
    """Check the members of an edge-level feedback archive (module docstring) and wrap them.

    ``graph`` is the known structure; the feedback's ``nodes`` may exceed its node count
    (isolated nodes, see :func:`offcmab.reference.im.graph_io.with_nodes`).
    """
    V = _node_count(arrays["nodes"], graph.nodes)
    seed_offsets, seeds = _csr(arrays["seed_offsets"], arrays["seeds"], "seed_offsets", "seeds")
    _check_range(seeds, V, "seeds", "node id", seed_offsets)
    check_increasing_per_record(seeds, seed_offsets, "seeds")
    edge_offsets, sources = _csr(arrays["edge_offsets"], arrays["sources"], "edge_offsets",
                                 "sources")
    if edge_offsets.size != seed_offsets.size:
        raise InputError("edge_offsets", f"describes {edge_offsets.size - 1} cascades but "
                         f"seed_offsets describes {seed_offsets.size - 1}")
    targets = _as_int_array(np.asarray(arrays["targets"]), "targets")
    fired = np.asarray(arrays["fired"])
    for key, values in (("targets", targets), ("fired", fired)):
        if values.shape != sources.shape:
            raise InputError(key, f"must align with sources ({sources.size} entries), got "
                             f"shape {values.shape}")
    if fired.dtype.kind not in "biu" or (fired.size and (fired.min() < 0 or fired.max() > 1)):
        raise InputError("fired", "must hold 0 or 1 (integers or booleans)")
    ids = graph.edge_index(sources, targets)
    if ids.size and ids.min() < 0:
        entry = int(np.argmin(ids))
        raise InputError("edges", f"cascade {cascade_of(edge_offsets, entry)}: "
                         f"({int(sources[entry])}, {int(targets[entry])}) is not an edge of the "
                         "graph")
    try:
        dataset = OfflineDataset(max(graph.edges, 1), edge_offsets, ids,
                                 fired.astype(np.float64))
    except InputError as error:  # the only check left there: an edge twice in a cascade
        raise InputError("edges", error.message.replace("sample", "cascade")
                         .replace("an arm", "an edge")) from None
    return EdgeFeedback(V, seed_offsets, seeds, dataset)


def read_edge_feedback_npz(path: str | Path, graph: ICGraph) -> EdgeFeedback:
    """Read edge-level feedback from a ``.npz`` archive (module docstring), checking it."""
    return edge_feedback_from_arrays(graph, read_npz_members(path, FEEDBACK_KEYS, FEEDBACK_KEYS))


def write_edge_feedback_npz(feedback: EdgeFeedback, graph: ICGraph, path: str | Path) -> None:
    """Write edge-level feedback as an uncompressed ``.npz`` (members 64-byte aligned)."""
    data = feedback.dataset
    write_npz_aligned(path, {"nodes": np.asarray(feedback.nodes, dtype=np.int64),
                             "seed_offsets": feedback.seed_offsets, "seeds": feedback.seeds,
                             "edge_offsets": data.triggered_offsets,
                             "sources": graph.sources[data.triggered],
                             "targets": graph.targets[data.triggered],
                             "fired": data.outcomes.astype(np.int8)})
