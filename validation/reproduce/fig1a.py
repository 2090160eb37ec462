r"""Figure 1(a): offline cascading bandits on synthetic data, gap against n.

Setting (``sec:Cascading``): ``m = 100`` items, lists of ``K = 5``,
:math:`\mu_i \sim U[0,1]` drawn afresh in every trial, lists drawn uniformly
from all ordered 5-lists (:class:`offcmab.reference.problems.cascade.UniformListsLaw`),
cascade feedback, 20 trials.  Each trial draws one log of the largest size and
uses its first ``n`` samples for every ``n`` of the grid (nested logs).  The
paper does not print its grid of ``n``; we use ``GRID``.

Reported reductions (the paper: 47.75% vs CUCB-Offline, 20.02% vs EMP, without
saying how they were averaged): ``reduction_vs_*`` is the mean over the grid of
:math:`1 - \bar g_{\text{CLCB}}(n) / \bar g_{B}(n)` with :math:`\bar g` the
trial-averaged gap (grid points where the baseline's average gap is 0 are
skipped); ``pooled_reduction_vs_*`` is :math:`1 - \sum_n \bar g_{\text{CLCB}}(n)
/ \sum_n \bar g_B(n)`.

Item ids carry no information here: the means are drawn i.i.d. per item, so a
random renumbering of the items leaves the law of every gap unchanged.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
from offcmab.validation.reproduce.cascade_common import ALGORITHMS, Algorithm
from offcmab.validation.runner.folder import atomic_figure, atomic_text

TITLE = "Figure 1(a): cascading bandits, synthetic, suboptimality gap vs n"
PAPER = "CLCB reduces the gap by 47.75% vs CUCB-Offline and 20.02% vs EMP (m=100, K=5)"

GRID = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
QUICK_GRID = (10, 50, 200)


def simulate(seed: int, trials: int, grid: tuple[int, ...], m: int = 100,
             k: int = 5, algorithms: dict[str, Algorithm] | None = None
             ) -> dict[str, np.ndarray]:
    """Gaps ``[trial, grid point]`` of every algorithm (default :data:`ALGORITHMS`)."""
    algorithms = algorithms or ALGORITHMS
    gaps = {name: np.zeros((trials, len(grid))) for name in algorithms}
    for trial, child in enumerate(np.random.SeedSequence(seed).spawn(trials)):
        rng = np.random.default_rng(child)
        problem = CascadeProblem(rng.random(m), k)
        log = UniformListsLaw(problem).sample(max(grid), rng)
        for column, n in enumerate(grid):
            data = log.head(n)
            for name, algorithm in algorithms.items():
                gaps[name][trial, column] = problem.gap(algorithm(data, k))
    return gaps


def reductions(gaps: dict[str, np.ndarray], ours_name: str = "CLCB") -> dict[str, float]:
    """Average and pooled gap reductions of ``ours_name`` against each baseline."""
    ours = gaps[ours_name].mean(axis=0)
    out: dict[str, float] = {}
    for name in (b for b in ("CUCB-Offline", "EMP", "EMP-optimistic") if b in gaps):
        theirs = gaps[name].mean(axis=0)
        keep = theirs > 0
        out[f"reduction_vs_{name}"] = float(np.mean(1 - ours[keep] / theirs[keep])) \
            if keep.any() else float("nan")
        out[f"pooled_reduction_vs_{name}"] = float(1 - ours.sum() / theirs.sum()) \
            if theirs.sum() > 0 else float("nan")
    return out


def run(out_dir: Path, seed: int, quick: bool) -> dict[str, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = QUICK_GRID if quick else GRID
    trials = 3 if quick else 20
    gaps = simulate(seed, trials, grid)
    with atomic_text(out_dir / "fig1a.csv") as handle:
        writer = csv.writer(handle)
        writer.writerow(["n", *(f"{name}_{stat}" for name in gaps for stat in ("mean", "std"))])
        for column, n in enumerate(grid):
            writer.writerow([n, *(f"{float(v):.6g}" for name in gaps for v in
                                  (gaps[name][:, column].mean(), gaps[name][:, column].std()))])
    figure, axes = plt.subplots(figsize=(5, 3.5))
    for name, values in gaps.items():  # standard deviations are in the CSV
        axes.plot(grid, values.mean(axis=0), marker="o", label=name,
                  linestyle="--" if name == "EMP-optimistic" else "-")
    axes.set(xscale="log", yscale="log", xlabel="n (ranked lists in the log)",
             ylabel="mean suboptimality gap", title=f"Cascade, m=100, K=5, {trials} trials")
    axes.legend()
    figure.tight_layout()
    for suffix in ("png", "pdf"):
        atomic_figure(figure, out_dir / f"fig1a.{suffix}")
    plt.close(figure)
    return {"trials": trials, "grid": list(grid), **reductions(gaps),
            "final_gap": {name: float(v[:, -1].mean()) for name, v in gaps.items()}}
