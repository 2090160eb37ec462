r"""Reading and writing LLM cache logs: JSON Lines and ``.npz``.

JSON Lines (``*.jsonl``)
    The first line is a header with at least ``{"queries": M}`` (the number of distinct
    queries; other keys are ignored).  Every further non-blank line is one round::

        {"cache": [3, 1], "query": 4, "cost": 0.7}
        {"cache": [3, 1], "query": 1, "cost": null}

    ``cost`` is ``null`` exactly when ``query`` is in ``cache`` (a hit: the cost is not
    observed) and a finite number otherwise.

NumPy archive (``*.npz``)
    Arrays ``queries_m`` (scalar ``M``), ``cache_offsets`` (``n + 1``), ``caches``,
    ``queries`` and ``costs`` (``NaN`` on hits), the layout of
    :class:`offcmab.reference.problems.llm_cache.CacheLog`; opened with ``allow_pickle=False``.

Observed costs must lie in :math:`[0, 1]` unless the reader is called with
``bounded=False`` (sub-Gaussian costs).  Every problem raises
:class:`offcmab.reference.errors.InputError` naming the field and, for JSON Lines, the line.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, TypeGuard

import numpy as np

from offcmab.reference.dataset import offsets_from_lengths
from offcmab.reference.dataset_io import (
    is_float_number,
    load_npz_arrays,
    open_text,
    parse_json_line,
    read_header,
)
from offcmab.reference.errors import InputError
from offcmab.reference.npz import write_npz_aligned
from offcmab.reference.problems.llm_cache import CacheLog, HitLog

NPZ_KEYS = ("queries_m", "cache_offsets", "caches", "queries", "costs")


def read_cache_log(path: str | Path, bounded: bool = True,
                   caches: bool = True) -> CacheLog | HitLog:
    """Read a cache log, choosing the format from the suffix (``.npz`` or JSON Lines).

    ``caches=False`` leaves a ``.npz`` archive's caches unread (see :func:`read_cache_npz`).
    """
    path = Path(path)
    return read_cache_npz(path, bounded, caches) if path.suffix == ".npz" else \
        read_cache_jsonl(path, bounded)


def write_cache_log(log: CacheLog, path: str | Path) -> None:
    """Write a cache log, choosing the format from the suffix (``.npz`` or JSON Lines)."""
    path = Path(path)
    if path.suffix == ".npz":
        write_cache_npz(log, path)
    else:
        write_cache_jsonl(log, path)


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_round(record: dict[str, Any], m: int, line: int,
                 bounded: bool) -> tuple[list[int], int, float]:
    """Validate one JSON Lines round and return ``(cache, query, cost or NaN)``."""
    cache = record.get("cache")
    if not isinstance(cache, list) or not all(_is_int(q) for q in cache):
        raise InputError("cache", "missing or not a list of integers", line)
    if any(q < 0 or q >= m for q in cache):
        raise InputError("cache", f"query id outside [0, {m})", line)
    if len(set(cache)) != len(cache):
        raise InputError("cache", "lists a query more than once", line)
    query = record.get("query")
    if not _is_int(query):
        raise InputError("query", "missing or not an integer", line)
    if not 0 <= query < m:
        raise InputError("query", f"id {query} is outside [0, {m})", line)
    if "cost" not in record:
        raise InputError("cost", "missing (use null when the query hits the cache)", line)
    cost = record["cost"]
    if query in cache:
        if cost is not None:
            raise InputError("cost", "must be null: the query is in the cache (a hit)", line)
        return cache, query, math.nan
    if cost is None:
        raise InputError("cost", "is null but the query is not in the cache (a miss)", line)
    if not is_float_number(cost):
        raise InputError("cost", "must be a finite number", line)
    if bounded and not 0 <= cost <= 1:
        raise InputError("cost", f"must lie in [0, 1], got {cost}", line)
    return cache, query, float(cost)


def read_cache_jsonl(path: str | Path, bounded: bool = True) -> CacheLog:
    """Read a JSON Lines cache log; see the module docstring for the format."""
    lines = open_text(Path(path))
    _, m = read_header(lines, "queries")
    caches: list[int] = []
    lengths: list[int] = []
    queries: list[int] = []
    costs: list[float] = []
    for number, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        cache, query, cost = _parse_round(parse_json_line(text, number), m, number, bounded)
        caches.extend(cache)
        lengths.append(len(cache))
        queries.append(query)
        costs.append(cost)
    if not queries:
        raise InputError("data", "no rounds after the header")
    return CacheLog(m, offsets_from_lengths(lengths), np.asarray(caches, dtype=np.int64),
                    np.asarray(queries, dtype=np.int64), np.asarray(costs), bounded)


def write_cache_jsonl(log: CacheLog, path: str | Path) -> None:
    """Write a cache log as JSON Lines (header ``{"queries": m}``, one round per line)."""
    caches = log.caches.tolist()
    offsets = log.cache_offsets.tolist()
    queries = log.queries.tolist()
    costs = [None if math.isnan(x) else x for x in log.costs.tolist()]
    with Path(path).open("w", encoding="utf-8") as handle:
        handle.write(json.dumps({"queries": log.m}) + "\n")
        for t in range(log.n):
            record = {"cache": caches[offsets[t]:offsets[t + 1]], "query": queries[t],
                      "cost": costs[t]}
            handle.write(json.dumps(record) + "\n")


def read_cache_npz(path: str | Path, bounded: bool = True,
                   caches: bool = True) -> CacheLog | HitLog:
    """Read a ``.npz`` cache log (never unpickling anything).

    With ``caches=False`` the logged caches are not read and a
    :class:`~offcmab.reference.problems.llm_cache.HitLog` is returned: the offline algorithms
    (CLCB-LLM-C, LFU, LEC) use only whether each round was a hit, which the cost records
    (``NaN`` exactly on hits); the costs' consistency with the caches is then not checked.
    """
    keys = NPZ_KEYS if caches else ("queries_m", "queries", "costs")
    arrays = load_npz_arrays(path, keys)
    m = arrays["queries_m"]
    if m.shape != () or m.dtype.kind not in "iu":
        raise InputError("queries_m", "must be a scalar integer")
    if arrays["costs"].dtype.kind != "f":
        raise InputError("costs", f"must be a float array, got dtype {arrays['costs'].dtype}")
    if not caches:
        return HitLog(int(m), arrays["queries"], arrays["costs"], bounded)
    return CacheLog(int(m), arrays["cache_offsets"], arrays["caches"], arrays["queries"],
                    arrays["costs"], bounded)


def write_cache_npz(log: CacheLog, path: str | Path) -> None:
    """Write a cache log as an uncompressed ``.npz`` archive (members 64-byte aligned)."""
    arrays = {"queries_m": np.asarray(log.m, dtype=np.int64),
              "cache_offsets": log.cache_offsets, "caches": log.caches,
              "queries": log.queries, "costs": log.costs}
    write_npz_aligned(path, arrays)
