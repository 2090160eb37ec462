r"""A CELF greedy baseline for influence maximization: a seed set to hold IMM against.

Lazy greedy (CELF, Leskovec et al. 2007) maximizes the fraction of a sample of random
reverse-reachable sets that a seed set meets, the unbiased estimate
:math:`\hat\sigma(S) = V\,|\{R : R \cap S \ne \emptyset\}| / |\mathcal R|`.  Coverage is
submodular, so a node's gain can only shrink as seeds are added: a gain computed in an
earlier round is an upper bound, and a node whose fresh gain still tops the heap is the
greedy choice without recomputing the others.

Whatever its quality, the baseline is a seed set of size ``k``, so
:math:`\sigma(S_{\text{CELF}}) \le \max_{|S|=k}\sigma(S)`: an oracle meeting
:math:`\sigma(S) \ge \alpha\max\sigma` also meets :math:`\sigma(S) \ge
\alpha\,\sigma(S_{\text{CELF}})`.  A strong baseline only makes that check sharper.
"""

from __future__ import annotations

import heapq

import numpy as np

from offcmab.reference.dataset import IntArray
from offcmab.reference.im.oracles import RRSets


def lazy_greedy(rr: RRSets, k: int) -> IntArray:
    """``k`` seeds by lazy greedy coverage of the RR sets ``rr`` (ties to smaller ids)."""
    V = rr.nodes_total
    set_of_entry = np.repeat(np.arange(rr.count, dtype=np.int64), np.diff(rr.offsets))
    order = np.argsort(rr.nodes, kind="stable")
    sets_by_node = set_of_entry[order]  # the sets holding node v: one slice per node
    node_offsets = np.zeros(V + 1, dtype=np.int64)
    np.cumsum(np.bincount(rr.nodes, minlength=V), out=node_offsets[1:])
    covered = np.zeros(rr.count, dtype=bool)
    # entries (-gain, node, round the gain was computed in)
    heap = [(-int(node_offsets[v + 1] - node_offsets[v]), v, 0) for v in range(V)]
    heapq.heapify(heap)
    chosen: list[int] = []
    while len(chosen) < k:
        _, v, computed = heapq.heappop(heap)
        sets = sets_by_node[node_offsets[v]:node_offsets[v + 1]]
        if computed == len(chosen):  # its gain is current: it is the greedy choice
            chosen.append(v)
            covered[sets] = True
        else:
            heapq.heappush(heap, (-int(np.count_nonzero(~covered[sets])), v, len(chosen)))
    return np.asarray(chosen, dtype=np.int64)
