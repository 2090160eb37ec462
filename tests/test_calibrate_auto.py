"""``offcmab calibrate --runs auto``: the plan's exact error probabilities, the folder, exits.

The plan is checked against its definition with scipy's binomial law (no sampling).  The
runs are tiny (``--profile quick`` on the cheapest id, a few runs), with fixed seeds; the
only statistical outcome asserted is that no run of the correct reference is flagged on
those seeds, which the stated budget bounds by 0.001 per run (at most 0.012 for the 12
runs of this file).  The stopping rule on flagged runs is tested with a stand-in for the
validation run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy import stats

from offcmab.validation import calibration, calibration_auto
from offcmab.validation.calibration import LEVEL, RunOutcome, interval
from offcmab.validation.calibration_auto import DROPPED_NAME, LOG_NAME, RESULT_NAME, plan
from offcmab.validation.cli import main
from offcmab.validation.runner.sweep import RunConfig

ID = "lem-llm-std"
AUTO = ["calibrate", "--only", ID, "--profile", "quick", "--runs", "auto"]


def run_cli(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


@pytest.mark.parametrize("budget", [0.001, 0.01, 0.2])
def test_plan_errors_are_exact(budget: float) -> None:
    chosen = plan(budget)
    alpha = (1.0 - LEVEL) / 2.0
    # confirming needs every planned run clean: at a rate of exactly the budget, rarely
    assert (1.0 - budget) ** chosen.runs <= alpha < (1.0 - budget) ** (chosen.runs - 1)
    assert interval(0, chosen.runs)[1] <= budget
    # refuting: at least r flagged of N runs has probability below alpha/2 at the budget,
    # and r is the smallest such count
    assert stats.binom.sf(chosen.refuting - 1, chosen.runs, budget) < alpha
    assert stats.binom.sf(chosen.refuting - 2, chosen.runs, budget) >= alpha


def test_stated_budget_plan_matches_the_printed_count() -> None:
    chosen = plan(0.001)
    assert (chosen.runs, chosen.refuting) == (3688, 9)


def test_undecided_run_exits_3_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    folder = tmp_path / "calibration"
    assert run_cli([*AUTO, "--out", str(folder), "--max-runs", "2"]) == 3
    assert "undecided: 0 of 2 runs flagged" in capsys.readouterr().out
    lines = (folder / LOG_NAME).read_text().splitlines()
    assert len(lines) == 3  # the header and two runs
    assert run_cli([*AUTO, "--out", str(folder), "--max-runs", "3", "--json"]) == 3
    result = json.loads(capsys.readouterr().out)
    assert (result["decision"], result["runs"], result["resumed_runs"]) == ("undecided", 3, 2)
    assert result["theorems"][0]["decision"] == "undecided"
    assert json.loads((folder / RESULT_NAME).read_text()) == result
    # a line cut short (a killed writer) is set aside and its run made again
    with (folder / LOG_NAME).open("a") as log:
        log.write('{"run": 3, "seed"')
    assert run_cli([*AUTO, "--out", str(folder), "--max-runs", "3", "--json"]) == 3
    captured = capsys.readouterr()
    assert json.loads(captured.out)["runs"] == 3
    assert "dropped 1 line(s)" in captured.err
    assert (folder / "runs.dropped.jsonl").exists()


def test_other_options_or_a_foreign_file_are_refused(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "calibration"
    assert run_cli([*AUTO, "--out", str(folder), "--max-runs", "1"]) == 3
    before = (folder / LOG_NAME).read_bytes()
    capsys.readouterr()
    assert run_cli([*AUTO, "--out", str(folder), "--max-runs", "1", "--seed", "3"]) == 2
    assert capsys.readouterr().err.startswith("offcmab calibrate: error: out: ")
    assert (folder / LOG_NAME).read_bytes() == before
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / LOG_NAME).write_text("my own notes\n")
    assert run_cli([*AUTO, "--out", str(mine)]) == 2
    assert "never replaced" in capsys.readouterr().err
    assert (mine / LOG_NAME).read_text() == "my own notes\n"
    assert run_cli(["calibrate", "--only", ID, "--runs", "2", "--out", str(mine)]) == 2


@pytest.mark.parametrize("name", [RESULT_NAME, DROPPED_NAME])
def test_a_new_calibration_refuses_a_folder_with_a_file_it_would_write(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a run log of its own, a calibration folder holding a file the calibration
    writes (its result, the lines a resume sets aside) is someone else's: refused before
    any run, the file untouched."""
    def no_runs(*_: object, **__: object) -> None:
        raise AssertionError("a run started")

    monkeypatch.setattr(calibration_auto, "_run_until_decided", no_runs)
    (tmp_path / name).write_text("my own notes\n")
    assert run_cli([*AUTO, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("offcmab calibrate: error: out: ") and name in err
    assert (tmp_path / name).read_text() == "my own notes\n"
    assert not (tmp_path / LOG_NAME).exists()


def test_flagged_runs_refute_at_the_planned_count(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # every run flagged (a stand-in for validate, so that the stopping rule is tested
    # without the hours a real miscalibration would take to show): the calibration stops
    # at the refuting count, not one run later
    def flagged(config: RunConfig, theorems: object) -> RunOutcome:
        return RunOutcome(config.seed, 1, (ID,), {ID: 0.001}, 0.001)

    monkeypatch.setattr(calibration, "one_run", flagged)
    code = run_cli([*AUTO, "--out", str(tmp_path / "wrong"), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 1 and result["decision"] == "refuted"
    assert result["runs"] == result["overall"]["failed"] == plan(0.001).refuting
    assert result["theorems"][0]["decision"] == "refuted"


def test_clean_runs_confirm_a_budget_once_planned_runs_are_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a stated budget of 0.5 needs 6 clean runs (0.5^6 < 0.025 <= 0.5^5)
    monkeypatch.setattr(calibration_auto, "FALSE_ALARM_BUDGET", 0.5)
    assert plan(0.5).runs == 6
    assert run_cli([*AUTO, "--out", str(tmp_path / "c"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["decision"], result["runs"], result["overall"]["failed"]) == \
        ("confirmed", 6, 0)
