r"""Sampled spread with an exact confidence interval, for graphs too large to enumerate.

For a seed set :math:`S` and a node :math:`u` drawn uniformly, together with a live-edge
world :math:`L` (each edge live independently with its probability),
:math:`\sigma(S) = V\,\Pr[S \leadsto_L u]` (Kempe et al. 2003).  Each of ``worlds``
independent pairs :math:`(L, u)` gives one Bernoulli indicator; the count of hits is
binomial, so :func:`~offcmab.validation.parts.verdict.clopper_pearson` bounds
:math:`\sigma(S)/V` exactly.  The simulation
runs forward from :math:`S` in all worlds at once (one boolean row per world), with numpy
only: it shares no code with the reference's simulator or its reverse-reachable sets.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt


def reach_hits(nodes: int, sources: Sequence[int], targets: Sequence[int],
               p: npt.ArrayLike, seeds: npt.ArrayLike, worlds: int,
               rng: np.random.Generator) -> int:
    r"""In how many of ``worlds`` independent (live-edge world, uniform node) pairs the node
    is reached from ``seeds`` through live edges (``worlds`` a multiple of 64).

    Worlds are bits: row ``e`` of ``live`` holds edge ``e``'s state in every world, row
    ``v`` of ``active`` whether ``v`` is active in every world, 64 worlds a word.
    """
    if worlds % 64:
        raise ValueError(f"worlds: must be a multiple of 64, got {worlds}")
    src, dst = np.asarray(sources, dtype=np.int64), np.asarray(targets, dtype=np.int64)
    by_target = np.argsort(dst, kind="stable")
    src, dst = src[by_target], dst[by_target]
    coins = rng.random((src.size, worlds)) < np.asarray(p, dtype=np.float64)[by_target, None]
    live = np.packbits(coins, axis=1, bitorder="little").view(np.uint64)
    active = np.zeros((nodes, worlds // 64), dtype=np.uint64)
    active[np.asarray(seeds, dtype=np.int64)] = ~np.uint64(0)
    heads = np.flatnonzero(np.r_[True, dst[1:] != dst[:-1]]) if dst.size else dst
    while dst.size:
        # a node becomes active in a world when a live in-edge there comes from an active node
        incoming = np.bitwise_or.reduceat(active[src] & live, heads, axis=0)
        fresh = incoming & ~active[dst[heads]]
        if not fresh.any():
            break
        active[dst[heads]] |= fresh
    bits = np.unpackbits(active.view(np.uint8), axis=1, bitorder="little")
    roots = rng.integers(0, nodes, worlds)
    return int(np.count_nonzero(bits[roots, np.arange(worlds)]))
