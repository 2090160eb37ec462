r"""Run ``offcmab`` commands during the build so the pages show their real output.

Commands run in-process through :func:`offcmab.validation.cli.main` (the console script's entry
point) with stdout and stderr captured, which keeps the build fast: sympy and the
registries are imported once, not once per command.
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
from pathlib import Path


class CommandError(RuntimeError):
    """A documented command failed or exited with an unexpected code."""


def run(root: Path, command: str) -> tuple[int, str]:
    """Run ``command`` (which starts with ``offcmab``) from ``root``; exit code and output."""
    from offcmab.validation.cli import main

    words = shlex.split(command)
    if not words or words[0] != "offcmab":
        raise CommandError(f"only offcmab commands are run by the docs, got {command!r}")
    out = io.StringIO()
    previous_dir, previous_columns = Path.cwd(), os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"
    try:
        os.chdir(root)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = main(words[1:])
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        os.chdir(previous_dir)
        if previous_columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = previous_columns
    return code, out.getvalue().rstrip()


def run_block(root: Path, command: str, expected: int = 0) -> str:
    """A ``console`` code block with the command and what it printed."""
    code, output = run(root, command)
    if code != expected:
        raise CommandError(f"{command!r} exited {code}, expected {expected}:\n{output}")
    return f"```console\n$ {command}\n{output}\n```"
