r"""Exact influence spread on small graphs: every live-edge world, its own reachability sweep.

Under the independent cascade model an edge is live with its probability, independently,
and the spread of a seed set is the expected number of nodes reachable from it through
live edges.  Here all :math:`2^E` worlds are listed with their probabilities, and in each
one the reachable set grows from the seeds until it stops changing (at most ``nodes``
sweeps over the edge list).  Exponential in :math:`E`, so only for small graphs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

#: Largest edge count enumerated (2**MAX_EDGES worlds).
MAX_EDGES = 16


def spreads(nodes: int, sources: Sequence[int], targets: Sequence[int],
            probabilities: Sequence[float],
            seed_sets: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Exact expected number of nodes reached from each seed set (one per row of ``seed_sets``)."""
    p = np.asarray(probabilities, dtype=np.float64)
    edges = p.size
    if edges > MAX_EDGES:
        raise ValueError(f"p: {edges} edges are too many to enumerate live-edge worlds "
                         f"(limit {MAX_EDGES})")
    live = (np.arange(2**edges)[:, None] >> np.arange(edges)) & 1 == 1  # (worlds, edges)
    weight = np.prod(np.where(live, p, 1.0 - p), axis=1)
    into = np.zeros((edges, nodes), dtype=np.int64)  # edge e ends at node targets[e]
    into[np.arange(edges), np.asarray(targets, dtype=np.int64)] = 1
    start = np.asarray(sources, dtype=np.int64)
    reached = np.zeros((len(seed_sets), live.shape[0], nodes), dtype=bool)
    for row, seeds in enumerate(seed_sets):
        reached[row, :, seeds] = True
    for _ in range(nodes):
        carried = reached[:, :, start] & live[None, :, :]  # live edges out of reached nodes
        grown = reached | (carried.astype(np.int64) @ into > 0)
        if np.array_equal(grown, reached):
            break
        reached = grown
    return np.asarray(reached.sum(axis=2) @ weight, dtype=np.float64)
