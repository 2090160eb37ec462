r"""The regression corpus as a table, read from its stored runs: ``{{ corpus_table() }}``.

Each ``validation/corpus/ID.json`` is the output of one ``offcmab tightness`` run; its run
record (``docs/assets/runs/corpus-ID.json``) names the command, the commit and the date.  The
table shows what each file measured, and a line under it gives every row's provenance, so
no number of the search is copied into a page by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docgen import figures, theory

COLUMNS = ("id", "budget", "evaluations (candidates / vacuous / n/a)", "search time", "n",
           "delta", "(1-delta)-quantile of gap", "bound", "largest gap", "ratio",
           "within a factor of tight", "profiles")


def _number(value: float) -> str:
    return f"{value:.4g}"


def row(saved: dict[str, Any]) -> str:
    """One line of the table from a saved instance."""
    counts, ratio = saved["counts"], float(saved["ratio"])
    cells = (f"`{saved['bound_id']}`", str(saved["budget"]),
             f"{saved['evaluations']} ({counts['candidate']} / {counts['vacuous']} / "
             f"{counts['n/a']})",
             f"{float(saved['seconds']):.0f} s", str(saved["n"]),
             *(_number(float(saved[key]))
               for key in ("delta", "gap_quantile", "bound", "largest_gap", "ratio")),
             f"{1 / ratio:.3g}" if ratio > 0 else "", ", ".join(saved["profiles"]))
    return "| " + " | ".join(cells) + " |"


def table(root: Path, runs: Path | None = None) -> str:
    """The corpus table, one row per stored run, and the provenance of each."""
    stored = {path.stem.removeprefix("corpus-")
              for path in (runs or figures.RUNS).glob("corpus-*.json")}
    order = list(theory.BOUND_IDS)
    names = sorted(stored, key=lambda name: (order.index(name) if name in order else len(order),
                                             name))
    if not names:
        raise figures.FigureError("corpus_table: no corpus run records")
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    sources = []
    for name in names:
        record = figures.load(f"corpus-{name}", runs)
        lines.append(row(record.result))
        sources.append(f"`{name}`: {figures.short(record)}")
    machines = sorted({figures.load(f"corpus-{name}", runs).machine for name in names})
    return ("\n".join(lines) + "\n\n<small>Stored runs (command; commit and date at which "
            "the output was stored): " + "; ".join(sources)
            + f". Machine: {'; '.join(machines)}.</small>")
