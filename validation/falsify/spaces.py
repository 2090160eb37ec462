r"""Instance spaces of ``offcmab falsify`` where the tightness space spends draws poorly.

A falsification looks for misleading logged data, so its cascade space always logs lists
from a weighted mixture (the cyclic windows of :func:`~offcmab.validation.tightness.spaces.windows`:
every item at every position; equal weights are the plain, uniform case) or from the
scenario's out-of-distribution law.  The tightness space also draws uniformly random
lists, which a mixture of equal weights already stands for, so there a third of the
draws cannot mislead.  Grids and ranges are the tightness space's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from offcmab.validation.parts.space import Decoded, Space
from offcmab.validation.scenarios.common import rounded
from offcmab.validation.scenarios.im import permuted as permuted_graph
from offcmab.validation.scenarios.llm_instances import permuted
from offcmab.validation.scenarios.permutations import moving_permutation
from offcmab.validation.tightness.spaces import (
    CASCADE_GRID,
    DELTAS,
    MAX_ITEMS,
    RELABEL_SEEDS,
    windows,
)

#: The logging laws of the falsify cascade space, the simplest (the one shrunk to) first.
LOGGED_CASCADE_LAWS = ("mixture", "ood")


def _probabilities(raw: np.ndarray) -> list[float]:
    """A probability vector from positive weights (rounded; the last entry closes the sum)."""
    weights = rounded(raw / raw.sum(), 12)
    return [*weights[:-1], 1.0 - sum(weights[:-1])]


def _shown_windows(mu: list[float], k: int, raw: np.ndarray, hidden: np.ndarray
                   ) -> dict[str, Any]:
    """The cyclic windows over the items the logger shows, and their weights.

    Items flagged in ``hidden`` outside the top ``k`` are never shown (the data never
    observe them; the optimal list stays covered); the windows run over the rest.
    """
    top = set(np.argsort(-np.asarray(mu), kind="stable")[:k].tolist())
    shown = [i for i in range(len(mu)) if i in top or np.rint(hidden[i]) == 0]
    lists = [[shown[j] for j in row] for row in windows(len(shown), k)]
    return {"lists": lists, "weights": _probabilities(raw[shown])}


def logged_cascade_space() -> Space:
    r"""Cascades: 3-10 items, lists of 1-4, means, a window mixture or the ood law; the
    mixture never shows the items outside the optimal list flagged ``hidden[j] = 1``."""
    names = ("m", "k", *[f"mu[{j}]" for j in range(MAX_ITEMS)],
             *[f"window_weight[{j}]" for j in range(MAX_ITEMS)],
             *[f"hidden[{j}]" for j in range(MAX_ITEMS)], "law", "n_index", "delta_index")
    lower = (3, 1, *[0.0] * MAX_ITEMS, *[0.01] * MAX_ITEMS, *[0] * MAX_ITEMS, 0, 0, 0)
    upper = (MAX_ITEMS, 4, *[1.0] * MAX_ITEMS, *[1.0] * MAX_ITEMS, *[1] * MAX_ITEMS,
             len(LOGGED_CASCADE_LAWS) - 1, len(CASCADE_GRID) - 1, len(DELTAS) - 1)
    integral = (True, True, *[False] * (2 * MAX_ITEMS), *[True] * MAX_ITEMS, True, True, True)

    def decode(x: np.ndarray) -> Decoded:
        m, k = int(np.rint(x[0])), int(np.rint(x[1]))
        k = min(k, m - 1)
        mu = rounded(x[2:2 + m])
        raw = np.asarray(x[2 + MAX_ITEMS:2 + MAX_ITEMS + m], dtype=float)
        hidden = np.asarray(x[2 + 2 * MAX_ITEMS:2 + 2 * MAX_ITEMS + m], dtype=float)
        kind, n_index, delta_index = (int(np.rint(v)) for v in x[2 + 3 * MAX_ITEMS:])
        law = ({"kind": "mixture", **_shown_windows(mu, k, raw, hidden)}
               if LOGGED_CASCADE_LAWS[kind] == "mixture" else {"kind": "ood"})
        params = {"family": "cascade", "mu": mu, "k": k, "law": law}
        return params, DELTAS[delta_index], CASCADE_GRID[n_index]

    start = (4, 1, 0.9, *[0.1] * (MAX_ITEMS - 1), *[1.0] * MAX_ITEMS, *[0] * MAX_ITEMS, 0,
             3, 1)
    return Space(names, lower, upper, integral, decode, start,
                 "cascade (m, k, means, logging law: window mixture or ood; hidden items)")


# -- spaces of the paired comparison (bounds vacuous at every runnable size) ---------------

#: Influence maximization: at most this many nodes (each with one in-edge: exact spreads
#: enumerate 2^8 live-edge graphs), the dataset sizes and failure probabilities.
MAX_NODES = 8
IM_SIZES = (1000, 4000)
IM_DELTAS = (0.05, 0.1)


#: Nodes that may get a second parent in the falsify graph space (keeps exact spreads cheap).
SECOND_PARENTS = 3


def im_graph_space() -> Space:
    r"""Small graphs for Theorem 4: 4-8 nodes, each with a seed probability ``q`` (0 to 1: a
    node never or always seeded leaves its out-edges unobserved) and one in-edge (from the
    node ``in_from`` places before it, probability ``in_p``); nodes 0-2 may get a second
    parent (``in2_from`` places before, 0 for none, probability ``in2_p``); ``k`` 1-3; the
    node ids relabelled by a seeded permutation.

    One in-edge per node draws stars (a hub feeding its leaves), chains, trees and cycles;
    second parents draw nodes where several cascades meet.  At most 11 edges; the
    probabilities are multiples of 0.05.
    """
    names = ("nodes", *[f"q[{j}]" for j in range(MAX_NODES)],
             *[f"in_p[{j}]" for j in range(MAX_NODES)],
             *[f"in_from[{j}]" for j in range(MAX_NODES)],
             *[f"in2_p[{j}]" for j in range(SECOND_PARENTS)],
             *[f"in2_from[{j}]" for j in range(SECOND_PARENTS)],
             "k", "n_index", "delta_index", "relabel")
    lower = (4, *[0.0] * MAX_NODES, *[0.05] * MAX_NODES, *[1] * MAX_NODES,
             *[0.05] * SECOND_PARENTS, *[0] * SECOND_PARENTS, 1, 0, 0, 0)
    upper = (MAX_NODES, *[1.0] * MAX_NODES, *[0.95] * MAX_NODES, *[MAX_NODES - 1] * MAX_NODES,
             *[0.95] * SECOND_PARENTS, *[MAX_NODES - 1] * SECOND_PARENTS, 3,
             len(IM_SIZES) - 1, len(IM_DELTAS) - 1, RELABEL_SEEDS - 1)
    integral = (True, *[False] * (2 * MAX_NODES), *[True] * MAX_NODES,
                *[False] * SECOND_PARENTS, *[True] * SECOND_PARENTS, True, True, True, True)

    def decode(x: np.ndarray) -> Decoded:
        nodes = int(np.rint(x[0]))
        q = rounded(x[1:1 + nodes], 2)
        p = rounded(x[1 + MAX_NODES:1 + MAX_NODES + nodes], 2)
        offsets = np.rint(x[1 + 2 * MAX_NODES:1 + 2 * MAX_NODES + nodes]).astype(int)
        targets = list(range(nodes))
        sources = [int((node - 1 - (offset - 1) % (nodes - 1)) % nodes)
                   for node, offset in zip(targets, offsets, strict=True)]
        at = 1 + 3 * MAX_NODES
        extra_p = rounded(x[at:at + SECOND_PARENTS], 2)
        extra_from = np.rint(x[at + SECOND_PARENTS:at + 2 * SECOND_PARENTS]).astype(int)
        for node in range(SECOND_PARENTS):
            parent = int((node - extra_from[node]) % nodes)
            if extra_from[node] and parent != node and parent != sources[node]:
                sources.append(parent)
                targets.append(node)
                p.append(extra_p[node])
        k, n_index, delta_index, seed = (int(np.rint(v)) for v in x[at + 2 * SECOND_PARENTS:])
        params = {"nodes": nodes, "sources": sources, "targets": targets, "p": p, "q": q,
                  "k": min(k, nodes - 1)}
        labels = moving_permutation(nodes, np.random.default_rng(seed))
        return permuted_graph(params, labels), IM_DELTAS[delta_index], IM_SIZES[n_index]

    # a star: node 0 feeds the other five
    start = (6, *[0.5] * MAX_NODES, *[0.5] * MAX_NODES,
             *[1, 1, 2, 3, 4, 5, 1, 1], *[0.5] * SECOND_PARENTS, *[0] * SECOND_PARENTS,
             2, 0, 0, 0)
    return Space(names, lower, upper, integral, decode, start,
                 "influence maximization on 4-8 node graphs (one in-edge per node, a second "
                 "for nodes 0-2, edge probabilities, seed law q, k, node ids)")


#: Online cache: at most this many queries, the horizons and failure probabilities.
MAX_QUERIES = 12
HORIZONS = (200, 500)


def online_paired_space() -> Space:
    r"""Online caches: 3-12 queries (arrival weight, Bernoulli cost mean on a grid of 0.05, so
    that tied costs and costs of 0 and 1 occur), cache of 1-11,
    horizons :data:`HORIZONS`, the ids relabelled by a seeded permutation; the learner
    starts with an empty cache."""
    names = ("m", "k", *[f"arrival_weight[{j}]" for j in range(MAX_QUERIES)],
             *[f"c[{j}]" for j in range(MAX_QUERIES)], "T_index", "delta_index", "relabel")
    lower = (3, 1, *[0.05] * MAX_QUERIES, *[0.0] * MAX_QUERIES, 0, 0, 0)
    upper = (MAX_QUERIES, MAX_QUERIES - 1, *[1.0] * (2 * MAX_QUERIES), len(HORIZONS) - 1,
             len(DELTAS) - 1, RELABEL_SEEDS - 1)
    integral = (True, True, *[False] * (2 * MAX_QUERIES), True, True, True)

    def decode(x: np.ndarray) -> Decoded:
        m, k = int(np.rint(x[0])), int(np.rint(x[1]))
        p = _probabilities(np.asarray(x[2:2 + m], dtype=float))
        c = rounded(np.round(20 * np.asarray(x[2 + MAX_QUERIES:2 + MAX_QUERIES + m])) / 20)
        horizon, delta_index, seed = (int(np.rint(v)) for v in x[2 + 2 * MAX_QUERIES:])
        params = {"p": p, "c": c, "k": min(k, m - 1), "noise": "bernoulli",
                  "law": {"kind": "empty"}}
        labels = moving_permutation(m, np.random.default_rng(seed))
        return permuted(params, labels), DELTAS[delta_index], HORIZONS[horizon]

    start = (4, 2, 0.4, 0.3, 0.2, 0.1, *[0.05] * (MAX_QUERIES - 4),
             0.9, 0.2, 0.8, 0.3, *[0.0] * (MAX_QUERIES - 4), 0, 0, 0)
    return Space(names, lower, upper, integral, decode, start,
                 "online LLM cache (m, k, arrival weights, Bernoulli cost means, T, ids)")
