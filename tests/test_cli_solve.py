"""``offcmab solve cascade`` as a user runs it: output keys and bad-input exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.dataset_io import write_dataset
from offcmab.validation.cli import main
from offcmab.validation.solvers.summary import CERTIFICATE_FIELDS, RADIUS_FIELDS, SUMMARY


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
    assert set(out) == {"action", "lcb", "mean", "counts"} | SUMMARY | RADIUS_FIELDS \
        | CERTIFICATE_FIELDS
    assert out["counts"] == [1, 2, 1]
    assert out["action"][0] == 1  # the arm observed twice with mean 1 has the largest LCB


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--k", "4", "--delta", "0.1"], "k: must not exceed the number of arms m=3"),
        (["--k", "1", "--delta", "1.5"], "argument --delta: must lie strictly between 0 and 1"),
        (["--k", "1", "--delta", "nan"], "argument --delta: must be a decimal number"),
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


#: (file name, file content, exact message on stderr) for ``offcmab solve cascade``.
BAD_CASCADE_FILES = [
    ("big.jsonl", '{"m": 3}\n{"triggered": [99999999999999999999999], "outcomes": [1]}\n',
     "line 2: triggered: holds an id too large for a 64-bit integer"),
    ("huge_m.jsonl", '{"m": 100000000000000}\n{"triggered": [0], "outcomes": [1]}\n',
     "line 1: m: at most 50000000 is supported, got 100000000000000"),
    ("deep.jsonl", '{"m": 3}\n' + "[" * 100_000 + "\n",
     "line 2: json: nested too deeply (more than 64 levels of arrays and objects)"),
    ("prefix.jsonl", '{"m": 3}\n{"action": [1, 2], "triggered": [0], "outcomes": [1]}\n',
     "line 2: triggered: must be a prefix of the ranked list (action)"),
    ("early.jsonl", '{"m": 3}\n\n{"action": [0, 1, 2], "triggered": [0, 1], '
     '"outcomes": [1, 0]}\n',
     "line 3: outcomes: a click before the last triggered item: cascade feedback stops at "
     "the first click"),
    ("stopped.jsonl", '{"m": 3}\n{"action": [0, 1, 2], "triggered": [0], "outcomes": [0]}\n',
     "line 2: triggered: must be the list up to the first click (all of it when nothing was "
     "clicked)"),
    ("empty_sample.jsonl", '{"m": 3}\n{"triggered": [], "outcomes": []}\n',
     "line 2: triggered: is empty: the first item of a list is always examined"),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD_CASCADE_FILES)
def test_solve_cascade_bad_file(
    tmp_path: Path, name: str, text: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_text(text)
    assert run_cli(["solve", "cascade", "--data", str(path), "--k", "1", "--delta", "0.1"]) == 2
    err = capsys.readouterr().err
    assert err == f"offcmab solve: error: {message}\n"


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ({"m": np.int64(10**15)}, "m: at most 50000000 is supported, got 1000000000000000"),
        ({"outcomes": np.array([1 + 1j])}, "outcomes: must contain real numbers, got dtype "
         "complex128"),
    ],
)
def test_solve_cascade_bad_npz(
    tmp_path: Path, arrays: dict[str, np.ndarray], message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    good = {"m": np.int64(3), "triggered_offsets": np.array([0, 1]), "triggered": np.array([0]),
            "outcomes": np.array([1.0])}
    path = tmp_path / "log.npz"
    np.savez(path, **(good | arrays))  # type: ignore[arg-type]
    assert run_cli(["solve", "cascade", "--data", str(path), "--k", "1", "--delta", "0.1"]) == 2
    assert capsys.readouterr().err == f"offcmab solve: error: {message}\n"


@pytest.mark.parametrize("rule", ["uniform", "mixture", "ucb", "lcb", "mean"])
def test_every_cascade_data_law_passes_the_log_check(rule: str) -> None:
    from offcmab.reference.problems.cascade import (
        AdaptiveListsLaw,
        CascadeProblem,
        ListMixtureLaw,
        UniformListsLaw,
        check_cascade_log,
    )

    problem = CascadeProblem(np.array([0.9, 0.6, 0.5, 0.3, 0.2, 0.1]), 3)
    rng = np.random.default_rng(7)
    law: UniformListsLaw | ListMixtureLaw | AdaptiveListsLaw
    if rule == "uniform":
        law = UniformListsLaw(problem)
    elif rule == "mixture":
        law = ListMixtureLaw(problem, np.array([[0, 1, 2], [5, 4, 3]]), np.array([0.3, 0.7]))
    else:
        law = AdaptiveListsLaw(problem, rule)  # type: ignore[arg-type]
    data = law.sample(300, rng)
    assert check_cascade_log(data) is data
