r"""Run ``offcmab`` commands during the build so the pages show their real output."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path


class CommandError(RuntimeError):
    """A documented command failed, timed out, or exited with an unexpected code."""


def run(root: Path, command: str, timeout: float = 120.0) -> tuple[int, str]:
    """Run ``command`` (which starts with ``offcmab``) from ``root``; exit code and output."""
    words = shlex.split(command)
    if not words or words[0] != "offcmab":
        raise CommandError(f"only offcmab commands are run by the docs, got {command!r}")
    env = {**os.environ, "COLUMNS": "88", "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "validation", *words[1:]], cwd=root, env=env,
            capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as error:
        raise CommandError(f"{command!r} took longer than {timeout:.0f} s") from error
    return done.returncode, (done.stdout + done.stderr).rstrip()


def run_block(root: Path, command: str, expected: int = 0) -> str:
    """A ``console`` code block with the command and what it printed."""
    code, output = run(root, command)
    if code != expected:
        raise CommandError(f"{command!r} exited {code}, expected {expected}:\n{output}")
    return f"```console\n$ {command}\n{output}\n```"
