r"""Shared machinery of the offline LLM cache reproductions (``fig3a``, ``llm-real``).

One *scenario* is a problem, a query sampler and a cost-noise model; a *sweep* runs
CLCB-LLM-C and the baselines LFU and LEC on logs of each size in a grid, for several
independent trials, and records the exact suboptimality gap
:math:`c(\hat{\mathcal M}) - c(\mathcal M^*)` of each returned cache.

The improvement factor over a baseline is reported two ways (the paper does not say how
its "1.32x" is computed): ``ratio_of_means`` = (mean baseline gap over the whole grid) /
(mean CLCB gap over the grid), and ``mean_of_ratios`` = the average over grid points of
(mean baseline gap at n) / (mean CLCB gap at n), over grid points where the CLCB gap is
positive.  Values above 1 favour CLCB-LLM-C.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.clcb_llm import clcb_llm
from offcmab.reference.dataset import IntArray
from offcmab.reference.llm_baselines import lec, lfu
from offcmab.reference.problems.llm_cache import (
    CacheLaw,
    CacheLog,
    CostNoise,
    LLMCacheProblem,
    sample_log,
)
from offcmab.validation.runner.folder import atomic_figure, atomic_text

#: An algorithm maps (log, k, delta) to a cache.
Algorithms = dict[str, Callable[[CacheLog, int, float], IntArray]]

#: Algorithms compared, name -> (log, k, delta) -> cache.
ALGORITHMS: Algorithms = {
    "CLCB-LLM-C": lambda log, k, delta: clcb_llm(log, k, delta).cache,
    "CLCB-LLM-C (no clip)": lambda log, k, delta: clcb_llm(log, k, delta, clip=False).cache,
    "LFU": lambda log, k, delta: lfu(log, k),
    "LEC": lambda log, k, delta: lec(log, k),
}


@dataclass(frozen=True)
class Scenario:
    """A problem with how its logs are drawn."""

    name: str
    problem: LLMCacheProblem
    law: CacheLaw
    noise: CostNoise
    queries: Callable[[int, np.random.Generator], IntArray] | None = None


def sweep(make_scenario: Callable[[np.random.Generator], Scenario], grid: Sequence[int],
          trials: int, delta: float, seed: int,
          algorithms: Algorithms | None = None) -> list[dict[str, Any]]:
    """One row per (scenario, trial, n, algorithm) with the exact gap.

    ``algorithms`` defaults to :data:`ALGORITHMS`; every algorithm sees the same logs.
    """
    rows: list[dict[str, Any]] = []
    for trial, stream in enumerate(np.random.SeedSequence(seed).spawn(trials)):
        rng = np.random.default_rng(stream)
        scenario = make_scenario(rng)
        problem = scenario.problem
        for n in grid:
            queries = None if scenario.queries is None else scenario.queries(n, rng)
            log = sample_log(problem, scenario.law, n, rng, scenario.noise, queries=queries)
            for name, algorithm in (algorithms or ALGORITHMS).items():
                cache = algorithm(log, problem.k, delta)
                rows.append({"scenario": scenario.name, "trial": trial, "n": n,
                             "algorithm": name, "gap": problem.gap(cache),
                             "optimal_cost": problem.optimal_cost()})
    return rows


def mean_gaps(rows: list[dict[str, Any]], scenario: str, algorithm: str,
              grid: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard deviation of the gap over trials, per grid point."""
    means, stds = [], []
    for n in grid:
        gaps = [r["gap"] for r in rows if r["scenario"] == scenario and r["n"] == n
                and r["algorithm"] == algorithm]
        means.append(np.mean(gaps))
        stds.append(np.std(gaps))
    return np.asarray(means), np.asarray(stds)


def improvement(rows: list[dict[str, Any]], scenario: str, baseline: str,
                grid: Sequence[int], ours_name: str = "CLCB-LLM-C") -> dict[str, float]:
    """Improvement factors of ``ours_name`` over ``baseline`` (see the module docstring)."""
    ours, _ = mean_gaps(rows, scenario, ours_name, grid)
    theirs, _ = mean_gaps(rows, scenario, baseline, grid)
    positive = ours > 0
    return {
        "ratio_of_means": float(theirs.mean() / ours.mean()) if ours.mean() > 0 else np.inf,
        "mean_of_ratios": float(np.mean(theirs[positive] / ours[positive]))
        if np.any(positive) else np.inf,
    }


def summarize(rows: list[dict[str, Any]], scenarios: Sequence[str],
              grid: Sequence[int]) -> dict[str, Any]:
    """Improvement factors of both CLCB-LLM-C scorings over LFU and LEC, per scenario."""
    summary: dict[str, Any] = {}
    for scenario in scenarios:
        for ours in ("CLCB-LLM-C", "CLCB-LLM-C (no clip)"):
            for baseline in ("LFU", "LEC"):
                summary[f"{scenario}: {ours} vs {baseline}"] = improvement(
                    rows, scenario, baseline, grid, ours)
    return summary


def write_outputs(out_dir: Path, name: str, rows: list[dict[str, Any]],
                  panels: Sequence[str], grid: Sequence[int], title: str) -> None:
    """Write ``name.csv`` (all rows) and ``name.png``/``name.pdf`` (gap vs n, one panel each)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with atomic_text(out_dir / f"{name}.csv") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    figure, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 3.8), squeeze=False)
    for axis, scenario in zip(axes[0], panels, strict=True):
        for algorithm in ALGORITHMS:
            mean, std = mean_gaps(rows, scenario, algorithm, grid)
            axis.errorbar(grid, mean, yerr=std, label=algorithm, capsize=2, marker="o", ms=3)
        axis.set_xscale("log", base=2)
        axis.set_xlabel("n (logged rounds)")
        axis.set_ylabel("suboptimality gap of expected cost")
        axis.set_title(scenario, fontsize=9)
        axis.legend(fontsize=7)
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    for suffix in ("png", "pdf"):
        atomic_figure(figure, out_dir / f"{name}.{suffix}")
    plt.close(figure)
