r"""``offcmab calibrate --runs auto``: run until the budget is confirmed or refuted.

The plan
--------
Before the first run the plan is fixed from the stated budget :math:`b` and the level
:data:`~offcmab.validation.calibration.LEVEL` (:math:`\alpha = 1 - \text{LEVEL}`): at most
:math:`N` runs, :math:`N` = :func:`~offcmab.validation.calibration.runs_to_confirm` (the
fewest runs whose Clopper-Pearson upper limit with no flagged run is at most :math:`b`),
and a refuting count :math:`r`, the smallest count with
:math:`P(\mathrm{Bin}(N, b) \ge r) < \alpha/2`.  Runs are made in the order of their seeds
and counted as they finish:

* **refuted** as soon as :math:`r` runs are flagged;
* **confirmed** when all :math:`N` runs are made and none is flagged;
* **undecided** otherwise: :math:`N` runs with between 1 and :math:`r-1` flagged, or a
  calibration stopped earlier (``--max-runs``, Ctrl-C), with its counts.

Both error probabilities are exact, although the count is looked at after every batch:
the count only grows, so "``r`` flagged within the first :math:`n \le N` runs" is the event
"at least ``r`` flagged among :math:`N`", whose probability at a true rate :math:`p \le b`
is below :math:`\alpha/2`; and at a true rate :math:`p \ge b`, confirmation needs :math:`N`
clean runs, probability :math:`(1-p)^N \le (1-b)^N \le \alpha/2`.  The per-theorem verdicts
read the exact interval of each theorem's count at the end against its share of the budget
(:func:`~offcmab.validation.calibration.estimate`); they are not corrected for multiplicity.

The folder
----------
Every finished run is appended to ``runs.jsonl`` in the calibration folder (``--out``): one
checksummed JSON line each, after a header line naming what is calibrated (the line format of
:mod:`offcmab.validation.runner.store`), so a calibration that is stopped loses only the
runs in flight.  Running the same command again resumes it: the runs on file are kept and
only the others are made.  The folder is locked while a calibration writes in it
(:func:`~offcmab.validation.runner.folder.folder_lock`); a ``runs.jsonl`` written with
other options, or a ``runs.jsonl`` or ``calibration.json`` that is not a calibration's, is
refused (exit 2) and never replaced.  Lines that do not check out (cut short, edited) are
moved to ``runs.dropped.jsonl`` and their runs made again.  The result is written to
``calibration.json`` when the calibration stops.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from offcmab.reference.errors import InputError
from offcmab.validation.calibration import (
    CONFIRMED,
    EXCEEDS,
    LEVEL,
    Calibration,
    Estimate,
    RunOutcome,
    progress_bar,
    run_all,
    run_configs,
    run_seeds,
    runs_to_confirm,
    summary,
)
from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET, Instance, Profile
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.parts.verdict import flag_threshold
from offcmab.validation.runner.folder import (
    atomic_write,
    atomic_write_text,
    check_output_folder,
    folder_lock,
    named,
)
from offcmab.validation.runner.pool import worker_pool
from offcmab.validation.runner.store import checksum, header_line, instance_digest, mismatch, sealed
from offcmab.validation.runner.sweep import RunConfig, selected
from offcmab.validation.theorems import index as package_index

#: The decisions of an automatic calibration.
REFUTED, UNDECIDED = "refuted", "undecided"

#: Files of the calibration folder.
LOG_NAME, DROPPED_NAME, RESULT_NAME = "runs.jsonl", "runs.dropped.jsonl", "calibration.json"

#: Version of the folder's line format.
FORMAT = 1

#: Runs handed to the workers at once, per job: the count is looked at between batches
#: (after every run when they run serially).
BATCH_PER_JOB = 4


@dataclass(frozen=True)
class Plan:
    """At most ``runs`` runs; refuted at ``refuting`` flagged runs (module docstring)."""

    budget: float
    runs: int
    refuting: int


def plan(budget: float, level: float = LEVEL) -> Plan:
    """The plan of a calibration against ``budget``: :math:`N` and :math:`r` of the module
    docstring."""
    runs = runs_to_confirm(budget, level)
    # the first r with P(Bin(N, b) >= r) below alpha/2
    refuting = int(flag_threshold([runs], budget, (1.0 - level) / 2.0)[0])
    return Plan(budget, runs, refuting)


def decision(entry: Estimate) -> str:
    """An estimate's verdict in the words of an automatic calibration."""
    return {CONFIRMED: CONFIRMED, EXCEEDS: REFUTED}.get(entry.verdict, UNDECIDED)


def _outcome_fields(index: int, outcome: RunOutcome) -> dict[str, Any]:
    return {"run": index, "seed": outcome.seed, "fail_rows": outcome.fail_rows,
            "flagged": list(outcome.flagged), "shares": outcome.shares,
            "budget": outcome.budget}


def _outcome(data: dict[str, Any], seeds: Sequence[int], ids: Sequence[str]
             ) -> tuple[int, RunOutcome] | None:
    """The run of a log line, or ``None`` when the line does not check out."""
    fields = {key: value for key, value in data.items() if key != "check"}
    try:
        if data.get("check") != checksum(fields):
            return None
        index, seed = fields["run"], fields["seed"]
        if not isinstance(index, int) or not 0 <= index < len(seeds) or seed != seeds[index]:
            return None
        shares = {str(key): float(value) for key, value in fields["shares"].items()}
        if set(shares) != set(ids) or not set(fields["flagged"]) <= set(ids):
            return None
        return index, RunOutcome(seed, int(fields["fail_rows"]),
                                 tuple(str(name) for name in fields["flagged"]), shares,
                                 float(fields["budget"]))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


class RunLog:
    """The calibration folder's ``runs.jsonl``: checked, resumed, appended (module docstring)."""

    def __init__(self, folder: Path, header: dict[str, Any], seeds: Sequence[int],
                 ids: Sequence[str]) -> None:
        self.path = folder / LOG_NAME
        self.found: dict[int, RunOutcome] = {}
        if self.path.exists() and self.path.stat().st_size:
            self._resume(header, seeds, ids)
        else:
            for name in (RESULT_NAME, DROPPED_NAME):  # a new calibration writes them
                if (folder / name).exists():
                    raise InputError("out", f"{folder} already holds {name} without the "
                                     f"{LOG_NAME} of its calibration; choose another --out")
            atomic_write(self.path, lambda temporary: temporary.write_text(
                header_line(header) + "\n", encoding="utf-8"))
        self._file: IO[str] = named(self.path, self.path.open, "a", encoding="utf-8")

    def _resume(self, header: dict[str, Any], seeds: Sequence[int], ids: Sequence[str]) -> None:
        lines = named(self.path, self.path.read_bytes).split(b"\n")
        complete, tail = lines[:-1], lines[-1]
        old = _header(complete[0]) if complete else None
        if old is None or old.get("tool") != header["tool"]:
            raise InputError("out", f"{self.path} is not the run log of a calibration; it is "
                             "never replaced: choose another --out")
        problem = mismatch(old, header)
        if problem is not None:
            raise InputError("out", f"{self.path} {problem}; rerun with the options that "
                             "wrote it to resume, or choose another --out")
        kept, dropped = [], [raw for raw in [tail] if raw]
        for raw in complete[1:]:
            try:
                got = _outcome(json.loads(raw.decode("utf-8")), seeds, ids)
            except (ValueError, UnicodeDecodeError):
                got = None
            if got is None or got[0] in self.found:
                dropped.append(raw)
            else:
                self.found[got[0]] = got[1]
                kept.append(raw)
        if dropped:
            aside = self.path.with_name(DROPPED_NAME)
            before = named(aside, aside.read_bytes) if aside.exists() else b""
            atomic_write(aside, lambda temporary: temporary.write_bytes(
                before + b"".join(raw + b"\n" for raw in dropped)))
            atomic_write(self.path, lambda temporary: temporary.write_bytes(
                b"".join(raw + b"\n" for raw in [complete[0], *kept])))
            sys.stderr.write(f"offcmab calibrate: resume: {self.path}: dropped "
                             f"{len(dropped)} line(s) that do not check out (saved in "
                             f"{aside}); their runs are made again\n")

    def append(self, index: int, outcome: RunOutcome) -> None:
        """Write one finished run; it is on file when this returns."""
        named(self.path, self._file.write, sealed(_outcome_fields(index, outcome)) + "\n")
        named(self.path, self._file.flush)
        self.found[index] = outcome

    def close(self) -> None:
        named(self.path, self._file.close)


def _header(raw: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or set(data) != {"header", "check"}:
        return None
    header = data["header"]
    if not isinstance(header, dict) or data["check"] != checksum({"header": header}):
        return None
    return header


@dataclass(frozen=True)
class AutoCalibration:
    """The result of an automatic calibration: the plan, the runs made, the decisions."""

    plan: Plan
    calibration: Calibration | None
    decision: str
    resumed: int
    seconds: float
    folder: Path

    def json(self) -> dict[str, Any]:
        """The result as JSON-able data (``offcmab calibrate --runs auto --json``)."""
        counted = self.calibration
        theorems = [] if counted is None else [
            entry.json() | {"decision": decision(entry)} for entry in counted.theorems]
        return {"tool": "offcmab calibrate", "mode": "auto", "level": LEVEL,
                "plan": {"budget": self.plan.budget, "runs": self.plan.runs,
                         "refuting_count": self.plan.refuting, "level": LEVEL},
                "decision": self.decision, "runs": 0 if counted is None else
                len(counted.outcomes), "resumed_runs": self.resumed,
                "seconds": self.seconds, "folder": str(self.folder),
                **({} if counted is None else {
                    key: value for key, value in counted.json().items()
                    if key in ("profile", "base_seed", "bound_scale", "overall",
                               "flagged_runs")}),
                "theorems": theorems}


def overall_decision(counted: Calibration | None, chosen: Plan) -> str:
    """The plan's decision on the runs made so far."""
    if counted is None:
        return UNDECIDED
    flagged, runs = counted.overall.failed, len(counted.outcomes)
    if flagged >= chosen.refuting:
        return REFUTED
    return CONFIRMED if runs >= chosen.runs and flagged == 0 else UNDECIDED


def calibrate_auto(theorems: Sequence[Theorem], profile: Profile, *, seed: int, folder: Path,
                   only: Sequence[str] = (), jobs: int = 1, backend: str | None = None,
                   scheduler: str | None = None, bound_scale: float = 1.0,
                   extra_instances: tuple[tuple[str, Instance], ...] = (),
                   max_runs: int | None = None, progress: bool = False) -> AutoCalibration:
    """Calibrate under the plan of the module docstring, the runs kept in ``folder``.

    ``max_runs`` stops after that many runs on file (resumed ones included), undecided
    unless the plan decided earlier.  The runs go to ``backend`` (as
    :func:`~offcmab.validation.calibration.calibrate`).
    """
    start = time.perf_counter()
    chosen = selected(theorems, only)
    ids = [theorem.id for theorem in chosen]
    planned = plan(FALSE_ALARM_BUDGET)
    limit = planned.runs if max_runs is None else min(max_runs, planned.runs)
    seeds = run_seeds(seed, planned.runs)
    configs = run_configs(theorems, profile, seeds, only, bound_scale, extra_instances)
    header = {"tool": "offcmab calibrate --runs auto", "format": FORMAT,
              "profile": profile.name, "seed": seed, "only": ids, "bound_scale": bound_scale,
              "budget": planned.budget, "runs": planned.runs,
              "instances": {bound_id: {instance.name: instance_digest(instance)
                                       for owner, instance in extra_instances
                                       if owner == bound_id} for bound_id in ids}}
    check_output_folder(folder, "out", overwrite=True)
    with folder_lock(folder, "out"):
        log = RunLog(folder, header, seeds, ids)
        try:
            resumed = len(log.found)
            _run_until_decided(log, configs, planned, limit, chosen, jobs, backend, scheduler,
                               progress, ids, (profile.name, seed, bound_scale))
        finally:
            log.close()
        result = _counted(log, ids, (profile.name, seed, bound_scale))
        found = AutoCalibration(planned, result, overall_decision(result, planned), resumed,
                                time.perf_counter() - start, folder)
        atomic_write_text(folder / RESULT_NAME, json.dumps(found.json(), indent=1) + "\n")
    return found


def _append(log: RunLog, batch: Sequence[int], position: int, outcome: RunOutcome) -> None:
    """Write the run at ``position`` of ``batch`` to the log."""
    log.append(batch[position], outcome)


def _counted(log: RunLog, ids: Sequence[str], run: tuple[str, int, float]
             ) -> Calibration | None:
    """The estimates of the runs on file (``run``: profile, base seed, bound scale)."""
    outcomes = [log.found[index] for index in sorted(log.found)]
    return summary(outcomes, ids, *run) if outcomes else None


def _run_until_decided(log: RunLog, configs: Sequence[RunConfig], planned: Plan, limit: int,
                       chosen: Sequence[Theorem], jobs: int, backend: str | None,
                       scheduler: str | None, progress: bool, ids: Sequence[str],
                       run: tuple[str, int, float]) -> None:
    """Make runs in batches, in the order of their seeds, until the plan decides or
    ``limit`` runs are on file."""
    bar = progress_bar(limit, progress, initial=min(len(log.found), limit))
    try:
        with worker_pool(backend or ("serial" if jobs == 1 else "processes"), jobs, scheduler,
                         chosen, index=package_index) as pool:
            while len(log.found) < limit and \
                    overall_decision(_counted(log, ids, run), planned) == UNDECIDED:
                todo = [index for index in range(planned.runs) if index not in log.found]
                size = 1 if pool.backend == "serial" else BATCH_PER_JOB * pool.jobs
                batch = todo[:min(size, limit - len(log.found))]
                run_all(pool, [configs[index] for index in batch], bar,
                        functools.partial(_append, log, batch))
    finally:
        bar.close()
