"""``offcmab calibrate``: the measured false-alarm rate of validate, and its statistics.

Statistical content: each calibration below runs ``validate --profile quick --only
cor1-cascade`` at run seeds spawned from fixed base seeds, so every outcome is
deterministic.  For the correct reference a run is flagged with probability at most the
stated budget 1e-3, so the runs of the positive cases (3 + 3 + 2 runs) include a flagged
one, which would make the exit-0 and consistency checks fail spuriously, with probability
at most 1 - (1 - 1e-3)**8 < 8e-3 (exact: the runs are independent).  The negative control
shrinks every bound to a thousandth (``--bound-scale 1e-3``): its flags are real
violations, and the test requires the rate to be found significantly above the budget.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats
from test_cli_solve import run_cli

from offcmab.validation import calibration
from offcmab.validation.calibration import (
    CONFIRMED,
    CONSISTENT,
    EXCEEDS,
    Calibration,
    calibrate,
    estimate,
    interval,
    run_seeds,
    runs_to_confirm,
)
from offcmab.validation.commands.calibrate_run import HEADER, table
from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET, PROFILES
from offcmab.validation.theorems import THEOREMS

ID = "cor1-cascade"
QUICK = ["calibrate", "--only", ID, "--profile", "quick"]


def _clopper_pearson(failed: int, runs: int, level: float) -> tuple[float, float]:
    """The interval from its beta-quantile formula (independent of ``binomtest``)."""
    alpha = 1.0 - level
    low = 0.0 if failed == 0 else stats.beta.ppf(alpha / 2, failed, runs - failed + 1)
    high = 1.0 if failed == runs else stats.beta.ppf(1 - alpha / 2, failed + 1, runs - failed)
    return float(low), float(high)


@pytest.mark.parametrize(("failed", "runs"), [(0, 20), (3, 50), (1, 1), (40, 40), (7, 3000)])
def test_interval_is_clopper_pearson(failed: int, runs: int) -> None:
    low, high = interval(failed, runs)
    assert (low, high) == pytest.approx(_clopper_pearson(failed, runs, calibration.LEVEL),
                                        rel=1e-9, abs=1e-12)
    assert low <= failed / runs <= high


def test_interval_of_no_failure_has_the_closed_form_upper_limit() -> None:
    # 0 of N: the upper limit solves (1 - p)^N = alpha / 2
    assert interval(0, 20) == (0.0, pytest.approx(1 - 0.025 ** (1 / 20), rel=1e-12))


@pytest.mark.parametrize(("failed", "runs", "budget"),
                         [(0, 40, 1e-3), (1, 3, 1e-3), (0, 3688, 1e-3), (2, 1000, 1e-3),
                          (5, 1000, 1e-3), (12, 1000, 1e-3), (3, 50, 0.5)])
def test_verdict_follows_the_interval(failed: int, runs: int, budget: float) -> None:
    entry = estimate("x", failed, runs, budget)
    p_value = stats.binom.sf(failed - 1, runs, budget)  # P(Bin(runs, budget) >= failed)
    assert entry.p_value == pytest.approx(p_value, rel=1e-9)
    assert (entry.verdict == EXCEEDS) == (budget < entry.low) == (p_value < 0.025)
    assert (entry.verdict == CONFIRMED) == (entry.high <= budget)
    assert entry.verdict in {EXCEEDS, CONFIRMED, CONSISTENT}


def test_runs_to_confirm_is_the_least_such_count() -> None:
    for budget in (1e-3, 1e-2, 0.2):
        runs = runs_to_confirm(budget)
        assert interval(0, runs)[1] <= budget < interval(0, runs - 1)[1]
    assert runs_to_confirm(1e-3) == 3688
    with pytest.raises(ValueError, match=r"^budget:"):
        runs_to_confirm(0.0)


def test_run_seeds_are_spawned_reproducible_and_nested() -> None:
    seeds = run_seeds(2025, 50)
    children = np.random.SeedSequence(2025).spawn(50)
    assert seeds == [int(c.generate_state(1, np.uint64)[0]) >> 1 for c in children]
    assert seeds[:10] == run_seeds(2025, 10)  # a short calibration is a prefix of a long one
    assert len(set(seeds)) == 50 and all(0 <= seed < 2**63 for seed in seeds)
    assert run_seeds(2026, 10) != seeds[:10]
    with pytest.raises(ValueError, match=r"^runs:"):
        run_seeds(2025, 0)


@pytest.fixture(scope="module")
def quick() -> Calibration:
    return calibrate(THEOREMS, PROFILES["quick"], runs=3, seed=7, only=[ID])


def test_calibration_counts_runs_and_shares(quick: Calibration) -> None:
    assert [o.seed for o in quick.outcomes] == run_seeds(7, 3)
    assert [entry.name for entry in quick.theorems] == [ID]
    assert quick.overall.name == calibration.OVERALL
    assert quick.overall.failed == sum(o.fail_rows > 0 for o in quick.outcomes)
    assert quick.overall.budget == FALSE_ALARM_BUDGET
    # one theorem: its rows' levels are the whole run's budget, split over its rows
    assert quick.theorems[0].budget == pytest.approx(FALSE_ALARM_BUDGET, rel=1e-9)
    assert quick.overall.verdict != EXCEEDS
    assert quick.overall.low <= quick.overall.rate <= quick.overall.high


def test_table_has_a_line_per_theorem_and_the_whole_run(quick: Calibration) -> None:
    lines = table(quick).splitlines()
    assert lines[0].split("  ")[0] == "id" and all(column in lines[0] for column in HEADER)
    assert lines[1].startswith(ID) and lines[2].startswith("all ")
    assert f"{runs_to_confirm(FALSE_ALARM_BUDGET)} runs would confirm" in table(quick)


def test_cli_json_on_one_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli([*QUICK, "--runs", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["runs"] == 3 and out["profile"] == "quick" and out["level"] == 0.95
    assert [entry["name"] for entry in out["theorems"]] == [ID]
    for entry in (out["overall"], *out["theorems"]):
        low, high = entry["interval"]
        assert entry["runs"] == 3 and 0 <= entry["failed"] <= 3
        assert entry["rate"] == entry["failed"] / 3
        assert 0.0 <= low <= entry["rate"] <= high <= 1.0
        assert (low, high) == pytest.approx(_clopper_pearson(entry["failed"], 3, 0.95))
    assert out["overall"]["budget"] == FALSE_ALARM_BUDGET
    assert out["overall"]["verdict"] in {CONSISTENT, CONFIRMED}


def test_processes_give_the_serial_result() -> None:
    serial = calibrate(THEOREMS, PROFILES["quick"], runs=2, seed=11, only=[ID])
    pooled = calibrate(THEOREMS, PROFILES["quick"], runs=2, seed=11, only=[ID], jobs=2)
    assert pooled.outcomes == serial.outcomes


def test_broken_bound_is_found_above_the_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli([*QUICK, "--runs", "3", "--bound-scale", "1e-3", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["bound_scale"] == 1e-3
    assert out["overall"]["verdict"] == EXCEEDS
    assert out["overall"]["p_value"] < 0.025
    assert out["overall"]["interval"][0] > FALSE_ALARM_BUDGET
    assert out["flagged_runs"] and all(run["ids"] == [ID] for run in out["flagged_runs"])


@pytest.mark.parametrize(("argv", "field"), [(["--runs", "0"], "--runs"),
                                             (["--runs", "2", "--jobs", "0"], "--jobs"),
                                             (["--runs", "2", "--only", "nope"], "only")])
def test_bad_input_exits_2_naming_the_field(argv: list[str], field: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["calibrate", "--profile", "quick", *argv]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and field in error
