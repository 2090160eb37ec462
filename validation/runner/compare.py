r"""Compare two validate runs of the same plan: did an algorithm's gaps get worse?

Two run folders written by ``offcmab validate --out`` (``report.json`` and the trial log
``trials.jsonl``) are *paired* when they ran the same plan: the same seed, profile,
bound scale, package version and, for every bound id both checked, the same instances.
A trial's dataset depends on the run seed and its key (bound id, instance, n, trial)
only, never on the algorithm run (:mod:`offcmab.validation.runner.seeding`), so trial
``t`` of a cell saw the same dataset in both runs and the two gaps form a pair.

Per cell (bound id, instance, n) present in both runs, the paired differences
``new gap - base gap`` (a difference within both trials' evaluation errors plus
``ROUNDING`` is a tie, zero) are tested for a shift: an exact two-sided sign test
(``scipy.stats.binomtest`` on the non-zero differences; assumes nothing about their
distribution) or the Wilcoxon signed-rank test (``scipy.stats.wilcoxon``).  Holm's step-down
procedure keeps the probability of calling any cell changed, when no cell's gap
distribution changed, at most the family-wise ``level``.  A significant cell whose median
difference is positive (or, at median zero, whose differences are more often positive)
got *worse*: a regression.  Identical algorithms give all-zero differences and are never
flagged.  Event rows run no logged trials, so they enter only the table of changed
verdicts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.errors import InputError
from offcmab.validation.runner.report_schema import read_report
from offcmab.validation.runner.store import LOG_NAME, read_log

#: Family-wise level of the comparison (Holm over the cells): a run pair whose gaps did not
#: change is called a regression with probability at most this.
LEVEL = 0.01

#: Paired differences within this much (plus both trials' evaluation errors) are ties: two
#: actions of equal value whose gaps differ only by floating-point rounding.
ROUNDING = 1e-9

#: The paired tests offered.
TESTS = ("sign", "wilcoxon")

#: Fields of a report that must agree for two runs to be paired (package version apart).
PAIRED_FIELDS = ("seed", "profile", "bound_scale")

Cell = tuple[str, str, int]


class Unpaired(InputError):
    """The two runs did not run the same plan, so their trials cannot be paired."""

    def __init__(self, reasons: Sequence[str]) -> None:
        super().__init__("runs", "cannot pair the runs: " + "; ".join(reasons))
        self.reasons = list(reasons)


@dataclass
class Run:
    """One run folder: its report and its subject's (gap, gap error) per cell, by trial."""

    folder: Path
    report: dict[str, Any]
    gaps: dict[Cell, dict[int, tuple[float, float]]] = field(default_factory=dict)


def split_key(text: str) -> tuple[Cell, int, str]:
    """A trial key's cell, trial index and subject (``reference`` when the key has none)."""
    parts = text.split("|", 4)
    if len(parts) < 4:
        raise ValueError(f"not a trial key: {text!r}")
    subject = parts[4] if len(parts) == 5 else "reference"
    return (parts[0], parts[1], int(parts[2])), int(parts[3]), subject


def load_run(folder: Path, role: str) -> Run:
    """Read ``report.json`` (checked, :mod:`.report_schema`) and the trial log of a run
    folder; ``InputError`` on ``role`` for a missing or malformed file and for a log that
    holds no trial of the run's subject (empty, damaged, or a header alone)."""
    report = read_report(folder, role)
    log_path = folder / LOG_NAME
    if not log_path.is_file():
        raise InputError(role, f"{log_path} not found (a folder written by "
                               "`offcmab validate --out`)")
    run = Run(folder, report)
    subject = report.get("subject", "reference")
    _, records = read_log(log_path)
    for record in records.values():
        cell, trial, owner = split_key(record.key)
        if owner == subject:  # the controls' trials of a reference run are not the subject's
            run.gaps.setdefault(cell, {})[trial] = (record.gap, record.gap_error)
    if not run.gaps:
        raise InputError(role, f"{log_path} holds no valid trial of {subject} (empty, "
                         "damaged or a header alone): there is nothing to compare")
    return run


def version(report: Mapping[str, Any]) -> Any:
    """The offcmab version a report was written by."""
    return report.get("provenance", {}).get("package", {}).get("version")


def outside_theorems(report: Mapping[str, Any]) -> dict[str, str | None]:
    """Id -> SHA-256 of the defining file, for each theorem from outside the package a run
    checked (from its provenance)."""
    return {entry["id"]: entry.get("sha256")
            for entry in report.get("provenance", {}).get("theorems", [])}


def mismatches(base: Run, new: Run) -> list[str]:
    """Why the two runs cannot be paired (empty when they can)."""
    reasons = [f"{name} differs (base {base.report.get(name)!r}, new {new.report.get(name)!r})"
               for name in PAIRED_FIELDS if base.report.get(name) != new.report.get(name)]
    old_theorems, new_theorems = outside_theorems(base.report), outside_theorems(new.report)
    reasons += [f"theorem {bound_id} differs (its file's sha256: base {digest}, new "
                f"{new_theorems[bound_id]})" for bound_id, digest in old_theorems.items()
                if bound_id in new_theorems and new_theorems[bound_id] != digest]
    if version(base.report) != version(new.report):
        reasons.append(f"package version differs (base {version(base.report)!r}, new "
                       f"{version(new.report)!r})")
    old, now = base.report.get("instances", {}), new.report.get("instances", {})
    common = [bound_id for bound_id in old if bound_id in now]
    for bound_id in common:
        if old[bound_id] != now[bound_id]:
            names = sorted({i["name"] for i in old[bound_id]} ^ {i["name"] for i in now[bound_id]})
            what = f" ({', '.join(names)})" if names else " (same names, other parameters)"
            reasons.append(f"instances of {bound_id} differ{what}")
    if not common:
        reasons.append(f"no bound id in both runs (base {', '.join(old) or 'none'}, new "
                       f"{', '.join(now) or 'none'})")
    return reasons


def paired_p_value(differences: np.ndarray, test: str) -> float:
    """Two-sided p-value of a shift in the paired differences (1 when all are zero)."""
    # scipy.stats takes seconds to import: a validate run without --baseline never needs it
    from scipy import stats

    nonzero = differences[differences != 0]
    if nonzero.size == 0:
        return 1.0
    if test == "sign":
        return float(stats.binomtest(int((nonzero > 0).sum()), int(nonzero.size), 0.5).pvalue)
    return float(stats.wilcoxon(nonzero, zero_method="wilcox").pvalue)


def holm(p_values: Sequence[float], level: float) -> list[bool]:
    """Holm's step-down rejections at family-wise ``level``."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    rejected = [False] * len(p_values)
    for rank, index in enumerate(order):
        if p_values[index] > level / (len(p_values) - rank):
            break
        rejected[index] = True
    return rejected


def cell_changes(base: Run, new: Run, test: str, level: float) -> list[dict[str, Any]]:
    """Every cell with trials in both runs: effect sizes, p-value, Holm decision."""
    cells: list[dict[str, Any]] = []
    for cell, old in base.gaps.items():
        now = new.gaps.get(cell, {})
        trials = sorted(set(old) & set(now))
        if not trials:
            continue
        new_gaps, new_errors = np.array([now[t] for t in trials]).T
        old_gaps, old_errors = np.array([old[t] for t in trials]).T
        difference = new_gaps - old_gaps
        difference[np.abs(difference) <= ROUNDING + new_errors + old_errors] = 0.0
        cells.append({"id": cell[0], "instance": cell[1], "n": cell[2], "trials": len(trials),
                      "median_difference": float(np.median(difference)),
                      "mean_difference": float(difference.mean()),
                      "fraction_worse": float((difference > 0).mean()),
                      "fraction_better": float((difference < 0).mean()),
                      "p_value": paired_p_value(difference, test)})
    for entry, significant in zip(cells, holm([c["p_value"] for c in cells], level),
                                  strict=True):
        worse = entry["median_difference"] > 0 or (
            entry["median_difference"] == 0 and entry["fraction_worse"] > entry["fraction_better"])
        entry["change"] = ("worse" if worse else "better") if significant else "none"
    return cells


def row_key(row: Mapping[str, Any]) -> tuple[str, str, Any, str]:
    return (str(row["id"]), str(row.get("instance")), row.get("n"), str(row.get("variant")))


def verdict_changes(base: Run, new: Run) -> list[dict[str, Any]]:
    """The rows present in both reports whose verdict differs."""
    now = {row_key(row): row for row in new.report["rows"]}
    changed = []
    for row in base.report["rows"]:
        other = now.get(row_key(row))
        if other is not None and other["verdict"] != row["verdict"]:
            changed.append({"id": row["id"], "instance": row.get("instance"), "n": row.get("n"),
                            "variant": row.get("variant"), "base": row["verdict"],
                            "new": other["verdict"]})
    return changed


def compare(base_folder: Path, new_folder: Path, test: str = "sign",
            level: float = LEVEL) -> dict[str, Any]:
    """The comparison of two run folders; :class:`Unpaired` when they cannot be paired."""
    if test not in TESTS:
        raise InputError("test", f"must be one of {', '.join(TESTS)}, got {test!r}")
    if not 0.0 < level < 1.0:
        raise InputError("level", f"must lie strictly between 0 and 1, got {level!r}")
    base, new = load_run(base_folder, "base"), load_run(new_folder, "new")
    reasons = mismatches(base, new)
    if reasons:
        raise Unpaired(reasons)
    cells = cell_changes(base, new, test, level)
    if not cells:
        raise InputError("runs", f"no cell paired: {new_folder / LOG_NAME} and "
                         f"{base_folder / LOG_NAME} share no trial (bound id, instance, n, "
                         "trial), so no gap can be compared")
    worse = [c for c in cells if c["change"] == "worse"]
    return {"base": str(base_folder), "new": str(new_folder),
            "base_subject": base.report.get("subject"), "new_subject": new.report.get("subject"),
            "test": test, "level": level, "correction": "holm", "cells_compared": len(cells),
            "cells": cells, "verdict_changes": verdict_changes(base, new),
            "worse": len(worse), "better": sum(c["change"] == "better" for c in cells),
            "regression": bool(worse)}


def _number(value: float) -> str:
    return f"{value:.3g}" if math.isfinite(value) else str(value)


def text(result: Mapping[str, Any]) -> str:
    """The comparison as the terminal shows it: the test, changed verdicts, changed cells."""
    test = ("exact two-sided sign test (scipy.stats.binomtest)" if result["test"] == "sign"
            else "Wilcoxon signed-rank test (scipy.stats.wilcoxon)")
    lines = [f"offcmab compare: {result['new_subject']} ({result['new']}) against "
             f"{result['base_subject']} ({result['base']})",
             f"{result['cells_compared']} cells paired trial by trial (same seeds); {test} "
             f"on new - base gaps, Holm family-wise level {result['level']:g}: "
             f"{result['worse']} worse, {result['better']} better."]
    if result["verdict_changes"]:
        lines += ["", "Verdicts changed:", "| id | instance | n | variant | base | new |",
                  "|---|---|---|---|---|---|"]
        lines += [f"| {c['id']} | {c['instance']} | {c['n']} | {c['variant']} | {c['base']} | "
                  f"{c['new']} |" for c in result["verdict_changes"]]
    changed = [c for c in result["cells"] if c["change"] != "none"]
    if changed:
        lines += ["", "Gaps significantly changed:",
                  "| id | instance | n | trials | change | median difference | mean difference "
                  "| fraction worse | fraction better | p-value |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        lines += [f"| {c['id']} | {c['instance']} | {c['n']} | {c['trials']} | {c['change']} | "
                  f"{_number(c['median_difference'])} | {_number(c['mean_difference'])} | "
                  f"{c['fraction_worse']:.2f} | {c['fraction_better']:.2f} | "
                  f"{_number(c['p_value'])} |" for c in changed]
    lines.append("")
    lines.append("regression: gaps got significantly worse" if result["regression"]
                 else "no significant regression")
    return "\n".join(lines) + "\n"


def exit_code(result: Mapping[str, Any]) -> int:
    """1 on a significant regression, else 0."""
    return 1 if result["regression"] else 0
