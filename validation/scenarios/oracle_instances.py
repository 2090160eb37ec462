r"""Instances for the oracle rows: the best action at arbitrary ids.

An oracle promises :math:`\sigma(S; w) \ge \alpha\max_{S'}\sigma(S'; w)` on the weights
:math:`w` it is given (``eq:def_oracle``).  A promise row can only flag an oracle that
ignores its weights where the weights, and nothing else, say which seeds are best.  Each
graph drawn here has ``hubs`` nodes with the same number of out-edges, so the structure
does not single one out; the weights make ``k`` of them *strong* (edge probabilities of at
least :data:`STRONG`) and the others *weak*; and every node id is relabeled by a
permutation drawn from the same generator, so the hubs sit at arbitrary ids.  An oracle
returning fixed ids (the ``k`` smallest, say), random ids, or seeds chosen from the
structure alone then falls below :math:`\alpha = 1 - 1/e - \varepsilon` on most draws,
while a correct oracle meets it on every draw.

:func:`small_hub_graph`
    Nine nodes, three hubs of out-degree three, one more edge, ``k`` of 1 or 2: ten
    edges, few enough for the exact spread of every seed set (``2^10`` live-edge worlds).
    A hub's leaves may overlap another's (nodes with several parents).
:func:`large_hub_graph`
    Three hundred nodes, twelve hubs of out-degree 25, three hundred background edges of
    probability at most 0.1, ``k = 3``: too large for exact spreads, the size at which
    IMM's sampling matters.

Both return a :class:`HubGraph` whose ``params`` is the graph as the node-level IM scenario
spells a graph (``nodes``, ``sources``, ``targets``, ``p``, ``k``) with the permutation
kept, so a draw can be replayed and read.

:func:`relabel_cmabt` does the same to a CMAB-T instance (k-path, cascade, edge-level IM),
:func:`relabel_node_instance` to a node-level IM instance:
the rows that run a subject on its own LCBs draw a permutation per trial, so the optimum of
the LCBs is at the first ids in few trials.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]

#: Smallest edge probability out of a strong hub (small graphs); weak hubs stay below WEAK.
STRONG, WEAK = 0.7, 0.2


@dataclass(frozen=True)
class HubGraph:
    """A drawn graph: its parameters, its hubs and strong hubs (relabeled ids)."""

    params: dict[str, Any]
    hubs: tuple[int, ...]
    strong: tuple[int, ...]


def _hub_edges(rng: np.random.Generator, nodes: int, hubs: int, degree: int,
               ) -> tuple[list[int], list[int]]:
    """``degree`` distinct out-edges from each of the hubs ``0..hubs-1`` to non-hubs."""
    sources: list[int] = []
    targets: list[int] = []
    for hub in range(hubs):
        leaves = hubs + rng.choice(nodes - hubs, size=degree, replace=False)
        sources += [hub] * degree
        targets += leaves.tolist()
    return sources, targets


def _extra_edges(rng: np.random.Generator, nodes: int, hubs: int, count: int,
                 taken: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """``count`` distinct edges between non-hubs, none of them in ``taken``."""
    found: list[tuple[int, int]] = []
    while len(found) < count:
        u, v = (int(x) for x in hubs + rng.choice(nodes - hubs, size=2, replace=False))
        if (u, v) not in taken:
            taken.add((u, v))
            found.append((u, v))
    return found


def relabel_cmabt(params: Mapping[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """A CMAB-T instance with its ids renamed by a permutation drawn from ``rng``.

    k-path: the paths change places (path ``i`` becomes path ``permutation[i]``, with its
    mean and logging weight; a path's arms stay consecutive).  Cascade: item ``i`` becomes
    item ``permutation[i]`` (its mean; the ids in logged lists).  Edge-level IM: node ``i``
    becomes node ``permutation[i]`` (edges and seed probabilities).  The permutation is
    kept under ``"permutation"``.
    """
    law = dict(params["law"])
    if params["family"] == "kpath":
        count = len(params["path_means"])
        permutation = rng.permutation(count).astype(np.int64)
        renamed: dict[str, Any] = {"path_means": _moved(params["path_means"], permutation)}
        if "weights" in law:
            law["weights"] = _moved(law["weights"], permutation)
    elif params["family"] == "cascade":
        permutation = rng.permutation(len(params["mu"])).astype(np.int64)
        renamed = {"mu": _moved(params["mu"], permutation)}
        if "lists" in law:
            law["lists"] = [permutation[np.asarray(items, dtype=np.int64)].tolist()
                            for items in law["lists"]]
    else:
        graph = dict(params["graph"])
        permutation = rng.permutation(int(graph["nodes"])).astype(np.int64)
        graph["sources"] = permutation[np.asarray(graph["sources"])].tolist()
        graph["targets"] = permutation[np.asarray(graph["targets"])].tolist()
        renamed = {"graph": graph}
        if "q" in law:
            law["q"] = _moved(law["q"], permutation)
    return {**params, **renamed, "law": law, "permutation": permutation.tolist()}


def _moved(values: Sequence[Any], permutation: IntArray) -> list[Any]:
    """``values`` with entry ``i`` moved to position ``permutation[i]``."""
    moved = [values[0]] * len(values)
    for i, target in enumerate(permutation.tolist()):
        moved[target] = values[i]
    return moved


def relabel_node_instance(params: Mapping[str, Any],
                          rng: np.random.Generator) -> dict[str, Any]:
    """A node-level IM instance with node ``i`` renamed ``permutation[i]`` (edges and seed
    probabilities ``q``), the permutation drawn from ``rng`` and kept."""
    renamed, permutation = relabel(int(params["nodes"]), list(params["sources"]),
                                   list(params["targets"]), list(params["p"]),
                                   int(params["k"]), rng)
    return {**params, **renamed, "q": _moved(params["q"], permutation)}


def relabel(nodes: int, sources: list[int], targets: list[int], p: list[float], k: int,
            rng: np.random.Generator) -> tuple[dict[str, Any], IntArray]:
    """The graph with node ``i`` renamed ``permutation[i]`` (drawn from ``rng``)."""
    permutation = rng.permutation(nodes).astype(np.int64)
    params = {"nodes": nodes, "sources": permutation[sources].tolist(),
              "targets": permutation[targets].tolist(), "p": list(p), "k": k,
              "permutation": permutation.tolist()}
    return params, permutation


def _draw(rng: np.random.Generator, nodes: int, hubs: int, degree: int, k: int,
          extra: int, strong_p: npt.NDArray[np.float64], weak_p: npt.NDArray[np.float64],
          extra_p: npt.NDArray[np.float64]) -> HubGraph:
    sources, targets = _hub_edges(rng, nodes, hubs, degree)
    strong = rng.choice(hubs, size=k, replace=False)
    p = np.where(np.isin(np.asarray(sources), strong), strong_p, weak_p).tolist()
    for u, v in _extra_edges(rng, nodes, hubs, extra, set(zip(sources, targets, strict=True))):
        sources.append(u)
        targets.append(v)
    p += extra_p.tolist()
    params, permutation = relabel(nodes, sources, targets, p, k, rng)
    return HubGraph(params, tuple(sorted(permutation[:hubs].tolist())),
                    tuple(sorted(permutation[strong].tolist())))


def small_hub_graph(rng: np.random.Generator) -> HubGraph:
    """Nine nodes, three hubs of out-degree 3, one more edge; ``k`` of 1 or 2 strong hubs.

    Strong hubs' edges have probabilities in {0.7, 0.8, 0.9, 1.0}, weak hubs' in {0.1, 0.2},
    the other edge anything on the grid 0.1, ..., 0.9.
    """
    hubs, degree, extra = 3, 3, 1
    edges = hubs * degree
    return _draw(rng, 9, hubs, degree, int(rng.integers(1, 3)), extra,
                 rng.integers(7, 11, edges) / 10, rng.integers(1, 3, edges) / 10,
                 rng.integers(1, 10, extra) / 10)


def large_hub_graph(rng: np.random.Generator) -> HubGraph:
    """Three hundred nodes, twelve hubs of out-degree 25, 300 background edges; ``k = 3``.

    Strong hubs' edges have probability 0.4, weak hubs' 0.02, background edges 0.01 to 0.1.
    """
    hubs, degree, extra = 12, 25, 300
    edges = hubs * degree
    return _draw(rng, 300, hubs, degree, 3, extra, np.full(edges, 0.4), np.full(edges, 0.02),
                 rng.integers(1, 11, extra) / 100)
