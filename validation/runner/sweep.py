r"""Plan a validation run, execute the missing trials, and aggregate rows.

The plan is pure data: for every selected bound id, the scenario's instances under
the profile, each over its grid of ``n``, each with ``trials`` seeded trials.  The
run writes each finished trial to the durable log, then reads every trial of the
plan back from the log to build rows, so a resumed run and a fresh run build
their rows from identical records.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from offcmab.validation import events
from offcmab.validation.runner import analysis, verdict
from offcmab.validation.runner.backends import Task, execute, load_scenario
from offcmab.validation.runner.scenario import Scenario
from offcmab.validation.runner.spec import FALSE_ALARM_BUDGET, Instance, Profile, TrialKey
from offcmab.validation.runner.store import LOG_NAME, TrialLog, TrialRecord


class RunInterrupted(Exception):
    """Raised by the ``stop_after`` test hook once that many trials are written."""


@dataclass(frozen=True)
class RunConfig:
    r"""Everything that defines a run (the CLI builds it from the arguments).

    ``stop_after`` is a test hook: stop after writing that many new trials, as if
    the run had been killed, to test ``--resume``.  ``subject`` names the algorithm
    run in place of the reference one (a spec of :mod:`offcmab.validation.subjects`).  ``power``
    also runs the negative controls on the trap instances (:mod:`offcmab.validation.power`).
    """

    profile: Profile
    seed: int
    out: Path
    only: tuple[str, ...] = ()
    jobs: int = 1
    backend: str = "serial"
    scheduler: str | None = None
    resume: bool = False
    bound_scale: float = 1.0
    progress: bool = False
    stop_after: int | None = None
    subject: str = "reference"
    power: bool = False
    #: (bound id, instance) pairs run beside the scenarios' own (corpus, saved instances).
    extra_instances: tuple[tuple[str, Instance], ...] = ()
    #: Run only ``extra_instances`` (``validate --instances``), not the scenarios' own.
    replay_only: bool = False


CellKey = tuple[str, str, int]  # (bound id, instance name, n)


@dataclass
class Plan:
    """The scenarios, instances, row plans and tasks of a run, and the ids not planned.

    ``power_rows`` counts the rows that can fail; the false-alarm budget is split
    equally over them (``level``).  A module that adds rows with power to a run must
    count them here before :func:`size_trials` runs.
    """

    scenarios: dict[str, Scenario] = field(default_factory=dict)
    instances: dict[str, list[Instance]] = field(default_factory=dict)
    modules: dict[str, str] = field(default_factory=dict)
    rows: dict[CellKey, list[analysis.RowPlan]] = field(default_factory=dict)
    trials: dict[CellKey, int] = field(default_factory=dict)
    tasks: list[Task] = field(default_factory=list)
    unavailable: dict[str, str] = field(default_factory=dict)
    power_rows: int = 0

    @property
    def level(self) -> float:
        """Each row's share of the budget (Bonferroni over the rows with power)."""
        return FALSE_ALARM_BUDGET / max(self.power_rows, 1)


def plan_rows(plan: Plan, scale: float) -> None:
    """Decide every row before any trial runs: its bound, vacuity and power."""
    for bound_id, instances in plan.instances.items():
        scenario = plan.scenarios[bound_id]
        for instance in instances:
            for n in instance.n_grid:
                if scenario.kind == "lower":
                    lower = cast(analysis.LowerScenario, scenario)
                    rows = analysis.plan_lower(lower, instance, n, scale)
                else:
                    rows = analysis.plan_upper(scenario, instance, n, scale)
                plan.rows[(bound_id, instance.name, n)] = rows
                plan.power_rows += sum(row.power for row in rows)
            plan.power_rows += scenario.kind == "lower"  # the slope row


def size_trials(plan: Plan, profile: Profile) -> None:
    r"""Trials per (instance, n): enough for every upper row with power to detect its target.

    The target is ``profile.detect`` times the row's failure probability, flagged with
    probability 0.9 at the row's share of the budget; at most ``profile.max_trials``.
    """
    level = plan.level
    for key, rows in plan.rows.items():
        trials = profile.trials
        if plan.scenarios[key[0]].kind == "upper":
            delta = next(i for i in plan.instances[key[0]] if i.name == key[1]).delta
            for row in rows:
                if not row.power:
                    continue
                failure = analysis.upper_failure(row, delta)
                needed = verdict.trials_to_detect(failure, level,
                                                  min(profile.detect * failure, 1.0),
                                                  profile.trials, profile.max_trials)
                trials = max(trials, profile.max_trials if needed is None else needed)
        plan.trials[key] = trials


def plan_run(config: RunConfig, registry: Mapping[str, str]) -> Plan:
    """Import each selected scenario, plan its rows, size and list its trials.

    A scenario module that cannot be imported becomes an ``n/a`` row.
    """
    plan = Plan()
    for bound_id in config.only or tuple(registry):
        module = registry[bound_id]
        try:
            scenario = load_scenario(module, bound_id)
        except (ImportError, KeyError) as error:
            plan.unavailable[bound_id] = f"scenario not available in this build ({error})"
            continue
        plan.scenarios[bound_id] = scenario
        plan.modules[bound_id] = module
        instances = [] if config.replay_only else scenario.instances(config.profile, config.seed)
        instances += [instance for owner, instance in config.extra_instances if owner == bound_id]
        plan.instances[bound_id] = instances
    plan_rows(plan, config.bound_scale)
    # Event rows share the budget: those that can fail are counted before trials are sized
    # (rows a subject turns n/a, known only once run, are counted too: conservative).
    plan.power_rows += sum(not case.erratum for case in
                           events.all_cases(config.profile.name, tuple(plan.scenarios),
                                            config.subject))
    size_trials(plan, config.profile)
    for bound_id, instances in plan.instances.items():
        for instance in instances:
            for n in instance.n_grid:
                for trial in range(plan.trials[(bound_id, instance.name, n)]):
                    key = TrialKey(bound_id, instance.name, n, trial, config.subject)
                    plan.tasks.append(Task(plan.modules[bound_id], instance, key, config.seed))
    return plan


def _progress(total: int, initial: int, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="trial", desc="validate",
                disable=not (enabled and sys.stderr.isatty()), leave=False)


def run_trials(config: RunConfig, plan: Plan, header: dict[str, Any]) -> dict[str, TrialRecord]:
    """Run every trial of the plan that the log does not hold yet; return all records."""
    log = TrialLog(config.out / LOG_NAME, header, config.resume)
    todo = [task for task in plan.tasks if task.key.text() not in log.finished]
    bar = _progress(len(plan.tasks), len(plan.tasks) - len(todo), config.progress)
    written = 0

    def done(record: TrialRecord) -> None:
        nonlocal written
        log.append(record)
        bar.update(1)
        written += 1
        if config.stop_after is not None and written >= config.stop_after:
            raise RunInterrupted(f"stopped after {written} trials (test hook)")

    try:
        execute(todo, done, config.backend, config.jobs, config.scheduler)
    finally:
        bar.close()
        log.close()
    return log.finished


def build_cells(plan: Plan, records: Mapping[str, TrialRecord],
                subject: str = "reference") -> dict[str, list[list[analysis.Cell]]]:
    """Cells per bound id, grouped per instance, in plan order."""
    cells: dict[str, list[list[analysis.Cell]]] = {}
    for bound_id, instances in plan.instances.items():
        cells[bound_id] = [
            [analysis.Cell.from_records(
                bound_id, instance, n,
                [records[TrialKey(bound_id, instance.name, n, t, subject).text()]
                 for t in range(plan.trials[(bound_id, instance.name, n)])])
             for n in instance.n_grid]
            for instance in instances
        ]
    return cells


def make_rows(plan: Plan, cells: Mapping[str, list[list[analysis.Cell]]], detect: float,
              subject: str = "reference") -> list[dict[str, Any]]:
    """Every row of the report at the plan's row level, in plan order.

    ``algorithm`` names the reference module, or the subject when one was substituted.
    """
    rows: list[dict[str, Any]] = []
    level = plan.level
    for bound_id, groups in cells.items():
        scenario = plan.scenarios[bound_id]
        mine: list[dict[str, Any]] = []
        for group in groups:
            for cell in group:
                planned = plan.rows[(bound_id, cell.instance.name, cell.n)]
                if scenario.kind == "lower":
                    lower = cast(analysis.LowerScenario, scenario)
                    mine.extend(analysis.lower_rows(cell, lower, planned, level))
                else:
                    mine.extend(analysis.upper_row(cell, row, level, detect) for row in planned)
            if scenario.kind == "lower":
                mine.append(analysis.slope_row(group, level))
        algorithm = scenario.algorithm if subject == "reference" else subject
        rows.extend(row | {"algorithm": algorithm} for row in mine)
    for bound_id, reason in plan.unavailable.items():
        rows.append({"id": bound_id, "instance": None, "n": None, "variant": None,
                     "trials": 0, "delta": None, "violations": None, "bound": None,
                     "gap_max": None, "tightness": None, "verdict": analysis.NA,
                     "row_level": 0.0, "reason": reason})
    return rows


def run_validation(config: RunConfig, registry: Mapping[str, str],
                   describe: Callable[[], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Plan, run and analyse; return the report (rows plus run metadata)."""
    start = time.perf_counter()
    plan = plan_run(config, registry)
    power = config.power and config.subject == "reference"
    if power:
        from offcmab.validation import power as controls

        plan.tasks.extend(controls.plan_tasks(plan, config.seed, config.profile))
    header = {"seed": config.seed, "profile": config.profile.name}
    records = run_trials(config, plan, header)
    cells = build_cells(plan, records, config.subject)
    rows = make_rows(plan, cells, config.profile.detect, config.subject)
    event_start = time.perf_counter()
    event_results = events.run(config.profile.name, config.seed, tuple(plan.scenarios),
                               config.subject)
    event_seconds = time.perf_counter() - event_start
    rows += events.rows(event_results, plan.level)
    per_id: dict[str, float] = {}
    for task in plan.tasks:
        if task.key.subject != config.subject:
            continue  # the controls' trials are timed in the power section
        seconds = records[task.key.text()].seconds  # subject is part of the key text
        per_id[task.key.bound_id] = per_id.get(task.key.bound_id, 0.0) + seconds
    report: dict[str, Any] = {
        "tool": "offcmab validate",
        "profile": config.profile.name, "trials": config.profile.trials,
        "seed": config.seed, "bound_scale": config.bound_scale,
        "backend": config.backend, "jobs": config.jobs, "subject": config.subject,
        "false_alarm_budget": FALSE_ALARM_BUDGET, "tested_rows": plan.power_rows,
        "row_level": plan.level, "detect": config.profile.detect,
        "max_trials": config.profile.max_trials,
        "summary": summarize(rows),
        "instances": {bound_id: [_instance_json(i) for i in instances]
                      for bound_id, instances in plan.instances.items()},
        "rows": rows,
        "timings": {"wall_seconds": time.perf_counter() - start,
                    "trial_seconds_by_id": per_id, "trials_run": len(plan.tasks),
                    "event_seconds": event_seconds},
    }
    if power:
        report["power"] = controls.power_report(plan, records, config.profile, config.seed)
    if describe is not None:
        report |= describe()
    return report


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Count rows by verdict, and ``power``: the rows that could fail (pass or FAIL)."""
    counts = dict.fromkeys((*analysis.VERDICTS, events.KNOWN), 0)
    for row in rows:
        counts[row["verdict"]] += 1
    counts["power"] = counts[analysis.PASS] + counts[analysis.FAIL]
    return counts


def _instance_json(instance: Instance) -> dict[str, Any]:
    return {"name": instance.name, "origin": instance.origin, "delta": instance.delta,
            "n_grid": list(instance.n_grid), "params": instance.params, "note": instance.note}


def package_versions() -> dict[str, str]:
    """Versions of the packages a run depends on (those installed)."""
    versions = {"python": sys.version.split()[0]}
    for name in ("offcmab", "numpy", "scipy", "sympy", "networkx", "hypothesis", "dask"):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return versions
