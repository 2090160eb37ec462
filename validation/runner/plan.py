r"""The plan of a validation run: its theorems, instances, rows and trials, decided up front.

A plan is made before any trial runs (:func:`offcmab.validation.runner.sweep.plan_run`):
every row's bound, vacuity and power (so the false-alarm budget can be split over the rows
that can fail), and the trials each (instance, n) needs.  After the trials, the same plan
turns the trial records into rows (:func:`build_cells`, :func:`make_rows`), for the
reference and, on the trap instances, for each negative control.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast

from offcmab.validation.parts import verdict
from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET, Instance, Profile, TrialKey
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner import analysis, consistency
from offcmab.validation.runner.backends import Task
from offcmab.validation.runner.consistency import Consistency
from offcmab.validation.runner.store import TrialRecord
from offcmab.validation.scenarios.traps import TRAP

CellKey = tuple[str, str, int]  # (bound id, instance name, n)
InstanceKey = tuple[str, str]  # (bound id, instance name)

#: The origin of an instance drawn from the run seed (:class:`Instance`).
GENERATED = "generated"


@dataclass
class Plan:
    """The theorems, instances, row plans and tasks of a run.

    ``power_rows`` counts the rows that can fail; the false-alarm budget is split
    equally over them (``level``), identification rows included (``instance_rows``,
    :mod:`offcmab.validation.runner.consistency`); rate rows are advisory and take no
    share.  A module that adds rows with power to a run must count them here before
    :func:`size_trials` runs.
    """

    theorems: dict[str, Theorem] = field(default_factory=dict)
    instances: dict[str, list[Instance]] = field(default_factory=dict)
    rows: dict[CellKey, list[analysis.RowPlan]] = field(default_factory=dict)
    trials: dict[CellKey, int] = field(default_factory=dict)
    tasks: list[Task] = field(default_factory=list)
    instance_rows: dict[InstanceKey, Consistency] = field(default_factory=dict)
    power_rows: int = 0

    @property
    def level(self) -> float:
        """Each row's share of the budget (Bonferroni over the rows with power)."""
        return FALSE_ALARM_BUDGET / max(self.power_rows, 1)


def profile_instances(theorem: Theorem, profile: Profile, seed: int) -> list[Instance]:
    """The instances of ``theorem``'s scenario in ``profile``.

    A selective profile (``ci``) keeps the trap instances, where the negative controls are
    flagged (unless the theorem's trap rows cannot fail), and the generated instances at
    sizes up to ``profile.generated_max_n``, where ``offcmab compare`` sees a milder change
    (a halved confidence radius) move the gaps.  Named instances and the largest sizes flag
    no control beyond these and cost most of a run's time.
    """
    instances = theorem.scenario.instances(profile.base, seed)
    if not profile.selective:
        return instances
    kept = [instance for instance in instances
            if instance.origin == TRAP and not theorem.traps_vacuous]
    for instance in instances:
        sizes = tuple(n for n in instance.n_grid if n <= profile.generated_max_n)
        if instance.origin == GENERATED and sizes:
            kept.append(replace(instance, n_grid=sizes))
    return kept


def plan_rows(plan: Plan, scale: float) -> None:
    """Decide every row before any trial runs: its bound, vacuity and power."""
    for bound_id, instances in plan.instances.items():
        theorem = plan.theorems[bound_id]
        scenario = theorem.scenario
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
            planned = consistency.plan_instance(
                theorem, instance, {n: plan.rows[(bound_id, instance.name, n)]
                                    for n in instance.n_grid})
            plan.instance_rows[(bound_id, instance.name)] = planned
            plan.power_rows += planned.power_rows


def size_trials(plan: Plan, profile: Profile) -> None:
    r"""Trials per (instance, n): enough for every upper row with power to detect its target.

    The target is ``profile.detect`` times the row's failure probability, flagged with
    probability 0.9 at the row's share of the budget; at most ``profile.max_trials``.
    """
    level = plan.level
    for key, rows in plan.rows.items():
        trials = profile.trials
        if plan.theorems[key[0]].scenario.kind == "upper":
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
        scenario = plan.theorems[bound_id].scenario
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
            if group:
                mine.extend(consistency_rows(plan, group, level))
        algorithm = scenario.algorithm if subject == "reference" else subject
        rows.extend(row | {"algorithm": algorithm} for row in mine)
    return rows


def consistency_rows(plan: Plan, group: list[analysis.Cell], level: float
                     ) -> list[dict[str, Any]]:
    """The rate and identification rows of one instance's cells, as planned."""
    first = group[0]
    planned = plan.instance_rows.get((first.bound_id, first.instance.name))
    if planned is None:
        return []
    rows = []
    if planned.rate:
        rows.append(consistency.rate_row(plan.theorems[first.bound_id], planned, group, level))
    if planned.identify:
        rows.append(consistency.identification_row(planned, group, level))
    return rows
