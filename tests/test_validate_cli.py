"""``offcmab validate`` as users and CI run it, on the real scenarios.

Statistical content: a correct bound is flagged in a run with probability at most the
run's false-alarm budget, 1e-3 (exact binomial tails, Bonferroni over the rows with
power; see ``offcmab.validation.parts.verdict``), so ``--quick`` exiting 0 fails spuriously
with probability at most 1e-3 at its fixed seed (the outcome is deterministic: this is
the chance that the chosen seed is an unlucky one).  The regression tests make the
bound or the algorithm wrong on purpose and require exit 1.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from offcmab.validation.cli import main
from offcmab.validation.runner.backends import LOCAL_DASHBOARD


def run_cli(argv: list[str]) -> int:
    """Exit code of the CLI whether it returns it or argparse raises SystemExit."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def rows(out: Path) -> list[dict[str, Any]]:
    report: list[dict[str, Any]] = json.loads((out / "report.json").read_text())["rows"]
    return report


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("quick")
    assert run_cli(["validate", "--quick", "--out", str(out)]) == 0
    return out


def test_quick_run_passes_and_writes_the_report(quick_report: Path) -> None:
    report = json.loads((quick_report / "report.json").read_text())
    ids = {row["id"] for row in report["rows"] if row.get("kind") != "event"}
    assert ids == {"thm1-inf", "thm1-one", "thm2-lower", "cor1-cascade", "lem-llm-std",
                   "thm3-llm", "thm-llm-online", "thm4-im"}
    events = [row for row in report["rows"] if row.get("kind") == "event"]
    assert {row["id"].split("-")[0] for row in events} == {"event"}
    assert {row["verdict"] for row in events} <= {"pass", "known-failure", "note"}
    summary = report["summary"]
    assert summary["FAIL"] == 0
    assert summary["pass"] + summary["vacuous"] > 50  # what "pass" counted before vacuity
    assert summary["power"] == summary["pass"] + summary["FAIL"] >= 20
    assert report["false_alarm_budget"] == 1e-3
    assert report["tested_rows"] * report["row_level"] == pytest.approx(1e-3, rel=1e-12)
    assert report["seed"] == 2025 and report["versions"]["numpy"]
    for bound_id in ids:  # every id has at least one tested row
        assert any(r["id"] == bound_id and r["verdict"] in ("pass", "vacuous")
                   for r in report["rows"])
    with_power = {r["id"] for r in report["rows"] if r["verdict"] == "pass"}
    assert with_power >= {"thm1-inf", "thm1-one", "thm2-lower", "cor1-cascade"}
    for row in report["rows"]:  # vacuous exactly when the bound reaches the largest gap
        if row.get("max_gap") is not None and row["bound"] is not None:
            assert (row["verdict"] == "vacuous") == (row["bound"] >= row["max_gap"]), row
    assert (quick_report / "report.md").read_text().startswith("# offcmab validate")
    assert {p.name for p in (quick_report / "figures").glob("*.png")} == \
        {f"{bound_id}.png" for bound_id in ids}


def test_each_scenario_runs_an_algorithm_that_claims_its_bound() -> None:
    """The algorithm a scenario runs declares the scenario's bound id in its ``THEORY``.

    A lower bound covers every algorithm, so its scenario is exempt.
    """
    from offcmab.validation.theorems import THEOREMS

    for theorem in THEOREMS:
        bound_id, scenario = theorem.id, theorem.scenario
        assert scenario.bound_id == bound_id
        if scenario.kind == "upper":
            assert bound_id in importlib.import_module(scenario.algorithm).THEORY


@pytest.mark.parametrize("profile", ["quick", "default", "full"])
def test_instances_are_pure_data_with_unique_names(profile: str) -> None:
    """Every profile's instances: unique names, JSON-able params, the same for the same seed."""
    from offcmab.validation.parts.spec import PROFILES
    from offcmab.validation.theorems import THEOREMS

    for theorem in THEOREMS:
        scenario = theorem.scenario
        first = scenario.instances(PROFILES[profile], 11)
        assert [i.name for i in first] == list(dict.fromkeys(i.name for i in first))
        assert first == scenario.instances(PROFILES[profile], 11)
        json.dumps([i.params for i in first])


def test_na_rows_say_why(quick_report: Path) -> None:
    na = [row for row in rows(quick_report) if row["verdict"] == "n/a"]
    assert na and all(row["reason"] for row in na)


def test_bound_scale_probe_fails_the_run(tmp_path: Path) -> None:
    code = run_cli(["validate", "--quick", "--only", "thm-llm-online", "thm3-llm",
                    "--bound-scale", "0.001", "--out", str(tmp_path), "--no-figures"])
    assert code == 1
    assert any(row["verdict"] == "FAIL" for row in rows(tmp_path))


def test_dropping_clcb_pessimism_is_caught(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The CI regression: a zero confidence radius makes Theorem 1 fail on ``pessimism``."""
    clcb_module = importlib.import_module("offcmab.reference.clcb")

    def no_radius(counts: np.ndarray, *args: object, **kwargs: object) -> np.ndarray:
        return np.where(counts > 0, 0.0, np.inf)

    monkeypatch.setattr(clcb_module, "hoeffding_radius", no_radius)
    code = run_cli(["validate", "--quick", "--only", "thm1-inf", "--out", str(tmp_path),
                    "--no-figures"])
    assert code == 1
    failing = {(r["instance"], r["variant"]) for r in rows(tmp_path) if r["verdict"] == "FAIL"}
    assert ("pessimism", "stated") in failing


@pytest.mark.parametrize("argv", [
    ["--only", "thm9"],
    ["--jobs", "0"],
    ["--bound-scale", "-1"],
    ["--bound-scale", "nan"],
    ["--seed", "x"],
    ["--quick", "--full"],
    ["--backend", "serial", "--scheduler", "tcp://127.0.0.1:1"],
])
def test_bad_usage_exits_2_with_one_line(argv: list[str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["validate", *argv, "--out", str(tmp_path)]) == 2
    error = capsys.readouterr().err.strip()
    assert error and "\n" not in error and "Traceback" not in error


def test_out_that_is_a_file_is_named(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "report.txt"
    target.write_text("not a folder", encoding="utf-8")
    assert run_cli(["validate", "--quick", "--out", str(target)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"offcmab validate: error: out: {target} exists and is not a folder")


def test_resume_refuses_another_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["validate", "--quick", "--only", "thm2-lower", "--out", str(tmp_path),
            "--no-figures"]
    assert run_cli([*argv, "--seed", "1"]) == 0
    assert run_cli([*argv, "--seed", "2", "--resume"]) == 2
    assert "seed" in capsys.readouterr().err


@pytest.mark.slow
def test_processes_backend_gives_identical_rows(tmp_path: Path) -> None:
    argv = ["validate", "--quick", "--only", "thm1-one", "thm2-lower", "--no-figures"]
    assert run_cli([*argv, "--out", str(tmp_path / "one")]) == 0
    assert run_cli([*argv, "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    assert rows(tmp_path / "one") == rows(tmp_path / "two")


@pytest.mark.slow
def test_dask_backend_gives_identical_rows(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    argv = ["validate", "--quick", "--only", "thm3-llm", "--no-figures"]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=LOCAL_DASHBOARD) as cluster:
        assert run_cli([*argv, "--backend", "dask", "--scheduler",
                        cluster.scheduler_address, "--out", str(tmp_path / "dask")]) == 0
    assert run_cli([*argv, "--out", str(tmp_path / "serial")]) == 0
    assert rows(tmp_path / "dask") == rows(tmp_path / "serial")


@pytest.mark.slow
def test_resume_after_a_killed_run_gives_identical_rows(tmp_path: Path) -> None:
    """Kill a real ``offcmab validate`` process mid-run, resume it, compare with a clean run."""
    argv = ["validate", "--quick", "--only", "thm-llm-online", "thm4-im", "--no-figures"]
    log = tmp_path / "killed" / "trials.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "validation", *argv, "--out", str(tmp_path / "killed")],
        cwd=Path(__file__).resolve().parents[1], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": "."})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait until some, not all, trials are written
        if log.exists() and len(log.read_text().splitlines()) > 15:
            break
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    written = len(log.read_text().splitlines()) - 1
    # quick, 10 trials per (instance, n): online 4 instances x 1 n + the rate instance x 3 n,
    # then IM 1 instance x 1 n + the rate instance x 4 n
    total = 10 * (4 + 3) + 10 * (1 + 4)
    assert 0 < written < total, "the kill should land mid-run"
    assert run_cli([*argv, "--resume", "--out", str(tmp_path / "killed")]) == 0
    assert run_cli([*argv, "--out", str(tmp_path / "clean")]) == 0
    assert rows(tmp_path / "killed") == rows(tmp_path / "clean")
    keys = [json.loads(line).get("key") for line in log.read_text().splitlines()[1:]]
    assert len(keys) == len(set(keys)) == total  # no trial written twice, none lost


def test_report_md_shows_the_failure_probability_each_row_is_tested_at(
        quick_report: Path) -> None:
    """Each id's table in ``report.md`` has a ``failure_probability`` column holding the
    probability of its row's exact test (``report.json``), bound rows as well as event rows."""
    text = (quick_report / "report.md").read_text()
    by_id: dict[str, list[dict[str, Any]]] = {}
    for row in rows(quick_report):
        by_id.setdefault(row["id"], []).append(row)
    checked = 0
    for bound_id, mine in by_id.items():
        section = text.split(f"\n## {bound_id}\n\n", 1)[1]
        header, _, *lines = section.split("\n")[: len(mine) + 2]
        column = [cell.strip() for cell in header.strip("|").split("|")].index(
            "failure_probability")
        for row, line in zip(mine, lines, strict=True):
            cell = [cell.strip() for cell in line.strip("|").split("|")][column]
            tested = row.get("failure_probability")
            assert cell == ("—" if tested is None else f"{tested:.3g}"), (bound_id, line)
            checked += tested is not None and row.get("kind") != "event"
    assert checked > 0  # bound rows carry it, not only event rows
