"""Fault injection: what a hostile or mistaken user's algorithm does to each command.

One table per command.  Every row is an algorithm (or an input) that once gave a wrong
exit code, a traceback, a hung run or processes left behind, with what the command must
now answer.  Rows whose fault ends or signals the process itself (``os._exit``, a kill, a
fork) run the command as a user does (``python -m offcmab`` in a session of its own, so
that it runs supervised) and check afterwards, from ``/proc``, that no process of that
session is left; the others run in this process (faster).  No Monte-Carlo assertion:
no false-alarm probability to state; every run has a fixed seed.  The only clock is
patience (how long to wait for a command to end), never an assertion on speed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from processes import finish, start
from test_cli_solve import run_cli

CASCADE = "cor1-cascade"

ALGORITHMS = '''
import os
import signal
import sys
import time

import numpy as np


def _rank(dataset, k):
    counts = np.zeros(dataset.m)
    np.add.at(counts, dataset.triggered, dataset.outcomes)
    seen = np.maximum(np.bincount(dataset.triggered, minlength=dataset.m), 1)
    return np.argsort(-(counts / seen), kind="stable")[:k]


def exits_zero(dataset, k, delta):
    os._exit(0)


def kills_itself(dataset, k, delta):
    os.kill(os.getpid(), signal.SIGKILL)


def terminates_itself(dataset, k, delta):
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(30)


def interrupts_itself(dataset, k, delta):
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(30)


CALLS = []


def _enough():
    """The third call of a process raises: the run ends early (exit 4), quickly."""
    CALLS.append(os.getpid())
    if CALLS.count(os.getpid()) >= 3:
        raise RuntimeError("enough")


def forks_a_sleeper(dataset, k, delta):
    _enough()
    if os.fork() == 0:
        time.sleep(600)
        os._exit(0)
    return _rank(dataset, k)


def forks_and_returns(dataset, k, delta):
    _enough()
    os.fork()
    return _rank(dataset, k)


def raises(dataset, k, delta):
    return {}["missing"]


def leaves(dataset, k, delta):
    sys.exit(0)


def mutates(dataset, k, delta):
    dataset.outcomes[:] = 1.0
    return _rank(dataset, k)


def interrupts(dataset, k, delta):
    raise KeyboardInterrupt


def hangs(dataset, k, delta):
    while True:
        pass


def chatty(dataset, k, delta):
    print("chatty line")
    print("chatty error", file=sys.stderr)
    return _rank(dataset, k)
'''


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    path = tmp_path / "mine.py"
    path.write_text(ALGORITHMS, encoding="utf-8")
    return path


def supervised(arguments: list[str], cwd: Path) -> tuple[int, str, str, list[int]]:
    """Run ``offcmab ARGUMENTS`` as a user does; exit code, stdout, stderr and the pids of
    its session still alive afterwards (killed by the helper)."""
    temporary = cwd / "tmp"
    temporary.mkdir(exist_ok=True)
    run = start(arguments, cwd, {"TMPDIR": str(temporary)})
    code, out, err = finish(run)
    left = run.leftovers()
    assert not list(temporary.iterdir()), "the run's temporary folder is removed"
    return code, out, err, left


# --- validate --algorithm: faults of the process itself -------------------------------------

VALIDATE = [
    # (function, options, exit code, words of stderr)
    ("exits_zero", (), 4, "exited with status 0 before the run finished"),
    ("exits_zero", ("--jobs", "2"), 4, "ended abruptly"),
    ("kills_itself", (), 4, "was killed by signal SIGKILL"),
    ("terminates_itself", (), 4, "signal that did not come from outside"),
    ("interrupts_itself", (), 4, "signal that did not come from outside"),
    ("forks_a_sleeper", (), 4, "raised RuntimeError: enough"),
    ("forks_a_sleeper", ("--jobs", "2"), 4, "raised RuntimeError: enough"),
    ("forks_and_returns", (), 4, "raised RuntimeError: enough"),
]


@pytest.mark.parametrize(("function", "options", "code", "words"), VALIDATE)
def test_validate_survives_what_the_algorithm_does_to_its_process(
        mine: Path, tmp_path: Path, function: str, options: tuple[str, ...], code: int,
        words: str) -> None:
    """``os._exit(0)`` or a signal from the algorithm ends the run with exit 4, never 0;
    what it forks dies with the run, and a forked copy that returns into the run ends
    there, so no trial is written twice (the forking functions raise on their third call,
    which ends the run early with their own fault)."""
    out = tmp_path / "out"
    got, _, err, left = supervised(
        ["validate", "--quick", "--only", CASCADE, "--algorithm", f"{mine}:{function}",
         "--out", str(out), "--no-figures", "--no-power", *options], tmp_path)
    assert left == []
    assert "Traceback" not in err
    assert got == code, err
    assert words in err and f"mine.py:{function}" in err
    log = out / "trials.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()[1:] if log.exists() else []
    keys = [json.loads(line)["key"] for line in lines]
    assert len(keys) == len(set(keys))


# --- falsify: the algorithm's faults ----------------------------------------------------------

FALSIFY_IN_PROCESS = [
    ("raises", (), "raised KeyError: 'missing'"),
    ("leaves", (), "called sys.exit(0)"),
    ("mutates", (), "wrote into its input"),
    ("interrupts", (), "raised KeyboardInterrupt itself"),
    ("hangs", ("--trial-timeout", "1"), "did not return within 1 s (--trial-timeout"),
]


@pytest.mark.parametrize(("function", "options", "words"), FALSIFY_IN_PROCESS)
def test_falsify_answers_a_faulty_algorithm_with_exit_4(
        mine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str,
        options: tuple[str, ...], words: str) -> None:
    code = run_cli(["falsify", f"{mine}:{function}", "--only", CASCADE, "--budget", "5",
                    "--out", str(tmp_path / "out"), *options])
    err = capsys.readouterr().err
    assert code == 4, err
    assert words in err and f"mine.py:{function}" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


FALSIFY_SUPERVISED = [
    ("exits_zero", 4, "exited with status 0"),
    ("kills_itself", 4, "killed by signal SIGKILL"),
    ("terminates_itself", 4, "signal that did not come from outside"),
    ("forks_a_sleeper", 4, "raised RuntimeError: enough"),
]


@pytest.mark.parametrize(("function", "code", "words"), FALSIFY_SUPERVISED)
def test_falsify_survives_what_the_algorithm_does_to_its_process(
        mine: Path, tmp_path: Path, function: str, code: int, words: str) -> None:
    got, _, err, left = supervised(
        ["falsify", f"{mine}:{function}", "--only", CASCADE, "--budget", "3",
         "--no-database", "--out", str(tmp_path / "out")], tmp_path)
    assert left == []
    assert "Traceback" not in err
    assert got == code, err
    assert words in err


def test_falsify_json_stays_json_and_the_prints_go_to_the_log(
        mine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    code = run_cli(["falsify", f"{mine}:chatty", "--only", CASCADE, "--budget", "3",
                    "--out", str(out), "--json"])
    captured = capsys.readouterr()
    assert code in (0, 1, 3), captured.err
    assert json.loads(captured.out)["bound_id"] == CASCADE
    assert "chatty" not in captured.err
    log = (out / "algorithm.log").read_text(encoding="utf-8")
    assert "chatty line" in log and "chatty error" in log


# --- falsify: the example database and hypothesis's own folder ------------------------------

def _file(tmp_path: Path) -> str:
    path = tmp_path / "a-file"
    path.write_text("mine\n", encoding="utf-8")
    return str(path)


DATABASES = [
    # (how the database option is made from tmp_path, words of the refusal)
    (_file, "is not a folder"),
    (lambda tmp_path: str(Path(_file(tmp_path)) / "below"), "is not a folder"),
]


@pytest.mark.parametrize(("database", "words"), DATABASES)
def test_falsify_refuses_a_database_it_could_not_write(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], database: object,
        words: str) -> None:
    assert callable(database)
    code = run_cli(["falsify", "reference", "--only", CASCADE, "--budget", "3",
                    "--database", database(tmp_path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("offcmab falsify: error: database: ")
    assert words in err
    assert not (tmp_path / "out").exists()  # refused before any search


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="permissions do not bind root")
def test_falsify_refuses_a_read_only_database(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "examples"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        code = run_cli(["falsify", "reference", "--only", CASCADE, "--budget", "3",
                        "--database", str(folder), "--out", str(tmp_path / "out")])
    finally:
        folder.chmod(0o700)
    assert code == 2 and "database: " in capsys.readouterr().err


@pytest.mark.parametrize("options", [("--no-database",), ()])
def test_falsify_leaves_no_hypothesis_folder_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: tuple[str, ...]) -> None:
    """Hypothesis's caches go to a temporary folder, not ``.hypothesis/`` in the current
    folder; with ``--no-database`` no example folder is made either."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    code = run_cli(["falsify", "reference", "--only", CASCADE, "--budget", "3", "--out",
                    str(out), *options])
    assert code in (0, 3)
    assert not (tmp_path / ".hypothesis").exists()
    assert (out / "examples").is_dir() == (not options)


def test_falsify_with_no_candidate_evaluated_checked_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 1's first instance of cor1-cascade is vacuous: a budget of one instance
    evaluates no candidate, which is no evidence of anything (exit 3, not 0)."""
    code = run_cli(["falsify", "reference", "--only", CASCADE, "--budget", "1", "--seed",
                    "1", "--out", str(tmp_path / "out"), "--json"])
    record = json.loads(capsys.readouterr().out)
    assert record["search"]["counts"]["candidate"] == 0
    assert code == 3 and record["verdict"] == "not checked"


# --- sizes: refused before any work, naming the field and the limit -------------------------

@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A saved instance of cor1-cascade (``offcmab tightness --out``)."""
    path = tmp_path_factory.mktemp("saved") / "tight.json"
    assert run_cli(["tightness", CASCADE, "--budget", "3", "--out", str(path)]) == 0
    document: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return document


def _replay(saved: dict[str, object], tmp_path: Path, **changes: int) -> list[str]:
    path = tmp_path / "replay.json"
    path.write_text(json.dumps({**saved, **changes}), encoding="utf-8")
    return ["falsify", "reference", "--replay", str(path), "--out", str(tmp_path / "out")]


HUGE = 10**12

SIZES = [
    # (arguments from (saved instance, tmp_path), field named)
    (lambda saved, tmp: ["calibrate", "--only", CASCADE, "--runs", str(HUGE)], "runs"),
    (lambda saved, tmp: ["mutation", "--only", CASCADE, "--replicates", str(HUGE)],
     "replicates"),
    (lambda saved, tmp: ["falsify", "reference", "--only", CASCADE, "--confirm-trials",
                         str(HUGE), "--out", str(tmp / "out")], "confirm_trials"),
    (lambda saved, tmp: _replay(saved, tmp, trials=10**9), "trials"),
    (lambda saved, tmp: _replay(saved, tmp, n=HUGE), "n"),
]


@pytest.mark.parametrize(("arguments", "field"), SIZES)
def test_a_huge_size_is_refused_before_any_work(
        saved: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        arguments: object, field: str) -> None:
    assert callable(arguments)
    code = run_cli(arguments(saved, tmp_path))
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f" {field}: would need " in lines[0]
    assert "more than" in lines[0] and "--force" in lines[0]
    assert not (tmp_path / "out").exists()


def test_the_replayed_trials_are_named_with_their_file(
        saved: dict[str, object], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(_replay(saved, tmp_path, trials=10**9)) == 2
    assert f"replay: {tmp_path / 'replay.json'}: trials: " in capsys.readouterr().err


# --- the supervised command line keeps argparse's answers ------------------------------------

PARSER = [
    (["validate", "--bogus"], 2, "offcmab: error: unrecognized arguments: --bogus"),
    (["calibrate", "--runs", "0"], 2, "argument --runs: must be at least 1"),
    (["falsify", "--help"], 0, ""),
]


@pytest.mark.parametrize(("arguments", "code", "words"), PARSER)
def test_usage_errors_and_help_keep_their_exit_codes(tmp_path: Path, arguments: list[str],
                                                     code: int, words: str) -> None:
    got, out, err, left = supervised(arguments, tmp_path)
    assert (got, left) == (code, [])
    if words:
        assert words in err and len(err.strip().splitlines()) == 1
    else:
        assert err == "" and out.startswith("usage: offcmab falsify")
