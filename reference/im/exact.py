r"""Exact influence quantities for tiny graphs, by enumerating live-edge graphs.

Under the IC model each edge is *live* independently with probability :math:`p_{uv}`, and the
final active set :math:`\Phi(S)` is the set of nodes reachable from :math:`S` through live edges
(Kempe et al. 2003).  Hence

.. math::

    \sigma(S;G) = \sum_{L \subseteq \mathcal E} \Pr[L]\, |\mathrm{Reach}_L(S)|,\qquad
    \Pr[L] = \prod_{e\in L} p_e \prod_{e\notin L} (1-p_e),

a finite sum of :math:`2^E` terms, computed here for :math:`E \le` ``MAX_EXACT_EDGES``.  These
are the ground truth of the tests of the simulator and of the oracles.

References
----------
``apdx_app:OIM_node`` (:math:`\sigma(S;G)`, :math:`S^*`).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.errors import InputError, check_cardinality
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.seeds import check_seed_probabilities, check_seed_set

#: Largest number of edges whose live-edge graphs are enumerated (2**16 worlds).
MAX_EXACT_EDGES = 16


def _live_edge_worlds(graph: ICGraph) -> tuple[npt.NDArray[np.bool_], FloatArray]:
    """Every live-edge subset (as a boolean row) and its probability."""
    if graph.edges > MAX_EXACT_EDGES:
        raise InputError("graph", f"exact enumeration needs at most {MAX_EXACT_EDGES} edges, "
                         f"got {graph.edges}")
    worlds = np.arange(1 << graph.edges, dtype=np.int64)
    live = ((worlds[:, None] >> np.arange(graph.edges)) & 1).astype(bool)
    weight = np.where(live, graph.p[None, :], 1.0 - graph.p[None, :]).prod(axis=1)
    return live, weight


def activation_probabilities(graph: ICGraph, seeds: npt.ArrayLike) -> FloatArray:
    r"""Exact :math:`\Pr[v \in \Phi(S)]` for every node ``v``."""
    reach, weight = _reach(graph, seeds)
    return np.asarray(weight @ reach, dtype=np.float64)


def spread_distribution(graph: ICGraph, seeds: npt.ArrayLike) -> FloatArray:
    r"""Exact law of the cascade size: entry ``s`` is :math:`\Pr[|\Phi(S)| = s]`, ``s <= V``."""
    reach, weight = _reach(graph, seeds)
    law = np.bincount(reach.sum(axis=1), weights=weight, minlength=graph.nodes + 1)
    return np.asarray(law, dtype=np.float64)


def _reach(graph: ICGraph, seeds: npt.ArrayLike) -> tuple[npt.NDArray[np.bool_], FloatArray]:
    """Which nodes each live-edge world makes active from ``seeds``, and the worlds' weights."""
    seed_set = check_seed_set(seeds, graph.nodes)
    live, weight = _live_edge_worlds(graph)
    reach = np.zeros((live.shape[0], graph.nodes), dtype=bool)
    reach[:, seed_set] = True
    for _ in range(graph.nodes):  # reachability by repeated relaxation
        before = reach.copy()
        for e in range(graph.edges):
            reach[:, graph.targets[e]] |= reach[:, graph.sources[e]] & live[:, e]
        if np.array_equal(before, reach):
            break
    return reach, weight


def exact_spread(graph: ICGraph, seeds: npt.ArrayLike) -> float:
    r"""Exact :math:`\sigma(S;G)` (sum over all :math:`2^E` live-edge graphs)."""
    return float(activation_probabilities(graph, seeds).sum())


def brute_force_im(graph: ICGraph, k: int) -> tuple[IntArray, float]:
    r"""An exactly optimal seed set :math:`S^*` of size ``k`` and its spread (tiny graphs only)."""
    k = check_cardinality(k, graph.nodes)
    best: tuple[IntArray, float] = (np.zeros(0, dtype=np.int64), -1.0)
    for subset in combinations(range(graph.nodes), k):
        value = exact_spread(graph, np.array(subset, dtype=np.int64))
        if value > best[1] + 1e-12:
            best = (np.array(subset, dtype=np.int64), value)
    return best


def reachable_nodes(graph: ICGraph, seeds: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    r"""Nodes that ``S`` activates with positive probability (reachable via edges with p > 0)."""
    seed_set = check_seed_set(seeds, graph.nodes)
    reach = np.zeros(graph.nodes, dtype=bool)
    reach[seed_set] = True
    positive = graph.p > 0
    while True:
        spread_to = graph.targets[positive & reach[graph.sources]]
        if reach[spread_to].all():
            return reach
        reach[spread_to] = True


def product_law_activation_probabilities(graph: ICGraph, q: npt.ArrayLike) -> FloatArray:
    r"""Exact :math:`\Pr[v \in \Phi(S_0)]` when :math:`S_0` follows the product law :math:`q`.

    In a live-edge world :math:`L`, :math:`v` is active unless no node that reaches it is a
    seed: :math:`1 - \prod_{w \leadsto_L v}(1-q_w)`; averaging over the :math:`2^E` worlds gives
    the exact value.  The source's probability is the data triggering probability
    :math:`p^{\mathbb D_{\text{arm}},\mathbb D_{\mathcal S}}_{uv}` of edge :math:`(u,v)`.
    """
    q = check_seed_probabilities(q, graph.nodes)
    live, weight = _live_edge_worlds(graph)
    worlds, V = live.shape[0], graph.nodes
    # reach[w, a, b]: a reaches b in world w (transitive closure by repeated relaxation)
    reach = np.broadcast_to(np.eye(V, dtype=bool), (worlds, V, V)).copy()
    for _ in range(V):
        before = reach.copy()
        for e in range(graph.edges):
            u, v = graph.sources[e], graph.targets[e]
            reach[:, :, v] |= reach[:, :, u] & live[:, e : e + 1]
        if np.array_equal(before, reach):
            break
    reach_f = reach.astype(np.float64)
    sure = q >= 1.0  # a sure seed makes every node it reaches active
    log_miss = np.log1p(-np.where(sure, 0.0, q))
    miss = np.exp(np.einsum("wab,a->wb", reach_f, log_miss))
    miss[np.einsum("wab,a->wb", reach_f, sure.astype(np.float64)) > 0] = 0.0
    return np.asarray(weight @ (1.0 - miss), dtype=np.float64)
