r"""The body of ``offcmab mutation``: run the catalogue, print the table or JSON, exit code.

The parser lives in :mod:`offcmab.validation.commands.mutation`, which imports this module
only when a run starts.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from offcmab.validation.costs import mutation_cost
from offcmab.validation.limits import check_cost
from offcmab.validation.mutation.score import EXPLAINED, FAILED, NOT_CHECKED, mutation
from offcmab.validation.output import jsonable, to_json
from offcmab.validation.theorem_loader import records
from offcmab.validation.theorems import THEOREMS

#: Columns of the human table.
HEADER = ("id", "mutant", "operator", "status", "flagged", "kill probability [95% CI]",
          "FAIL rows")


def run(args: argparse.Namespace) -> int:
    theorems, added = records(args.theorem, THEOREMS)
    only = tuple(dict.fromkeys(args.only)) if args.only else added
    check_cost(mutation_cost(args.replicates), args.force)  # before any run is planned
    report = mutation(only, profile=args.profile, seed=args.seed,
                      replicates=args.replicates, jobs=args.jobs,
                      mutants=tuple(dict.fromkeys(args.mutants or ())), theorems=theorems,
                      backend=args.backend, scheduler=args.scheduler)
    if args.json:
        sys.stdout.write(to_json(jsonable(report)) + "\n")
    else:
        sys.stdout.write(table(report))
    return EXIT_CODES[report["verdict"]]


#: Verdict -> exit code: an unexplained survivor, a false alarm or an error fails (1); no
#: mutant applied is "not checked" (3, as ``validate`` with nothing of power checked).
EXIT_CODES = {"passed": 0, FAILED: 1, NOT_CHECKED: 3}


def _cells(entry: dict[str, Any]) -> tuple[str, ...]:
    low, high = entry["interval"]
    return (entry["id"], entry["mutant"], entry["operator"], entry["status"],
            f"{entry['flagged']}/{entry['runs']}",
            f"{entry['kill_probability']:.2f} [{low:.2f}, {high:.2f}]",
            ",".join(str(rows) for rows in entry["failing_rows"]))


def aligned(lines: Sequence[tuple[str, ...]]) -> list[str]:
    """Rows of cells as left-aligned columns."""
    if not lines:
        return []
    widths = [max(len(line[column]) for line in lines) for column in range(len(lines[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True))
            .rstrip() for line in lines]


def scores(report: dict[str, Any]) -> list[str]:
    """One line per id: mutation score, survivors, equivalents and false alarms (an id no
    mutant applies to says so)."""
    lines: list[tuple[str, ...]] = []
    empty: dict[int, str] = {}
    for bound_id, tally in [*report["summary"]["ids"].items(),
                            ("all", report["summary"]["overall"])]:
        if tally["mutants"] + tally["equivalents"] == 0:
            empty[len(lines) + len(empty)] = bound_id
            continue
        score = "n/a" if tally["score"] is None else f"{tally['score']:.2f}"
        # a run recorded before survivors were explained counts them all as survived
        survivors = (f"{tally['survived']} survived",) if "explained" not in tally else (
            f"{tally['explained']} explained", f"{tally['survived']} unexplained")
        lines.append((bound_id, f"{tally['killed']}/{tally['mutants']} killed",
                      f"score {score}", *survivors,
                      f"{tally['equivalents'] - tally['false_alarms']}/{tally['equivalents']} "
                      "equivalents passed", f"{tally['errors']} errors"))
    out = aligned(lines)
    width = max((len(line[0]) for line in lines), default=0)
    for position, bound_id in sorted(empty.items()):
        out.insert(position, f"{bound_id.ljust(width)}  no mutant applies (see the operators "
                             "left out)")
    return out


def left_out(items: Sequence[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """``(id, operators, reason)``: the operators left out, those an id leaves out for one
    reason named together (a lower bound leaves out every operator)."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for item in items:
        grouped.setdefault((item["id"], item["reason"]), []).append(
            item.get("mutant", item["operator"]))
    return [(bound_id, ", ".join(names), reason)
            for (bound_id, reason), names in grouped.items()]


def explained(entries: Sequence[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """``(id, mutants, reason)``: the explained survivors, those of an id with one reason
    named together."""
    return left_out([{"id": entry["id"], "mutant": entry["mutant"],
                      "operator": entry["operator"], "reason": entry["no_power"]}
                     for entry in entries if entry["status"] == EXPLAINED])


def verdict_line(report: dict[str, Any]) -> str:
    """The run's verdict in words."""
    if report["verdict"] == NOT_CHECKED:
        return ("not checked: no mutant applies to the chosen ids and mutants (see the "
                "operators left out)")
    overall = report["summary"]["overall"]
    if report["verdict"] == FAILED:
        return (f"failed: {overall['survived']} unexplained survivor(s), "
                f"{overall['false_alarms']} false alarm(s), {overall['errors']} error(s)")
    return (f"passed: every survivor explained ({overall['explained']}), no false alarm, "
            "no error")


def table(report: dict[str, Any]) -> str:
    """The human table: every mutant, why the explained survivors survive, the operators
    left out, the scores per id and the verdict."""
    text = aligned([HEADER, *(_cells(entry) for entry in report["entries"])]) \
        if report["entries"] else []
    reasons = explained(report["entries"])
    if reasons:
        text += ["", "explained survivors (no runnable size can kill them):"]
        text += [f"  {bound_id}: {names}: {reason}" for bound_id, names, reason in reasons]
    text += ["", "operators that do not apply:"]
    text += [f"  {bound_id}: {names}: {reason}"
             for bound_id, names, reason in left_out(report["not_applicable"])]
    text += ["", *scores(report), "", verdict_line(report), "",
             f"profile {report['profile']}, run seeds {report['seed']}.."
             f"{report['seed'] + report['replicates'] - 1}, {report['jobs']} job(s), "
             f"{report['seconds']:.0f} s; KILLED: flagged in every run, EXPLAINED: a "
             "survivor with a recorded no-power reason, SURVIVED: a survivor without one, "
             "FALSE ALARM: an equivalent mutant flagged in some run"]
    return "\n".join(text) + "\n"
