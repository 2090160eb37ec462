r"""Confidence-width sweep: which width would the paper's numbers need?

CLCB-LLM-C (Figure 3(a)) and CLCB-Cascade (Figure 1(a)) are rerun with their confidence
radius multiplied by a scale :math:`s \in \{2^{-6}, \dots, 2\}` (``SCALES``), on the same
logs as the baselines, which keep their printed settings (LFU and LEC have no width;
CUCB-Offline keeps the printed radius).  For each scale we report the improvement over
each baseline, measured exactly as in ``fig3a`` (ratio of mean gaps, mean of per-n ratios)
and ``fig1a`` (mean over n and pooled reductions), and the scales at which each of the
paper's numbers (1.32x; 47.75% and 20.02%) is attained.  Figure 3(a) is swept with query
ids in random order and, for comparison, in the paper's popularity order.

Does a scale keep the theorem's guarantee?  Shrinking the radius weakens the
concentration event :math:`\mathcal E_{\text{arm}}` the proofs rest on.  With the scaled
radius, Hoeffding's inequality and the proofs' union bound over :math:`m` arms and
:math:`n` counts give

* LLM cache (``thm:LLM_cache_main``; costs in :math:`[0, 1]`): the scaled printed radius
  misses with probability :math:`2(\delta/(4mn))^{4s^2}` per interval.  That is summed over
  the cost event's union, and the failure probabilities of the proof's other events are
  added (all from :mod:`offcmab.bounds.events`; claim ``alg:CLCB-LLM/radius-vs-proof``);
* cascade (``thm:app_ranking``; erratum ``thm:app_ranking/confidence-budget``: the
  printed radius already gives only :math:`1 - 2\delta`):
  :math:`\Pr[\text{fail}] \le 2mn\,(\delta/(2mn))^{s^2} + \delta`.

``failure_bound`` is that bound (capped at 1), maximised over the grid of :math:`n`; the
guarantee is kept when it is at most :math:`\delta` (LLM cache) or :math:`2\delta`
(cascade, the printed radius's corrected confidence).  For the LLM cache that takes a
scale of about 1/2: the printed radius is the sub-Gaussian radius with variance proxy 1,
twice what costs in :math:`[0,1]` need.  For the cascade it needs :math:`s \ge 1`.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.clcb_llm import clcb_llm
from offcmab.reference.confidence import log_over_delta
from offcmab.reference.llm_baselines import lec, lfu
from offcmab.validation.reproduce import fig1a, fig3a
from offcmab.validation.reproduce.cascade_common import ALGORITHMS, Algorithm, clcb_scaled
from offcmab.validation.reproduce.cascade_common import DELTA as CASCADE_DELTA
from offcmab.validation.reproduce.llm_common import Algorithms, improvement, sweep
from offcmab.validation.runner.folder import atomic_figure, atomic_text

TITLE = "Confidence-width sweep: improvement over each baseline against the width's scale"
PAPER = ("the paper prints one width per algorithm; its 1.32x (LLM) and 47.75% / 20.02% "
         "(cascade) are reported at that width")

SCALES = tuple(2.0**e for e in range(-6, 2))
QUICK_SCALES = (2.0**-6, 2.0**-2, 1.0, 2.0)
#: The paper's numbers: (experiment, baseline) -> value (a factor, or a reduction).
TARGETS = {("llm", "LFU"): 1.32, ("llm", "LEC"): 1.32,
           ("cascade", "CUCB-Offline"): 0.4775, ("cascade", "EMP"): 0.2002}
#: Averaging of each experiment's improvement, summary key -> label.
METRICS = {"llm": ("ratio_of_means", "mean_of_ratios"),
           "cascade": ("reduction", "pooled_reduction")}


def scale_name(algorithm: str, scale: float) -> str:
    return f"{algorithm} x{scale:g}"


@cache
def _llm_event_parts() -> Callable[[int, int, float], tuple[float, float]]:
    """Theorem 3's cost event at sizes (m, n, delta): its union size (arms times counts)
    and the failure probability of the proof's other events (offcmab.bounds.events).  The
    registry (and sympy) is imported here, when the sweep runs, so that listing the
    figures stays cheap."""
    from offcmab.bounds import events, symbols
    from offcmab.bounds.theorems.llm import THM3_LLM

    cost = events.hoeffding_event(THM3_LLM.id, "cost")
    pairs = cost.arms * cost.counts
    others = (events.total_failure(THM3_LLM.id) - cost.failure).simplify()

    def at(m: int, n: int, delta: float) -> tuple[float, float]:
        sizes = {symbols.m: m, symbols.n: n, symbols.delta: delta}
        return float(pairs.subs(sizes)), float(others.subs(sizes))

    return at


def failure_bound(experiment: str, scale: float, m: int, n: int, delta: float) -> float:
    r"""The proof's failure probability with the radius scaled by ``scale`` (module doc).

    LLM cache: the printed radius :math:`r = s\sqrt{2L/N}`, :math:`L = \log(4mn/\delta)`,
    misses with probability at most :math:`2e^{-2Nr^2} = 2e^{-4s^2L}` per interval.  That
    is summed over the cost event's union, and the proof's other events add their own
    failure probabilities.
    """
    if experiment == "llm":
        pairs, others = _llm_event_parts()(m, n, delta)
        printed_log = log_over_delta((4.0, m, n), delta)
        arm = pairs * 2.0 * math.exp(-4.0 * scale**2 * printed_log)
        return float(min(1.0, arm + others))
    return float(min(1.0, 2 * m * n * (delta / (2 * m * n)) ** (scale**2) + delta))


def crossings(scales: Sequence[float], values: Sequence[float], target: float) -> list[float]:
    """Scales where ``values`` crosses ``target`` (linear in log2 of the scale)."""
    found = []
    logs = np.log2(np.asarray(scales))
    diff = np.asarray(values, dtype=float) - target
    for i in range(len(scales) - 1):
        a, b = diff[i], diff[i + 1]
        if a == 0:
            found.append(float(scales[i]))
        elif np.isfinite(a) and np.isfinite(b) and a * b < 0:
            found.append(float(2 ** (logs[i] + (logs[i + 1] - logs[i]) * a / (a - b))))
    if diff[-1] == 0:
        found.append(float(scales[-1]))
    return found


def _clcb_llm_cache(log: Any, k: int, delta: float, scale: float) -> Any:
    return clcb_llm(log, k, delta, sigma=scale).cache


def llm_curves(ids: str, scales: Sequence[float], grid: list[int], trials: int,
               seed: int) -> dict[str, dict[str, list[float]]]:
    """Improvement of CLCB-LLM-C at each scale over LFU and LEC (fig3a, query-bernoulli)."""
    algorithms: Algorithms = {"LFU": lambda log, k, d: lfu(log, k),
                              "LEC": lambda log, k, d: lec(log, k)}
    for s in scales:
        algorithms[scale_name("CLCB-LLM-C", s)] = partial(_clcb_llm_cache, scale=s)
    # same seed as fig3a's query-bernoulli run, so scale 1 is fig3a's CLCB-LLM-C exactly
    rows = sweep(fig3a.scenario_maker("query-bernoulli", ids), grid, trials,  # type: ignore
                 fig3a.DELTA, seed, algorithms)
    curves: dict[str, dict[str, list[float]]] = {}
    for baseline in ("LFU", "LEC"):
        found = [improvement(rows, "query-bernoulli", baseline, grid,
                             scale_name("CLCB-LLM-C", s)) for s in scales]
        curves[baseline] = {metric: [f[metric] for f in found] for metric in METRICS["llm"]}
    return curves


def cascade_curves(scales: Sequence[float], grid: tuple[int, ...], trials: int,
                   seed: int) -> dict[str, dict[str, list[float]]]:
    """Reductions of CLCB-Cascade at each scale vs CUCB-Offline and EMP (fig1a)."""
    algorithms: dict[str, Algorithm] = {name: ALGORITHMS[name]
                                        for name in ("CUCB-Offline", "EMP")}
    for s in scales:
        algorithms[scale_name("CLCB", s)] = partial(clcb_scaled, scale=s)
    gaps = fig1a.simulate(seed, trials, grid, algorithms=algorithms)
    found = [fig1a.reductions(gaps, scale_name("CLCB", s)) for s in scales]
    return {baseline: {"reduction": [f[f"reduction_vs_{baseline}"] for f in found],
                       "pooled_reduction": [f[f"pooled_reduction_vs_{baseline}"]
                                            for f in found]}
            for baseline in ("CUCB-Offline", "EMP")}


def attained(experiment: str, baseline: str, curves: dict[str, list[float]],
             scales: Sequence[float], kept: Sequence[bool]) -> dict[str, Any]:
    """Where the paper's number is attained under every averaging, and if the proof holds."""
    target = TARGETS[(experiment, baseline)]
    every = [all(curves[metric][i] >= target for metric in METRICS[experiment])
             for i in range(len(scales))]
    hits = [float(s) for s, ok in zip(scales, every, strict=True) if ok]
    return {"target": target, "scales_attaining": hits,
            "scales_attaining_with_guarantee": [float(s) for s, ok, keep in
                                                zip(scales, every, kept, strict=True)
                                                if ok and keep],
            "crossings": {metric: crossings(scales, curves[metric], target)
                          for metric in METRICS[experiment]}}


def run(out_dir: Path, seed: int, quick: bool) -> dict[str, Any]:
    scales = QUICK_SCALES if quick else SCALES
    trials = 3 if quick else fig3a.TRIALS
    llm_grid = fig3a.GRID[::3] if quick else fig3a.GRID
    cascade_grid = fig1a.QUICK_GRID if quick else fig1a.GRID
    m_llm, m_cascade = fig3a.M, 100
    guarantee = {
        "llm": [max(failure_bound("llm", s, m_llm, n, fig3a.DELTA) for n in llm_grid)
                for s in scales],
        "cascade": [max(failure_bound("cascade", s, m_cascade, n, CASCADE_DELTA)
                        for n in cascade_grid) for s in scales]}
    rounding = 1 + 1e-9  # the bound equals 2 delta exactly at the printed cascade radius
    kept = {"llm": [f <= fig3a.DELTA * rounding for f in guarantee["llm"]],
            "cascade": [f <= 2 * CASCADE_DELTA * rounding for f in guarantee["cascade"]]}
    curves: dict[str, Any] = {"llm": {ids: llm_curves(ids, scales, llm_grid, trials, seed)
                      for ids in ("random", "ordered")},
              "cascade": cascade_curves(scales, cascade_grid, trials, seed)}
    summary: dict[str, Any] = {"scales": list(scales), "trials": trials,
                               "failure_bound": guarantee, "guarantee_kept": kept,
                               "curves": curves, "attained": {}}
    for (experiment, baseline) in TARGETS:
        found = curves["llm"]["random"][baseline] if experiment == "llm" \
            else curves["cascade"][baseline]
        summary["attained"][f"{experiment}: {baseline}"] = attained(
            experiment, baseline, found, scales, kept[experiment])
        if experiment == "llm":
            summary["attained"][f"llm (ordered ids): {baseline}"] = attained(
                experiment, baseline, curves["llm"]["ordered"][baseline], scales,
                kept[experiment])
    out_dir.mkdir(parents=True, exist_ok=True)
    write_csv(out_dir / "width-sweep.csv", summary)
    plot(out_dir, summary)
    return summary


def write_csv(path: Path, summary: dict[str, Any]) -> None:
    """One row per (experiment, id order, baseline, averaging, scale)."""
    with atomic_text(path) as handle:
        writer = csv.writer(handle)
        writer.writerow(["experiment", "ids", "baseline", "averaging", "scale", "value",
                         "failure_bound", "guarantee_kept"])
        series = [("llm", ids, baseline, by) for ids, by_baseline in
                  summary["curves"]["llm"].items() for baseline, by in by_baseline.items()]
        series += [("cascade", "n/a", baseline, by) for baseline, by in
                   summary["curves"]["cascade"].items()]
        for experiment, ids, baseline, by_metric in series:
            for metric, values in by_metric.items():
                for i, scale in enumerate(summary["scales"]):
                    writer.writerow([experiment, ids, baseline, metric, f"{scale:g}",
                                     f"{values[i]:.6g}",
                                     f"{summary['failure_bound'][experiment][i]:.3g}",
                                     summary["guarantee_kept"][experiment][i]])


def plot(out_dir: Path, summary: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scales = summary["scales"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    for ids, style in (("random", "-"), ("ordered", ":")):
        for baseline, color in (("LFU", "C0"), ("LEC", "C1")):
            left.plot(scales, summary["curves"]["llm"][ids][baseline]["ratio_of_means"],
                      style, color=color, marker="o", ms=3, label=f"vs {baseline}, {ids} ids")
    left.axhline(1.32, color="k", ls="--", lw=0.8, label="paper: 1.32x")
    left.axhline(1.0, color="grey", lw=0.5)
    left.set(xscale="log", xlabel="scale of CLCB-LLM-C's radius (1 = printed)",
             ylabel="baseline gap / CLCB gap (ratio of means)", title="LLM cache (Fig. 3a)")
    for baseline, color in (("CUCB-Offline", "C2"), ("EMP", "C3")):
        right.plot(scales, summary["curves"]["cascade"][baseline]["reduction"], "-",
                   color=color, marker="o", ms=3, label=f"vs {baseline} (mean over n)")
        right.plot(scales, summary["curves"]["cascade"][baseline]["pooled_reduction"], ":",
                   color=color, marker="s", ms=3, label=f"vs {baseline} (pooled)")
        right.axhline(dict(TARGETS)[("cascade", baseline)], color=color, ls="--", lw=0.8)
    right.set(xscale="log", xlabel="scale of CLCB's radius (1 = printed)",
              ylabel="gap reduction 1 - CLCB/baseline", title="Cascade (Fig. 1a); dashed: paper")
    for axis, experiment in ((left, "llm"), (right, "cascade")):
        voided = [s for s, keep in zip(scales, summary["guarantee_kept"][experiment],
                                       strict=True) if not keep]
        if voided:  # shade the scales whose radius voids the proof's concentration step
            axis.axvspan(min(voided) / 1.2, max(voided) * 1.2, color="grey", alpha=0.12,
                         label="guarantee voided")
        axis.set_xscale("log", base=2)
        axis.legend(fontsize=6)
    figure.suptitle(f"Width sweep, {summary['trials']} trials", fontsize=10)
    figure.tight_layout()
    for suffix in ("png", "pdf"):
        atomic_figure(figure, out_dir / f"width-sweep.{suffix}")
    plt.close(figure)
