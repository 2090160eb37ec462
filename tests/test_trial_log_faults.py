"""Fault injection on the trial log and the output writers.

Real ``offcmab validate`` processes are killed (SIGKILL, SIGINT, SIGTERM) after a seeded
number of finished trials and resumed; logs are truncated, garbled, duplicated, given
non-finite or textual numbers, bad checksums, other seeds, unknown instances and headers
of another version or instance file; writers meet a full disk or a refused permission.
Every case asserts the exit code, the message, and that no finished trial is lost.  Runs
are ``--quick --only`` one id (30 trials), so nothing here is Monte-Carlo: rows are
compared for exact equality with an uninterrupted run of the same seed.
"""

from __future__ import annotations

import errno
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pytest

from offcmab.reference.dataset_io import write_npz
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
from offcmab.validation.cli import main
from offcmab.validation.parts.spec import TrialKey
from offcmab.validation.runner import report as report_io
from offcmab.validation.runner.folder import (
    atomic_figure,
    atomic_text,
    atomic_write_text,
)
from offcmab.validation.runner.seeding import trial_stream
from offcmab.validation.runner.store import (
    DROPPED_NAME,
    LOG_NAME,
    checksum,
    read_log,
    scan,
    sealed,
)
from offcmab.validation.theorems import THEOREMS

BOUND = THEOREMS[[theorem.scenario.kind for theorem in THEOREMS].index("lower")].id
ARGV = ["validate", "--quick", "--only", BOUND, "--no-figures", "--seed", "11"]

#: Waits for a paused child until it has written its lines; never reached when it works.
PATIENCE = 120.0

#: The child: ``offcmab validate`` whose log pauses after ``argv[1]`` appended trials,
#: so that the parent's signal lands at that point whatever the machine's speed.
PAUSING_CHILD = """
import sys, time
from offcmab.validation.runner import store
from offcmab.validation.cli import main
pause_at, written = int(sys.argv[1]), []
original = store.TrialLog.append
def append(self, record):
    original(self, record)
    written.append(record.key)
    if len(written) == pause_at:
        time.sleep(3600)  # the parent signals us here
store.TrialLog.append = append
sys.exit(main(sys.argv[2:]))
"""


def cli(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as stop:  # argparse's usage errors
        return int(stop.code or 0)


def rows(folder: Path) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads((folder / "report.json").read_text())["rows"]
    return found


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted run: its rows and log are what every recovered run must give."""
    folder = tmp_path_factory.mktemp("clean") / "out"
    assert cli([*ARGV, "--out", str(folder)]) == 0
    return folder


def lines_of(folder: Path) -> list[bytes]:
    return (folder / LOG_NAME).read_bytes().splitlines(keepends=True)


def copy_log(clean: Path, folder: Path, lines: list[bytes]) -> Path:
    """A folder holding only a log with ``lines`` (as a killed run leaves it)."""
    folder.mkdir()
    (folder / LOG_NAME).write_bytes(b"".join(lines))
    return folder


def resealed(line: bytes, **changes: Any) -> bytes:
    """``line`` with fields changed and a valid checksum (a line that lies consistently)."""
    data = json.loads(line)
    data.pop("check")
    data.update(changes)
    return sealed(data).encode() + b"\n"


def tampered(line: bytes, **changes: Any) -> bytes:
    """``line`` with fields changed and its old checksum (an edit the checksum catches)."""
    return json.dumps(json.loads(line) | changes).encode() + b"\n"


def measured(folder: Path) -> dict[str, tuple[float, float, dict[str, float]]]:
    """What each trial of a log measured (its seconds aside, which differ between runs)."""
    return {key: (record.gap, record.gap_error, record.extra)
            for key, record in read_log(folder / LOG_NAME)[1].items()}


def assert_nothing_lost(before: list[bytes], after: Path, dropped: set[int]) -> None:
    """Every trial line of ``before`` not dropped (1-based numbers) is still in the log."""
    kept = set(lines_of(after)[1:])
    assert all(line in kept for number, line in enumerate(before, start=1)
               if number not in dropped and b'"key"' in line)
    keys = [json.loads(line)["key"] for line in lines_of(after)[1:]]
    assert len(keys) == len(set(keys))  # no trial twice


# ---------------------------------------------------------------- killed runs


@pytest.mark.parametrize(("number", "seed"), [
    pytest.param(signal.SIGKILL, 1, id="SIGKILL"), pytest.param(signal.SIGINT, 2, id="SIGINT"),
    pytest.param(signal.SIGTERM, 3, id="SIGTERM")])
def test_a_run_killed_after_k_trials_resumes_to_the_uninterrupted_rows(
        clean: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        number: signal.Signals, seed: int) -> None:
    total = len(lines_of(clean)) - 1
    k = int(np.random.default_rng(seed).integers(1, total))  # a seeded point mid-run
    out = tmp_path / "killed"
    child = subprocess.Popen([sys.executable, "-c", PAUSING_CHILD, str(k), *ARGV, "--out",
                              str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline and child.poll() is None:
            log = out / LOG_NAME
            if log.exists() and log.read_bytes().count(b"\n") >= 1 + k:
                break
            time.sleep(0.01)
        child.send_signal(number)
        _, err = child.communicate(timeout=PATIENCE)
    finally:
        child.kill()
    killed = lines_of(out)
    assert len(killed) == 1 + k
    if number == signal.SIGKILL:
        assert child.returncode == -signal.SIGKILL
    else:
        assert child.returncode == (143 if number == signal.SIGTERM else 130)
        message = err.decode()
        assert message.startswith(
            f"offcmab validate: interrupted; finished trials are in {out / LOG_NAME}; resume "
            "with: offcmab validate ")
        assert message.endswith(f" --out {out} --resume\n")
    capsys.readouterr()
    assert cli([*ARGV, "--out", str(out)]) == 2  # a plain rerun would start over: refused
    assert f"{out} already holds {LOG_NAME}, which this command writes" in \
        capsys.readouterr().err
    assert lines_of(out) == killed
    assert cli([*ARGV, "--out", str(out), "--resume"]) == 0
    assert capsys.readouterr().err == ""  # nothing to drop after a clean stop
    assert rows(out) == rows(clean)
    assert lines_of(out)[:1 + k] == killed  # the finished trials were kept as written
    assert measured(out) == measured(clean)
    assert len(lines_of(out)) == len(lines_of(clean))  # no trial twice


# ---------------------------------------------------------------- damaged logs


def damaged_cases(lines: list[bytes]) -> dict[str, tuple[list[bytes], dict[int, str]]]:
    """Name -> (damaged log, {line number: reason the resume gives})."""
    last = len(lines)
    fields = json.loads(lines[3])
    unknown = TrialKey(fields["id"], fields["instance"] + "-gone", fields["n"],
                       fields["trial"])
    def replaced(number: int, line: bytes) -> list[bytes]:
        return [*lines[:number - 1], line, *lines[number:]]

    def inserted(number: int, line: bytes) -> list[bytes]:
        return [*lines[:number - 1], line, *lines[number - 1:]]

    gap = json.loads(lines[3])["gap"]
    return {
        "cut short": (replaced(last, lines[-1][:40]), {last: "cut short"}),
        "garbled": (inserted(5, b'{"key": "x|y|{\n'), {5: "not JSON"}),
        "duplicate": (inserted(7, lines[3]), {7: "duplicate"}),
        "contradicting duplicate": (inserted(7, resealed(lines[3], gap=gap + 0.5)),
                                    {4: "contradicting duplicate",
                                     7: "contradicting duplicate"}),
        "NaN gap": (replaced(3, lines[2].replace(b'"gap": ', b'"gap": NaN, "was": ')),
                    {3: "a number is not finite (NaN)"}),
        "inf gap": (replaced(3, lines[2].replace(b'"gap": ', b'"gap": -Infinity, "was": ')),
                    {3: "a number is not finite (-Infinity)"}),
        "text gap": (replaced(3, resealed(lines[2], gap="0.0")), {3: "gap is not a number"}),
        "400-digit gap": (replaced(3, resealed(lines[2], gap=10 ** 400)),
                          {3: "gap is not finite"}),
        "bad checksum": (replaced(3, tampered(lines[2], gap=json.loads(lines[2])["gap"] + 1)),
                         {3: "bad checksum"}),
        "wrong seed": (replaced(6, resealed(lines[5], seed=12)), {6: "other seed"}),
        "wrong stream": (replaced(6, resealed(lines[5], stream="0" * 32)),
                         {6: "seed stream does not match the key"}),
        "unknown instance": (
            inserted(last + 1, resealed(lines[3], instance=unknown.instance,
                                        key=unknown.text(), stream=trial_stream(11, unknown))),
            {last + 1: "not a trial of this run"}),
    }


CASES = ["cut short", "garbled", "duplicate", "contradicting duplicate", "NaN gap", "inf gap",
         "text gap", "400-digit gap", "bad checksum", "wrong seed", "wrong stream",
         "unknown instance"]


@pytest.mark.parametrize("case", CASES)
def test_resume_drops_exactly_the_bad_lines_and_reruns_them(
        clean: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    cases = damaged_cases(lines_of(clean))
    assert list(cases) == CASES
    damaged, dropped = cases[case]
    out = copy_log(clean, tmp_path / "out", damaged)
    capsys.readouterr()
    assert cli([*ARGV, "--out", str(out), "--resume"]) == 0
    err = capsys.readouterr().err
    reasons = sorted(dropped.values())
    summary = ", ".join(f"{reasons.count(r)} {r}" for r in dict.fromkeys(reasons))
    numbers = ", ".join(str(n) for n in sorted(dropped))
    kept = len(damaged) - 1 - len(dropped)  # the header and the dropped lines aside
    assert err == (f"offcmab validate: resume: {out / LOG_NAME}: dropped {len(dropped)} "
                   f"line(s) ({summary}) at line(s) {numbers}; kept {kept} trials; the dropped "
                   f"lines are saved in {out / DROPPED_NAME} and their trials run again\n")
    assert rows(out) == rows(clean)
    assert_nothing_lost(damaged, out, set(dropped))
    saved = (out / DROPPED_NAME).read_bytes().splitlines()
    assert saved == [damaged[n - 1].rstrip(b"\n") for n in sorted(dropped)]
    assert measured(out) == measured(clean)


def test_many_dropped_lines_are_summarised_on_one_line(
        clean: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = lines_of(clean)
    damaged = [lines[0], *(line.replace(b'"gap"', b'"gap_"') for line in lines[1:9]),
               *lines[9:]]
    out = copy_log(clean, tmp_path / "out", damaged)
    capsys.readouterr()
    assert cli([*ARGV, "--out", str(out), "--resume"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "dropped 8 line(s) (8 bad checksum) at line(s) 2, 3, 4, 5, 6, ...;" in err
    assert rows(out) == rows(clean)


# ---------------------------------------------------------------- headers


def header_changed(lines: list[bytes], **changes: Any) -> list[bytes]:
    data = json.loads(lines[0])
    header = data["header"] | changes
    return [sealed({"header": header}).encode() + b"\n", *lines[1:]]


def other_instance_hash(lines: list[bytes]) -> tuple[list[bytes], str]:
    instances = json.loads(lines[0])["header"]["instances"]
    name = next(iter(instances[BOUND]))
    changed = {BOUND: instances[BOUND] | {name: "0" * 16}}
    return header_changed(lines, instances=changed), name


@pytest.mark.parametrize("case", ["version", "instance", "missing", "profile"])
def test_a_log_of_another_run_is_refused_unless_resume_anyway(
        clean: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    lines = lines_of(clean)
    name = ""
    if case == "version":
        damaged = header_changed(lines, version="0.0.0")
        problem = 'was written with version="0.0.0", this run has version='
    elif case == "instance":
        damaged, name = other_instance_hash(lines)
        problem = (f"holds instance {name!r} of {BOUND} with other parameters (or not at "
                   "all): the instance changed since the log was written")
    elif case == "missing":
        damaged = lines[1:]
        problem = "has no valid header line, so nothing says which run wrote its trials"
    else:
        damaged = header_changed(lines, profile="full")
        problem = 'was written with profile="full", this run has profile="quick"'
    out = copy_log(clean, tmp_path / "out", damaged)
    capsys.readouterr()
    assert cli([*ARGV, "--out", str(out), "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"offcmab validate: error: resume: {out / LOG_NAME} {problem}")
    assert err.endswith("; rerun with the options that wrote it, add --resume-anyway to keep "
                        "the trials that still check out, or use --overwrite to start over\n")
    assert err.count("\n") == 1
    assert lines_of(out) == damaged  # refused: untouched
    assert cli([*ARGV, "--out", str(out), "--resume-anyway"]) == 0
    assert rows(out) == rows(clean)
    assert lines_of(out)[0] == lines[0]  # this run's header now
    changed = {number for number, line in enumerate(damaged, start=1)
               if name and json.loads(line).get("instance") == name}
    assert_nothing_lost(damaged, out, changed | {1})
    if changed:  # the trials of the changed instance ran again
        assert f"{len(changed)} instance changed" in capsys.readouterr().err


def test_resume_without_a_log_starts_the_run(clean: Path, tmp_path: Path) -> None:
    assert cli([*ARGV, "--out", str(tmp_path / "new"), "--resume"]) == 0
    assert rows(tmp_path / "new") == rows(clean)


# ---------------------------------------------------------------- folders with results


def test_a_folder_with_results_is_refused_before_anything_is_written(
        clean: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    shutil.copytree(clean, out)
    (out / ".offcmab.lock").unlink()
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    capsys.readouterr()
    assert cli([*ARGV, "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"offcmab validate: error: out: {out} already holds trials.jsonl, which this command "
        "writes and did not write in this run; add --resume to continue that run or "
        "--overwrite to replace it\n")
    typo = [*ARGV[:3], BOUND + "x", *ARGV[4:]]  # a typo in the id, with --overwrite
    assert cli([*typo, "--out", str(out), "--overwrite"]) == 2
    assert f"unknown bound id {BOUND + 'x'!r}" in capsys.readouterr().err
    assert cli([*ARGV, "--out", str(out), "--overwrite", "--resume"]) == 2
    assert {path.name: path.read_bytes() for path in out.iterdir()
            if path.name != ".offcmab.lock"} == before
    (out / LOG_NAME).unlink()  # a report alone is a result too
    assert cli([*ARGV, "--out", str(out)]) == 2
    assert "already holds report.json, which" in capsys.readouterr().err


def test_overwrite_replaces_the_results(clean: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(clean, out)
    (out / LOG_NAME).write_bytes(lines_of(clean)[0] + b"garbage\n")
    (out / "report.md").write_text("stale\n")
    assert cli([*ARGV, "--out", str(out), "--overwrite"]) == 0
    assert rows(out) == rows(clean)
    assert lines_of(out)[0] == lines_of(clean)[0] and measured(out) == measured(clean)
    assert len(lines_of(out)) == len(lines_of(clean))
    assert (out / "report.md").read_text() != "stale\n"


# ---------------------------------------------------------------- writers


def failing(number: int) -> Any:
    def fail(*args: Any, **kwargs: Any) -> None:
        raise OSError(number, os.strerror(number))  # as write() and replace() raise: no file
    return fail


@pytest.mark.parametrize("number", [errno.ENOSPC, errno.EACCES])
def test_a_failing_report_write_names_the_file_and_keeps_the_log(
        clean: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, number: int) -> None:
    out = copy_log(clean, tmp_path / "out", lines_of(clean))
    monkeypatch.setattr(os, "replace", failing(number))
    capsys.readouterr()
    assert cli([*ARGV, "--out", str(out), "--resume"]) == 2
    assert capsys.readouterr().err == (
        f"offcmab validate: error: {os.strerror(number)} {out / 'report.json'}\n")
    assert lines_of(out) == lines_of(clean)
    assert sorted(path.name for path in out.iterdir()) == [".offcmab.lock", LOG_NAME]


def test_a_full_disk_while_logging_names_the_log(
        clean: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    lines = lines_of(clean)
    out = copy_log(clean, tmp_path / "out", lines[:-3])  # three trials to run
    monkeypatch.setattr(os, "fsync", failing(errno.ENOSPC))
    capsys.readouterr()
    assert cli([*ARGV, "--out", str(out), "--resume"]) == 2
    assert capsys.readouterr().err == (
        f"offcmab validate: error: {os.strerror(errno.ENOSPC)} {out / LOG_NAME}\n")
    assert lines_of(out)[:-1] == lines[:-3]  # what was finished is still there


def cascade_data(tmp_path: Path) -> Path:
    rng = np.random.default_rng(7)
    path = tmp_path / "log.npz"
    write_npz(UniformListsLaw(CascadeProblem(rng.random(20), 3)).sample(200, rng), path)
    return path


@pytest.mark.parametrize("number", [errno.ENOSPC, errno.EACCES])
@pytest.mark.parametrize("suffix", [".npz", ".csv"])
def test_solve_out_is_whole_or_absent_and_names_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        number: int, suffix: str) -> None:
    data = cascade_data(tmp_path)
    out = tmp_path / f"stats{suffix}"
    argv = ["solve", "cascade", "--data", str(data), "--k", "3", "--delta", "0.1", "--out",
            str(out)]
    assert cli(argv) == 0
    before = out.read_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", failing(number))
        capsys.readouterr()
        assert cli([*argv, "--overwrite"]) == 2  # without it the file is refused at once
    assert capsys.readouterr().err == f"offcmab solve: error: {os.strerror(number)} {out}\n"
    assert out.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["log.npz", out.name]


def figure_writer(path: Path) -> None:
    figure = plt.figure()
    try:
        atomic_figure(figure, path)
    finally:
        plt.close(figure)


def csv_writer(path: Path) -> None:
    with atomic_text(path) as handle:
        handle.write("a,b\r\n1,2\r\n")


WRITERS = {
    "text": lambda path: atomic_write_text(path, "x\n"),
    "report": lambda path: report_io.write_json({"rows": []}, path),
    "csv": csv_writer,
    "figure": figure_writer,
}


@pytest.mark.parametrize("name", list(WRITERS))
@pytest.mark.parametrize("patched", ["replace", "open"])
def test_every_writer_names_its_file_on_a_full_disk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, patched: str) -> None:
    suffix = ".png" if name == "figure" else ".csv" if name == "csv" else ".json"
    target = tmp_path / f"out{suffix}"
    if patched == "replace":
        monkeypatch.setattr(os, "replace", failing(errno.ENOSPC))
    else:  # the temporary file cannot even be created
        monkeypatch.setattr(os, "open", failing(errno.EACCES))
    expected = errno.ENOSPC if patched == "replace" else errno.EACCES
    with pytest.raises(OSError, match=os.strerror(expected)) as caught:
        WRITERS[name](target)
    assert caught.value.filename == str(target)
    assert caught.value.errno == expected
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_written_files_follow_the_umask(tmp_path: Path, mask: int) -> None:
    previous = os.umask(mask)
    try:
        for name, writer in WRITERS.items():
            target = tmp_path / f"{name}{'.png' if name == 'figure' else '.txt'}"
            writer(target)
            assert target.stat().st_mode & 0o777 == 0o666 & ~mask, name
    finally:
        os.umask(previous)


def test_checksum_is_over_canonical_json() -> None:
    assert checksum({"b": 1, "a": [1.5, "x"]}) == checksum({"a": [1.5, "x"], "b": 1})
    assert checksum({"a": 1}) != checksum({"a": 2})
    with pytest.raises(ValueError, match="not JSON compliant"):
        checksum({"a": math.nan})


def test_scan_reports_line_numbers_from_one(clean: Path, tmp_path: Path) -> None:
    lines = lines_of(clean)
    out = copy_log(clean, tmp_path / "out", [lines[0], b"junk\n", *lines[1:]])
    found = scan(out / LOG_NAME)
    assert [(number, reason) for number, reason, _ in found.dropped] == [(2, "not JSON")]
    assert len(found.records) == len(lines) - 1
