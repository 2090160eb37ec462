r"""LLM cache logs as CSV (``offcmab solve llm-cache``): one row per round.

Layout::

    # queries=100
    query,cost,cache_1,cache_2
    4,0.7,3,1
    1,,3,1

* line 1: ``# queries=M``, the number of distinct queries;
* line 2: ``query``, ``cost`` and ``cache_1`` to ``cache_K`` (the largest cache logged);
* every further row is one round: the query, its cost (empty exactly when the query was in
  the cache: a hit, whose cost is not observed) and the round's cache in the first
  ``cache_J`` cells, empty cells after its last query.

The rows are split and checked by the column readers of :mod:`offcmab.reference.csv_io`
(which reads the cascade and k-path layout); this module is apart so that reading those logs
does not import the LLM cache problem.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from offcmab.reference.csv_io import (
    PREAMBLE,
    _ascii,
    _columns,
    _ids,
    _not_numbers,
    _numbers,
    _rows,
    _slots,
    is_csv,
)
from offcmab.reference.dataset import offsets_from_lengths
from offcmab.reference.errors import InputError
from offcmab.reference.problems.llm_cache import CacheLog, HitLog
from offcmab.reference.problems.llm_cache_io import read_cache_log


def read_any_cache_log(path: str | Path, bounded: bool = True, caches: bool = True
                       ) -> CacheLog | HitLog:
    """Read an LLM cache log in any format ``offcmab solve llm-cache`` takes: CSV (this
    module), or JSON Lines / ``.npz``
    (:func:`offcmab.reference.problems.llm_cache_io.read_cache_log`)."""
    return read_cache_csv(path, bounded) if is_csv(path) else \
        read_cache_log(path, bounded, caches)


def read_cache_csv(path: str | Path, bounded: bool = True) -> CacheLog:
    """Read an LLM cache log from CSV; see the module docstring for the layout.

    Observed costs must lie in ``[0, 1]`` unless ``bounded`` is false (then any finite
    number: sub-Gaussian costs).
    """
    m, header, table, lines = _rows(Path(path), "queries", "distinct queries")
    columns = _columns(header, ("cache",), ("query", "cost"))
    for name in ("query", "cost"):
        if not columns[name]:
            raise InputError(name, "missing from the header: a cache log needs query, cost "
                             "and cache_J columns", PREAMBLE)
    queries, asked = _ids(table, columns["query"], ["query"], lines, m, "query")
    if not asked.all():
        row = int(np.flatnonzero(~asked)[0])
        raise InputError("query", "expected the round's query id, found an empty cell",
                         int(lines[row]))
    cached, kept = _ids(table, columns["cache"], [header[i].strip() for i in columns["cache"]],
                        lines, m, "query") if columns["cache"] else \
        (np.zeros((table.shape[0], 0), np.int64), np.zeros((table.shape[0], 0), bool))
    hits = (cached == queries).any(axis=1)
    costs = _costs(table[:, columns["cost"][0]], hits, lines, bounded)
    return CacheLog(m, offsets_from_lengths(kept.sum(axis=1)), cached[kept],
                    queries[:, 0], costs, bounded)


def _costs(cells: np.ndarray, hits: np.ndarray, lines: np.ndarray, bounded: bool) -> np.ndarray:
    """The costs, ``nan`` on hits: empty exactly where the query was in the cache."""
    observed = cells != ""
    if (observed == hits).any():
        row = int(np.flatnonzero(observed == hits)[0])
        expected = "an empty cell (the query is in the cache: a hit)" if hits[row] else \
            "the cost (the query is not in the cache: a miss)"
        found = repr(str(cells[row])) if observed[row] else "an empty cell"
        raise InputError("cost", f"expected {expected}, found {found}", int(lines[row]))
    costs = _numbers(cells, observed, _ascii(cells[:, None], ["cost"], lines)[:, 0])
    if costs is None:
        row = int(np.flatnonzero(observed & _not_numbers(cells))[0])  # the error path only
        raise InputError("cost", f"expected a number, found {str(cells[row])!r}",
                         int(lines[row])) from None
    allowed = np.isfinite(costs) & ((costs >= 0.0) & (costs <= 1.0) if bounded else True)
    if (observed & ~allowed).any():
        row = int(np.flatnonzero(observed & ~allowed)[0])
        interval = "in [0, 1] (or pass --unbounded-costs)" if bounded else "finite"
        raise InputError("cost", f"expected a number {interval}, found {cells[row]}",
                         int(lines[row]))
    return costs


def write_cache_csv(log: CacheLog, path: str | Path) -> None:
    """Write an LLM cache log in the CSV layout (costs in the shortest exact text)."""
    names, cells = _slots(log.cache_offsets, log.caches, "cache")
    costs = np.where(np.isnan(log.costs), "", log.costs.astype(str)).astype(object)
    table = np.column_stack([log.queries.astype(str).astype(object), costs, cells])
    with Path(path).open("w", encoding="utf-8", newline="") as handle:
        handle.write(f"# queries={log.m}\n")
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["query", "cost", *names])
        writer.writerows(table.tolist())
