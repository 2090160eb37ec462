r"""IC simulation throughput against ``cynetdiff`` (Cython) over a grid of cases, worst case first.

Graphs: Barabási-Albert (networkx, 2 edges per new node, both directions), so ``n`` nodes have
about ``4n`` directed edges.  Cases: seeds {1, 50} (the highest out-degree nodes) x edge
probabilities {0.001, 0.01, weighted cascade :math:`1/d^{in}(v)`} x sizes.  Each case times
both simulators on the same graph and number of cascades, one core, interleaved repetitions
(ours, theirs, ours, ...), and reports the medians of wall and CPU times, the throughput ratio
``cynetdiff seconds / our seconds`` (above 1: ours is faster), and a z-test of equal mean
cascade sizes (agreement: a p-value below 1e-3 flags a discrepancy).  Preparing each
simulator's tables (our live-edge sampler, their model) is outside the timings.

Goals: ratio >= 1 on the two headline rows (15,000 nodes, 1 seed at
p = 0.01 and 50 seeds under weighted cascade), ratio >= 0.5 (within 2x) on every case.  The
summary prints the worst ratio and its case, not only the favourable ones.

Grids: ``--quick`` (1,000 nodes, 1,000 cascades; a smoke test), the default (1,000 and 15,000
nodes, 10,000 cascades but 1,000 for the large 50-seed weighted-cascade cascades; well under a
minute) and ``--full`` (up to 100,000 nodes, 10,000 cascades everywhere; several minutes).
Both simulators run once untimed first (imports, caches), then the timed repetitions.
"""

from __future__ import annotations

import array
import math
import statistics
import time
from typing import Any

import numpy as np

from offcmab.reference.im.diffusion import cascade_sizes
from offcmab.reference.im.graph import ICGraph
from offcmab.validation.benchmarks.figures import figure
from offcmab.validation.extras import MissingExtra

TITLE = "IC simulation: throughput vs cynetdiff over seeds x p x size, worst case"

#: Throughput ratio goals: on the two headline rows, and on every case of the grid.
GOAL_HEADLINE = 1.0
GOAL_EVERY = 0.5
SEEDS = (1, 50)
PROBABILITIES: tuple[float | str, ...] = (0.001, 0.01, "wc")


def grid(quick: bool, full: bool) -> tuple[tuple[int, ...], int, int]:
    """Sizes, cascades per case and interleaved repetitions of the chosen grid."""
    if full:
        return (1000, 15000, 100000), 10000, 3
    if quick:
        return (1000,), 1000, 1
    return (1000, 15000), 10000, 3


def run(quick: bool, full: bool = False) -> dict[str, Any]:
    sizes, cascades, repeats = grid(quick, full)
    cases: dict[str, Any] = {}
    for n in sizes:
        for seeds in SEEDS:
            for p in PROBABILITIES:
                name = f"n={n} seeds={seeds} p={p}"
                count = cascades // 10 if (p, seeds, full) == ("wc", 50, False) else cascades
                cases[name] = compare(n, seeds, p, max(count, 100), repeats)
    worst = min(cases, key=lambda name: cases[name]["ratio"])
    headline = [cases[name]["ratio"] for name in cases
                if name in ("n=15000 seeds=1 p=0.01", "n=15000 seeds=50 p=wc")]
    return {
        "repeats": repeats,
        "worst_ratio": cases[worst]["ratio"], "worst_case": worst,
        "worst_cpu_ratio": min(case["cpu_ratio"] for case in cases.values()),
        "headline_ratio": min(headline) if headline else None,
        "goal_headline": GOAL_HEADLINE, "goal_every": GOAL_EVERY,
        "goal_met": bool(cases[worst]["ratio"] >= GOAL_EVERY
                         and all(r >= GOAL_HEADLINE for r in headline) and bool(headline)),
        "cases": cases,
        "figures": [
            figure(f"IC throughput, worst case ({worst})", cases[worst]["ratio"], "cynetdiff",
                   GOAL_EVERY, "higher"),
            *([figure("IC throughput, the two headline rows (worst)", min(headline), "cynetdiff",
                      GOAL_HEADLINE, "higher")] if headline else []),
        ],
    }


def reference() -> Any:
    """cynetdiff's IC model class; :class:`~offcmab.validation.extras.MissingExtra` without it."""
    try:
        from cynetdiff.models import IndependentCascadeModel  # optional: the bench extra
    except ImportError as error:
        raise MissingExtra("cynetdiff", "bench", "ic-simulation") from error
    return IndependentCascadeModel


def ba_graph(n: int, p: float | str) -> ICGraph:
    """A Barabási-Albert graph with both directions of every edge, weighted by ``p``."""
    import networkx as nx  # slow to import: only when the benchmark runs

    pairs = np.asarray(nx.barabasi_albert_graph(n, 2, seed=1).edges(), dtype=np.int64)
    graph = ICGraph.from_edges(n, np.concatenate([pairs[:, 0], pairs[:, 1]]),
                               np.concatenate([pairs[:, 1], pairs[:, 0]]), 0.0)
    if p == "wc":
        return graph.with_probabilities(1.0 / graph.in_degree()[graph.targets])
    return graph.with_probabilities(np.full(graph.edges, float(p)))


def compare(n: int, seeds: int, p: float | str, cascades: int, repeats: int) -> dict[str, Any]:
    """Interleaved timings of both simulators on one case, with the spread agreement."""
    graph = ba_graph(n, p)
    seed_set = np.argsort(-graph.out_degree(), kind="stable")[:seeds]
    graph.live_edges  # noqa: B018  (build our tables outside the timings, as theirs are)
    model = reference()(
        array.array("I", graph.out_offsets[:-1].tolist()), array.array("I", graph.targets.tolist()),
        activation_probs=array.array("f", graph.p.tolist()), rng=np.random.default_rng(3))
    model.set_seeds(seed_set.tolist())

    def theirs() -> Any:
        out = np.zeros(cascades)
        for r in range(cascades):
            model.reset_model()
            model.advance_until_completion()
            out[r] = model.get_num_activated_nodes()
        return out

    ours_rng = np.random.default_rng(2)
    cascade_sizes(graph, seed_set, 10, ours_rng)  # warm-up, untimed (as below for theirs)
    model.reset_model()
    model.advance_until_completion()
    timings: dict[str, list[float]] = {"ours": [], "ours_cpu": [], "theirs": [], "theirs_cpu": []}
    samples: dict[str, Any] = {}
    for _ in range(repeats):
        for who, simulate in (("ours", lambda: cascade_sizes(graph, seed_set, cascades, ours_rng)),
                              ("theirs", theirs)):
            wall, cpu = time.perf_counter(), time.process_time()
            samples[who] = np.asarray(simulate(), dtype=float)
            timings[who].append(time.perf_counter() - wall)
            timings[who + "_cpu"].append(time.process_time() - cpu)
    median = {key: statistics.median(values) for key, values in timings.items()}
    ours, other = samples["ours"], samples["theirs"]
    se = math.hypot(ours.std(ddof=1), other.std(ddof=1)) / math.sqrt(cascades)
    z = (ours.mean() - other.mean()) / se if se > 0 else 0.0
    return {
        "edges": graph.edges, "cascades": cascades, "mean_cascade": float(ours.mean()),
        "ours_s": median["ours"], "cynetdiff_s": median["theirs"],
        "ours_cpu_s": median["ours_cpu"], "cynetdiff_cpu_s": median["theirs_cpu"],
        "ratio": median["theirs"] / median["ours"],
        "cpu_ratio": median["theirs_cpu"] / median["ours_cpu"],
        "agreement_p_value": math.erfc(abs(z) / math.sqrt(2.0)),
    }
