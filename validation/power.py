r"""The power of a validate run: can its rows tell a broken algorithm from the real one?

For every bound id, each negative control of :mod:`validation.controls` runs on the
bound id's trap instances (origin ``trap``, :mod:`validation.scenarios.traps`) with the
same datasets as the reference (the subject is not part of a trial's seed), and its
trials go through exactly the rows the reference gets, at the same row level.  A control
is *flagged* when at least one of its rows fails.

Controls never decide exit 1 (that means the real algorithm violated a bound); the
power table only reports.  ``--require-power`` turns an unflagged control into exit 3,
unless :data:`NO_POWER` explains why no row of that bound id can flag it: the table
lists those under "no power" with the reason, and an unexpected miss as a regression.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from validation.controls import CONTROLS, PREFIX
from validation.runner import analysis
from validation.runner.backends import Task
from validation.runner.spec import Instance, TrialKey
from validation.runner.store import TrialRecord
from validation.scenarios.traps import TRAP

_IM = ("thm4-im's bound exceeds the largest possible gap at every n validate can afford "
       "(899 against sigma* = 4.24 on the six-node graph at n = 45000): only event rows "
       "on the edge LCBs could flag it")
_ONLINE = ("the regret bound is at least T times the largest per-round regret for every "
           "T below about 19000 (m = 2, T = 20000: bound 18574), too long for a run: only "
           "event rows on the per-round LCBs could flag it")
_LLM_RADIUS = ("a tenth of the printed radius still counts a cost never observed as "
               "infinite, and once a cost is observed the error it allows is far below the "
               "bound, whose coverage term it cannot exploit; only an event row (cost UCB "
               "above the true cost) could flag it")

#: (bound id, control) -> why no row of that bound id can flag it.
NO_POWER: dict[tuple[str, str], str] = {
    **{("thm4-im", name): _IM for name in CONTROLS["thm4-im"]},
    **{("thm-llm-online", name): _ONLINE for name in CONTROLS["thm-llm-online"]},
    ("thm3-llm", "radius-0.1"): _LLM_RADIUS,
    ("lem-llm-std", "radius-0.1"): _LLM_RADIUS,
    ("lem-llm-std", "frequency-lcb"): (
        "it moves every arrival index by 2 sqrt(2 log(4mn/delta)/n), the same for all "
        "queries, which the lemma's bound (larger by sqrt(2(m+1)(nu+m))) absorbs; only an "
        "event row (arrival UCB above p) could flag it"),
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


def plan_tasks(instances: Mapping[str, Sequence[Instance]], modules: Mapping[str, str],
               trials: int, seed: int) -> list[Task]:
    """One task per (bound id, control, trap instance, n, trial)."""
    return [Task(modules[bound_id], instance,
                 TrialKey(bound_id, instance.name, n, trial, subject(name)), seed)
            for bound_id, mine in instances.items()
            for name in CONTROLS.get(bound_id, {})
            for instance in trap_instances(mine)
            for n in instance.n_grid
            for trial in range(trials)]


def control_rows(plan: Any, records: Mapping[str, TrialRecord], trials: int, scale: float,
                 level: float) -> list[dict[str, Any]]:
    """Every control's rows on its traps, built exactly as the reference's (``subject`` set)."""
    from validation.runner.sweep import build_cells, make_rows

    rows: list[dict[str, Any]] = []
    for bound_id, instances in plan.instances.items():
        traps = trap_instances(instances)
        if not traps:
            continue
        only = replace(plan, instances={bound_id: traps}, tasks=[], unavailable={})
        for name in CONTROLS.get(bound_id, {}):
            spec = subject(name)
            cells = build_cells(only, records, trials, spec)
            rows.extend(row | {"subject": spec, "control": name}
                        for row in make_rows(only, cells, scale, level, spec))
    return rows


def _label(row: Mapping[str, Any]) -> str:
    n = "" if row.get("n") is None else f" n={row['n']}"
    return f"{row['instance']}{n} {row['variant']}"


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
                reason = "no trap instance in this profile" + (f"; {expected}" if expected
                                                               else "")
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


def power_report(plan: Any, records: Mapping[str, TrialRecord], trials: int, scale: float,
                 level: float) -> dict[str, Any]:
    """The ``power`` section of ``report.json``: rows, table, misses, trial time."""
    rows = control_rows(plan, records, trials, scale, level)
    table = power_table(rows, list(plan.instances))
    seconds = sum(record.seconds for key, record in records.items()
                  if f"|{PREFIX}:" in key)
    return {"rows": rows, "table": table,
            "flagged": sum(entry["flagged"] for entry in table),
            "controls": len(table), "missing": [f"{e['id']} {e['control']}"
                                                for e in missing(table)],
            "trial_seconds": seconds}
