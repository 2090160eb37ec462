"""``offcmab solve cascade`` as a user runs it: output keys and bad-input exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reference.dataset import OfflineDataset
from reference.dataset_io import write_dataset
from validation.cli import main


def run_cli(argv: list[str]) -> int:
    """Exit code of the CLI whether it returns it or argparse raises SystemExit."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "log.jsonl"
    data = OfflineDataset.from_records(3, [[0, 1], [1], [2]], [[0.0, 1.0], [1.0], [0.0]])
    write_dataset(data, path)
    return path


def test_solve_cascade_json(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "cascade", "--data", str(log), "--k", "2", "--delta", "0.1",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"action", "lcb", "mean", "counts"}
    assert out["counts"] == [1, 2, 1]
    assert out["action"][0] == 1  # the arm observed twice with mean 1 has the largest LCB


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--k", "4", "--delta", "0.1"], "k: must not exceed the number of arms m=3"),
        (["--k", "1", "--delta", "1.5"], "argument --delta: must lie strictly between 0 and 1"),
        (["--k", "1", "--delta", "nan"], "argument --delta: must lie strictly between 0 and 1"),
        (["--k", "0", "--delta", "0.1"], "argument --k: must be at least 1"),
    ],
)
def test_solve_cascade_bad_input(
    log: Path, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["solve", "cascade", "--data", str(log), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) <= 3
    assert "Traceback" not in err


def test_solve_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", "cascade", "--data", str(tmp_path / "x.jsonl"), "--k", "1",
                 "--delta", "0.1"])
    assert code == 2
    assert "data: file not found" in capsys.readouterr().err
