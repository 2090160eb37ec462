"""Consistency rows: rate rows on every instance where the bound rows cannot speak, and
identification rows where a bound lies below an instance's smallest positive gap.

False-alarm probabilities.  An identification row flags a subject that keeps its bound with
probability at most its row level (exact binomial; checked exactly below, not by simulation).
A rate row is advisory: it never fails a run and takes no share of the budget; it reports a
subject as slower than the proven order (one-sided normal approximation at the run's row level)
and the reference is reported as following the order on every rate row of the quick profile at
the seeds below (fixed, so the test is deterministic), while every identification row passes.
The data-ignoring subject's gap does not vary (standard error 0), so its rate row reports it
slower at any level; the sloppy subject is suboptimal in about 30%
of its trials where at most 5% are allowed (binomial tail below 1e-20 at the row's trial
count).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from blind_algorithms import cascade_blind
from test_cli_solve import run_cli

from offcmab.reference.clcb import clcb
from offcmab.validation.api import check
from offcmab.validation.parts import verdict
from offcmab.validation.parts.scenario import BoundValue, MaxGap
from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET, PROFILES, Instance
from offcmab.validation.parts.theorem import Theorem, find
from offcmab.validation.runner import analysis, consistency
from offcmab.validation.runner.analysis import ADVISORY, FAIL, NA, PASS, Cell, RowPlan
from offcmab.validation.runner.plan import Plan, plan_rows
from offcmab.validation.theorems import THEOREMS

GRID = (100, 400, 1600)
KINDS = ("rate", "identification")


def toy(grid: tuple[int, ...] = GRID) -> Instance:
    return Instance("toy", {}, 0.05, grid)


def plans(bound: float | None, largest: float = 1.0,
          smallest: float | None = 0.2) -> dict[int, list[RowPlan]]:
    value = BoundValue(bound) if bound is not None else BoundValue.not_applicable("no")
    return {n: [RowPlan("stated", value, MaxGap(largest, True, "toy", smallest))]
            for n in GRID}


@dataclasses.dataclass(frozen=True)
class Applies:
    """A scenario whose bound applies from ``start`` on (``None``: never)."""

    start: int | None
    kind: str = "upper"

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        if self.start is None or n < self.start:
            return BoundValue.not_applicable("no")
        return BoundValue(1.0)


def record(name: str) -> Theorem:
    return find(THEOREMS, name)


def test_only_instances_whose_bound_rows_cannot_speak_get_a_rate_row() -> None:
    theorem = record("thm1-inf")
    vacuous = consistency.plan_instance(theorem, toy(), plans(2.0))
    assert vacuous.rate and vacuous.power_rows == 0  # a rate row is advisory
    assert not consistency.plan_instance(theorem, toy(), plans(0.5)).rate  # the bound speaks
    never = dataclasses.replace(theorem, scenario=Applies(None))  # a hypothesis fails
    assert not consistency.plan_instance(never, toy(), plans(None)).rate
    later = dataclasses.replace(theorem, scenario=Applies(10**6))  # a sample-size condition
    assert consistency.plan_instance(later, toy(), plans(None)).rate
    short = consistency.plan_instance(theorem, toy(GRID[:2]),
                                      {n: plans(2.0)[n] for n in GRID[:2]})
    assert not short.rate
    no_order = dataclasses.replace(theorem, rate=None)
    assert not consistency.plan_instance(no_order, toy(), plans(2.0)).rate


def test_the_budget_split_counts_identification_rows_but_not_rate_rows() -> None:
    """The quick profile of Theorem 1 has instances with a rate row; the plan splits the
    false-alarm budget over the bound rows with power and the identification rows only."""
    theorem = record("thm1-inf")
    plan = Plan(theorems={theorem.id: theorem},
                instances={theorem.id: theorem.scenario.instances(PROFILES["quick"], 2025)})
    plan_rows(plan, 1.0)
    planned = plan.instance_rows.values()
    assert any(row.rate for row in planned)
    bound_rows = sum(row.power for rows in plan.rows.values() for row in rows)
    identification_rows = sum(bool(row.identify) for row in planned)
    assert plan.power_rows == bound_rows + identification_rows
    assert plan.level == FALSE_ALARM_BUDGET / max(bound_rows + identification_rows, 1)


def test_the_floor_is_a_share_of_the_largest_gap_and_near_ties_get_no_rate_row() -> None:
    theorem = record("thm1-inf")
    planned = consistency.plan_instance(theorem, toy(), plans(2.0, 1.0, None))
    assert planned.floor == pytest.approx(consistency.RELATIVE_FLOOR)
    # Hoeffding's radius at n = 1600, delta = 0.05: sqrt(log(20) / 3200) = 0.031
    assert consistency.plan_instance(theorem, toy(), plans(2.0, 1.0, 0.04)).rate
    assert not consistency.plan_instance(theorem, toy(), plans(2.0, 1.0, 0.02)).rate


def test_an_identification_row_pools_the_sizes_whose_bound_is_below_the_smallest_gap() -> None:
    theorem = record("thm1-inf")
    rows = plans(2.0)
    rows[400] = [RowPlan("stated", BoundValue(0.1, failure=0.01), rows[400][0].max_gap),
                 RowPlan("proved", BoundValue(0.15, failure=0.02), rows[400][0].max_gap)]
    rows[1600] = [RowPlan("stated", BoundValue(0.19), rows[1600][0].max_gap)]
    planned = consistency.plan_instance(theorem, toy(), rows)
    assert planned.identify == (400, 1600) and planned.failure == 0.05  # the largest pooled
    assert not planned.rate and planned.power_rows == 1  # the bound speaks at 400 and 1600
    assert consistency.plan_instance(theorem, toy(), plans(0.1, smallest=None)).identify == ()


def identification(positive: list[int], trials: int = 200,
                   failure: float = 0.05) -> dict[str, Any]:
    instance = toy()
    cells = [Cell("toy-id", instance, n,
                  np.where(np.arange(trials) < count, 0.2, 0.0), np.zeros(trials), {})
             for n, count in zip(GRID, positive, strict=True)]
    planned = consistency.Consistency(identify=GRID, failure=failure, smallest_gap=0.2)
    return consistency.identification_row(planned, cells, 1e-5)


def test_the_identification_row_counts_positive_gaps_against_the_failure_probability() -> None:
    kept = identification([10, 8, 12])  # 30 of 600 = delta: what a correct subject may do
    assert kept["verdict"] == PASS and kept["violations"] == 30 and kept["trials"] == 600
    sloppy = identification([60, 60, 60])  # 30% suboptimal
    assert sloppy["verdict"] == FAIL and sloppy["p_value"] < 1e-20
    assert kept["kind"] == "identification" and kept["false_alarm_probability"] == 1e-5


def test_the_identification_row_flags_a_correct_subject_at_most_at_its_level() -> None:
    """Exact: at the largest rate a correct subject may have (the failure probability), the
    row flags when the count exceeds ``allowed_violations``, which has probability below the
    row level, and one fewer violation would not keep that promise."""
    row = identification([0, 0, 0])
    allowed, trials, level = row["allowed_violations"], row["trials"], row["row_level"]
    assert verdict.binomial_tail(allowed + 1, trials, 0.05) < level
    assert verdict.binomial_tail(allowed, trials, 0.05) >= level


def test_a_rate_row_does_not_resolve_gaps_below_its_floor() -> None:
    instance = toy()
    flat_at_floor = [Cell("toy-id", instance, n, np.full(5, g), np.zeros(5), {})
                     for n, g in zip(GRID, (0.05, 0.05, 0.05), strict=True)]
    assert analysis.rate_row(flat_at_floor, -0.5, [1.0] * 3, 0.05, 1e-4)["verdict"] == NA
    # the allowance from the smaller sizes falls below the floor, the gap does not exceed it
    drop = [Cell("toy-id", instance, n, np.full(5, g), np.zeros(5), {})
            for n, g in zip(GRID, (0.3, 0.02, 0.04), strict=True)]
    assert analysis.rate_row(drop, -0.5, [1.0] * 3, 0.05, 1e-4)["verdict"] == PASS
    flat = [Cell("toy-id", instance, n, np.full(5, 0.3), np.zeros(5), {}) for n in GRID]
    assert analysis.rate_row(flat, -0.5, [1.0] * 3, 0.05, 1e-4)["verdict"] == FAIL


@dataclasses.dataclass(frozen=True)
class Listed:
    """A scenario that lists the given instances in every profile (all else delegated)."""

    inner: Any
    listed: tuple[Instance, ...]

    def __getattr__(self, name: str) -> Any:
        if name in ("inner", "listed") or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def instances(self, profile: Any, seed: int) -> list[Instance]:
        return list(self.listed)


def only(bound_id: str, *instances: Instance) -> tuple[Theorem, ...]:
    """Every record, ``bound_id``'s scenario listing only ``instances``."""
    return tuple(dataclasses.replace(t, scenario=Listed(t.scenario, instances))
                 if t.id == bound_id else t for t in THEOREMS)


def rows_of(report: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [row for row in report["rows"] if row.get("kind") == kind]


def test_a_data_ignoring_subject_is_reported_slower_away_from_the_named_instance() -> None:
    """The six-node graph under another name and grid than Theorem 4's named rate instance:
    the blind subject's gap stays where it is, and the new row reports it, as advice."""
    theorem = record("thm4-im")
    assert theorem.rate is not None
    named = next(i for i in theorem.scenario.instances(PROFILES["quick"], 2025)
                 if i.name == theorem.rate.instance)
    probe = dataclasses.replace(named, name="probe", n_grid=(1000, 4000, 16000))
    report = check(cascade_blind, "thm4-im", profile="quick", allow_unchecked=True,
                   theorems=only("thm4-im", probe)).report
    [row] = rows_of(report, "rate")
    assert report["unchecked"]  # an advisory row is no row with power
    assert row["instance"] == "probe" and row["verdict"] == ADVISORY and row["slope_se"] < 1e-9
    assert row["slower"] and row["reason"].startswith("slower than the proven order")
    assert row["false_alarm_probability"] == 0.0 and report["summary"]["FAIL"] == 0


def sloppy_clcb(dataset: Any, oracle: Any, delta: float) -> Any:
    """CLCB, but in about 30% of calls the action of the smallest LCBs (a suboptimal one)."""
    result = clcb(dataset, oracle, delta)
    if np.random.random() < 0.3:  # noqa: NPY002 (validate seeds numpy.random per call)
        return oracle(-np.asarray(result.lcb))
    return result.action


def pessimism() -> Instance:
    """The pessimism instance at two sizes whose bounds lie below its smallest gap (an
    identification row pools at least two sizes)."""
    found = next(i for i in record("thm1-inf").scenario.instances(PROFILES["quick"], 2025)
                 if i.name == "pessimism")
    return dataclasses.replace(found, n_grid=(found.n_grid[-1], 2 * found.n_grid[-1]))


def test_a_subject_often_suboptimal_below_the_smallest_gap_fails_identification() -> None:
    report = check(sloppy_clcb, "thm1-inf", profile="quick",
                   theorems=only("thm1-inf", pessimism())).report
    [row] = rows_of(report, "identification")
    assert row["instance"] == "pessimism" and row["verdict"] == FAIL
    assert row["violations"] > 0.2 * row["trials"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2025, 7, 11])
def test_the_reference_passes_every_consistency_row(tmp_path: Path, seed: int) -> None:
    """The reference over three seeds of the quick profile, on two theorems with rate rows
    and identification rows (the cheap ones; the default profile at other seeds is measured
    in the same way, not in the test suite)."""
    code = run_cli(["validate", "--quick", "--seed", str(seed), "--only", "thm1-inf",
                    "thm3-llm", "--no-power", "--no-figures", "--out", str(tmp_path)])
    report = json.loads((tmp_path / "report.json").read_text())
    mine = [row for kind in KINDS for row in rows_of(report, kind)]
    assert code == 0 and mine and all(row["verdict"] in (PASS, NA, ADVISORY) for row in mine)
    assert "rate" in {row["kind"] for row in mine}  # the quick grids pool no two sizes
    assert not any(row.get("slower") for row in mine)
    for row in mine:
        share = 0.0 if row["kind"] == "rate" else report["row_level"]
        assert row["instance"] and row["false_alarm_probability"] == share
    # the identification row, on the instance whose two sizes lie below its smallest gap
    [row] = rows_of(check(clcb, "thm1-inf", profile="quick", seed=seed,
                          theorems=only("thm1-inf", pessimism())).report, "identification")
    assert row["verdict"] == PASS


def test_one_size_below_the_smallest_gap_makes_no_identification_row() -> None:
    """At one size the row would repeat that size's bound row: no row, no budget share."""
    theorem = record("thm1-inf")
    rows = plans(2.0)
    rows[400] = [RowPlan("stated", BoundValue(0.1, failure=0.01), rows[400][0].max_gap)]
    assert consistency.plan_instance(theorem, toy(), rows).identify == ()
