r"""Live out-edges of many (cascade, node) pairs at once, at a cost that follows the coins flipped.

In an IC cascade a newly active node ``u`` tries each out-edge ``(u, v)`` once, and the edge is
*live* with probability :math:`p_{uv}`, independently of everything else.  Given the nodes of a
frontier (one entry per active (run, node) pair), :func:`live_targets` returns the targets of
the live out-edges of every entry and the entry owning each, with exactly that law, in one of
two ways chosen per group of edges when the graph is prepared (:class:`LiveEdgeSampler`):

* **coin per edge** (high probabilities): one 16-bit random integer ``r`` per edge; the edge is
  live when ``r < T`` with :math:`T = \lfloor 2^{16} p\rfloor`, and when ``r == T`` a second
  uniform ``U'`` decides, live iff :math:`U' < 2^{16}p - T`.  This is :math:`U < p` for the
  uniform :math:`U = (r + U')/2^{16}`, so the edge is live with probability exactly ``p``.
* **skip sampling** (low probabilities): the out-edges of ``u`` with probability in one dyadic
  level :math:`(2^{-j-1}, 2^{-j}]` form a *segment* with envelope :math:`q` (the largest of
  them).  Candidates are found by geometric gaps, :math:`\lfloor \ln U / \ln(1-q)\rfloor`
  failures before each (each edge of the segment is a candidate independently with probability
  ``q``), and a candidate ``e`` is kept with probability :math:`p_e / q` (no draw when every edge
  of the segment has probability ``q``).  Each edge is therefore live independently with
  probability :math:`q \cdot p_e/q = p_e`, and the work is about one draw per live edge plus one
  per segment.  Long segments are cut into chunks of about ``CHUNK_HITS / q`` edges so that the
  number of vectorized rounds (the most candidates of any chunk) stays small.

Edges with :math:`p = 0` are never live and cost nothing.

References
----------
``apdx_app:OIM_node`` (the IC model: each newly active node tries each out-edge once).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reference.dataset import FloatArray, IntArray

#: Edges with a probability below this may be skip-sampled (see :func:`_worth_skipping`).
SKIP_BELOW = 0.2
#: Cost of one geometric draw, in coins (decides per run of edges which method is cheaper).
SKIP_COST = 3.0
#: Expected candidates per skip-sampling chunk (bounds the number of vectorized rounds).
CHUNK_HITS = 8.0
_SCALE = 65536.0


@dataclass(frozen=True)
class LiveEdgeSampler:
    r"""Per-graph tables for :func:`live_targets` (built once by :meth:`of`).

    Edges are re-ordered by (source, probability level, id); ``edge_id[i]`` is the graph's id
    of position ``i``.  Node ``u`` owns the coin-per-edge positions
    ``coin_start[u] : coin_start[u] + coin_count[u]`` and the skip chunks
    ``chunk_ptr[u] : chunk_ptr[u + 1]`` (chunk ``c`` covers positions
    ``chunk_start[c] : chunk_start[c] + chunk_count[c]`` with envelope ``chunk_q[c]``).
    """

    edge_id: IntArray
    target: IntArray
    threshold: npt.NDArray[np.uint16]
    remainder: FloatArray
    p: FloatArray
    coin_start: IntArray
    coin_count: IntArray
    chunk_ptr: IntArray
    chunk_start: IntArray
    chunk_count: IntArray
    chunk_q: FloatArray
    chunk_log_miss: FloatArray
    chunk_exact: npt.NDArray[np.bool_]

    @classmethod
    def of(cls, nodes: int, sources: IntArray, targets: IntArray, p: FloatArray) -> LiveEdgeSampler:
        """Prepare the tables of a graph given as aligned edge arrays."""
        positive = p > 0  # p = 0: never live, dropped
        low = np.flatnonzero(positive & (p < SKIP_BELOW))
        level = np.floor(-np.log2(p[low])).astype(np.int64)
        group = np.zeros(p.size, dtype=np.int64)
        skip = _worth_skipping(sources[low], level, p[low])
        group[low[skip]] = level[skip] + 1  # coins first, then one group per skipped level
        keep = np.flatnonzero(positive)
        order = keep[np.lexsort((keep, group[keep], sources[keep]))]
        src, grp, prob = sources[order], group[order], p[order]
        scaled = prob * _SCALE
        threshold = np.minimum(np.floor(scaled), _SCALE - 1)
        remainder = np.where(prob >= 1.0, 1.0, scaled - threshold)
        coin = grp == 0
        coin_count = np.bincount(src[coin], minlength=nodes).astype(np.int64)
        node_start = np.zeros(nodes + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=nodes), out=node_start[1:])
        chunks = _skip_chunks(src[~coin], grp[~coin], prob[~coin], np.flatnonzero(~coin))
        chunk_src, chunk_start, chunk_count, chunk_q, chunk_exact = chunks
        chunk_ptr = np.zeros(nodes + 1, dtype=np.int64)
        np.cumsum(np.bincount(chunk_src, minlength=nodes), out=chunk_ptr[1:])
        with np.errstate(divide="ignore"):
            log_miss = np.log1p(-chunk_q)
        return cls(order.astype(np.int64), targets[order].astype(np.int64),
                   threshold.astype(np.uint16), remainder, prob, node_start[:-1], coin_count,
                   chunk_ptr, chunk_start, chunk_count, chunk_q, log_miss, chunk_exact)


def _worth_skipping(src: IntArray, level: IntArray, prob: FloatArray) -> npt.NDArray[np.bool_]:
    """Whether each edge's (source, level) run is cheaper to skip-sample than to flip.

    A run of ``c`` edges with envelope ``q`` costs about ``q c + 1`` geometric draws against
    ``c`` coins, and a draw costs about :data:`SKIP_COST` coins.
    """
    order = np.lexsort((level, src))
    new_run = np.ones(src.size, dtype=bool)
    new_run[1:] = (src[order][1:] != src[order][:-1]) | (level[order][1:] != level[order][:-1])
    first = np.flatnonzero(new_run)
    if first.size == 0:
        return np.zeros(0, dtype=bool)
    count = np.diff(np.append(first, src.size))
    q = np.maximum.reduceat(prob[order], first)
    worth = np.repeat((q * count + 1.0) * SKIP_COST <= count, count)
    out = np.empty(src.size, dtype=bool)
    out[order] = worth
    return out


def _skip_chunks(
    src: IntArray, grp: IntArray, prob: FloatArray, position: IntArray
) -> tuple[IntArray, IntArray, IntArray, FloatArray, npt.NDArray[np.bool_]]:
    """Cut the runs of equal (source, level) into chunks; their source, start, size, envelope."""
    if src.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, np.zeros(0), np.zeros(0, dtype=bool)
    new_run = np.ones(src.size, dtype=bool)
    new_run[1:] = (src[1:] != src[:-1]) | (grp[1:] != grp[:-1])
    run_id = np.cumsum(new_run) - 1
    run_first = np.flatnonzero(new_run)
    run_q = np.maximum.reduceat(prob, run_first)
    # chunk index within its run from the offset inside the run
    length = np.maximum(np.floor(CHUNK_HITS / run_q), 1).astype(np.int64)
    inside = np.arange(src.size) - run_first[run_id]
    new_chunk = new_run | (inside % length[run_id] == 0)
    first = np.flatnonzero(new_chunk)
    count = np.diff(np.append(first, src.size))
    q = np.maximum.reduceat(prob, first)
    exact = np.minimum.reduceat(prob, first) == q
    return src[first], position[first], count, q, exact


def live_targets(
    sampler: LiveEdgeSampler, nodes: IntArray, rng: np.random.Generator
) -> tuple[IntArray, IntArray]:
    """Targets of the live out-edges of every entry of ``nodes``, and the entry owning each."""
    coin_pos, coin_owner = _coin_per_edge(sampler, nodes, rng)
    skip_pos, skip_owner = _skip_sampled(sampler, nodes, rng)
    position = np.concatenate([coin_pos, skip_pos])
    return sampler.target[position], np.concatenate([coin_owner, skip_owner])


def _ranges(starts: IntArray, counts: IntArray) -> tuple[IntArray, IntArray]:
    """Concatenated ranges ``starts[i] : starts[i] + counts[i]`` (counts > 0), and their ends."""
    ends = np.cumsum(counts)
    step = np.ones(int(ends[-1]), dtype=np.int64)
    step[0] = starts[0]
    step[ends[:-1]] = starts[1:] - (starts[:-1] + counts[:-1]) + 1
    return np.cumsum(step, out=step), ends


def _coin_per_edge(
    sampler: LiveEdgeSampler, nodes: IntArray, rng: np.random.Generator
) -> tuple[IntArray, IntArray]:
    counts = sampler.coin_count[nodes]
    owner = np.flatnonzero(counts)
    if owner.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    position, _ = _ranges(sampler.coin_start[nodes[owner]], counts[owner])
    draw = rng.integers(0, 1 << 16, size=position.size, dtype=np.uint16)
    threshold = sampler.threshold[position]
    live = draw < threshold
    tied = np.flatnonzero(draw == threshold)
    live[tied] = rng.random(tied.size) < sampler.remainder[position[tied]]
    hit = np.flatnonzero(live)
    return position[hit], np.repeat(owner, counts[owner])[hit]


def _skip_sampled(
    sampler: LiveEdgeSampler, nodes: IntArray, rng: np.random.Generator
) -> tuple[IntArray, IntArray]:
    first = sampler.chunk_ptr[nodes]
    counts = sampler.chunk_ptr[nodes + 1] - first
    entries = np.flatnonzero(counts)
    if entries.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    chunk, ends = _ranges(first[entries], counts[entries])
    owner = entries[np.searchsorted(ends, np.arange(chunk.size), side="right")]
    length = sampler.chunk_count[chunk]
    offset = np.zeros(chunk.size, dtype=np.int64) - 1  # position of the last candidate
    found_chunk, found_offset, found_owner = [], [], []
    while chunk.size:  # one round: the next candidate of every chunk not yet exhausted
        gap = np.log1p(-rng.random(chunk.size)) / sampler.chunk_log_miss[chunk]
        offset = offset + 1 + np.minimum(gap, length).astype(np.int64)
        inside = offset < length
        chunk, owner, length, offset = chunk[inside], owner[inside], length[inside], offset[inside]
        found_chunk.append(chunk)
        found_offset.append(offset)
        found_owner.append(owner)
    chunk, owner = np.concatenate(found_chunk), np.concatenate(found_owner)
    position = sampler.chunk_start[chunk] + np.concatenate(found_offset)
    thin = np.flatnonzero(~sampler.chunk_exact[chunk])  # keep candidate e w.p. p_e / q
    keep = np.ones(position.size, dtype=bool)
    keep[thin] = rng.random(thin.size) * sampler.chunk_q[chunk[thin]] < sampler.p[position[thin]]
    return position[keep], owner[keep]
