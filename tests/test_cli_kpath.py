"""``offcmab solve kpath`` and ``offcmab bench`` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_cli_solve import run_cli

from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.dataset_io import write_dataset
from offcmab.reference.problems.kpath import lower_bound_family
from offcmab.validation.cli import main
from offcmab.validation.solvers.summary import CERTIFICATE_FIELDS, RADIUS_FIELDS, SUMMARY


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "paths.npz"
    family = lower_bound_family(6, 3, 4.0, 0.25, "proved")
    write_dataset(family.second.sample(400, np.random.default_rng(0)), path)
    return path


def test_solve_kpath_json(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "kpath", "--data", str(log), "--k", "3", "--delta", "0.1",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"action", "path", "lcb", "mean", "counts"} | SUMMARY | RADIUS_FIELDS \
        | CERTIFICATE_FIELDS
    assert out["action"] == [3 * out["path"] + j for j in range(3)]
    assert out["counts"][6:] == [] and len(out["lcb"]) == 6
    assert out["lcb"][0] is not None


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--k", "4", "--delta", "0.1"], "k: must divide the number of arms m=6"),
        (["--k", "7", "--delta", "0.1"], "k: must not exceed the number of arms m=6"),
        (["--k", "3", "--delta", "0"], "argument --delta: must lie strictly between 0 and 1"),
        (["--k", "x", "--delta", "0.1"], "argument --k: must be an integer written in digits 0-9"),
    ],
)
def test_solve_kpath_bad_input(
    log: Path, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["solve", "kpath", "--data", str(log), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_solve_kpath_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"m": 4}\n{"triggered": [0, 9], "outcomes": [0, 1]}\n')
    assert run_cli(["solve", "kpath", "--data", str(bad), "--k", "2", "--delta", "0.1"]) == 2
    err = capsys.readouterr().err
    assert "line 2: triggered" in err and len(err.strip().splitlines()) == 1
    path = tmp_path / "ok.jsonl"
    write_dataset(OfflineDataset.from_records(4, [[0, 1]], [[1.0, 1.0]]), path)
    assert run_cli(["solve", "kpath", "--data", str(path), "--k", "2", "--delta", "0.1"]) == 0


def test_bench_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "--quick", "--json", "--only", "clcb-statistics"])
    everything = json.loads(capsys.readouterr().out)
    # the exit code is the verdict on the goals (whether they are met is not asserted)
    assert code == {True: 0, False: 1, None: 3}[everything["summary"]["all_met"]]
    out = everything["clcb-statistics"]
    problems = ("cascade", "kpath", "llm-cache", "im-node")
    for problem in problems:
        for key in ("solve_s", "floor_s", "ratio", "memory_ratio", "solve_peak_rss_mb"):
            assert out[problem][key] > 0
    assert out["cascade"]["n"] == 20_000 and out["llm-cache"]["n"] == 20_000
    assert out["im-node"]["n"] == 20_000
    rows = everything["summary"]["figures"]
    assert [row["figure"] for row in rows] == [f"solve {p} time" for p in problems]
    worst = everything["summary"]["worst_lower_is_better"]
    assert worst["ratio"] == max(row["ratio"] for row in rows)
    assert everything["summary"]["all_met"] == (all(row["met"] for row in rows) if rows else None)


def test_bench_table_prints_nested_blocks(capsys: pytest.CaptureFixture[str]) -> None:
    from offcmab.validation.commands.bench import _print_rows

    _print_rows({"ratio": 1.23456, "case": {"first_s": 0.5}}, 2)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["ratio", "1.235"]
    assert lines[1].strip() == "case" and lines[2].split() == ["first_s", "0.5"]
