r"""Run a user's algorithm so that nothing it does can break a validation run.

A user's function (``validate --algorithm``, :func:`offcmab.validation.check`) is foreign
code.  Whatever it does, the run ends with a report:

Faults
    An exception, ``sys.exit``, a ``KeyboardInterrupt`` the code raises itself, a call
    that does not return within the trial timeout, or a write into its input becomes an
    :class:`AlgorithmFault`: one line naming the algorithm and the user's own frames.  The
    runner turns it into ``error`` rows for the bound id and the run exits 4.
Read-only inputs
    Every argument is handed over as a read-only view (:func:`read_only`): numpy arrays
    with ``writeable=False``, inside copies of the dataclasses that hold them, so a
    function cannot change a dataset, graph or cascade that later trials reuse.
The global random generators
    ``numpy.random`` (the legacy global generator) and ``random`` are seeded before each
    call from the trial's seed (:func:`begin`, :func:`seed_globals`), so a function that
    draws from them gives the same rows on every run.
The deadline
    :func:`deadline` stops a call after the trial timeout.  In a process's main thread
    (the serial backend and the workers of the ``processes`` backend) a ``SIGALRM`` timer
    raises :class:`TrialTimeout` inside the call; in any other thread (a dask worker's)
    a timer thread raises it asynchronously in the calling thread.  Either way the call is
    interrupted between two Python bytecodes: a single C call that never returns (a
    blocking extension) is not interrupted.
Forks
    A process the code forks and that returns from the call ends there
    (:func:`leave_forked_copy`); one that stays inside the call is ended with the run's
    process group (:mod:`offcmab.validation.supervisor`).
Real interrupts
    A real Ctrl-C must stop the run, not become a fault.  A runner that installs its own
    ``SIGINT`` handler calls :func:`note_interrupt` in it; a ``KeyboardInterrupt`` with no
    interrupt noted was raised by the code itself.  Without such a handler every
    ``KeyboardInterrupt`` counts as real.
"""

from __future__ import annotations

import contextlib
import copy
import ctypes
import dataclasses
import functools
import os
import random
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

#: Seconds a call of the user's code may take unless told otherwise (``--trial-timeout``).
DEFAULT_TIMEOUT = 600.0

#: Exit code of a run in which the user's algorithm failed (``error`` rows).
FAULT_EXIT = 4

#: How deep :func:`read_only` looks into containers and dataclasses.
MAX_DEPTH = 6


class AlgorithmError(ValueError):
    """A user's algorithm could not be loaded, called, or returned an infeasible action."""


class AlgorithmFault(AlgorithmError):
    """The user's code failed while it ran: raised, exited, hung or wrote into its input.

    A trial that meets one is not a result: its bound id gets ``error`` rows (exit 4).
    """


class Terminated(KeyboardInterrupt):
    """``SIGTERM`` arrived during a run: it stops as Ctrl-C does (``validate`` exits 143)."""


class TrialTimeout(BaseException):
    """Raised inside a call that outlived its deadline (a ``BaseException``, so that the
    user's ``except Exception`` cannot swallow it)."""


@dataclasses.dataclass
class _State:
    """Settings of this process: the timeout, the seed words, the interrupt flags."""

    timeout: float | None = DEFAULT_TIMEOUT
    words: tuple[int, ...] = (0,)
    calls: int = 0
    handler: bool = False
    interrupted: bool = False
    alarm_ready: bool = False
    armed: float = 0.0
    pending: type[KeyboardInterrupt] | None = None


_STATE = _State()


def set_timeout(seconds: float | None) -> None:
    """The deadline of each call in this process (``None``: none)."""
    _STATE.timeout = seconds


def timeout() -> float | None:
    """The deadline of each call in this process."""
    return _STATE.timeout


# --- interrupts ------------------------------------------------------------------------------

def own_interrupts(owned: bool) -> None:
    """Whether this process's ``SIGINT`` handler notes real interrupts (module doc)."""
    _STATE.handler = owned
    _STATE.interrupted = False


def note_interrupt() -> None:
    """Called by the runner's signal handler: the interrupt under way is real."""
    _STATE.interrupted = True


def real_interrupt() -> bool:
    """True when a ``KeyboardInterrupt`` must stop the run (module doc)."""
    return not _STATE.handler or _STATE.interrupted


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """Inside the block, Ctrl-C raises ``KeyboardInterrupt`` and ``SIGTERM``
    :class:`Terminated` in the main thread, both noted as real interrupts.

    Elsewhere than in the main thread (signals cannot be handled there) nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        note_interrupt()
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    hook = sys.unraisablehook

    def again(unraisable: Any) -> None:
        """An interrupt raised inside a finalizer (``__del__``, a weakref callback) cannot
        leave it: Python would print it with a traceback and go on.  It is kept instead,
        and raised when the next trial begins (:func:`begin`).  Once the run is stopping,
        what other finalizers fail to do (a file the interrupt left open) is not printed
        either."""
        error = unraisable.exc_value
        if not _STATE.interrupted:
            hook(unraisable)
        elif isinstance(error, KeyboardInterrupt):
            _STATE.pending = type(error)

    previous = {number: signal.signal(number, interrupt)
                for number in (signal.SIGINT, signal.SIGTERM)}
    previous[signal.SIGALRM] = signal.signal(signal.SIGALRM, _expire)
    sys.unraisablehook = again
    own_interrupts(True)
    ready, _STATE.alarm_ready = _STATE.alarm_ready, True
    try:
        yield
    finally:
        _STATE.alarm_ready = ready
        for number, handler in previous.items():
            signal.signal(number, handler)
        sys.unraisablehook = hook
        _STATE.pending = None
        own_interrupts(False)


def keep_alarm_handler() -> None:
    """Install the deadline's ``SIGALRM`` handler for the life of this (worker) process, so
    that each call only arms and disarms the timer."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGALRM, _expire)
        _STATE.alarm_ready = True


@contextlib.contextmanager
def children_ignore_interrupts() -> Iterator[None]:
    """Processes started inside the block ignore ``SIGINT`` for life.

    A terminal's Ctrl-C reaches every process of its group; workers that ignore it leave
    the stopping to the run, which ends them itself (no traceback from each worker).  An
    ignored ``SIGINT`` survives ``exec`` and Python then installs no handler of its own.
    A Ctrl-C that arrives while a worker is being started is lost.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# --- processes the user's code forks ---------------------------------------------------------

def leave_forked_copy(process: int) -> None:
    """End this process at once unless it is ``process``: a copy the user's code forked
    that returns into the run must not go on with it (write trials, take tasks)."""
    if os.getpid() != process:
        os._exit(FAULT_EXIT)


# --- what the user's code prints -------------------------------------------------------------

@contextlib.contextmanager
def captured(path: Path | None, lazy: bool = False) -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` are appended to ``path`` inside the block (this
    process; output written straight to the file descriptors is not caught here).

    With ``lazy``, the file (and its folder) is made only when something is written: a
    command that has no folder of its own to fill makes none for a silent algorithm.
    """
    if path is None:
        yield
        return
    sink: Any = _LazyLog(path) if lazy else \
        open(path, "a", encoding="utf-8", errors="replace", buffering=1)  # noqa: SIM115
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            yield
    finally:
        sink.close()


class _LazyLog:
    """A text sink that opens its file for appending at the first write."""

    encoding = "utf-8"

    def __init__(self, path: Path):
        self.path = path
        self.file: Any = None

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.file = open(self.path, "a", encoding="utf-8", errors="replace",  # noqa: SIM115
                             buffering=1)
        return int(self.file.write(text))

    def flush(self) -> None:
        if self.file is not None:
            self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def send_output_to(path: str | None) -> None:
    """A worker process's file descriptors 1 and 2 (so ``print`` and C code alike) are
    appended to ``path`` from now on."""
    if path is None:
        return
    try:
        target = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError:
        return  # a remote dask worker without this folder: its output stays its own
    for number in (1, 2):
        os.dup2(target, number)
    os.close(target)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(line_buffering=True)


def start_resource_tracker(path: str | None) -> None:
    """Start multiprocessing's resource tracker (if it is not running yet) with its output
    appended to ``path``, as the workers' output is.

    The tracker is a process of its own that outlives a stopped run by a moment; what it
    prints (a warning about a semaphore of a terminated pool) would otherwise land on the
    user's terminal under the run's last line.  Without ``path`` it is started as is.
    """
    from multiprocessing import resource_tracker

    if path is None:
        resource_tracker.ensure_running()
        return
    try:
        target = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError:
        resource_tracker.ensure_running()
        return
    if sys.__stderr__ is not None:
        sys.__stderr__.flush()
    saved = os.dup(2)
    os.dup2(target, 2)
    try:
        resource_tracker.ensure_running()  # the tracker takes this process's descriptor 2
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(target)


# --- the global generators -------------------------------------------------------------------

def begin(words: tuple[int, ...]) -> None:
    """Start a trial (or the event rows) whose calls draw global seeds from ``words``;
    an interrupt that a finalizer swallowed (:func:`stop_signals`) is raised here."""
    if _STATE.pending is not None:
        pending, _STATE.pending = _STATE.pending, None
        raise pending()
    _STATE.words = tuple(int(word) for word in words)
    _STATE.calls = 0


def seed_globals() -> None:
    """Seed ``numpy.random`` and ``random`` for the next call (a function of the trial's
    words and the call's index within the trial)."""
    state = np.random.SeedSequence([*_STATE.words, _STATE.calls]).generate_state(4)
    _STATE.calls += 1
    np.random.seed(state)  # noqa: NPY002  (the legacy global generator users draw from)
    random.seed(int.from_bytes(state.tobytes(), "little"))


# --- read-only inputs ------------------------------------------------------------------------

def read_only(value: Any, depth: int = 0) -> Any:
    """``value`` as the user's code may see it: arrays read-only, containers copied.

    Arrays become read-only views; tuples, lists and dicts are rebuilt around read-only
    items; a dataclass is shallow-copied with read-only fields (``__init__`` is not run
    again).  Anything else (an oracle, a number) is handed over as it is.
    """
    if depth > MAX_DEPTH:
        return value
    if isinstance(value, np.ndarray):
        view = value.view()
        view.flags.writeable = False
        return view
    if isinstance(value, tuple):
        items = [read_only(item, depth + 1) for item in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, list):
        return [read_only(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {key: read_only(item, depth + 1) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        duplicate = copy.copy(value)
        names = {*getattr(duplicate, "__dict__", {}),  # fields and cached properties
                 *(item.name for item in dataclasses.fields(duplicate))}
        for name in names:
            if hasattr(duplicate, name):
                object.__setattr__(duplicate, name,
                                   read_only(getattr(duplicate, name), depth + 1))
        return duplicate
    return value


def sandboxed(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` called on read-only views of its arguments, the global generators
    seeded first (:func:`seed_globals`)."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        seed_globals()
        return function(*read_only(args), **read_only(kwargs))

    return call


def wrote_input(error: BaseException) -> bool:
    """Whether ``error`` is numpy's refusal to write into a read-only array."""
    return isinstance(error, ValueError) and "read-only" in str(error)


# --- the deadline ----------------------------------------------------------------------------

@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TrialTimeout` inside the block after ``seconds`` (module doc)."""
    if seconds is None or seconds <= 0:
        yield
    elif threading.current_thread() is threading.main_thread():
        with _alarm(seconds):
            yield
    else:
        with _thread_timer(seconds):
            yield


def _expire(signum: int, frame: Any) -> None:
    raise TrialTimeout(_STATE.armed)


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Arm the real-time timer for the block.  Inside a run (:func:`stop_signals`) or a
    worker (:func:`keep_alarm_handler`) the handler is already installed, and a call costs
    two ``setitimer`` system calls; elsewhere it is installed and restored around the
    block.  A user's online learner is called once per round, so this cost counts."""
    _STATE.armed = seconds
    if _STATE.alarm_ready:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return
    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _thread_timer(seconds: float) -> Iterator[None]:
    target = threading.get_ident()
    lock = threading.Lock()
    running = [True]

    def expire() -> None:
        with lock:
            if running[0]:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target),
                                                           ctypes.py_object(TrialTimeout))

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            running[0] = False
        timer.cancel()


# --- messages --------------------------------------------------------------------------------

def user_frames_text(error: BaseException, files: set[str]) -> str:
    """``Type: message`` and the user's frames, innermost last, on one line."""
    text = " ".join(f"{type(error).__name__}: {error}".split())
    where = user_location(error, files)
    return f"{text} (at {where})" if where else text


def user_location(error: BaseException, files: set[str]) -> str:
    """The user's frames of ``error``'s traceback, innermost first (empty when none)."""
    frames = _user_frames(error.__traceback__, files)
    return " <- ".join(f"{Path(f.filename).name}:{f.lineno} in {f.name}"
                       for f in reversed(frames))


def _user_frames(tb: TracebackType | None, files: set[str]) -> list[traceback.FrameSummary]:
    roots = [Path(f).resolve() for f in files]
    return [frame for frame in traceback.extract_tb(tb)
            if any(root == path or root in path.parents
                   for path in [Path(frame.filename).resolve()] for root in roots)]


def fault(error: BaseException, label: str, files: set[str]) -> AlgorithmFault | None:
    """The :class:`AlgorithmFault` of an exception that left the user's code, or ``None``
    for a real interrupt (which must stop the run)."""
    where = user_location(error, files)
    at = f" at {where}" if where else ""
    if isinstance(error, TrialTimeout):
        return AlgorithmFault(f"algorithm {label} did not return within {timeout():g} s "
                              f"(--trial-timeout; stopped{at})")
    if isinstance(error, SystemExit):
        return AlgorithmFault(f"algorithm {label} called sys.exit({error.code!r}){at}; an "
                              "algorithm must return, not end the process")
    if isinstance(error, KeyboardInterrupt):
        if real_interrupt():
            return None
        return AlgorithmFault(f"algorithm {label} raised KeyboardInterrupt itself{at}")
    if wrote_input(error):
        return AlgorithmFault(f"algorithm {label} wrote into its input{at} ({error}); the "
                              "data it is handed is read-only: copy an array before changing it")
    return AlgorithmFault(f"algorithm {label} raised {user_frames_text(error, files)}")
