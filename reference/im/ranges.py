r"""Index arithmetic on CSR segments, shared by the graph, the live-edge sampler and the data.

A CSR layout stores segment ``i`` as the entries ``starts[i] .. starts[i] + counts[i] - 1`` of a
flat array (the out-edges of a node, the nodes of a reverse-reachable set, ...).  Gathering several
segments at once is one ``repeat`` and one ``arange``: no Python loop over segments.
"""

from __future__ import annotations

import numpy as np

from offcmab.reference.dataset import IntArray


def expand_ranges(starts: IntArray, counts: IntArray) -> tuple[IntArray, IntArray]:
    """The indices ``starts[i], ..., starts[i] + counts[i] - 1`` of every ``i`` in turn and,
    aligned, the ``i`` owning each (one ``repeat``, no Python loop)."""
    owner = np.repeat(np.arange(starts.size, dtype=np.int64), counts)
    if owner.size == 0:
        return owner, owner
    shift = starts - (np.cumsum(counts) - counts)  # index of an entry minus its place
    return np.arange(owner.size, dtype=np.int64) + shift[owner], owner
