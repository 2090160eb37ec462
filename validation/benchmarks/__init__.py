r"""Benchmarks run by ``offcmab bench``: one module per benchmark.

Each module exposes ``TITLE`` (one line) and ``run(quick: bool) -> dict`` returning
plain numbers (seconds, rates, ratios) and the sizes it ran at, and under ``figures`` its
headline ratios (rows made by :func:`figure`), which ``offcmab bench`` gathers into its
summary.  Benchmarks check speed goals; tests never time anything.
"""

from __future__ import annotations

from typing import Any

#: Benchmark name -> module, in the order ``offcmab bench`` runs them.
BENCHMARKS: dict[str, str] = {
    "clcb-statistics": "offcmab.validation.benchmarks.clcb_statistics",
    "ic-simulation": "offcmab.validation.benchmarks.ic_simulation",
    "im-oracle": "offcmab.validation.benchmarks.im_oracle",
    "bounds-eval": "offcmab.validation.benchmarks.bounds_eval",
}


def figure(name: str, ratio: float, reference: str, goal: float, better: str) -> dict[str, Any]:
    """One row of the bench summary: a ratio to a reference measured in the same run.

    ``better`` is ``"lower"`` (times, memory: ours / reference) or ``"higher"``
    (throughputs: ours / reference); ``met`` compares ``ratio`` with ``goal`` that way.
    """
    met = ratio <= goal if better == "lower" else ratio >= goal
    return {"figure": name, "ratio": ratio, "reference": reference, "goal": goal,
            "better": better, "met": bool(met)}
