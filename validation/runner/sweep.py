r"""Plan a validation run, execute the missing trials, and aggregate rows.

The plan is pure data: for every selected bound id, the scenario's instances under
the profile, each over its grid of ``n``, each with ``trials`` seeded trials.  The
run writes each finished trial to the durable log, then reads every trial of the
plan back from the log to build rows, so a resumed run and a fresh run build
their rows from identical records.
"""

from __future__ import annotations

import importlib.metadata
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tqdm import tqdm

from offcmab.validation import sandbox
from offcmab.validation.events import collect as events
from offcmab.validation.events.core import KNOWN, TRIALS, EventResult, can_fail
from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET, Instance, Profile, TrialKey
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner import analysis
from offcmab.validation.runner import power as controls
from offcmab.validation.runner.backends import Finished, Index, Settings, Task, execute
from offcmab.validation.runner.coverage import hypothesis_coverage, hypothesis_gaps
from offcmab.validation.runner.event_pool import EventBatch, run_batches
from offcmab.validation.runner.plan import (
    Plan,
    build_cells,
    make_rows,
    plan_rows,
    profile_instances,
    size_trials,
)
from offcmab.validation.runner.store import (
    LOG_FORMAT,
    LOG_NAME,
    TrialLog,
    TrialRecord,
    instance_digest,
)
from offcmab.validation.subjects import REFERENCE


class RunInterrupted(Exception):
    """Raised by the ``stop_after`` test hook once that many trials are written."""


@dataclass(frozen=True)
class RunConfig:
    r"""Everything that defines a run (the CLI builds it from the arguments).

    ``stop_after`` is a test hook: stop after writing that many new trials, as if
    the run had been killed, to test ``--resume``.  ``subject`` names the algorithm
    run in place of the reference one (a spec of :mod:`offcmab.validation.subjects`).  ``power``
    also runs the negative controls on the trap instances (:mod:`offcmab.validation.runner.power`).
    """

    profile: Profile
    seed: int
    out: Path
    only: tuple[str, ...] = ()
    jobs: int = 1
    backend: str = "serial"
    scheduler: str | None = None
    resume: bool = False
    #: Resume even when the log's header does not match this run (``--resume-anyway``).
    resume_anyway: bool = False
    bound_scale: float = 1.0
    progress: bool = False
    stop_after: int | None = None
    subject: str = "reference"
    power: bool = False
    #: (bound id, instance) pairs run beside the scenarios' own (corpus, saved instances).
    extra_instances: tuple[tuple[str, Instance], ...] = ()
    #: Run only ``extra_instances`` (``validate --instances``), not the scenarios' own.
    replay_only: bool = False
    #: Seconds each call of a user's code may take (``--trial-timeout``; ``None``: no limit).
    trial_timeout: float | None = sandbox.DEFAULT_TIMEOUT
    #: Where the user's code's output goes (``algorithm.log``); ``None``: not captured.
    algorithm_log: Path | None = None
    #: Let the dask backend log (``--verbose``).
    verbose: bool = False
    #: Where worker processes find the records the index keeps (the package's own:
    #: :func:`offcmab.validation.theorems.index`); every other record travels pickled.
    index: Index | None = None


@dataclass
class Trials:
    """Every trial record of a run, and what went wrong with its subject, per bound id.

    ``faults`` holds the first fault of the run's subject on a bound id (its trials then
    stop); ``unstable`` the first trial whose repeat gave another result.
    """

    records: dict[str, TrialRecord]
    faults: dict[str, str] = field(default_factory=dict)
    unstable: dict[str, str] = field(default_factory=dict)


def selected(theorems: Sequence[Theorem], only: Sequence[str]) -> list[Theorem]:
    """The records of ``only`` (in ``theorems``' order), or all; ``ValueError`` for an
    unknown id."""
    known = {theorem.id for theorem in theorems}
    unknown = [bound_id for bound_id in only if bound_id not in known]
    if unknown:
        raise ValueError(f"only: unknown bound id {unknown[0]!r}; known: "
                         f"{', '.join(theorem.id for theorem in theorems)}")
    return [theorem for theorem in theorems if not only or theorem.id in only]


def plan_run(config: RunConfig, theorems: Sequence[Theorem]) -> Plan:
    """List each selected theorem's instances, plan its rows, size and list its trials."""
    plan = Plan()
    for theorem in selected(theorems, config.only):
        bound_id = theorem.id
        plan.theorems[bound_id] = theorem
        instances = ([] if config.replay_only
                     else profile_instances(theorem, config.profile, config.seed))
        instances += [instance for owner, instance in config.extra_instances if owner == bound_id]
        plan.instances[bound_id] = instances
    plan_rows(plan, config.bound_scale)
    # Event rows share the budget: those that can fail are counted before trials are sized
    # (rows a subject turns n/a, known only once run, are counted too: conservative; an
    # erratum row fails a subject that breaks the printed statement more often than the
    # printed algorithm does, so it counts unless that algorithm always breaks it).
    plan.power_rows += sum(can_fail(case) for case in
                           events.all_cases(list(plan.theorems.values()),
                                            config.profile.event_base.name, config.subject))
    size_trials(plan, config.profile)
    for bound_id, instances in plan.instances.items():
        for instance in instances:
            for n in instance.n_grid:
                for trial in range(plan.trials[(bound_id, instance.name, n)]):
                    key = TrialKey(bound_id, instance.name, n, trial, config.subject)
                    plan.tasks.append(Task(instance, key, config.seed))
    return plan


def _progress(total: int, initial: int, enabled: bool) -> Any:
    return tqdm(total=total, initial=initial, unit="trial", desc="validate",
                disable=not (enabled and sys.stderr.isatty()), leave=False)


def run_trials(config: RunConfig, plan: Plan, header: dict[str, Any]) -> Trials:
    """Run every trial of the plan that the log does not hold yet; return all records.

    A trial whose subject faulted is not logged (a resumed run tries it again).
    """
    keys = {task.key.text(): task.key for task in plan.tasks}
    log = TrialLog(config.out / LOG_NAME, header, keys, config.resume, config.resume_anyway)
    todo = [task for task in plan.tasks if task.key.text() not in log.finished]
    bar = _progress(len(plan.tasks), len(plan.tasks) - len(todo), config.progress)
    written = 0
    faults: dict[str, str] = {}
    unstable: dict[str, str] = {}

    def done(finished: Finished) -> None:
        nonlocal written
        if finished.key.subject == config.subject:
            if finished.fault:
                faults.setdefault(finished.key.bound_id, finished.fault)
            if finished.unstable:
                unstable.setdefault(finished.key.bound_id, finished.unstable)
        if finished.record is None:
            return
        log.append(finished.record)
        bar.update(1)
        written += 1
        if config.stop_after is not None and written >= config.stop_after:
            raise RunInterrupted(f"stopped after {written} trials (test hook)")

    sandbox.set_timeout(config.trial_timeout)
    settings = Settings(config.trial_timeout,
                        None if config.algorithm_log is None else str(config.algorithm_log),
                        config.verbose)
    try:
        with sandbox.stop_signals(), sandbox.captured(config.algorithm_log):
            execute(todo, done, config.backend, config.jobs, config.scheduler,
                    list(plan.theorems.values()), settings, config.index)
    finally:
        bar.close()
        log.close()
    return Trials(log.finished, faults, unstable)


def run_events(config: RunConfig, theorems: Sequence[Theorem],
               faults: dict[str, str]) -> list[EventResult]:
    """The event results of ``theorems`` whose subject has not faulted; a fault of the
    subject inside the events is added to ``faults`` (found theorem by theorem)."""
    def attempt(chosen: Sequence[Theorem]) -> list[EventResult]:
        sandbox.begin((config.seed,))
        with sandbox.stop_signals(), sandbox.captured(config.algorithm_log):
            return events.run(chosen, config.profile.event_base.name, config.seed,
                              config.subject)

    sandbox.set_timeout(config.trial_timeout)
    healthy = [theorem for theorem in theorems if theorem.id not in faults]
    try:
        return attempt(healthy)
    except sandbox.AlgorithmFault:
        for theorem in healthy:
            try:
                attempt([theorem])
            except sandbox.AlgorithmFault as fault:
                faults[theorem.id] = f"{fault} (event rows)"
    return attempt([theorem for theorem in theorems if theorem.id not in faults])


def run_own_events(config: RunConfig, plan: Plan, power: bool) -> list[list[EventResult]]:
    """The reference's event results, then (with ``power``) each control's
    (:func:`controls.event_batches`), on the run's worker processes: only the package's
    own code runs there (:mod:`~offcmab.validation.runner.event_pool`)."""
    profile = config.profile.event_base
    theorems = list(plan.theorems.values())
    batches = [EventBatch(profile.name, REFERENCE,
                          tuple(events.all_cases(theorems, profile.name)), TRIALS[profile.name])]
    if power:
        batches += controls.event_batches(plan, profile)
    if config.jobs > 1:  # the run's pools share one resource tracker, started with the
        # first pool (this one): it writes where the algorithm's output goes
        sandbox.start_resource_tracker(None if config.algorithm_log is None
                                       else str(config.algorithm_log))
    return run_batches(batches, config.seed, config.jobs, theorems,
                       Settings(config.trial_timeout, None, config.verbose), config.index)


def run_validation(config: RunConfig, theorems: Sequence[Theorem],
                   describe: Callable[[], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Plan, run and analyse the ``theorems`` selected by ``config``; return the report."""
    start = time.perf_counter()
    plan = plan_run(config, theorems)
    power = config.power and config.subject == "reference"
    if power:
        plan.tasks.extend(controls.plan_tasks(plan, config.seed, config.profile.event_base))
    trials = run_trials(config, plan, log_header(config, plan, power))
    records, faults = trials.records, trials.faults
    event_start = time.perf_counter()
    control_events: list[list[EventResult]] | None = None
    if config.subject == REFERENCE and config.backend == "processes" and config.jobs > 1:
        event_results, *control_events = run_own_events(config, plan, power)
    else:
        event_results = run_events(config, list(plan.theorems.values()), faults)
    event_seconds = time.perf_counter() - event_start
    healthy = replace(plan, instances={bound_id: instances for bound_id, instances
                                       in plan.instances.items() if bound_id not in faults})
    cells = build_cells(healthy, records, config.subject)
    rows = make_rows(healthy, cells, config.profile.detect, config.subject)
    rows += events.rows([result for result in event_results
                         if not set(result.case.bound_ids) & set(faults)], plan.level)
    rows += [analysis.error_row(bound_id, message, config.subject)
             for bound_id, message in faults.items()]
    rows += [analysis.unstable_row(bound_id, text, config.subject)
             for bound_id, text in trials.unstable.items()]
    per_id: dict[str, float] = {}
    for task in plan.tasks:
        if task.key.subject != config.subject:
            continue  # the controls' trials are timed in the power section
        record = records.get(task.key.text())  # subject is part of the key text
        seconds = 0.0 if record is None else record.seconds
        per_id[task.key.bound_id] = per_id.get(task.key.bound_id, 0.0) + seconds
    coverage = hypothesis_coverage(plan.theorems, plan.instances, rows)
    report: dict[str, Any] = {
        "tool": "offcmab validate",
        "profile": config.profile.name, "trials": config.profile.trials,
        "seed": config.seed, "bound_scale": config.bound_scale,
        "backend": config.backend, "jobs": config.jobs, "subject": config.subject,
        "false_alarm_budget": FALSE_ALARM_BUDGET, "tested_rows": plan.power_rows,
        "row_level": plan.level, "detect": config.profile.detect,
        "max_trials": config.profile.max_trials,
        "summary": summarize(rows),
        "unchecked": unchecked(rows, config.subject),
        "instances": {bound_id: [_instance_json(i) for i in instances]
                      for bound_id, instances in plan.instances.items()},
        "rows": rows,
        "hypothesis_coverage": coverage, "hypothesis_gaps": hypothesis_gaps(coverage),
        "errors": dict(faults), "nondeterministic": dict(trials.unstable),
        "algorithm_log": None if config.algorithm_log is None else str(config.algorithm_log),
        "timings": {"wall_seconds": time.perf_counter() - start,
                    "trial_seconds_by_id": per_id, "trials_run": len(plan.tasks),
                    "event_seconds": event_seconds},
    }
    if power:
        report["power"] = controls.power_report(plan, records, config.profile.event_base,
                                                config.seed, control_events)
    if describe is not None:
        report |= describe()
    return report


def log_header(config: RunConfig, plan: Plan, power: bool) -> dict[str, Any]:
    """What the trial log's first line records: all that decides which trials a run draws
    and what they measure (``--resume`` refuses a log whose header differs)."""
    return {"format": LOG_FORMAT, "version": package_versions().get("offcmab", "unknown"),
            "seed": config.seed, "profile": config.profile.name,
            "ids": list(plan.theorems), "subject": config.subject, "power": power,
            "instances": {bound_id: {instance.name: instance_digest(instance)
                                     for instance in instances}
                          for bound_id, instances in plan.instances.items()}}


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Count rows by verdict, and ``power``: the rows that could fail (pass or FAIL)."""
    counts = dict.fromkeys((*analysis.VERDICTS, KNOWN), 0)
    for row in rows:
        counts[row["verdict"]] += 1
    counts["power"] = counts[analysis.PASS] + counts[analysis.FAIL]
    return counts


def unchecked(rows: Sequence[dict[str, Any]], subject: str) -> bool:
    """True when a subject other than the reference met no row that could fail.

    Every row was ``vacuous``, ``n/a``, ``note`` or ``known-failure``: the run says
    nothing about the subject, so a pass would be a pass on nothing.
    """
    power = sum(row["verdict"] in (analysis.PASS, analysis.FAIL) for row in rows)
    return subject != "reference" and power == 0


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
