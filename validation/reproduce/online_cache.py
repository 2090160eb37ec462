r"""Online streaming LLM cache: cumulative regret of CUCB-LLM-S against the O(sqrt(mT log)) rate.

The paper has no figure for ``apdx_sec:app_LLM_cache_online``; this experiment checks its
regret theorem and ``apdx_lem:stream_oracle`` empirically.  Instance: :math:`m = 20`
queries, cache size :math:`k = 5`, Zipf arrivals (:math:`\alpha = 0.9`, query ids in a
random order drawn from the seed), mean costs
:math:`c(q) \sim U[0, 1]` drawn once (fixed seed), Bernoulli costs; horizon
:math:`T = 20000` (2000 with ``--quick``).  Variants: ``printed``, ``fixed-log``
(:math:`\log T` in place of :math:`\log t`) and the non-streaming ``global-topk`` reference.

Reported per variant: final cumulative regret (mean over trials), its ratio to
:math:`\sqrt{m T \log T}`, the log-log slope of cumulative regret over the second half of
the horizon (the theorem allows at most 1/2 up to logs; linear regret has slope 1), and
the number of rounds where the streaming cache is not a global top-k (lemma violations).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.cucb_llm_stream import VARIANTS, cucb_llm_stream
from offcmab.reference.problems.llm_cache import LLMCacheProblem, zipf_probabilities
from offcmab.validation.runner.folder import atomic_figure, atomic_text

TITLE = "Online streaming LLM cache: CUCB-LLM-S regret (printed vs corrected)"
PAPER = "regret O(sqrt(m T log(mT/delta))) (theorem in apdx_sec:app_LLM_cache_online)"

M, K, ALPHA, T_FULL, T_QUICK, TRIALS = 20, 5, 0.9, 20000, 2000, 5


def run(out_dir: Path, seed: int, quick: bool) -> dict[str, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    horizon = T_QUICK if quick else T_FULL
    trials = 2 if quick else TRIALS
    instance_rng = np.random.default_rng(seed)
    labels = instance_rng.permutation(M)  # ids in random order, not by popularity
    problem = LLMCacheProblem(zipf_probabilities(M, ALPHA, labels), instance_rng.random(M), K)
    rounds = np.arange(1, horizon + 1)
    rate = np.sqrt(M * rounds * np.log(rounds + 1))
    curves: dict[str, np.ndarray] = {}
    violations: dict[str, float] = {}
    for variant in VARIANTS:
        runs = [cucb_llm_stream(problem, horizon, np.random.default_rng(stream), variant)
                for stream in np.random.SeedSequence(seed).spawn(trials)]
        curves[variant] = np.mean([r.cumulative_regret for r in runs], axis=0)
        violations[variant] = float(np.mean([(~r.equals_reference).sum() for r in runs]))
    out_dir.mkdir(parents=True, exist_ok=True)
    with atomic_text(out_dir / "online-cache.csv") as handle:
        writer = csv.writer(handle)
        writer.writerow(["t", "sqrt_m_t_log_t", *curves])
        for i in range(0, horizon, max(1, horizon // 400)):
            writer.writerow([int(rounds[i]), rate[i], *(curves[v][i] for v in curves)])
    figure, axis = plt.subplots(figsize=(5.5, 4))
    for name, curve in curves.items():
        axis.plot(rounds, curve, label=f"CUCB-LLM-S {name}")
    axis.plot(rounds, rate, "k--", label="sqrt(m t log t)")
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("round t")
    axis.set_ylabel("cumulative regret (expected cost)")
    axis.set_title(f"m={M}, k={K}, Zipf {ALPHA}, {trials} trials", fontsize=9)
    axis.legend(fontsize=7)
    figure.tight_layout()
    for suffix in ("png", "pdf"):
        atomic_figure(figure, out_dir / f"online-cache.{suffix}")
    plt.close(figure)
    half = rounds >= horizon // 2
    summary: dict[str, Any] = {"T": horizon, "trials": trials}
    for name, curve in curves.items():
        slope = np.polyfit(np.log(rounds[half]), np.log(np.maximum(curve[half], 1e-12)), 1)[0]
        summary[name] = {"final_regret": float(curve[-1]),
                            "regret_over_rate": float(curve[-1] / rate[-1]),
                            "loglog_slope_second_half": float(slope),
                            "lemma_violations_per_run": violations[name]}
    return summary
