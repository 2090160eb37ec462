"""One run per output folder, whole-or-absent report files, and resume from a damaged log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import validate_fake

from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.runner.folder import LOCK_NAME, atomic_write_text, folder_lock
from offcmab.validation.runner.store import DROPPED_NAME, LOG_NAME, header_line, read_log, scan
from offcmab.validation.runner.sweep import RunConfig, run_validation

ROOT = Path(__file__).resolve().parents[1]


def rows_of(out: Path, resume: bool = False, resume_anyway: bool = False
            ) -> list[dict[str, Any]]:
    config = RunConfig(profile=PROFILES["quick"], seed=7, out=out, resume=resume,
                       resume_anyway=resume_anyway)
    rows: list[dict[str, Any]] = run_validation(config, validate_fake.THEOREMS)["rows"]
    return rows


def test_second_validate_process_on_a_locked_folder_exits_2(tmp_path: Path) -> None:
    """The test process holds the lock; a real second ``offcmab validate`` must be refused."""
    out = tmp_path / "shared"
    with folder_lock(out):
        second = subprocess.run(
            [sys.executable, "-m", "validation", "validate", "--quick", "--only", "thm2-lower",
             "--no-figures", "--out", str(out)],
            cwd=ROOT, capture_output=True, text=True, check=False,
            env={**os.environ, "PYTHONPATH": "."})
    assert second.returncode == 2
    assert second.stderr == (
        f"offcmab validate: error: out: {out} is in use by another offcmab run "
        f"(pid {os.getpid()}); wait for it to end or choose another --out\n")
    assert not (out / LOG_NAME).exists()  # the refused run wrote nothing
    with folder_lock(out):  # released on exit from the block
        assert (out / LOCK_NAME).read_text() == f"{os.getpid()}\n"


def test_lock_refuses_a_file_in_place_of_the_folder(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(ValueError, match=r"out: .* exists and is not a folder"), \
            folder_lock(target):
        pass


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    path = tmp_path / "report.md"
    atomic_write_text(path, "old\n")
    with pytest.raises(TypeError):
        atomic_write_text(path, None)  # type: ignore[arg-type]
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]  # no temporary left behind
    atomic_write_text(path, "new\n")
    assert path.read_text() == "new\n"


@pytest.mark.parametrize(("damage", "reason"), [
    (b"123\n", "not a record"),
    (b"{}\n", "no checksum"),
    (b'{"key": "fake-upper|named|20|9", "gap": [1]}\n', "no checksum"),
    (b'{"key": "fake-upper|na{"key": "fake\n', "not JSON"),
    (b"\xff\xfe\n", "not JSON"),
    (header_line({"seed": 7, "profile": "quick"}).encode() + b"\n",
     "header after the first line"),
])
def test_resume_drops_only_the_damaged_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: bytes, reason: str) -> None:
    reference = rows_of(tmp_path / "whole")
    log = tmp_path / "whole" / LOG_NAME
    lines = log.read_bytes().splitlines(keepends=True)
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    # header + 4 trials, the damage (line 6), then 4 good trials that must be kept
    (damaged / LOG_NAME).write_bytes(b"".join(lines[:5]) + damage + b"".join(lines[5:9]))
    found = scan(damaged / LOG_NAME)
    assert (len(found.records), [(n, why) for n, why, _ in found.dropped]) == (8, [(6, reason)])
    capsys.readouterr()
    assert rows_of(damaged, resume=True) == reference
    assert capsys.readouterr().err == (
        f"offcmab validate: resume: {damaged / LOG_NAME}: dropped 1 line(s) (1 {reason}) at "
        f"line(s) 6; kept 8 trials; the dropped lines are saved in {damaged / DROPPED_NAME} "
        "and their trials run again\n")
    assert (damaged / DROPPED_NAME).read_bytes() == damage
    header, records = read_log(damaged / LOG_NAME)
    assert header == read_log(log)[0]
    assert records.keys() == read_log(log)[1].keys()
    assert len(damaged.joinpath(LOG_NAME).read_text().splitlines()) == 1 + len(records)


def test_resume_of_a_log_with_a_damaged_header_needs_resume_anyway(tmp_path: Path) -> None:
    reference = rows_of(tmp_path / "whole")
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    good = (tmp_path / "whole" / LOG_NAME).read_bytes().splitlines(keepends=True)
    (damaged / LOG_NAME).write_bytes(b'{"header": 3}\n' + b"".join(good[1:]))
    with pytest.raises(ValueError, match="has no valid header line"):
        rows_of(damaged, resume=True)
    assert (damaged / LOG_NAME).read_bytes() == b'{"header": 3}\n' + b"".join(good[1:])
    assert rows_of(damaged, resume=True, resume_anyway=True) == reference
    assert (damaged / LOG_NAME).read_bytes() == b"".join(good)  # same header, same trials
    assert (damaged / DROPPED_NAME).read_bytes() == b'{"header": 3}\n'


def test_validate_resume_recovers_from_non_record_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``123`` and ``{}`` in the log (formerly TypeError/KeyError tracebacks) are dropped."""
    from offcmab.validation.cli import main

    argv = ["validate", "--quick", "--only", "thm2-lower", "--no-figures", "--out",
            str(tmp_path)]
    assert main(argv) == 0
    clean = json.loads((tmp_path / "report.json").read_text())["rows"]
    lines = (tmp_path / LOG_NAME).read_text().splitlines(keepends=True)
    (tmp_path / LOG_NAME).write_text("".join([*lines[:3], "123\n", "{}\n", *lines[3:]]))
    capsys.readouterr()
    assert main([*argv, "--resume"]) == 0
    err = capsys.readouterr().err
    assert (f"dropped 2 line(s) (1 not a record, 1 no checksum) at line(s) 4, 5; kept "
            f"{len(lines) - 1} trials") in err
    assert json.loads((tmp_path / "report.json").read_text())["rows"] == clean
