r"""The power of a validate run: can its rows tell a broken algorithm from the real one?

For every theorem, each negative control its record lists runs on the theorem's trap
instances (origin ``trap``, :mod:`offcmab.validation.scenarios.traps`) with the same
datasets as the reference (the subject is not part of a trial's seed), and its trials go
through exactly the rows the reference gets, at the same row level.  Where the record
says so (``controls_check_events``), each control also runs the theorem's event rows
(with the control as the subject).  A control is *flagged* when at least one of its rows
fails.

The full profile runs every control on every trap; the quick and default profiles skip
the trap trials of theorems whose trap rows cannot fail (``traps_vacuous``).

Controls never decide exit 1 (that means the real algorithm violated a bound); the
power table only reports.  ``--require-power`` turns an unflagged control into exit 3,
unless the record's ``no_power`` explains why no row of that theorem can flag it: the table
lists those under "no power" with the reason, and an unexpected miss as a regression.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from offcmab.validation.events import collect as events
from offcmab.validation.events.core import TRIALS, EventResult, run_cases
from offcmab.validation.parts.spec import Instance, Profile, TrialKey
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner import analysis
from offcmab.validation.runner.backends import Task
from offcmab.validation.runner.event_pool import EventBatch
from offcmab.validation.runner.plan import Plan, build_cells, make_rows
from offcmab.validation.runner.store import TrialRecord
from offcmab.validation.scenarios.traps import TRAP
from offcmab.validation.subjects import CONTROL, control_spec


def broken(control: Callable[..., Any]) -> str:
    """What a control breaks: the first line of its docstring."""
    return (control.__doc__ or "").strip().splitlines()[0]


def trap_instances(instances: Sequence[Instance]) -> list[Instance]:
    """The instances the controls run on."""
    return [instance for instance in instances if instance.origin == TRAP]


def runs(theorem: Theorem, profile: str) -> bool:
    """Whether ``profile`` runs the controls of ``theorem`` on its traps.

    The full profile runs every control on every trap; the others skip the traps of a
    theorem whose trap rows cannot fail (event rows still run).
    """
    return profile == "full" or not theorem.traps_vacuous


def control_trials(plan: Plan, profile: Profile) -> dict[tuple[str, str, int], int]:
    """Trials per trap cell for the controls: the profile's base count (10 or 20), at most
    the reference's.

    The reference's trials are sized to detect an exceedance rate of a few delta; a
    control on its trap exceeds the bound in (nearly) every trial, which the same exact
    binomial test flags from a handful of trials (all 10 of 10 at delta = 0.05 has tail
    1e-13), so its rows use the first trials of the reference's cell, paired.
    """
    return {(bound_id, instance.name, n): min(plan.trials[(bound_id, instance.name, n)],
                                              profile.trials)
            for bound_id, mine in plan.instances.items()
            for instance in trap_instances(mine) for n in instance.n_grid}


def plan_tasks(plan: Plan, seed: int, profile: Profile) -> list[Task]:
    """One task per (theorem, control run in ``profile``, trap instance, n, trial)."""
    trials = control_trials(plan, profile)
    return [Task(instance, TrialKey(bound_id, instance.name, n, trial, control_spec(name)),
                 seed)
            for bound_id, mine in plan.instances.items()
            if runs(plan.theorems[bound_id], profile.name)
            for name in plan.theorems[bound_id].controls
            for instance in trap_instances(mine)
            for n in instance.n_grid
            for trial in range(trials[(bound_id, instance.name, n)])]


def event_batches(plan: Plan, profile: Profile) -> list[EventBatch]:
    """The event cases each control runs, one batch per (theorem, control), in the order
    :func:`control_rows` reads their results."""
    # As on the traps, a control gets at most the profile's base trial count: it breaks an
    # event in nearly every trial, so a few paired trials flag it (same level as the
    # reference's rows, whose own trial counts are unchanged).
    trials = TRIALS[profile.name]
    batches = []
    for bound_id in plan.instances:
        theorem = plan.theorems[bound_id]
        if not theorem.controls_check_events:
            continue
        for name in theorem.controls:
            spec = control_spec(name)
            cases = tuple(replace(case, trials=min(case.trials or trials, profile.trials))
                          for case in events.theorem_cases(theorem, profile.name, spec))
            batches.append(EventBatch(profile.name, spec, cases, trials))
    return batches


def control_rows(plan: Plan, records: Mapping[str, TrialRecord], profile: Profile,
                 seed: int, event_results: Sequence[Sequence[EventResult]] | None = None
                 ) -> list[dict[str, Any]]:
    """Every control's rows on its traps, built exactly as the reference's (``subject`` set).

    Same row plans and level as the reference's rows; the controls' rows are not counted
    in the false-alarm budget (a flagged control is not a false alarm about the
    reference).  ``event_results`` are the results of :func:`event_batches` when the
    caller ran them (on worker processes); otherwise they run here.
    """
    rows: list[dict[str, Any]] = []
    trials = control_trials(plan, profile)
    if event_results is None:
        event_results = [run_cases(batch.cases, batch.trials, seed)
                         for batch in event_batches(plan, profile)]
    results = iter(event_results)
    for bound_id, instances in plan.instances.items():
        theorem = plan.theorems[bound_id]
        if theorem.controls_check_events:
            for name in theorem.controls:
                rows.extend(event_rows(theorem, name, next(results), plan.level))
        traps = trap_instances(instances)
        if not traps or not runs(theorem, profile.name):
            continue
        only = replace(plan, instances={bound_id: traps}, tasks=[], trials=trials)
        for name in theorem.controls:
            spec = control_spec(name)
            cells = build_cells(only, records, spec)
            rows.extend(row | {"subject": spec, "control": name}
                        for row in make_rows(only, cells, profile.detect, spec))
    return rows


def event_rows(theorem: Theorem, name: str, results: Sequence[EventResult],
               level: float) -> list[dict[str, Any]]:
    """The event rows of ``theorem`` from the results of its control ``name``."""
    spec = control_spec(name)
    return [row | {"id": theorem.id, "event": row["id"], "subject": spec,
                   "algorithm": spec, "control": name}
            for row in events.rows(results, level)]


def _label(row: Mapping[str, Any]) -> str:
    n = "" if row.get("n") is None else f" n={row['n']}"
    what = row.get("event") or row.get("variant") or ""
    return f"{row.get('instance')}{n} {what}".strip()


def power_table(rows: Sequence[Mapping[str, Any]],
                theorems: Sequence[Theorem]) -> list[dict[str, Any]]:
    """One entry per (control, theorem): the rows that flagged it, flagged or not, why not."""
    table = []
    for theorem in theorems:
        bound_id = theorem.id
        for name, control in theorem.controls.items():
            mine = [row for row in rows if row["id"] == bound_id and row["control"] == name]
            flagging = [_label(row) for row in mine if row["verdict"] == analysis.FAIL]
            expected = theorem.no_power.get(name)
            reason = ""
            if not mine:
                reason = ("not run in this profile (--full runs it)" if expected
                          else "no trap instance in this profile")
                reason += f"; {expected}" if expected else ""
            elif not flagging:
                reason = expected or "not flagged: a trap expected to catch it did not"
            table.append({"control": name, "id": bound_id, "broken": broken(control),
                          "rows": len(mine), "flagged_by": flagging,
                          "flagged": bool(flagging), "expected": expected is None,
                          "reason": reason})
    return table


def missing(table: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Controls expected to be flagged (no ``no_power`` reason) that ran and went unflagged.

    A control without a trap instance in the profile (the quick profile leaves the costly
    ones out) is listed in the table but not counted here.
    """
    return [entry for entry in table
            if entry["expected"] and entry["rows"] and not entry["flagged"]]


def power_report(plan: Plan, records: Mapping[str, TrialRecord], profile: Profile,
                 seed: int, event_results: Sequence[Sequence[EventResult]] | None = None
                 ) -> dict[str, Any]:
    """The ``power`` section of ``report.json``: rows, table, misses, trial time
    (``event_results``: see :func:`control_rows`)."""
    rows = control_rows(plan, records, profile, seed, event_results)
    table = power_table(rows, list(plan.theorems.values()))
    seconds = sum(record.seconds for key, record in records.items()
                  if f"|{CONTROL}:" in key)
    return {"rows": rows, "table": table,
            "flagged": sum(entry["flagged"] for entry in table),
            "run": sum(entry["rows"] > 0 for entry in table), "controls": len(table),
            "missing": [f"{e['id']} {e['control']}" for e in missing(table)],
            "trial_seconds": seconds}
