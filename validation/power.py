r"""The power of a validate run: can its rows tell a broken algorithm from the real one?

For every bound id, each negative control of :mod:`offcmab.validation.controls` runs on the
bound id's trap instances (origin ``trap``, :mod:`offcmab.validation.scenarios.traps`) with the
same datasets as the reference (the subject is not part of a trial's seed), and its
trials go through exactly the rows the reference gets, at the same row level.  Each
control also runs its bound id's event rows (:mod:`offcmab.validation.events`, with the control
as the subject).  A control is *flagged* when at least one of its rows fails.

The full profile runs every control; the quick and default profiles skip the controls
that :data:`NO_POWER` says no row can flag (they are listed with the reason all the same).

Controls never decide exit 1 (that means the real algorithm violated a bound); the
power table only reports.  ``--require-power`` turns an unflagged control into exit 3,
unless :data:`NO_POWER` explains why no row of that bound id can flag it: the table
lists those under "no power" with the reason, and an unexpected miss as a regression.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from offcmab.validation.controls import CONTROLS, PREFIX
from offcmab.validation.runner import analysis
from offcmab.validation.runner.backends import Task
from offcmab.validation.runner.spec import Instance, Profile, TrialKey
from offcmab.validation.runner.store import TrialRecord
from offcmab.validation.scenarios.traps import TRAP

#: Bound ids whose trap rows are vacuous: their controls' trap trials run in --full only.
VACUOUS_TRAPS = ("thm4-im", "thm-llm-online")

#: Event-row families (modules of :mod:`offcmab.validation.events`) per bound id.
EVENT_FAMILIES = {"thm4-im": "im_node", "lem-llm-std": "llm", "thm3-llm": "llm",
                  "thm-llm-online": "llm"}

#: (bound id, control) -> why no row of that bound id (bound or event row) can flag it.
NO_POWER: dict[tuple[str, str], str] = {
    ("thm2-lower", "no-pessimism"): (
        "a lower bound holds for every algorithm, so only the clcb-risk row can flag a "
        "control; the proof's pair observes every path often, where dropping pessimism "
        "lowers the risk"),
    ("thm2-lower", "radius-0.1"): (
        "as no-pessimism: on the proof's pair a smaller radius lowers the risk"),
}


def subject(name: str) -> str:
    """The subject spec of control ``name``."""
    return f"{PREFIX}:{name}"


def trap_instances(instances: Sequence[Instance]) -> list[Instance]:
    """The instances the controls run on."""
    return [instance for instance in instances if instance.origin == TRAP]


def runs(bound_id: str, name: str, profile: str) -> bool:
    """Whether ``profile`` runs control ``name`` of ``bound_id``.

    The full profile runs every control on every trap; the others skip the traps of
    :data:`VACUOUS_TRAPS`, whose bound rows cannot fail (event rows still run).
    """
    return profile == "full" or bound_id not in VACUOUS_TRAPS


def control_trials(plan: Any, profile: Profile) -> dict[tuple[str, str, int], int]:
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


def plan_tasks(plan: Any, seed: int, profile: Profile) -> list[Task]:
    """One task per (bound id, control run in ``profile``, trap instance, n, trial)."""
    trials = control_trials(plan, profile)
    return [Task(plan.modules[bound_id], instance,
                 TrialKey(bound_id, instance.name, n, trial, subject(name)), seed)
            for bound_id, mine in plan.instances.items()
            for name in CONTROLS.get(bound_id, {}) if runs(bound_id, name, profile.name)
            for instance in trap_instances(mine)
            for n in instance.n_grid
            for trial in range(trials[(bound_id, instance.name, n)])]


def control_rows(plan: Any, records: Mapping[str, TrialRecord], profile: Profile,
                 seed: int) -> list[dict[str, Any]]:
    """Every control's rows on its traps, built exactly as the reference's (``subject`` set).

    Same row plans and level as the reference's rows; the controls' rows are not counted
    in the false-alarm budget (a flagged control is not a false alarm about the
    reference).
    """
    from offcmab.validation.runner.sweep import build_cells, make_rows

    rows: list[dict[str, Any]] = []
    trials = control_trials(plan, profile)
    for bound_id, instances in plan.instances.items():
        for name in CONTROLS.get(bound_id, {}):
            rows.extend(event_rows(bound_id, name, profile, seed, plan.level))
        traps = trap_instances(instances)
        if not traps:
            continue
        only = replace(plan, instances={bound_id: traps}, tasks=[], unavailable={},
                       trials=trials)
        for name in CONTROLS.get(bound_id, {}):
            if not runs(bound_id, name, profile.name):
                continue
            spec = subject(name)
            cells = build_cells(only, records, spec)
            rows.extend(row | {"subject": spec, "control": name}
                        for row in make_rows(only, cells, profile.detect, spec))
    return rows


def event_rows(bound_id: str, name: str, profile: Profile, seed: int,
               level: float) -> list[dict[str, Any]]:
    """The event rows of ``bound_id`` (:mod:`offcmab.validation.events`) run on control ``name``."""
    import importlib

    from offcmab.validation import events

    family = EVENT_FAMILIES.get(bound_id)
    if family is None:
        return []
    module = importlib.import_module(f"offcmab.validation.events.{family}")
    # The llm family serves three ids; build only this one's rows, so that a control of
    # one variant (frequency-lcb) is never called for its sibling.
    only = {"bound_id": bound_id} if family == "llm" else {}
    # As on the traps, a control gets at most the profile's base trial count: it breaks an
    # event in nearly every trial, so a few paired trials flag it (same level as the
    # reference's rows, whose own trial counts are unchanged).
    trials = events.TRIALS[profile.name]
    cases = [replace(case, trials=min(case.trials or trials, profile.trials))
             for case in module.cases(profile.name, subject=subject(name), **only)
             if bound_id in case.bound_ids]
    results = events.run_cases(cases, trials, seed)
    return [row | {"id": bound_id, "event": row["id"], "subject": subject(name),
                   "algorithm": subject(name), "control": name}
            for row in events.rows(results, level)]


def _label(row: Mapping[str, Any]) -> str:
    n = "" if row.get("n") is None else f" n={row['n']}"
    what = row.get("event") or row.get("variant") or ""
    return f"{row.get('instance')}{n} {what}".strip()


def power_table(rows: Sequence[Mapping[str, Any]],
                bound_ids: Sequence[str]) -> list[dict[str, Any]]:
    """One entry per (control, bound id): the rows that flagged it, flagged or not, why not."""
    table = []
    for bound_id in bound_ids:
        for name, control in CONTROLS.get(bound_id, {}).items():
            mine = [row for row in rows if row["id"] == bound_id and row["control"] == name]
            flagging = [_label(row) for row in mine if row["verdict"] == analysis.FAIL]
            expected = NO_POWER.get((bound_id, name))
            reason = ""
            if not mine:
                reason = ("not run in this profile (--full runs it)" if expected
                          else "no trap instance in this profile")
                reason += f"; {expected}" if expected else ""
            elif not flagging:
                reason = expected or "not flagged: a trap expected to catch it did not"
            table.append({"control": name, "id": bound_id, "broken": control.broken,
                          "rows": len(mine), "flagged_by": flagging,
                          "flagged": bool(flagging), "expected": expected is None,
                          "reason": reason})
    return table


def missing(table: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Controls expected to be flagged (not in :data:`NO_POWER`) that ran and went unflagged.

    A control without a trap instance in the profile (the quick profile leaves the costly
    ones out) is listed in the table but not counted here.
    """
    return [entry for entry in table
            if entry["expected"] and entry["rows"] and not entry["flagged"]]


def power_report(plan: Any, records: Mapping[str, TrialRecord], profile: Profile,
                 seed: int) -> dict[str, Any]:
    """The ``power`` section of ``report.json``: rows, table, misses, trial time."""
    rows = control_rows(plan, records, profile, seed)
    table = power_table(rows, list(plan.instances))
    seconds = sum(record.seconds for key, record in records.items()
                  if f"|{PREFIX}:" in key)
    return {"rows": rows, "table": table,
            "flagged": sum(entry["flagged"] for entry in table),
            "run": sum(entry["rows"] > 0 for entry in table), "controls": len(table),
            "missing": [f"{e['id']} {e['control']}" for e in missing(table)],
            "trial_seconds": seconds}
