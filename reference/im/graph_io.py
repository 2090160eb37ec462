r"""Files of the IM commands: graph CSV, node-level cascades and edge-level feedback.

**Graph CSV.**  Header ``source,target,p`` (or ``source,target`` when only the structure is
known, then ``p = 0``), one directed edge per row, integer node ids ``0..V-1`` (``V`` is the
largest id plus one, or the data file's ``nodes`` when larger, so that isolated nodes exist),
``p`` in [0, 1].  Self-loops and repeated edges are rejected.  ``offcmab spread`` and
``offcmab im-oracle`` need ``p`` (``need_p=True``); the solvers learn it from data.

**Node-level cascades** (``offcmab solve im-node``).  First line ``{"nodes": V}``, then one
object per cascade ``{"active": [S_0, S_1, ...]}`` with *cumulative* sets
(:math:`S_{h-1}\subseteq S_h`); trailing steps without change may be omitted, so
``{"active": [[3]]}`` means node 3 was the only seed and activated nothing.  A file whose name
ends in ``.npz`` holds the same cascades as arrays (:mod:`offcmab.reference.im.npz_io`: no
per-line parsing, for large logs).

**Edge-level feedback** (``offcmab solve im-edge``).  First line ``{"nodes": V}``, then one
object per record ``{"seeds": [u, ...], "edges": [[u, v, fired], ...]}`` listing every edge whose
source became active in that cascade (each at most once) with ``fired`` 1 if it activated its
target's attempt and 0 otherwise.  Every ``(u, v)`` must be an edge of the graph file.  A
``.npz`` file holds the same records as arrays (:mod:`offcmab.reference.im.npz_io`).

Errors name the field and the file line (:class:`~offcmab.reference.errors.InputError`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.dataset import OfflineDataset, offsets_from_lengths
from offcmab.reference.dataset_io import open_text, parse_json_line, read_header
from offcmab.reference.errors import InputError
from offcmab.reference.im.data import EdgeFeedback, NodeCascades
from offcmab.reference.im.graph import MAX_NODES, ICGraph
from offcmab.reference.im.npz_io import (
    read_edge_feedback_npz,
    read_node_cascades_npz,
    write_edge_feedback_npz,
    write_node_cascades_npz,
)


def _plain(text: str) -> str:
    """``text`` stripped, or "" when it is not plain ASCII (``int``/``float`` would accept
    other scripts' digits and ``1_0``; a graph file holds ASCII numbers only)."""
    text = text.strip()
    return text if text.isascii() and "_" not in text else ""


def _node_id(text: str, field: str, line: int) -> int:
    try:
        value = int(_plain(text))
    except ValueError:
        raise InputError(field, f"must be an integer node id, got {text!r}", line) from None
    if value < 0:
        raise InputError(field, f"node id {value} is negative", line)
    if value >= MAX_NODES:
        raise InputError(field, f"node id {value} is too large (ids are 0..V-1, V <= {MAX_NODES})",
                         line)
    return value


_ID = r"[0-9]{1,9}"
_P = r"[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?"
#: Rows the whole-array path of :func:`read_graph_csv` accepts: ASCII digits, commas, newlines.
_PLAIN = {has_p: re.compile(rf"(?:{row})?(?:\n(?:{row})?)*") for has_p, row in
          ((False, rf"{_ID},{_ID}"), (True, rf"{_ID},{_ID},{_P}"))}


def _plain_rows(lines: list[str], has_p: bool) -> ICGraph | None:
    """The graph of rows in the plain form our writer produces, parsed as whole arrays, or
    None when any row needs the line-by-line reader (spaces, other number forms, or any
    error: that reader then names the line).  A row the regular expression accepts is one the
    line-by-line reader accepts, and both end in :meth:`ICGraph.from_edges`."""
    body = "\n".join(lines[1:])
    if not _PLAIN[has_p].fullmatch(body):
        return None
    if not body.strip("\n"):
        return None
    table = np.loadtxt(io.StringIO(body), delimiter=",", ndmin=2,  # skips blank lines
                       dtype=np.float64 if has_p else np.int64)  # ids < 1e9: exact as floats
    sources, targets = table[:, 0].astype(np.int64), table[:, 1].astype(np.int64)
    p = table[:, 2] if has_p else 0.0
    nodes = int(max(sources.max(), targets.max())) + 1
    try:
        return ICGraph.from_edges(nodes, sources, targets, p)
    except InputError:
        return None


def read_graph_csv(path: str | Path, need_p: bool = False) -> ICGraph:
    """Read a graph CSV (see the module docstring).

    ``need_p=True`` refuses a structure-only file: spreads and seed sets computed with
    ``p = 0`` on every edge would be meaningless.
    """
    lines = open_text(Path(path))
    if not lines:
        raise InputError("header", "file is empty; expected 'source,target,p'", 1)
    header = [cell.strip() for cell in next(csv.reader([lines[0]]))]
    if header not in (["source", "target", "p"], ["source", "target"]):
        raise InputError("header", f"must be 'source,target,p' or 'source,target', got "
                         f"{lines[0]!r}", 1)
    if need_p and header == ["source", "target"]:
        raise InputError("header", "needs the edge probabilities: 'source,target,p' "
                         "(a structure-only graph is for solve im-node/im-edge)", 1)
    has_p = len(header) == 3
    fast = _plain_rows(lines, has_p)
    if fast is not None:
        return fast
    sources, targets, probabilities, line_of = [], [], [], []
    for number, row in enumerate(csv.reader(lines[1:]), start=2):
        if not row or all(not cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise InputError("row", f"has {len(row)} columns, expected {len(header)}", number)
        u, v = _node_id(row[0], "source", number), _node_id(row[1], "target", number)
        if u == v:
            raise InputError("target", f"self-loop at node {u}", number)
        p = 0.0
        if has_p:
            try:
                p = float(_plain(row[2]))
            except ValueError:
                raise InputError("p", f"must be a number, got {row[2]!r}", number) from None
            if not 0.0 <= p <= 1.0:  # also rejects NaN
                raise InputError("p", f"must lie in [0, 1], got {row[2].strip()!r}", number)
        sources.append(u)
        targets.append(v)
        probabilities.append(p)
        line_of.append(number)
    if not sources:
        raise InputError("graph", "has no edges after the header", 2)
    nodes = max(max(sources), max(targets)) + 1
    keys = np.asarray(sources, dtype=np.int64) * nodes + np.asarray(targets, dtype=np.int64)
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    if np.any(counts > 1):
        repeated = keys[first[counts > 1]]
        lines_hit = [line_of[i] for i in np.flatnonzero(np.isin(keys, repeated))]
        raise InputError("target", "edge listed twice (first at line "
                         f"{lines_hit[0]})", lines_hit[1])
    return ICGraph.from_edges(nodes, sources, targets, probabilities)


def write_graph_csv(graph: ICGraph, path: str | Path, with_p: bool = True) -> None:
    """Write a graph CSV (``with_p=False`` writes the structure only)."""
    with Path(path).open("w", encoding="utf-8") as handle:
        handle.write("source,target,p\n" if with_p else "source,target\n")
        for u, v, p in zip(graph.sources.tolist(), graph.targets.tolist(), graph.p.tolist(),
                           strict=True):
            handle.write(f"{u},{v},{p!r}\n" if with_p else f"{u},{v}\n")


def _id_list(value: Any, field: str, nodes: int, line: int) -> list[int]:
    if not isinstance(value, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in value):
        raise InputError(field, "must be a list of integer node ids", line)
    bad = [x for x in value if not 0 <= x < nodes]
    if bad:
        raise InputError(field, f"node id {bad[0]} is outside [0, {nodes})", line)
    if len(set(value)) != len(value):
        raise InputError(field, "lists a node more than once", line)
    return value


def _header(lines: list[str], nodes: int | None) -> int:
    _, size = read_header(lines, "nodes")
    if nodes is not None and size < nodes:
        raise InputError("nodes", f"header says {size} but the graph has {nodes} nodes", 1)
    return size


def with_nodes(graph: ICGraph, nodes: int) -> ICGraph:
    """``graph`` on ``nodes >= V`` nodes (the extra ids are isolated: a CSV cannot list them)."""
    if nodes == graph.nodes:
        return graph
    return ICGraph.from_edges(nodes, graph.sources, graph.targets, graph.p)


def read_node_cascades(path: str | Path, nodes: int | None = None) -> NodeCascades:
    """Read node-level cascades, choosing the format from the suffix (``.npz`` or JSON Lines).

    ``nodes``, when given, is a lower bound on the file's ``nodes`` (the graph's size).
    """
    if Path(path).suffix == ".npz":
        return read_node_cascades_npz(path, nodes)
    return read_node_cascades_jsonl(path, nodes)


def read_node_cascades_jsonl(path: str | Path, nodes: int | None = None) -> NodeCascades:
    """Read node-level JSON Lines (see the module docstring); checks the sets are cumulative.

    ``nodes``, when given, is a lower bound on the header's ``nodes`` (the graph's size).
    """
    lines = open_text(Path(path))
    V = _header(lines, nodes)
    record, active, steps = [], [], []
    t = 0
    for number, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        entry = parse_json_line(text, number)
        sets = entry.get("active")
        if not isinstance(sets, list) or not sets:
            raise InputError("active", "missing or empty; expected [S_0, S_1, ...]", number)
        seen: set[int] = set()
        for h, members in enumerate(sets):
            current = set(_id_list(members, "active", V, number))
            if not seen <= current:
                lost = min(seen - current)
                raise InputError("active", f"sets must be cumulative: node {lost} is in S_{h - 1}"
                                 f" but not in S_{h}", number)
            for v in sorted(current - seen):
                record.append(t)
                active.append(v)
                steps.append(h)
            seen = current
        t += 1
    if t == 0:
        raise InputError("data", "no cascades after the header", 2)
    return NodeCascades.from_steps(V, np.asarray(record, dtype=np.int64),
                                   np.asarray(active, dtype=np.int64),
                                   np.asarray(steps, dtype=np.int64), t)


def write_node_cascades(cascades: NodeCascades, path: str | Path) -> None:
    """Write node-level cascades, choosing the format from the suffix (``.npz`` or JSON Lines).

    JSON Lines omit trailing unchanged steps; ``.npz`` is described in
    :mod:`offcmab.reference.im.npz_io`.
    """
    if Path(path).suffix == ".npz":
        write_node_cascades_npz(cascades, path)
        return
    with Path(path).open("w", encoding="utf-8") as handle:
        handle.write(json.dumps({"nodes": cascades.nodes}) + "\n")
        for sets in cascades.as_sets():
            handle.write(json.dumps({"active": sets}) + "\n")


def read_edge_feedback(path: str | Path, graph: ICGraph) -> EdgeFeedback:
    """Read edge-level feedback for the edges of ``graph`` (see the module docstring; a
    ``.npz`` file is read by :func:`offcmab.reference.im.npz_io.read_edge_feedback_npz`).

    The header's ``nodes`` may exceed the graph's (isolated nodes); the feedback then has that
    many nodes and :func:`with_nodes` extends the graph to match.
    """
    if Path(path).suffix == ".npz":
        return read_edge_feedback_npz(path, graph)
    lines = open_text(Path(path))
    V = _header(lines, graph.nodes)
    seed_lengths, seeds, edge_lengths, edge_ids, fired = [], [], [], [], []
    for number, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        entry = parse_json_line(text, number)
        record_seeds = _id_list(entry.get("seeds"), "seeds", V, number)
        tried = entry.get("edges")
        if not isinstance(tried, list):
            raise InputError("edges", "missing or not a list of [u, v, fired]", number)
        triples = np.zeros((len(tried), 3), dtype=np.int64)
        for j, item in enumerate(tried):
            if (not isinstance(item, list) or len(item) != 3
                    or not all(isinstance(x, int) and not isinstance(x, bool)
                               and 0 <= x < MAX_NODES for x in item)):
                raise InputError("edges", f"entry {j} must be [u, v, fired]: three integers, "
                                 f"node ids below {MAX_NODES}", number)
            triples[j] = item
        ids = graph.edge_index(triples[:, 0], triples[:, 1])
        if np.any(ids < 0):
            j = int(np.flatnonzero(ids < 0)[0])
            raise InputError("edges", f"({triples[j, 0]}, {triples[j, 1]}) is not an edge of "
                             "the graph", number)
        if np.any((triples[:, 2] != 0) & (triples[:, 2] != 1)):
            raise InputError("edges", "fired must be 0 or 1", number)
        if np.unique(ids).size != ids.size:
            raise InputError("edges", "lists an edge more than once", number)
        seed_lengths.append(len(record_seeds))
        seeds.extend(sorted(record_seeds))
        edge_lengths.append(ids.size)
        edge_ids.append(ids)
        fired.append(triples[:, 2])
    if not edge_lengths:
        raise InputError("data", "no records after the header", 2)
    dataset = OfflineDataset(max(graph.edges, 1), offsets_from_lengths(edge_lengths),
                             np.concatenate(edge_ids), np.concatenate(fired).astype(np.float64))
    return EdgeFeedback(V, offsets_from_lengths(seed_lengths), np.asarray(seeds, dtype=np.int64),
                        dataset)


def write_edge_feedback(feedback: EdgeFeedback, graph: ICGraph, path: str | Path) -> None:
    """Write edge-level feedback, choosing the format from the suffix (``.npz`` or JSON Lines)."""
    if Path(path).suffix == ".npz":
        write_edge_feedback_npz(feedback, graph, path)
        return
    data = feedback.dataset
    with Path(path).open("w", encoding="utf-8") as handle:
        handle.write(json.dumps({"nodes": feedback.nodes}) + "\n")
        for t in range(feedback.n):
            seeds = feedback.seeds[feedback.seed_offsets[t]:feedback.seed_offsets[t + 1]]
            a, b = int(data.triggered_offsets[t]), int(data.triggered_offsets[t + 1])
            ids = data.triggered[a:b]
            triples = np.stack([graph.sources[ids], graph.targets[ids],
                                data.outcomes[a:b].astype(np.int64)], axis=1)
            handle.write(json.dumps({"seeds": seeds.tolist(), "edges": triples.tolist()}) + "\n")
