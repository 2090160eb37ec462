r"""Writers of ``report.json`` and ``report.md``.

``report.json`` holds the rows (at least ``id``, ``instance``, ``n``, ``trials``,
``delta``, ``violations``, ``bound``, ``gap_max``, ``tightness``, ``verdict``) and the
run's seed, profile, package versions, git commit, false-alarm budget and timings.
``report.md`` is the human summary: the budget, the verdict counts, the hypothesis
coverage (:mod:`offcmab.validation.runner.coverage`), every failing row, then one table
per bound id.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from offcmab.validation.output import jsonable
from offcmab.validation.runner.coverage import coverage_lines
from offcmab.validation.runner.folder import atomic_write_text


def git_commit(where: Path) -> str | None:
    """The commit of the checkout holding ``where``, or ``None`` outside a git checkout."""
    try:
        result = subprocess.run(["git", "-C", str(where), "rev-parse", "HEAD"],
                                capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() or None if result.returncode == 0 else None


def tracked_commit(folder: Path) -> str | None:
    """The commit of the checkout that tracks ``folder``'s ``__init__.py``, else ``None``.

    A package installed into a virtual environment that lies inside some other checkout
    is not tracked by it, so that checkout's commit is not reported as the package's.
    """
    try:
        tracked = subprocess.run(["git", "-C", str(folder), "ls-files", "--error-unmatch",
                                  "__init__.py"], capture_output=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return git_commit(folder) if tracked.returncode == 0 else None


def files_digest(folders: Sequence[Path]) -> str:
    """SHA-256 over the ``.py`` and ``.json`` files below ``folders`` (names and bytes)."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(folder.parent)}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def package_identity(folders: Sequence[Path]) -> dict[str, str | None]:
    """Which offcmab ran: its version, the git commit when a checkout tracks it, and a hash
    of its installed files (which also covers changes not yet committed)."""
    try:
        version: str | None = importlib.metadata.version("offcmab")
    except importlib.metadata.PackageNotFoundError:
        version = None
    return {"version": version, "git_commit": tracked_commit(folders[-1]),
            "files_sha256": files_digest(folders)}


def write_json(report: dict[str, Any], path: Path) -> None:
    """``report.json`` (non-finite numbers become ``null``)."""
    atomic_write_text(path, json.dumps(jsonable(report), indent=1) + "\n")


def _number(value: Any, digits: int = 3) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}g}"
    if isinstance(value, dict):  # a bound's parameters, in the bound's own symbols
        return ", ".join(f"{name}={_number(item, 4)}" for name, item in value.items())
    return str(value)


#: What each verdict of a row means: the one definition that ``report.md``, the README and
#: the docs show (``docs/snippets/verdicts.md`` is :func:`verdict_list`, checked by a test).
VERDICTS = (
    ("pass", "the bound could have been exceeded (it lies below `max_gap`, the largest gap "
             "the instance allows), or the event could have failed, and the trials do not "
             "show it beyond the row's share of the false-alarm budget"),
    ("FAIL", "the bound is exceeded, or the event fails, more often than the row's "
             "`failure_probability` allows (validate exits 1)"),
    ("vacuous", "the bound is at least `max_gap` (exact over the feasible actions, or a "
                "proven upper bound: the row's `max_gap_source` says which), so no algorithm "
                "could exceed it; such a row has no power and is not counted as a pass"),
    ("n/a", "the row could not be checked: a precondition of the theorem does not hold at "
            "that size, or the algorithm does not expose what an event row reads (the row "
            "says which)"),
    ("note", "something the run reports without judging the algorithm by it: a stated "
             "lower bound that the measured risk falls below on one pair of instances (a "
             "point estimate, which cannot refute it), a printed statement that an erratum "
             "refutes but this run did not reproduce, or an algorithm that returned another "
             "result when a trial was repeated with the same data and seeds (its rows are "
             "not reproducible); a `note` never fails the run and takes no share of the "
             "false-alarm budget"),
    ("advisory", "a rate row: on an instance where every bound row is vacuous, whether the "
                 "mean gap at the largest size is no larger than the proven order allows from "
                 "every smaller size (the reason says when it is slower than the proven order "
                 "on this instance); the theorem bounds the gap at each size, not how fast a "
                 "mean gap shrinks where that bound is vacuous, so an `advisory` row never "
                 "fails the run, takes no share of the false-alarm budget and is not counted "
                 "among the rows with power"),
    ("known-failure", "a printed statement that an erratum refutes, reproduced by this run "
                      "and never failing it; a user's algorithm that breaks the statement "
                      "significantly more often than the paper's algorithm does gets `FAIL` "
                      "on that row instead"),
    ("error", "the algorithm raised, exited or ran out of time on that row (validate exits "
              "4; the reason names the fault)"),
)


def verdict_list() -> str:
    """The verdicts and what each means, as a markdown list (:data:`VERDICTS`)."""
    return "\n".join(f"* `{verdict}`: {meaning}." for verdict, meaning in VERDICTS) + "\n"


#: Columns of a bound row; ``failure_probability`` is the probability the row's exact test
#: is at: the instance's ``delta``, or the variant's own where its statement fails with another.
COLUMNS = ("instance", "n", "variant", "trials", "delta", "failure_probability", "bound",
           "parameters", "max_gap", "gap_max", "violations", "tightness", "detectable_rate",
           "min_scale", "verdict", "reason")


#: Columns of an event row (``offcmab.validation.events``).
EVENT_COLUMNS = ("instance", "n", "trials", "delta", "failure_probability", "violations",
                 "allowed_violations", "detectable_rate", "p_value", "verdict", "erratum",
                 "reason")


def _table(rows: Sequence[dict[str, Any]], columns: Sequence[str] = COLUMNS) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        cells = [_number(row.get(column)).replace("|", "/") for column in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _per_id(rows: Sequence[dict[str, Any]]) -> list[str]:
    """One line per bound id: its rows by verdict and the algorithm checked."""
    verdicts = tuple(word for word, _ in VERDICTS)
    lines = ["| id | algorithm | " + " | ".join(verdicts) + " |",
             "|---|---|" + "---|" * len(verdicts)]
    for bound_id in dict.fromkeys(row["id"] for row in rows):
        mine = [row for row in rows if row["id"] == bound_id]
        counts = [sum(row["verdict"] == v for row in mine) for v in verdicts]
        algorithm = mine[0].get("algorithm") or "—"
        lines.append(f"| {bound_id} | `{algorithm}` | " + " | ".join(map(str, counts)) + " |")
    return lines


def _algorithm(algorithm: dict[str, Any] | None) -> list[str]:
    """The line naming a user's algorithm checked in place of the reference one."""
    if not algorithm:
        return []
    where = algorithm.get("file") or algorithm.get("module") or "this process"
    digest = f", sha256 `{algorithm['sha256']}`" if algorithm.get("sha256") else ""
    return [f"Algorithm checked: `{algorithm.get('function')}` from `{where}`{digest} "
            "(in place of the reference algorithm).", ""]


def _outside(theorems: Sequence[dict[str, Any]]) -> list[str]:
    """The lines naming each theorem of one's own the run checked, and where it is defined."""
    lines = []
    for theorem in theorems:
        where = theorem.get("path") or theorem.get("module") or "this process"
        digest = f", sha256 `{theorem['sha256']}`" if theorem.get("sha256") else ""
        lines.append(f"Theorem `{theorem['id']}` from `{where}`{digest} (outside the "
                     "package).")
    return [*lines, ""] if lines else []


def headline(power: dict[str, Any]) -> str:
    """``F of R controls run were flagged; U more ...``: the power in one sentence."""
    ran = sum(entry["rows"] > 0 for entry in power["table"])
    text = f"{power['flagged']} of {ran} controls run were flagged."
    skipped = power["controls"] - ran
    if skipped:
        text += (f" {skipped} more have no row that could flag them in this profile "
                 "(see No power).")
    return text


def power_lines(power: dict[str, Any]) -> list[str]:
    """The power table: each control, the rows that flagged it, and why some have none."""
    lines = ["## Power: negative controls", "",
             f"**{headline(power)}** Each control is "
             "its bound id's reference algorithm with one expression broken, run on the trap "
             "instances with the reference's datasets and judged by the same rows at the same "
             "level; it never changes the exit code 1.", "",
             "| control | id | broken | rows | flagged by | flagged |",
             "|---|---|---|---|---|---|"]
    for entry in power["table"]:
        flagged_by = ", ".join(entry["flagged_by"]) or "—"
        lines.append(f"| {entry['control']} | {entry['id']} | {entry['broken']} | "
                     f"{entry['rows']} | {flagged_by} | {'yes' if entry['flagged'] else 'no'} |")
    unflagged = [entry for entry in power["table"] if not entry["flagged"]]
    if unflagged:
        lines += ["", "### No power", "", "| control | id | reason |", "|---|---|---|"]
        lines += [f"| {e['control']} | {e['id']} | {e['reason']} |" for e in unflagged]
    if power["missing"]:
        lines += ["", f"**Not flagged although a trap should catch them:** "
                      f"{', '.join(power['missing'])} (exit 3 with `--require-power`)."]
    lines += ["", f"Control trials took {power['trial_seconds']:.1f} s.", ""]
    return lines


def _unchecked(report: dict[str, Any]) -> list[str]:
    """The warning of a run in which no row could fail for a user's algorithm."""
    if not report.get("unchecked"):
        return []
    return ["**Nothing was checked: no row could fail for this algorithm (every row vacuous "
            "or n/a). Passing here says nothing about it.**", ""]


def markdown(report: dict[str, Any]) -> str:
    """The human summary."""
    rows = report["rows"]
    summary = report["summary"]
    lines = [
        "# offcmab validate",
        "",
        f"Profile `{report['profile']}` (at least {report['trials']} trials per instance and "
        "n, more where a row has power), "
        f"seed {report['seed']}, bound scale {report['bound_scale']:g}, "
        f"commit `{report.get('git_commit') or 'unknown'}`.",
        "",
        *_algorithm(report.get("algorithm")),
        *_outside(report.get("provenance", {}).get("theorems") or ()),
        f"**{summary['power']} rows with power ({summary['pass']} pass, {summary['FAIL']} "
        f"fail), {summary['vacuous']} vacuous, {summary['n/a']} n/a, "
        f"{summary['note']} note, {summary.get('advisory', 0)} advisory, "
        f"{summary.get('known-failure', 0)} known-failure.**",
        "",
        "A row is `vacuous` when its bound is at least `max_gap`, the largest gap its "
        "instance allows (exact over the feasible actions, or a proven upper bound: the "
        "row's `max_gap_source` says which): such a bound cannot be exceeded, so the row "
        "has no power and is not counted as a pass.",
        "",
        "False alarms: a correct algorithm is flagged with probability at most "
        f"{report['false_alarm_budget']:g} over the whole run. The budget is split equally "
        f"over the {report['tested_rows']} rows with power (Bonferroni, "
        f"{report['row_level']:.3g} each): an upper-bound row "
        "fails when the exact binomial tail P(Binomial(trials, failure_probability) >= "
        "violations) falls below its share, where `failure_probability` is the probability "
        "with which its bound may fail (`delta`, or the variant's own where its statement "
        "fails with another); a lower-bound row fails when Hoeffding's tail "
        "for an algorithm's mean risk below the bound does. Trials per (instance, n) are "
        "sized so that each upper-bound row with power flags an exceedance probability of "
        f"{report['detect']:g} times its `failure_probability` with probability 0.9 (at most "
        f"{report['max_trials']} "
        "trials; a row that cannot says so); `detectable_rate` is the smallest exceedance "
        "probability it flags with probability 0.9. `tightness` is the empirical "
        "(1 - failure_probability)-quantile of the gap over the bound; `parameters` the "
        "values of the bound's symbols; `min_scale` the smallest "
        "`--bound-scale` that would still pass. "
        "A `slope` row fits the log-log slope of CLCB's risk on the lower-bound pair and "
        "accepts -1/2 within z standard errors (normal approximation, z at the row level) "
        "plus 1e-9 for rounding. A `rate` row, on each instance whose bound rows cannot "
        "fail (vacuous or n/a), is `advisory`: it reports the subject as slower than the "
        "proven order (`slower`) when the mean gap (floored, `floor`) at the largest n "
        "exceeds what the bound's order and logarithmic factor allow from every smaller n, "
        "each by more than z delta-method standard errors (z at the row level), and never "
        "fails the run, since the theorem does not say how fast a mean gap shrinks where "
        "its bound is vacuous. An `identification` row, where "
        "a bound lies below the instance's smallest positive gap, counts the trials whose "
        "action is not optimal and fails when the exact binomial tail "
        "P(Binomial(trials, failure_probability) >= violations) falls below the row level.",
        "",
        *_unchecked(report),
        "Event rows (ids `event-...`) check the high-probability events the proofs rest on "
        "(confidence intervals covering their means, the oracles' promises) with the "
        "algorithm's own statistics: a row fails when the exact binomial tail "
        "P(Binomial(trials, failure_probability) >= violations) falls below the row level; "
        "`detectable_rate` is the event-failure rate it flags with probability 0.9. A "
        "`known-failure` row checks a printed statement that an erratum refutes; its "
        "corrected statement is a row of its own.",
        "",
        "Verdicts:",
        "",
        verdict_list(),
        *_per_id(rows),
        "",
    ]
    lines += coverage_lines(report)
    if "power" in report:
        lines += power_lines(report["power"])
    lines += fault_lines(report)
    failing = [row for row in rows if row["verdict"] == "FAIL"]
    if failing:
        lines += ["## Failing rows", "", *_table(failing), ""]
    for bound_id in dict.fromkeys(row["id"] for row in rows):
        mine = [r for r in rows if r["id"] == bound_id]
        columns = EVENT_COLUMNS if mine[0].get("kind") == "event" else COLUMNS
        lines += [f"## {bound_id}", "", *_table(mine, columns), ""]
    timings = report["timings"]
    lines += [f"Wall time {timings['wall_seconds']:.1f} s for {timings['trials_run']} trials.",
              ""]
    return "\n".join(lines)


def fault_lines(report: dict[str, Any]) -> list[str]:
    """What went wrong with the algorithm itself: its faults (``error`` rows, exit 4), its
    irreproducible results, and where its output went."""
    lines: list[str] = []
    errors = report.get("errors") or {}
    if errors:
        lines += ["## Errors: the algorithm failed to run", "",
                  "These bound ids were not checked: the algorithm raised, exited, hung or "
                  "wrote into its input (`validate` exits 4).", ""]
        lines += [f"- {bound_id}: {message}" for bound_id, message in errors.items()] + [""]
    unstable = report.get("nondeterministic") or {}
    if unstable:
        lines += ["## Not reproducible", ""]
        lines += [f"- {bound_id}: the first trial gave another result when repeated "
                  f"({text})" for bound_id, text in unstable.items()] + [""]
    if report.get("algorithm_log"):
        lines += [f"What the algorithm printed is in `{report['algorithm_log']}`.", ""]
    return lines


def write_markdown(report: dict[str, Any], path: Path) -> None:
    """``report.md``."""
    atomic_write_text(path, markdown(report))
