"""A user's algorithm cannot break a validation run (offcmab.validation.sandbox).

Whatever the algorithm does (sys.exit, os._exit in a worker, raise, hang, write into its
input, print, draw from the global numpy generator), the run ends with a report and the
documented exit code; Ctrl-C and SIGTERM stop a two-worker run without leaving workers
behind.  Every run here is deterministic: a fixed seed, the quick profile, no assertion on
timings (the hanging algorithm never returns; only the exit code and the message are
checked).  No assertion is a Monte-Carlo test: there is no false-alarm probability.
"""

from __future__ import annotations

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
from test_cli_solve import run_cli

from offcmab.validation.api import AlgorithmFailed, check
from offcmab.validation.parts.scenario import Subject
from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.sandbox import AlgorithmFault
from offcmab.validation.scenarios import im
from offcmab.validation.subjects import resolve
from offcmab.validation.theorems import THEOREMS

try:
    import psutil
except ImportError:  # the /proc walk below does without it
    psutil = None

CASCADE = "cor1-cascade"
THEOREM_IM = next(theorem for theorem in THEOREMS
                  if theorem.scenario.algorithm == "offcmab.reference.im.clcb_im_node")

ALGORITHMS = '''
import os
import sys
import time

import numpy as np


def _rank(dataset, k):
    counts = np.bincount(dataset.triggered, minlength=dataset.m)
    return np.argsort(-counts, kind="stable")[:k]


def leaves(dataset, k, delta):
    sys.exit(0)


def ends_worker(dataset, k, delta):
    os._exit(3)


def raises(dataset, k, delta):
    return {}["missing"]


def interrupts(dataset, k, delta):
    raise KeyboardInterrupt


def hangs(dataset, k, delta):
    while True:
        pass


def mutates(dataset, k, delta):
    dataset.outcomes[:] = 1.0
    return _rank(dataset, k)


def chatty(dataset, k, delta):
    for line in range(200):
        print("chatty line", line)
    print("chatty error", file=sys.stderr)
    return _rank(dataset, k)


def global_random(dataset, k, delta):
    return np.random.permutation(dataset.m)[:k]


def own_random(dataset, k, delta):
    return np.random.default_rng().permutation(dataset.m)[:k]


def slow(dataset, k, delta):
    time.sleep(0.05)
    return _rank(dataset, k)
'''


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    path = tmp_path / "mine.py"
    path.write_text(ALGORITHMS, encoding="utf-8")
    return path


def validate(mine: Path, function: str, out: Path, *options: str) -> int:
    return run_cli(["validate", "--quick", "--only", CASCADE, "--algorithm",
                    f"{mine}:{function}", "--out", str(out), "--no-figures", *options])


def report_of(out: Path) -> dict[str, Any]:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


def error_of(out: Path) -> str:
    report = report_of(out)
    rows = [row for row in report["rows"] if row["verdict"] == "error"]
    assert [row["id"] for row in rows] == [CASCADE]
    assert report["summary"]["error"] == 1 and report["summary"]["pass"] == 0
    assert rows[0]["reason"] == report["errors"][CASCADE]
    return str(rows[0]["reason"])


FAULTS = [("leaves", (), "called sys.exit(0)"),
          ("raises", (), "raised KeyError: 'missing' (at mine.py:"),
          ("interrupts", (), "raised KeyboardInterrupt itself at mine.py:"),
          ("hangs", ("--trial-timeout", "2"), "did not return within 2 s (--trial-timeout"),
          ("mutates", (), "wrote into its input"),
          ("ends_worker", ("--jobs", "2"), "worker process running it ended abruptly")]


@pytest.mark.parametrize(("function", "options", "message"), FAULTS)
def test_a_faulty_algorithm_gives_error_rows_and_exit_4(
        mine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str,
        options: tuple[str, ...], message: str) -> None:
    out = tmp_path / "out"
    assert validate(mine, function, out, *options) == 4
    reason = error_of(out)
    assert message in reason and f"mine.py:{function}" in reason
    assert "## Errors" in (out / "report.md").read_text(encoding="utf-8")
    captured = capsys.readouterr()
    assert captured.out == ""  # the summary line is not printed for a failed algorithm
    assert "Traceback" not in captured.err and message in captured.err


def test_a_write_into_the_cached_graph_raises_and_leaves_it_intact(tmp_path: Path) -> None:
    """The influence scenario hands every trial the same cached graph structure: an
    algorithm that writes into it faults, and the next trial sees the graph unchanged."""
    path = tmp_path / "graphs.py"
    path.write_text("def overwrite(graph, cascades, oracle, delta):\n"
                    "    graph.p[:] = 1.0\n    return [0]\n", encoding="utf-8")
    theorem = THEOREM_IM
    instance = theorem.scenario.instances(PROFILES["quick"], 2025)[0]
    spec = f"file:{path}:overwrite"
    before = im.structure(instance.params).p.copy()
    with pytest.raises(AlgorithmFault, match=r"wrote into its input at graphs\.py:2"):
        theorem.scenario.trial(instance, instance.n_grid[0], np.random.default_rng(1),
                               Subject(spec, resolve(spec, theorem)))
    assert np.array_equal(im.structure(instance.params).p, before)
    assert im.structure(instance.params).p.flags.writeable  # ours, not the user's view


def test_what_the_algorithm_prints_goes_to_algorithm_log(
        mine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = validate(mine, "chatty", out)
    captured = capsys.readouterr()
    assert code in (0, 1)
    assert "chatty line" not in captured.out + captured.err
    assert "chatty error" not in captured.out + captured.err
    assert captured.out.startswith("offcmab validate: ")
    log = (out / "algorithm.log").read_text(encoding="utf-8")
    assert "chatty line 199" in log and "chatty error" in log
    assert report_of(out)["algorithm_log"] == str(out / "algorithm.log")


def test_the_global_numpy_generator_is_seeded_per_trial(mine: Path, tmp_path: Path) -> None:
    codes = [validate(mine, "global_random", tmp_path / name) for name in ("a", "b")]
    assert codes[0] == codes[1] and codes[0] in (0, 1)
    rows = [report_of(tmp_path / name)["rows"] for name in ("a", "b")]
    assert [row.get("gap_max") for row in rows[0]] == [row.get("gap_max") for row in rows[1]]
    assert report_of(tmp_path / "a")["nondeterministic"] == {}


def test_an_unseeded_generator_of_its_own_is_reported(mine: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert validate(mine, "own_random", out) in (0, 1)
    report = report_of(out)
    assert CASCADE in report["nondeterministic"]
    notes = [row for row in report["rows"] if row.get("kind") == "repeat"]
    assert [row["id"] for row in notes] == [CASCADE] and notes[0]["verdict"] == "note"
    assert "not reproducible" in notes[0]["reason"]


def test_check_raises_algorithm_failed(mine: Path) -> None:
    with pytest.raises(AlgorithmFailed, match=r"called sys\.exit") as caught:
        check(f"{mine}:leaves", CASCADE, profile="quick")
    assert caught.value.report["errors"][CASCADE]


def test_the_fixture_fails_the_test(mine: Path, offcmab_check: Any) -> None:
    with pytest.raises(pytest.fail.Exception, match=r"raised KeyError"):
        offcmab_check(f"{mine}:raises", CASCADE, profile="quick")


# --- stopping a two-worker run -----------------------------------------------------------

def _children(pid: int) -> set[int]:
    """Every descendant of ``pid`` (psutil when installed, else /proc)."""
    if psutil is not None:
        return {child.pid for child in psutil.Process(pid).children(recursive=True)}
    found: set[int] = set()
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for task in Path(f"/proc/{parent}/task").iterdir():
            children = [int(child) for child in (task / "children").read_text().split()]
            found.update(children)
            frontier.extend(children)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


@pytest.mark.parametrize(("number", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_a_two_worker_run_cleanly(mine: Path, tmp_path: Path, number: int,
                                                 code: int) -> None:
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "offcmab.validation", "validate", "--only", CASCADE,
            "--algorithm", f"{mine}:slow", "--jobs", "2", "--out", str(out), "--no-figures",
            "--no-power"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log = out / "trials.jsonl"
    while process.poll() is None and (not log.exists() or
                                      len(log.read_text().splitlines()) < 6):
        time.sleep(0.1)
    assert process.poll() is None, process.communicate()
    workers = _children(process.pid)
    assert workers  # the pool is running
    kept = len(log.read_text().splitlines())
    process.send_signal(number)
    _, err = process.communicate(timeout=60)
    assert process.returncode == code, err
    # the workers are ended before the run exits; multiprocessing's resource tracker ends
    # when it sees its parent gone, a moment later: allow every child up to 10 s
    patience = time.monotonic() + 10
    while [pid for pid in workers if _alive(pid)] and time.monotonic() < patience:
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)]
    assert len(log.read_text().splitlines()) >= kept
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith(" --resume") and "Traceback" not in err
    assert f"--algorithm {mine}:slow" in lines[0]
