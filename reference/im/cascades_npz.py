r"""Node-level cascades as a ``.npz`` archive: the CSR arrays of :class:`NodeCascades`.

Members (uncompressed, as :func:`reference.npz.write_npz_aligned` writes them):

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
by construction.  Every check runs as a few whole-array passes (no loop over cascades), and a
failure is an :class:`~reference.errors.InputError` naming the member and the cascade (the
increasing order is checked by :class:`NodeCascades` itself, whatever its source).
Pickled members are never loaded (:func:`reference.npz.read_npz_members`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reference.dataset import IntArray, _as_int_array, _check_offsets
from reference.errors import InputError, check_size
from reference.im.data import NodeCascades, cascade_of
from reference.npz import read_npz_members, write_npz_aligned

KEYS = ("nodes", "offsets", "active", "steps")


def _check_range(values: IntArray, nodes: int, field: str, what: str,
                 offsets: IntArray) -> None:
    if values.size and (values.min() < 0 or values.max() >= nodes):
        entry = int(np.flatnonzero((values < 0) | (values >= nodes))[0])
        raise InputError(field, f"cascade {cascade_of(offsets, entry)}: {what} "
                         f"{int(values[entry])} is outside [0, {nodes})")


def node_cascades_from_arrays(nodes: object, offsets: object, active: object, steps: object,
                              min_nodes: int | None = None) -> NodeCascades:
    """Check the four arrays of the archive format (module docstring) and wrap them.

    ``min_nodes``, when given, is a lower bound on ``nodes`` (the graph's size).
    """
    size = np.asarray(nodes)
    if size.shape != () or size.dtype.kind not in "iu":
        raise InputError("nodes", "must be a scalar integer")
    V = check_size(int(size), "nodes")
    if min_nodes is not None and min_nodes > V:
        raise InputError("nodes", f"archive says {V} but the graph has {min_nodes} nodes")
    ids = _as_int_array(np.asarray(active), "active")
    when = _as_int_array(np.asarray(steps), "steps")
    starts = _as_int_array(np.asarray(offsets), "offsets")
    if when.size != ids.size:
        raise InputError("steps", f"must align with active ({ids.size} entries), got {when.size}")
    _check_offsets(starts, ids.size, "offsets")
    if starts.size < 2:
        raise InputError("data", "no cascades in the archive")
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
