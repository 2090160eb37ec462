r"""Synthetic graphs and edge weightings for influence maximization experiments.

Weightings (each returns one probability per edge of a structure):

* ``uniform``: :math:`p_{uv} = p` for every edge;
* ``weighted cascade``: :math:`p_{uv} = 1/d^{\text{in}}(v)` (Kempe et al. 2003), so the
  in-probabilities of every node sum to one;
* ``trivalency``: :math:`p_{uv}` drawn uniformly from :math:`\{0.1, 0.01, 0.001\}` with a
  seeded generator (Chen et al. 2010).

The power-law generator is a directed Chung-Lu graph: node ``i`` has weight
:math:`w_i \propto (i+1)^{-1/(\beta-1)}`, and ``E`` candidate edges draw their source and
target independently with probabilities proportional to ``w`` (self-loops and repeats are
dropped), which gives power-law in- and out-degrees with exponent :math:`\beta`.
"""

from __future__ import annotations

import numpy as np

from offcmab.reference.dataset import FloatArray
from offcmab.reference.errors import InputError
from offcmab.reference.im.graph import ICGraph

WEIGHTINGS: tuple[str, ...] = ("uniform", "weighted-cascade", "trivalency")
TRIVALENCY_LEVELS = np.array([0.1, 0.01, 0.001])


def weighting(
    graph: ICGraph, name: str, p: float = 0.1, rng: np.random.Generator | None = None
) -> FloatArray:
    """Edge probabilities of ``graph``'s structure under a named weighting (see module doc)."""
    if name == "uniform":
        if not 0.0 <= p <= 1.0:
            raise InputError("p", f"must lie in [0, 1], got {p!r}")
        return np.full(graph.edges, float(p))
    if name == "weighted-cascade":
        return 1.0 / graph.in_degree()[graph.targets]
    if name == "trivalency":
        generator = rng if rng is not None else np.random.default_rng(0)
        return TRIVALENCY_LEVELS[generator.integers(0, 3, size=graph.edges)]
    raise InputError("weighting", f"must be one of {list(WEIGHTINGS)}, got {name!r}")


def reweighted(
    graph: ICGraph, name: str, p: float = 0.1, rng: np.random.Generator | None = None
) -> ICGraph:
    """``graph`` with its probabilities replaced by a named weighting."""
    return graph.with_probabilities(weighting(graph, name, p, rng))


def power_law_graph(
    nodes: int, edges: int, rng: np.random.Generator, exponent: float = 2.5,
    name: str = "weighted-cascade", p: float = 0.1,
) -> ICGraph:
    r"""A directed power-law (Chung-Lu) graph with about ``edges`` edges, weighted by ``name``."""
    if nodes < 2 or edges < 1:
        raise InputError("nodes", "need at least 2 nodes and 1 edge")
    if exponent <= 2.0:
        raise InputError("exponent", f"must exceed 2, got {exponent}")
    weights = (np.arange(nodes, dtype=np.float64) + 1.0) ** (-1.0 / (exponent - 1.0))
    cdf = np.cumsum(weights / weights.sum())
    keys = np.zeros(0, dtype=np.int64)
    draw = edges
    for _ in range(50):  # top up until enough distinct non-loop edges (a few rounds at most)
        src = np.minimum(np.searchsorted(cdf, rng.random(draw)), nodes - 1)
        dst = np.minimum(np.searchsorted(cdf, rng.random(draw)), nodes - 1)
        # shuffle labels so that hubs are not always the small ids
        keys = np.unique(np.concatenate([keys, (src * nodes + dst)[src != dst]]))
        if keys.size >= edges:
            break
        draw = 2 * (edges - keys.size)
    keys = rng.permutation(keys)[:edges]
    relabel = rng.permutation(nodes)
    graph = ICGraph.from_edges(nodes, relabel[keys // nodes], relabel[keys % nodes], 0.0)
    return reweighted(graph, name, p, rng)
