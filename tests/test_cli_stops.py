"""How any command stops early: Ctrl-C is one line and exit 130; a closed pipe is silence."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from offcmab.validation import cli
from offcmab.validation.commands import claims


def test_ctrl_c_in_any_command_is_one_line_and_exit_130(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(claims, "run", interrupted)
    assert cli.main(["claims"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "offcmab claims: interrupted\n"
    assert "Traceback" not in captured.out + captured.err


def test_a_closed_pipe_ends_quietly_with_exit_0(tmp_path: Path) -> None:
    """The reader is gone before the first write (``offcmab ... | head -1`` once head has
    its line): the write fails with EPIPE every time, and the command says nothing."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "offcmab", "bound", "--list"],
                              stdout=write_end, stderr=subprocess.PIPE, text=True,
                              cwd=tmp_path, check=False)
    finally:
        os.close(write_end)
    assert done.returncode == 0
    assert done.stderr == ""
