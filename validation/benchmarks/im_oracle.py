r"""IMM oracle speed: k = 50 seeds, eps = 0.1, delta' = 1/V on a weighted-cascade power-law graph.

Goal: under 10 s on this 2-core machine at NetHEPT's size (15,000 nodes, 32,000 edges).  The
spread of the chosen seeds is also re-estimated by independent Monte-Carlo, to show that the
RR-set estimate agrees.
"""

from __future__ import annotations

import time
from typing import Any

TITLE = "IM oracle (IMM): k=50 on a 15k-node, 32k-edge weighted-cascade graph"

GOAL_SECONDS = 10.0


def run(quick: bool) -> dict[str, Any]:
    import numpy as np

    from reference.im.diffusion import estimate_spread
    from reference.im.generators import power_law_graph
    from reference.im.oracles import imm

    nodes, edges = (3000, 6400) if quick else (15000, 32000)
    k, eps = 50, 0.1
    graph = power_law_graph(nodes, edges, np.random.default_rng(1))
    start = time.perf_counter()
    result = imm(graph, k, eps, 1.0 / nodes, np.random.default_rng(0))
    seconds = time.perf_counter() - start
    check = estimate_spread(graph, result.seeds, 500 if quick else 2000, np.random.default_rng(4))
    return {
        "nodes": graph.nodes, "edges": graph.edges, "k": k, "eps": eps,
        "delta_prime": 1.0 / nodes, "seconds": seconds, "goal_seconds": GOAL_SECONDS,
        "goal_met": bool(seconds < GOAL_SECONDS), "rr_sets": result.rr_sets,
        "ris_spread": result.spread, "mc_spread": check.spread, "mc_stderr": check.stderr,
    }
