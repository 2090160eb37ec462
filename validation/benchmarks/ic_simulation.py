r"""IC simulation throughput and agreement: ours (numpy, vectorized) vs ``cynetdiff`` (Cython).

Both simulate the same power-law graph (weighted-cascade, then trivalency weights) from the
same 50 highest out-degree seeds.  Reported: simulations per second of each, their ratio
(goal: ours >= 0.25x cynetdiff), both spread estimates with standard errors and the two-sided
p-value of a z-test of equal means (agreement expected; a p-value below 1e-3 would flag a
discrepancy).
"""

from __future__ import annotations

import math
import time
from typing import Any

TITLE = "IC simulation: simulations/s vs cynetdiff and spread agreement"

GOAL_RATIO = 0.25


def run(quick: bool) -> dict[str, Any]:
    """Both weightings: weighted cascade (large cascades) and trivalency (small ones, where
    per-step overhead matters most); keys are prefixed ``wc_`` and ``tri_``."""
    out: dict[str, Any] = {}
    for prefix, weighting in (("wc_", "weighted-cascade"), ("tri_", "trivalency")):
        for key, value in compare(weighting, quick).items():
            out[prefix + key] = value
    out["goal_ratio"] = GOAL_RATIO
    out["goal_met"] = bool(min(out["wc_ratio"], out["tri_ratio"]) >= GOAL_RATIO)
    return out


def compare(weighting: str, quick: bool) -> dict[str, Any]:
    """Throughput and spread of both simulators on one graph."""
    import array

    import numpy as np
    from cynetdiff.models import IndependentCascadeModel

    from reference.im.diffusion import cascade_sizes
    from reference.im.generators import power_law_graph

    nodes, edges = (3000, 6400) if quick else (15000, 32000)
    samples = (300 if quick else 3000) * (10 if weighting == "trivalency" else 1)
    graph = power_law_graph(nodes, edges, np.random.default_rng(1), name=weighting)
    seeds = np.argsort(-graph.out_degree(), kind="stable")[:50]

    start = time.perf_counter()
    ours = cascade_sizes(graph, seeds, samples, np.random.default_rng(2)).astype(float)
    ours_seconds = time.perf_counter() - start

    model = IndependentCascadeModel(
        array.array("I", graph.out_offsets[:-1].tolist()), array.array("I", graph.targets.tolist()),
        activation_probs=array.array("f", graph.p.tolist()), rng=np.random.default_rng(3))
    model.set_seeds(seeds.tolist())
    theirs = np.zeros(samples)
    start = time.perf_counter()
    for r in range(samples):
        model.reset_model()
        model.advance_until_completion()
        theirs[r] = model.get_num_activated_nodes()
    theirs_seconds = time.perf_counter() - start

    se_ours = ours.std(ddof=1) / math.sqrt(samples)
    se_theirs = theirs.std(ddof=1) / math.sqrt(samples)
    z = (ours.mean() - theirs.mean()) / math.hypot(se_ours, se_theirs)
    return {
        "nodes": graph.nodes, "edges": graph.edges, "seeds": int(seeds.size),
        "samples": samples,
        "ours_sims_per_s": samples / ours_seconds,
        "cynetdiff_sims_per_s": samples / theirs_seconds,
        "ratio": theirs_seconds / ours_seconds,
        "ours_spread": float(ours.mean()), "ours_stderr": float(se_ours),
        "cynetdiff_spread": float(theirs.mean()), "cynetdiff_stderr": float(se_theirs),
        "agreement_z": float(z), "agreement_p_value": math.erfc(abs(z) / math.sqrt(2.0)),
    }
