r"""Run a long command in a supervised child process group, so that it always ends cleanly.

The commands that run trials (``validate``, ``calibrate``, ``mutation``, ``falsify``,
``tightness``) start worker processes and may run a user's algorithm, foreign code that
can end its process (``os._exit``), fork, or send signals.  Started from the command
line, such a command runs in a child process (a ``fork`` of the command line itself,
before anything heavy is imported) that leads a process group of its own; the process
the user started only waits for it:

* The child reports its exit code through a pipe just before it exits.  A child that
  ends without reporting one (``os._exit`` in the user's code, a crash, a kill) ends the
  command with exit code 4 when a user's algorithm was loaded (2 otherwise: the package's
  own code failed), never 0.
* Ctrl-C, ``SIGTERM`` and ``SIGHUP`` reach the waiting process; it passes them on to the
  child, which stops its workers and says where its results are.  A child that has not
  ended :data:`GRACE_SECONDS` later is killed with its whole group.  The command then
  exits 130 (Ctrl-C), 143 (``SIGTERM``) or 129 (``SIGHUP``) whatever the child said.
* A child that stops as if interrupted (130, 143) although no signal reached the waiting
  process was stopped from inside: by the user's algorithm when one was loaded (exit 4).
* When the child has ended, every process left in its group (a process the user's code
  forked, a worker, multiprocessing's resource tracker) is killed, and the private
  temporary folder the child and its workers used (``TMPDIR``) is removed.

A process that leaves the group on purpose (``setsid``) is out of reach; so is a signal
the user's code sends to the waiting process itself.  Where ``fork`` does not exist, or
when :func:`offcmab.validation.cli.main` is called from Python with arguments (tests, a
script), the command runs in the calling process as before.

This module is imported by the command line at start-up: it imports the standard
library only.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable, Sequence
from types import FrameType
from typing import NoReturn

#: Commands that run in a supervised child (those that run trials or a user's code).
SUPERVISED = ("validate", "calibrate", "mutation", "falsify", "tightness")

#: Seconds between a stop signal and the kill of the child's process group.
GRACE_SECONDS = 1.5

#: Seconds the child's group gets to end by itself after a normal exit.
DRAIN_SECONDS = 0.5

#: Seconds between two looks at the child.
POLL_SECONDS = 0.02

#: Exit code of a run whose user algorithm failed (``sandbox.FAULT_EXIT``).
FAULT_EXIT = 4
#: Exit code when the package's own code ended without a result.
INTERNAL_EXIT = 2

#: ``prctl`` option: the signal a process gets when its parent dies (Linux).
PR_SET_PDEATHSIG = 1

#: The signals passed on to the child, and the command's exit code for each.
STOPS: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}


class _Channel:
    """This process's end of the pipe to the supervisor (in the child only).

    A plain class, not a dataclass: every command imports this module at start-up, and a
    dataclass costs a fraction of a millisecond to build.
    """

    def __init__(self) -> None:
        self.fd: int | None = None
        self.pid = 0
        self.user = ""


_CHANNEL = _Channel()


def wanted(words: Sequence[str]) -> bool:
    """Whether the command line ``words`` names a supervised command (and fork exists)."""
    command = next((word for word in words if not word.startswith("-")), "")
    return command in SUPERVISED and hasattr(os, "fork") and hasattr(os, "killpg")


def note_user_code(label: str) -> None:
    """Called when a user's algorithm is loaded: the supervisor then reads a child that
    ends without a result as the algorithm's fault (exit 4)."""
    if _CHANNEL.fd is not None and os.getpid() == _CHANNEL.pid and not _CHANNEL.user:
        _CHANNEL.user = label
        _send(f"user {label}")


def _send(line: str) -> None:
    assert _CHANNEL.fd is not None
    with contextlib.suppress(OSError):  # the supervisor is gone: nothing to tell
        os.write(_CHANNEL.fd, (line.replace("\n", " ") + "\n").encode("utf-8", "replace"))


class _Watch:
    """What the waiting process has seen: the first stop signal and when it came."""

    def __init__(self) -> None:
        self.child = 0
        self.signal: int | None = None
        self.since = 0.0
        self.early: list[int] = []

    def stop(self, number: int, frame: FrameType | None) -> None:
        if self.signal is None:
            self.signal, self.since = number, time.monotonic()
        if self.child:
            _kill(self.child, signal.SIGTERM if number == signal.SIGHUP else number)
        else:
            self.early.append(number)


def _kill(pid: int, number: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, number)


def _kill_group(group: int, number: int) -> bool:
    """Send ``number`` to process group ``group``; False when the group is empty."""
    try:
        os.killpg(group, number)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # members we may not signal: nothing more to do about them
    return True


def supervised(run: Callable[[], int], command: str) -> int:
    """Run ``run()`` (the command) in a supervised child; return the command's exit code."""
    import tempfile  # here, not at the top: every command imports this module at start-up

    watch = _Watch()
    previous = {number: signal.signal(number, watch.stop) for number in STOPS}
    private = tempfile.mkdtemp(prefix="offcmab-run-")
    read_end, write_end = os.pipe()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: the command itself
        os.close(read_end)
        for number, handler in previous.items():
            signal.signal(number, handler)
        return _child(run, write_end, private, watch.early, parent)
    os.close(write_end)
    watch.child = pid
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # also done by the child: whichever runs first
    for number in watch.early:
        _kill(pid, number)
    try:
        status = _wait(pid, watch)
        lines = _read_all(read_end)
    finally:
        os.close(read_end)
        _end_group(pid, watch.signal is not None)
        for number, handler in previous.items():
            signal.signal(number, handler)
        shutil.rmtree(private, ignore_errors=True)
    return _verdict(command, status, lines, watch.signal)


def _child(run: Callable[[], int], fd: int, private: str, early: list[int],
           parent: int) -> int:
    import tempfile  # imported already by supervised()

    os.setpgid(0, 0)
    end_with_parent(parent)
    os.environ["TMPDIR"] = private  # every temporary file of the run, removed at its end
    tempfile.tempdir = None
    _CHANNEL.fd, _CHANNEL.pid = fd, os.getpid()
    if early:  # a stop that came while the child was being started
        return STOPS[early[0]]
    try:
        code = run()
    except SystemExit as stop:  # argparse's --help and usage errors end this way
        code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
        if stop.code is not None and not isinstance(stop.code, int):
            sys.stderr.write(f"{stop.code}\n")
    if os.getpid() != _CHANNEL.pid:  # a copy forked by the user's code: no result
        os._exit(FAULT_EXIT)
    _send(f"exit {int(code)}")
    os.close(fd)
    _CHANNEL.fd = None
    _exit_now(code)
    return code  # not reached


def _exit_now(code: int) -> NoReturn:
    """End the child without the interpreter's slow teardown of every imported module
    (a second or more once sympy and scipy are loaded, which would eat the time a stop
    has): the ``atexit`` functions run and the output is flushed, then ``os._exit``."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed or broken output
            stream.flush()
    os._exit(code)


def end_with_parent(parent: int) -> None:
    """On Linux, this process is killed when its parent ``parent`` dies: the supervised
    child when the waiting process is killed with ``SIGKILL`` (which it cannot pass on),
    a worker when the run that started it dies.  A kill of the command stays a kill of
    everything it started."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # the standard library; only the child needs it

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the waiting process died before the request took hold
        os.kill(os.getpid(), signal.SIGKILL)


def _wait(pid: int, watch: _Watch) -> int:
    """The child's wait status, killing its group once a stop has had its grace."""
    killed = False
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return status
        if watch.signal is not None and not killed \
                and time.monotonic() - watch.since > GRACE_SECONDS:
            _kill_group(pid, signal.SIGKILL)
            killed = True
        time.sleep(POLL_SECONDS)


def _read_all(fd: int) -> list[str]:
    """What the child wrote into the pipe (it has ended; copies it forked may hold the
    pipe open, so this reads what is there and does not wait for the end)."""
    os.set_blocking(fd, False)
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace").splitlines()


def _end_group(group: int, now: bool) -> None:
    """Kill what is left of the child's group (after :data:`DRAIN_SECONDS` unless ``now``)."""
    if not now:
        patience = time.monotonic() + DRAIN_SECONDS
        while _kill_group(group, 0) and time.monotonic() < patience:
            time.sleep(POLL_SECONDS)
    _kill_group(group, signal.SIGKILL)


def _verdict(command: str, status: int, lines: list[str], stop: int | None) -> int:
    """The command's exit code from the child's status, its report and the stop signal."""
    user = next((line[5:] for line in lines if line.startswith("user ")), "")
    code = next((int(line[5:]) for line in lines
                 if line.startswith("exit ") and line[5:].strip().lstrip("-").isdigit()), None)
    if stop is not None:
        return STOPS[stop]
    name = f"offcmab {command}"
    if code is not None:
        if code in STOPS.values() and user:
            sys.stderr.write(f"{name}: error: the run was stopped by a signal that did not "
                             f"come from outside: the algorithm {user} (or a process it "
                             "started) sent it; an algorithm must return, not signal its "
                             "process\n")
            return FAULT_EXIT
        return code
    how = (f"was killed by signal {_signal_name(os.WTERMSIG(status))}"
           if os.WIFSIGNALED(status) else
           f"exited with status {os.WEXITSTATUS(status)}")
    if user:
        sys.stderr.write(f"{name}: error: the process running the algorithm {user} {how} "
                         "before the run finished (os._exit, a signal or a crash in the "
                         "algorithm); an algorithm must return, not end its process\n")
        return FAULT_EXIT
    sys.stderr.write(f"{name}: error: the process running the command {how} before it "
                     "finished (out of memory or a crash)\n")
    return INTERNAL_EXIT


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
