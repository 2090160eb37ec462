r"""IM on real social networks: CLCB-IM-N vs the plug-in baseline, suboptimality gap vs n.

The paper's IM experiments are not reproducible here (its data are not shipped), so this
figure runs the node-level algorithms on the social graphs that networkx ships (karate club,
Les Misérables, Florentine families, Davis southern women; both directions of every edge,
uniform :math:`p = 0.1`).  Cascades come from the product seed law with :math:`q_u = 0.2`.
For each ``n``, CLCB-IM-N (correct estimator) and the plug-in baseline of Chen et al. (2021)
choose ``k = 3`` seeds with the same IMM oracle; the gap is
:math:`\sigma(S_{\text{ref}};G) - \sigma(\hat S;G)`, where :math:`S_{\text{ref}}` is IMM's
answer on the true graph and every spread is a Monte-Carlo estimate (its standard error is
written to the CSV).

What to expect: with the paper's constants (Bernstein radii with :math:`\log(12nE/\delta)`),
every node-level LCB is clipped to 0 until :math:`n` reaches about :math:`10^5`-:math:`10^6` on
these graphs (the precondition of ``thm:IM``, :math:`n \ge 392\log(12nE/\delta)/(\eta\gamma)`, is
of that order too), so CLCB-IM-N's choice is the oracle's answer on the all-zero graph until
then; the grid therefore extends to :math:`10^6` cascades.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.im.clcb_im_node import clcb_im_node, plug_in_node
from offcmab.reference.im.data import sample_node_cascades
from offcmab.reference.im.diffusion import estimate_spread
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.oracles import IMMOracle
from offcmab.reference.im.social import SOCIAL_GRAPHS, social_graph
from offcmab.validation.runner.folder import atomic_figure, atomic_text

TITLE = "IM on networkx social graphs: CLCB-IM-N vs plug-in (node-level feedback)"
PAPER = ("not in the paper (its IM experiments are not reported on these graphs); "
         "a real-graph check of CLCB-IM-N")

K, P_EDGE, Q_SEED, DELTA = 3, 0.1, 0.2, 0.1


class SpreadCache:
    """Monte-Carlo spread (and standard error) of seed sets, each set estimated once."""

    def __init__(self, graph: ICGraph, samples: int, rng: np.random.Generator) -> None:
        self.graph, self.samples, self.rng = graph, samples, rng
        self.values: dict[tuple[int, ...], tuple[float, float]] = {}

    def __call__(self, seeds: np.ndarray) -> tuple[float, float]:
        key = tuple(sorted(int(s) for s in seeds))
        if key not in self.values:
            est = estimate_spread(self.graph, list(key), self.samples, self.rng)
            self.values[key] = (est.spread, est.stderr)
        return self.values[key]


def run(out_dir: Path, seed: int, quick: bool) -> dict[str, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["florentine", "karate"] if quick else list(SOCIAL_GRAPHS)
    grid = [200, 2000] if quick else [100, 1000, 10**4, 10**5, 10**6]
    trials = 1 if quick else 3
    samples = 2000 if quick else 20000
    root = np.random.SeedSequence(seed)
    rows: list[dict[str, Any]] = []
    figure, axes = plt.subplots(1, len(names), figsize=(4 * len(names), 3.4), squeeze=False)
    for g_index, name in enumerate(names):
        graph = social_graph(name, "uniform", P_EDGE)
        oracle = IMMOracle(graph, K, eps=0.1, delta_prime=0.01, seed=seed)
        spread = SpreadCache(graph, samples, np.random.default_rng(root.spawn(1)[0]))
        reference, reference_se = spread(oracle(graph.p))
        means: dict[str, list[float]] = {"CLCB-IM-N": [], "plug-in": []}
        for n in grid:
            gaps: dict[str, list[float]] = {"CLCB-IM-N": [], "plug-in": []}
            for trial_seq in root.spawn(trials):
                cascades = sample_node_cascades(graph, Q_SEED, n, np.random.default_rng(trial_seq))
                chosen = {"CLCB-IM-N": clcb_im_node(graph, cascades, oracle, DELTA).seeds,
                          "plug-in": plug_in_node(graph, cascades, oracle)}
                for method, seeds in chosen.items():
                    value, se = spread(seeds)
                    gaps[method].append(reference - value)
                    rows.append({"graph": name, "n": n, "method": method,
                                 "seeds": " ".join(map(str, sorted(seeds.tolist()))),
                                 "spread": value, "stderr": se, "reference": reference,
                                 "reference_stderr": reference_se, "gap": reference - value})
            for method in means:
                means[method].append(float(np.mean(gaps[method])))
        axis = axes[0, g_index]
        for method, values in means.items():
            axis.plot(grid, values, marker="o", label=method)
        axis.set_xscale("log")
        axis.set_title(f"{name} (V={graph.nodes}, E={graph.edges})")
        axis.set_xlabel("n (cascades)")
        axis.set_ylabel("gap in spread")
        axis.legend()
    figure.tight_layout()
    atomic_figure(figure, out_dir / "im-real.png", dpi=120)
    atomic_figure(figure, out_dir / "im-real.pdf")
    plt.close(figure)
    with atomic_text(out_dir / "im-real.csv") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    summary: dict[str, Any] = {"graphs": names, "n_grid": grid, "trials": trials}
    for method in ("CLCB-IM-N", "plug-in"):
        summary[f"mean_gap_{method}"] = float(np.mean([r["gap"] for r in rows
                                                       if r["method"] == method]))
    return summary
