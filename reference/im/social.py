r"""Real social networks shipped with networkx, as directed IC graphs.

Each undirected edge :math:`\{u, v\}` becomes the two directed edges :math:`(u,v)` and
:math:`(v,u)`; nodes are relabelled ``0..V-1`` in networkx's node order.  Probabilities come from
one of the weightings of :mod:`offcmab.reference.im.generators` (``uniform`` with a given ``p``,
``weighted-cascade`` :math:`1/d^{\text{in}}(v)`, ``trivalency`` seeded by ``seed``).

Graphs: ``karate`` (Zachary's karate club, 34 nodes, 156 directed edges),
``les-miserables`` (co-appearances, 77 nodes, 508), ``florentine`` (marriages, 15 nodes, 40),
``davis`` (Davis southern women, bipartite women-events, 32 nodes, 178).

networkx is imported inside :func:`social_graph` only, so ``import reference`` stays light.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from offcmab.reference.errors import InputError
from offcmab.reference.im.generators import reweighted
from offcmab.reference.im.graph import ICGraph

#: Graph name -> networkx generator function name.
SOCIAL_GRAPHS: dict[str, str] = {
    "karate": "karate_club_graph",
    "les-miserables": "les_miserables_graph",
    "florentine": "florentine_families_graph",
    "davis": "davis_southern_women_graph",
}


def social_graph(
    name: str, weighting: str = "weighted-cascade", p: float = 0.1, seed: int = 0
) -> ICGraph:
    r"""One of :data:`SOCIAL_GRAPHS` as a directed IC graph with the named weighting."""
    if name not in SOCIAL_GRAPHS:
        raise InputError("graph", f"must be one of {sorted(SOCIAL_GRAPHS)}, got {name!r}")
    import networkx as nx  # lazy: only this loader needs networkx

    undirected: Any = getattr(nx, SOCIAL_GRAPHS[name])()
    index = {node: i for i, node in enumerate(undirected.nodes())}
    pairs = np.array([(index[a], index[b]) for a, b in undirected.edges()], dtype=np.int64)
    sources = np.concatenate([pairs[:, 0], pairs[:, 1]])
    targets = np.concatenate([pairs[:, 1], pairs[:, 0]])
    structure = ICGraph.from_edges(len(index), sources, targets, 0.0)
    return reweighted(structure, weighting, p, np.random.default_rng(seed))
