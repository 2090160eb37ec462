"""Start a command in a session of its own, stop it with a signal, list what it left.

Shared by the fault-injection tests.  Processes are read from ``/proc`` (no psutil): a
process belongs to the command when its session is the command's (the command is
started with ``start_new_session``, so its pid is the session id); zombies, already
dead and waiting for their parent to collect them, are not counted.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

#: Seconds a test waits for a command to reach the state it needs, or to end.
PATIENCE = 60.0


def session_members(session: int) -> list[int]:
    """Pids of the live (not zombie) processes of ``session``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        fields = stat[stat.rindex(")") + 2:].split()
        state, session_id = fields[0], int(fields[3])
        if session_id == session and state != "Z":
            found.append(int(entry.name))
    return found


@dataclass
class Run:
    """A command started in its own session."""

    process: subprocess.Popen[str]

    @property
    def session(self) -> int:
        return self.process.pid

    def members(self) -> list[int]:
        return session_members(self.session)

    def wait_until(self, ready: Callable[[], bool]) -> None:
        """Wait (up to :data:`PATIENCE`) until ``ready()`` or the command has ended."""
        patience = time.monotonic() + PATIENCE
        while self.process.poll() is None and not ready() and time.monotonic() < patience:
            time.sleep(0.1)

    def stop(self, number: int) -> tuple[int, str, float]:
        """Send ``number`` to the command; its exit code, stderr and the seconds it took
        to end."""
        assert self.process.poll() is None, self.process.communicate()
        sent = time.monotonic()
        self.process.send_signal(number)
        _, err = self.process.communicate(timeout=PATIENCE)
        return self.process.returncode, err, time.monotonic() - sent

    def leftovers(self) -> list[int]:
        """The session's processes still alive once the command ended (a little
        patience for processes already on their way out)."""
        patience = time.monotonic() + 5.0
        while self.members() and time.monotonic() < patience:
            time.sleep(0.1)
        left = self.members()
        for pid in left:  # never leave them behind, even when the test fails
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        return left


def start(arguments: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> Run:
    """``python -m offcmab ARGUMENTS`` in a new session (the console script's path: it
    runs supervised)."""
    process = subprocess.Popen([sys.executable, "-m", "offcmab", *arguments], cwd=cwd,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env={**os.environ, **(env or {})})
    return Run(process)


def finish(run: Run) -> tuple[int, str, str]:
    """Wait for the command to end by itself: exit code, stdout, stderr."""
    out, err = run.process.communicate(timeout=PATIENCE * 5)
    return run.process.returncode, out, err
