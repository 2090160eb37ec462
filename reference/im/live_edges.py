r"""Live out-edges of many (cascade, node) pairs at once, at a cost that follows the cascades.

In an IC cascade a newly active node ``u`` tries each out-edge ``(u, v)`` once, and the edge is
*live* with probability :math:`p_{uv}`, independently of everything else.  Given a frontier
(one entry per newly active (run, node) pair, sorted by node), :func:`live_targets` returns the
targets of the live out-edges of every entry and the entry owning each, with exactly that law.
Edges are split once per graph (:class:`LiveEdgeSampler`):

* **Coins** for the other edges: one 16-bit random integer ``r`` per (entry, edge); the edge
  is live when ``r < T`` with :math:`T = \lfloor 2^{16} p\rfloor`, and when ``r == T`` a
  second uniform ``U'`` decides, live iff :math:`U' < 2^{16}p - T`.  This is :math:`U < p`
  for the uniform :math:`U = (r + U')/2^{16}`, so the edge is live with probability exactly
  ``p``.  A node's coin edges are stored in *rows* of :data:`ROW_WIDTH` = 4 (likeliest
  first, unused cells never live): the four thresholds of a row are one 64-bit word, and so
  are its four draws, so a step costs a handful of passes over rows rather than over edges,
  and an entry whose node has at most four coin edges needs no expansion at all.
* **Skips** for unlikely edges (:math:`0 < p <` :data:`SKIP_BELOW`) that come in long enough
  *segments*: the out-edges of one node in one dyadic level :math:`p \in (2^{-j-1}, 2^{-j}]`
  (:func:`_worth_skipping` decides per segment, counting one coin per edge against a block
  and a candidate draw per expected live edge).  In a step, a node ``u`` active in ``f``
  runs and one of its segments of ``n`` edges make a *block* of ``f n`` (entry, edge) cells.
  The blocks of one level are laid end to end and candidate cells are drawn over the whole
  row at once by geometric gaps with the level's envelope :math:`q` (its largest probability
  in the graph; :func:`~offcmab.reference.im.bernoulli.bernoulli_positions`), so each cell is a
  candidate independently with probability ``q``; a candidate of edge ``e`` is kept with
  probability :math:`p_e / q` (no draw when :math:`p_e = q`).  Each cell is therefore live
  independently with probability :math:`q \cdot p_e/q = p_e`, and the work is about one
  draw per live cell (at most two in expectation, as :math:`p_e > q/2`) plus a few
  operations per block, however many runs share the node and however many edges it has.

Edges with :math:`p = 0` are never live and cost nothing.

The skip path is subset sampling in the sense of SUBSIM (Guo, Li, Li and Xiao, SIGMOD 2020):
on the transposed graph, the in-edges of a node under the weighted cascade share one
probability :math:`1/d^{in}`, so a node reached by a reverse-reachable set draws about one
gap per live in-edge instead of one coin per in-edge.  Which segments take it is the cost
model's choice (:func:`_worth_skipping`): skipping every unlikely edge, short segments
included, was slower on power-law graphs than this split.

References
----------
``apdx_app:OIM_node`` (the IC model: each newly active node tries each out-edge once).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.im.bernoulli import bernoulli_positions, random_uint16
from offcmab.reference.im.keyset import first_of_runs
from offcmab.reference.im.ranges import expand_ranges

#: Edges with a probability below this may be skip-sampled (see :func:`_worth_skipping`).
SKIP_BELOW = 0.2
#: Cost of one block of the skip path, and of one candidate, in coins (the split's model).
BLOCK_COST = 5.0
CANDIDATE_COST = 10.0
#: Coin edges per row (four 16-bit thresholds fill a 64-bit word).
ROW_WIDTH = 4
_SCALE = 65536.0


@dataclass(frozen=True)
class LiveEdgeSampler:
    r"""Per-graph tables for :func:`live_targets` (built once by :meth:`of`).

    **Coin rows**: row ``r`` holds the targets, 16-bit thresholds and tie remainders of up
    to :data:`ROW_WIDTH` coin edges in ``row_target[r]``, ``row_threshold[r]`` and
    ``row_remainder[r]`` (unused cells: threshold 0 and remainder 0, never live).  Node ``u``
    owns rows ``row_start[u] : row_start[u] + max(row_count[u], 1)``; row 0 is empty and is
    the row of every node without coin edges.

    **Skipped edges** (``skip_target`` / ``skip_p``, sorted by source, level and id) form
    segments of one source and one level: node ``u`` owns segments
    ``segment_ptr[u] : segment_ptr[u + 1]`` (``has_segments[u]``: whether there are any);
    segment ``s`` covers edges ``segment_start[s] : segment_start[s] + segment_length[s]`` of
    level ``segment_level[s]``.  Level ``j`` has envelope ``level_q[j]`` (its largest probability
    in the graph) and ``skip_exact`` marks the edges whose probability equals it.
    """

    row_target: npt.NDArray[np.int32]
    row_threshold: npt.NDArray[np.uint16]
    row_remainder: FloatArray
    row_start: IntArray
    row_count: IntArray
    segment_ptr: IntArray
    has_segments: npt.NDArray[np.bool_]
    segment_start: IntArray
    segment_length: IntArray
    segment_level: npt.NDArray[np.uint16]
    skip_target: IntArray
    skip_p: FloatArray
    skip_exact: npt.NDArray[np.bool_]
    level_q: FloatArray

    @classmethod
    def of(cls, nodes: int, sources: IntArray, targets: IntArray, p: FloatArray) -> LiveEdgeSampler:
        """Prepare the tables of a graph given as aligned edge arrays."""
        low = np.flatnonzero((p > 0) & (p < SKIP_BELOW))
        level = np.floor(-np.log2(p[low])).astype(np.int64)
        level_q = np.zeros(int(level.max(initial=-1)) + 1)  # each level's envelope
        np.maximum.at(level_q, level, p[low])
        worth = _worth_skipping(sources[low], level, level_q)
        skip, level = low[worth], level[worth]
        coin = np.setdiff1d(np.flatnonzero(p > 0), skip, assume_unique=True)
        order = np.lexsort((skip, level, sources[skip]))  # by source, level, id
        skip, level = skip[order], level[order]
        return cls(*_coin_rows(nodes, sources[coin], targets[coin], p[coin]),
                   *_segments(nodes, sources[skip], level),
                   targets[skip].astype(np.int64), p[skip], p[skip] == level_q[level], level_q)


def _coin_rows(
    nodes: int, sources: IntArray, targets: IntArray, p: FloatArray,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16], FloatArray, IntArray, IntArray]:
    """``row_target, row_threshold, row_remainder, row_start, row_count`` of the coin edges."""
    order = np.lexsort((-p, sources))  # by source, likeliest first
    sources, targets, p = sources[order], targets[order], p[order]
    degree = np.bincount(sources, minlength=nodes)
    row_count = -(-degree // ROW_WIDTH)
    row_start = 1 + _starts(row_count)  # row 0: the empty row
    row_start[row_count == 0] = 0
    rank = np.arange(sources.size) - np.repeat(_starts(degree), degree)
    cell = row_start[sources] * ROW_WIDTH + rank
    rows = 1 + int(row_count.sum())
    target = np.zeros(rows * ROW_WIDTH, dtype=np.int32)
    threshold = np.zeros(rows * ROW_WIDTH, dtype=np.uint16)
    remainder = np.zeros(rows * ROW_WIDTH)
    target[cell] = targets
    threshold[cell], remainder[cell] = _coin_tables(p)
    shape = (rows, ROW_WIDTH)
    return (target.reshape(shape), threshold.reshape(shape), remainder.reshape(shape),
            row_start, row_count.astype(np.int64))


def _segments(
    nodes: int, sources: IntArray, level: IntArray,
) -> tuple[IntArray, npt.NDArray[np.bool_], IntArray, IntArray, npt.NDArray[np.uint16]]:
    """``segment_ptr, has_segments, segment_start, segment_length, segment_level`` of the
    skipped edges (given sorted by source and level)."""
    key = sources * (level.max(initial=0) + 1) + level
    first = np.flatnonzero(first_of_runs(key)) if key.size else np.zeros(0, dtype=np.int64)
    segment_ptr = np.zeros(nodes + 1, dtype=np.int64)
    np.cumsum(np.bincount(sources[first], minlength=nodes), out=segment_ptr[1:])
    length = np.diff(first, append=sources.size).astype(np.int64)
    return (segment_ptr, np.diff(segment_ptr) > 0, first.astype(np.int64), length,
            level[first].astype(np.uint16))


def _worth_skipping(src: IntArray, level: IntArray, level_q: FloatArray) -> npt.NDArray[np.bool_]:
    """Whether each unlikely edge's (source, level) segment is cheaper to skip than to flip.

    A segment of ``n`` edges with envelope ``q`` costs about ``n`` coins, or one block and
    ``n q`` candidates on the skip path (for one entry; more entries of the same node in a
    step only make skipping cheaper).
    """
    if src.size == 0:
        return np.zeros(0, dtype=bool)
    key = src * (level.max() + 1) + level
    _, inverse, count = np.unique(key, return_inverse=True, return_counts=True)
    n = count[inverse].astype(np.float64)
    return n >= BLOCK_COST + CANDIDATE_COST * n * level_q[level]


def _starts(counts: IntArray) -> IntArray:
    """Start of each group in a layout of consecutive groups of the given sizes."""
    return (np.cumsum(counts) - counts).astype(np.int64)


def _coin_tables(prob: FloatArray) -> tuple[npt.NDArray[np.uint16], FloatArray]:
    """The 16-bit threshold ``T`` and the tie remainder :math:`2^{16}p - T` of each probability."""
    scaled = prob * _SCALE
    threshold = np.minimum(np.floor(scaled), _SCALE - 1)
    remainder = np.where(prob >= 1.0, 1.0, scaled - threshold)
    return threshold.astype(np.uint16), remainder


def live_targets(
    sampler: LiveEdgeSampler, nodes: IntArray, rng: np.random.Generator
) -> tuple[IntArray, IntArray]:
    """Targets of the live out-edges of every entry of ``nodes`` (sorted), and the entry owning
    each."""
    coin_target, coin_owner = _coins(sampler, nodes, rng)
    skip_target, skip_owner = _skipped(sampler, nodes, rng)
    return np.concatenate([coin_target, skip_target]), np.concatenate([coin_owner, skip_owner])


def _coins(
    sampler: LiveEdgeSampler, nodes: IntArray, rng: np.random.Generator
) -> tuple[IntArray, IntArray]:
    """One coin per cell of every entry's rows: the first row of every entry, then the further
    rows of the entries whose node has more than four coin edges."""
    row = np.take(sampler.row_start, nodes)  # each entry's first row
    target, owner = _row_coins(sampler, row, rng)
    more = np.flatnonzero(np.take(sampler.row_count, nodes) > 1)  # nodes with more rows
    if more.size == 0:
        return target, owner
    extra = np.take(sampler.row_count, nodes[more]) - 1
    more_row, more_entry = expand_ranges(row[more] + 1, extra)
    more_target, more_owner = _row_coins(sampler, more_row, rng)
    return (np.concatenate([target, more_target]),
            np.concatenate([owner, np.take(more, np.take(more_entry, more_owner))]))


def _row_coins(
    sampler: LiveEdgeSampler, row: IntArray, rng: np.random.Generator
) -> tuple[IntArray, IntArray]:
    """Targets of the live cells of the given rows, and the index in ``row`` of each; a row's
    four thresholds are one 64-bit word, and so are its four draws.  (``np.take`` rather than
    fancy indexing: the same gathers, with less overhead per element.)"""
    words = sampler.row_threshold.view(np.uint64).reshape(-1)
    threshold = np.take(words, row).view(np.uint16)
    draw = random_uint16(rng, threshold.size)
    live = draw < threshold
    tie = draw == threshold  # rare (2^-16 per cell): located only when there is one
    if tie.any():
        tied = np.flatnonzero(tie)
        cell = (row[tied >> 2] << 2) | (tied & 3)
        live[tied] = rng.random(tied.size) < sampler.row_remainder.reshape(-1)[cell]
    hit = np.flatnonzero(live)
    entry = hit >> 2
    cell = (np.take(row, entry) << 2) | (hit & 3)
    return np.take(sampler.row_target.reshape(-1), cell).astype(np.int64), entry


def _skipped(
    sampler: LiveEdgeSampler, nodes: IntArray, rng: np.random.Generator
) -> tuple[IntArray, IntArray]:
    """The live skipped edges of every entry, by geometric skips across runs (module
    docstring): ``nodes`` is sorted, so the entries of one node are consecutive."""
    empty = np.zeros(0, dtype=np.int64)
    if nodes.size == 0 or sampler.segment_start.size == 0:
        return empty, empty
    keep = np.flatnonzero(np.take(sampler.has_segments, nodes))  # entries with segments
    if keep.size == 0:
        return empty, empty
    runs = np.flatnonzero(first_of_runs(nodes[keep]))
    node = nodes[keep[runs]]  # each distinct node, with its entries' count and first entry
    entries = np.diff(runs, append=keep.size)
    first = keep[runs]
    count = sampler.segment_ptr[node + 1] - sampler.segment_ptr[node]
    # one block per (distinct node, segment): entries x segment edges, entry-major
    segment, group = expand_ranges(sampler.segment_ptr[node], count)
    order = np.argsort(sampler.segment_level[segment], kind="stable")  # radix sort by level
    segment, group = segment[order], group[order]
    block_first = first[group]  # the block's first entry
    width = sampler.segment_length[segment]
    size = entries[group] * width
    level = sampler.segment_level[segment]
    end = np.cumsum(size)  # blocks end to end, level after level
    bounds = np.append(np.flatnonzero(first_of_runs(level)), level.size)
    cells = []
    for a, b in pairwise(bounds.tolist()):  # one row of cells per level
        before = int(end[a - 1]) if a else 0
        q = float(sampler.level_q[level[a]])
        cells.append(before + bernoulli_positions(int(end[b - 1]) - before, q, rng))
    cell = np.concatenate(cells)
    block = np.searchsorted(end, cell, side="right")
    entry, column = _entry_and_column(cell - (end[block] - size[block]), width[block])
    edge = sampler.segment_start[segment[block]] + column
    owner = block_first[block] + entry
    thin = np.flatnonzero(~sampler.skip_exact[edge])  # keep a candidate w.p. p_e / q
    keep = np.ones(cell.size, dtype=bool)
    keep[thin] = (rng.random(thin.size) * sampler.level_q[level[block[thin]]]
                  < sampler.skip_p[edge[thin]])
    return sampler.skip_target[edge[keep]], owner[keep]


def _entry_and_column(offset: IntArray, width: IntArray) -> tuple[IntArray, IntArray]:
    """Entry (within its block) and edge (within its segment) of a cell at ``offset`` in a
    block of ``width``-edge rows: blocks are entry-major."""
    return np.divmod(offset, width)
