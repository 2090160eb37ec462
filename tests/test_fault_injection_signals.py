"""Fault injection: Ctrl-C and ``SIGTERM`` stop every command that runs trials cleanly.

One table of commands, each serial and (where it has ``--jobs``) with two workers, each
stopped by ``SIGINT`` (exit 130) and ``SIGTERM`` (exit 143).  A command is started as a
user starts it (``python -m offcmab`` in a session of its own), given time to start its
work (its workers, or a sign of progress), then signalled; afterwards no process of its
session may be alive (read from ``/proc``: workers, multiprocessing's resource tracker,
the supervised child) and its temporary folder must be gone.  The clock is used for
patience only, plus one generous bound on how long the stop took (the promise is 2 s; a
stop that waited for the queued runs took 20 s and more).  No Monte-Carlo assertion.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from processes import Run, start

CASCADE = "cor1-cascade"

#: A generous bound on the seconds a stop may take on a loaded machine (promised: 2).
STOP_BOUND = 10.0

#: Seconds given to a serial command to get into its work before it is signalled (the
#: assertions hold whenever the signal comes; this only makes the test exercise the run).
SETTLE = 2.0


def _workers(count: int) -> Callable[[Run, Path], bool]:
    """Ready once the session holds the two waiting processes and ``count`` more."""
    return lambda run, cwd: len(run.members()) >= 2 + count


def _file(name: str) -> Callable[[Run, Path], bool]:
    """Ready once the command has made ``name`` (a path under its working folder)."""
    return lambda run, cwd: any(cwd.glob(name))


def _loaded(library: str) -> Callable[[Run, Path], bool]:
    """Ready once a process of the session has loaded ``library``'s compiled modules (the
    command's own modules come with it)."""
    def ready(run: Run, cwd: Path) -> bool:
        for pid in run.members():
            try:
                if library in Path(f"/proc/{pid}/maps").read_text():
                    return True
            except OSError:
                continue
        return False

    return ready


COMMANDS = [
    # (name, arguments, ready)
    ("validate serial", ["validate", "--only", CASCADE, "--out", "out", "--no-figures"],
     _file("out/trials.jsonl")),
    ("validate --jobs 2", ["validate", "--only", CASCADE, "--out", "out", "--no-figures",
                           "--jobs", "2"], _workers(2)),
    ("calibrate serial", ["calibrate", "--only", CASCADE, "--profile", "quick"],
     _file("tmp/offcmab-run-*/offcmab-calibrate-*")),
    ("calibrate --jobs 2", ["calibrate", "--only", CASCADE, "--profile", "quick", "--jobs",
                            "2"], _workers(2)),
    ("mutation serial", ["mutation", "--only", CASCADE, "--profile", "quick"],
     _file("tmp/offcmab-run-*/offcmab-check-*")),
    ("mutation --jobs 2", ["mutation", "--only", CASCADE, "--profile", "quick", "--jobs",
                           "2"], _workers(2)),
    ("falsify", ["falsify", "reference", "--only", CASCADE, "--out", "out"],
     _file("out/examples")),
    ("tightness", ["tightness", CASCADE, "--budget", "100000", "--out", "tight.json"],
     _loaded("scipy")),
]

SIGNALS = [(signal.SIGINT, 130), (signal.SIGTERM, 143)]


@pytest.mark.parametrize(("number", "code"), SIGNALS, ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize(("name", "arguments", "ready"), COMMANDS,
                         ids=[name for name, _, _ in COMMANDS])
def test_a_signal_stops_the_command_and_everything_it_started(
        tmp_path: Path, name: str, arguments: list[str],
        ready: Callable[[Run, Path], bool], number: int, code: int) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    run = start(arguments, tmp_path, {"TMPDIR": str(temporary)})
    run.wait_until(lambda: ready(run, tmp_path))
    if len(run.members()) < 4:  # a serial run: let it get into its work
        time.sleep(SETTLE)
    got, err, seconds = run.stop(number)
    left = run.leftovers()
    assert got == code, err
    assert left == [], f"{name} left processes {left}"
    assert "Traceback" not in err, err
    assert seconds < STOP_BOUND
    assert not list(temporary.iterdir()), "the run's temporary files are removed"


def test_ctrl_c_at_a_terminal_reaches_the_run_through_its_group(tmp_path: Path) -> None:
    """A terminal's Ctrl-C goes to the foreground process group, here the session's own:
    the supervised run (in a group of its own) gets it from the waiting process."""
    run = start(["validate", "--only", CASCADE, "--out", "out", "--no-figures", "--jobs",
                 "2"], tmp_path)
    run.wait_until(lambda: len(run.members()) >= 4)
    assert run.process.poll() is None, run.process.communicate()
    sent = time.monotonic()
    os.killpg(run.session, signal.SIGINT)
    _, err = run.process.communicate(timeout=60)
    assert run.process.returncode == 130, err
    assert time.monotonic() - sent < STOP_BOUND
    assert run.leftovers() == []
    assert "Traceback" not in err


TRACKER_SCRIPT = """
import sys
from multiprocessing import resource_tracker
from offcmab.validation import sandbox
sandbox.start_resource_tracker(sys.argv[1])
resource_tracker.register("/offcmab-test-never-made", "semaphore")  # left registered
print("started", flush=True)
"""


def test_the_resource_trackers_warnings_go_to_the_run_log(tmp_path: Path) -> None:
    """multiprocessing's resource tracker outlives the process that started it and warns,
    on the process's stderr, of resources left registered (a pool stopped by a signal can
    leave a semaphore so).  Started by a run, it writes to the run's log instead: the
    process here leaves a name registered, and the warning must reach the log, not stderr."""
    log = tmp_path / "algorithm.log"
    done = subprocess.run([sys.executable, "-c", TRACKER_SCRIPT, str(log)], capture_output=True,
                          text=True, check=True, timeout=60)
    assert done.stdout == "started\n" and done.stderr == ""
    patience = time.monotonic() + STOP_BOUND  # the tracker ends a moment after its parent
    while "offcmab-test-never-made" not in (log.read_text() if log.exists() else "") and \
            time.monotonic() < patience:
        time.sleep(0.05)
    assert "leaked semaphore" in log.read_text()
    assert "offcmab-test-never-made" in log.read_text()
