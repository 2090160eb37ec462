r"""Where trials run: in this process, in a process pool, or on a dask.distributed cluster.

Every backend runs the same pure function :func:`run_task` on the same tasks (worker
processes are handed the run's theorem records at start (:class:`Handed`): the index
that keeps the package's records, a record loaded with ``--theorem`` as its source (the
worker loads it again from its file), any other record pickled; a worker finds a task's
record by its id) and
hands each finished :class:`~offcmab.validation.runner.store.TrialRecord` to a callback in
the main process as soon as it completes (the callback writes it to the durable
log).  Results depend only on the task, never on the backend or the order of
completion, because each task carries its own seed key.

``dask`` is imported only when the dask backend is chosen; a scheduler address
runs the trials on an existing cluster (whose workers must have this package
installed), otherwise a ``LocalCluster`` of ``jobs`` worker processes is started.

Worker processes of the ``processes`` backend never run the caller's ``__main__``
script.  Python's ``spawn`` start method runs it again in every child (under the name
``__mp_main__``) so that objects defined there can be unpickled; a script that calls
:func:`offcmab.validation.check` without an ``if __name__ == "__main__":`` guard would
then start a run inside each worker.  Workers here need nothing from ``__main__`` (a
task is plain data and the subject a spec string), so, as loky's workers do, they start
without it: while a worker is launched, ``sys.modules["__main__"]`` is a bare module,
and spawn sends the child neither a path nor a name to run.

A user's algorithm cannot break the run (:mod:`offcmab.validation.sandbox`): a trial whose
subject faults comes back as a :class:`Finished` with the fault's message, and no further
trial of that subject and bound id is started.  The first trial of each (instance, n) of
a user's algorithm is run twice; a different result is reported (:attr:`Finished.unstable`).
A worker that dies (``os._exit``, a crash) breaks the process pool: the trials it had in
flight are run again one at a time in a fresh one-worker pool, so the trial that ends its
worker is found and reported, and the others finish.  Worker processes ignore Ctrl-C; on
Ctrl-C or ``SIGTERM`` the run ends its workers itself (terminate, then kill) before it
stops, so none is left behind.  Their output goes to the run's ``algorithm.log``.

The trial timeout per call: the serial backend and the workers of the ``processes``
backend run trials in their main thread and use a ``SIGALRM`` timer; dask workers run
them in a thread, where a timer thread raises the timeout asynchronously.  Both interrupt
Python code only: a C call that never returns is not cut short.  The dask backend is quiet
(distributed's logging silenced, its workers' output in ``algorithm.log``) unless
``verbose``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import multiprocessing.context
import os
import pickle
import sys
import time
import types
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from offcmab.reference.errors import InputError
from offcmab.validation import sandbox, supervisor
from offcmab.validation.evaluator.crosscheck import InternalError, within
from offcmab.validation.extras import MissingExtra
from offcmab.validation.parts.scenario import Subject, TrialOutcome
from offcmab.validation.parts.spec import Instance, TrialKey
from offcmab.validation.parts.theorem import Theorem, find
from offcmab.validation.runner.seeding import trial_generator, trial_seed_sequence
from offcmab.validation.runner.store import TrialRecord
from offcmab.validation.subjects import is_user, label, resolve
from offcmab.validation.theorem_loader import from_source

BACKENDS: tuple[str, ...] = ("serial", "processes", "dask")


@dataclass(frozen=True)
class Task:
    """Everything a worker needs to run one trial: pure data, cheap to pickle."""

    instance: Instance
    key: TrialKey
    seed: int


@dataclass(frozen=True)
class Settings:
    """How workers run the user's code: the call timeout and where its output goes."""

    timeout: float | None = sandbox.DEFAULT_TIMEOUT
    log: str | None = None
    verbose: bool = False

    def apply(self) -> None:
        """Take these settings in this (worker) process."""
        sandbox.set_timeout(self.timeout)
        sandbox.keep_alarm_handler()
        sandbox.send_output_to(self.log)


@dataclass(frozen=True)
class Finished:
    """What a trial gave back: its record, or the fault that stopped its subject.

    ``unstable`` is non-empty when a repeat of the trial on the same data and seeds gave
    another result (the subject draws randomness the run does not seed).
    """

    key: TrialKey
    record: TrialRecord | None
    fault: str = ""
    unstable: str = ""


def run_task(task: Task, theorem: Theorem) -> TrialRecord:
    """Run one trial of ``theorem``: seed its generator from its key, draw data, measure the gap.

    The gap is checked against the range the scenario allows (:func:`check_gap`).  The
    global random generators are seeded for the subject's calls from the trial's seed.
    """
    sequence = trial_seed_sequence(task.seed, task.key)
    sandbox.begin(tuple(int(word) for word in sequence.spawn(1)[0].generate_state(4)))
    rng = trial_generator(task.seed, task.key)
    subject = Subject(task.key.subject, resolve(task.key.subject, theorem))
    start = time.perf_counter()
    outcome = theorem.scenario.trial(task.instance, task.key.n, rng, subject)
    seconds = time.perf_counter() - start
    check_gap(task, theorem, outcome)
    return TrialRecord(task.key.text(), float(outcome.gap), float(outcome.gap_error),
                       {k: float(v) for k, v in outcome.extra.items()}, seconds)


def attempt(task: Task, theorem: Theorem) -> Finished:
    """:func:`run_task`, a fault of the subject returned rather than raised; the first
    trial of each (instance, n) of a user's algorithm run twice (:class:`Finished`)."""
    try:
        record = run_task(task, theorem)
        unstable = ""
        if task.key.trial == 0 and is_user(task.key.subject):
            again = run_task(task, theorem)
            if (again.gap, again.gap_error, again.extra) != \
                    (record.gap, record.gap_error, record.extra):
                unstable = (f"instance {task.instance.name}, n={task.key.n}: gap "
                            f"{record.gap:.6g}, then {again.gap:.6g} on the same data")
    except sandbox.AlgorithmFault as fault:
        where = f"{task.instance.name}, n={task.key.n}, trial {task.key.trial}"
        return Finished(task.key, None, f"{fault} (instance {where})")
    return Finished(task.key, record, unstable=unstable)


def check_gap(task: Task, theorem: Theorem, outcome: TrialOutcome) -> None:
    """Refuse a gap no feasible action can have: an ``InternalError``, never a pass.

    The range comes from the scenario's ``gap_range(instance, n)`` (computed by the
    independent evaluator, :mod:`offcmab.validation.evaluator`); an estimated gap may lie
    outside it by its ``gap_error``.  A scenario without ``gap_range`` is not checked.
    """
    gap_range = getattr(theorem.scenario, "gap_range", None)
    if gap_range is None:
        return
    where = (f"{theorem.id}, instance {task.instance.name}, n={task.key.n}, "
             f"trial {task.key.trial} ({task.key.subject})")
    try:
        low, high = gap_range(task.instance, task.key.n)
    except InternalError as mismatch:
        raise mismatch.at(where) from None
    gap, error = float(outcome.gap), float(outcome.gap_error)
    if not within(gap, error, low, high):
        raise InternalError(f"impossible gap {gap:.9g} (error {error:.3g}); every feasible "
                            f"action's gap lies in [{low:.9g}, {high:.9g}]", where)


#: A module-level function that returns the records a package keeps.  It travels to worker
#: processes by name (the worker imports its module and calls it), so the records it returns
#: need not pickle: their negative controls may be closures.
Index = Callable[[], Sequence[Theorem]]


@dataclass(frozen=True)
class Handed:
    """What a worker process receives at start: the run's records that travel pickled, and
    the index in which it finds the others (see :func:`portable`)."""

    records: tuple[Theorem | str, ...] = ()
    index: Index | None = None


#: Records a worker process was handed at start (the run's theorems).
_HANDED: dict[str, Theorem] = {}


#: Whether this process is a worker of the ``processes`` backend.
_WORKER = False


def receive(handed: Handed) -> None:
    """Worker start: keep the records the run handed over (see :func:`portable`)."""
    _HANDED.update({record.id: record for record in
                    (() if handed.index is None else handed.index())})
    for record in handed.records:
        if isinstance(record, str) and any(known.source == record
                                           for known in _HANDED.values()):
            continue  # loaded already (a dask worker is handed the records with every task)
        theorem = from_source(record) if isinstance(record, str) else record
        _HANDED[theorem.id] = theorem


def start_worker(handed: Handed, settings: Settings = Settings()) -> None:
    """Initializer of a pool worker: note that it is one, keep the handed records, take
    the run's settings (a ``KeyboardInterrupt`` in a worker is the user's code's own)."""
    global _WORKER
    _WORKER = True
    receive(handed)
    settings.apply()


def in_worker() -> bool:
    """True inside a worker process of the ``processes`` backend."""
    return _WORKER


@contextlib.contextmanager
def main_hidden() -> Iterator[None]:
    """``sys.modules["__main__"]`` is a bare module inside the block (see the module doc)."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is None:
            del sys.modules["__main__"]
        else:
            sys.modules["__main__"] = main


class WorkerProcess(multiprocessing.context.SpawnProcess):
    """A spawned process that does not run the caller's ``__main__`` (module doc) and
    dies with the process that started it (:func:`offcmab.validation.supervisor.end_with_parent`),
    even when that one is killed outright."""

    starter: int = 0

    def start(self) -> None:
        self.starter = os.getpid()
        with main_hidden():
            super().start()

    def run(self) -> None:
        supervisor.end_with_parent(self.starter)
        super().run()


class WorkerContext(multiprocessing.context.SpawnContext):
    """The ``spawn`` context whose processes are :class:`WorkerProcess`."""

    Process = WorkerProcess


def lookup(bound_id: str) -> Theorem:
    """A worker's record of ``bound_id``: the one handed over at start."""
    return find(tuple(_HANDED.values()), bound_id)


def run_registered(task: Task) -> Finished:
    """A worker's trial: its theorem looked up by the task's bound id."""
    return attempt(task, lookup(task.key.bound_id))


#: The settings a dask worker process has taken (once per process).
_SETTLED: list[Settings] = []


def run_handed(handed: Handed, settings: Settings, task: Task) -> Finished:
    """A dask worker's trial, with the run's records and settings passed along."""
    receive(handed)
    if settings not in _SETTLED:
        _SETTLED.append(settings)
        settings.apply()
    return run_registered(task)


def portable(theorems: Sequence[Theorem], index: Index | None = None) -> Handed:
    """What workers are handed for ``theorems``: ``index`` (when given) for the records it
    returns, a record loaded from a file or module (``--theorem``) as its source, which the
    worker loads again, and every other record by value.

    A record handed by value travels pickled, so it must be picklable (module-level
    classes and functions); ``ValueError`` naming the theorem otherwise.
    """
    kept = () if index is None else tuple(index())
    found = tuple(theorem for theorem in theorems
                  if not any(theorem is known for known in kept))
    for theorem in found:
        if theorem.source:
            continue
        try:
            with main_hidden():  # what workers cannot import, since they skip __main__
                pickle.dumps(theorem)
        except (pickle.PicklingError, AttributeError, TypeError) as error:
            raise ValueError(f"backend: theorem {theorem.id!r} cannot be sent to worker "
                             f"processes ({error}); run it with the serial backend") from None
    return Handed(tuple(theorem.source or theorem for theorem in found), index)


Callback = Callable[[Finished], None]


@dataclass
class Sieve:
    """Passes each finished trial on and holds back the trials of a subject that faulted."""

    done: Callback
    stopped: set[tuple[str, str]] = field(default_factory=set)

    def wanted(self, task: Task) -> bool:
        """Whether ``task`` should still run (its subject has not faulted on its bound id)."""
        return (task.key.bound_id, task.key.subject) not in self.stopped

    def __call__(self, finished: Finished) -> None:
        if finished.fault:
            self.stopped.add((finished.key.bound_id, finished.key.subject))
        self.done(finished)


def run_serial(tasks: Sequence[Task], sieve: Sieve, theorems: Sequence[Theorem]) -> None:
    """Run the tasks one after the other in this process."""
    by_id = {theorem.id: theorem for theorem in theorems}
    for task in tasks:
        if sieve.wanted(task):
            sieve(attempt(task, by_id[task.key.bound_id]))


#: What a trial whose worker process died is reported as.
DIED = ("the worker process running it ended abruptly (os._exit, a crash or out of memory; "
        "instance {instance}, n={n}, trial {trial})")


def run_processes(tasks: Sequence[Task], sieve: Sieve, jobs: int,
                  handed: Handed = Handed(), settings: Settings = Settings()) -> None:
    """Run the tasks on ``jobs`` worker processes (``spawn``, without ``__main__``).

    At most ``4 * jobs`` tasks are in flight, so an interrupted run loses little.  When a
    worker dies, the trials in flight are rerun alone, in a fresh one-worker pool, until
    the one that ends its worker is found (module doc).
    """
    queue, suspects = deque(tasks), deque[Task]()
    sandbox.start_resource_tracker(settings.log)
    while queue or suspects:
        alone = bool(suspects)
        pool = ProcessPoolExecutor(max_workers=1 if alone else jobs, mp_context=WorkerContext(),
                                   initializer=start_worker, initargs=(handed, settings))
        try:
            broken = _feed(pool, suspects if alone else queue, sieve, 1 if alone else 4 * jobs)
        except BaseException:
            stop_pool(pool)
            raise
        pool.shutdown(wait=not broken)
        if alone and broken:
            task = broken[0]
            sieve(Finished(task.key, None, f"algorithm {label(task.key.subject)}: " + DIED.format(
                instance=task.instance.name, n=task.key.n, trial=task.key.trial)))
        elif broken:
            suspects.extend(broken)


def _feed(pool: ProcessPoolExecutor, queue: deque[Task], sieve: Sieve,
          limit: int) -> list[Task]:
    """Run ``queue``'s tasks on ``pool``, at most ``limit`` in flight; return the tasks in
    flight when a worker died (the queue keeps the rest), else nothing."""
    pending: dict[Future[Finished], Task] = {}
    while queue or pending:
        while queue and len(pending) < limit:
            task = queue.popleft()
            if sieve.wanted(task):
                with sandbox.children_ignore_interrupts():  # a submit may start a worker
                    pending[pool.submit(run_registered, task)] = task
        if not pending:
            break
        finished, _ = wait(pending, return_when=FIRST_COMPLETED)
        for future in finished:
            try:
                result = future.result()
            except BrokenProcessPool:
                return list(pending.values())
            del pending[future]
            sieve(result)
    return []


#: Seconds stopped workers get, together, to end after ``SIGTERM`` before they are killed
#: (time to remove their temporary folders; a stop must be over within 2 seconds).
STOP_SECONDS = 0.5


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """End a pool now: cancel what has not started, terminate then kill its workers, and
    let the pool's management thread see them gone (so that nothing of the pool is left
    to fail when the interpreter exits)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    calls = getattr(pool, "_call_queue", None)
    if calls is not None:  # tasks still queued for dead workers: exit without them
        calls.cancel_join_thread()
    for process in processes:
        if process.is_alive():
            process.terminate()
    patience = time.monotonic() + STOP_SECONDS
    for process in processes:
        process.join(max(patience - time.monotonic(), 0.0))
    for process in processes:
        if process.is_alive():
            process.kill()
            process.join(STOP_SECONDS)
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(STOP_SECONDS)


#: Seconds to wait for a dask scheduler given by address before giving up.
CONNECT_SECONDS = 5.0


def connect(client_type: Any, scheduler: str) -> Any:
    """A client of the scheduler at ``scheduler``, or an ``InputError`` after a short wait."""
    try:
        return client_type(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        reason = str(error) or type(error).__name__
        raise InputError("scheduler", f"cannot reach a dask scheduler at {scheduler!r} within "
                         f"{CONNECT_SECONDS:g} s ({reason})") from None


#: Loggers of dask.distributed (and the event loop under it) silenced unless ``verbose``.
DASK_LOGGERS = ("distributed", "dask", "tornado", "asyncio")


@contextlib.contextmanager
def quiet_dask(verbose: bool) -> Iterator[None]:
    """Silence distributed's logging (and its tracebacks at shutdown) inside the block."""
    if verbose:
        yield
        return
    loggers = [logging.getLogger(name) for name in DASK_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


#: Environment variables dask's nanny sets in a worker before it starts, which a local
#: cluster of this package leaves unset.  With ``MALLOC_TRIM_THRESHOLD_`` set, glibc stops
#: raising its mmap threshold as a process allocates, so every array above 128 KiB is a
#: fresh ``mmap`` whose pages are faulted in and zeroed again: a trial, made of many
#: mid-sized numpy arrays, then runs markedly slower than in a plain worker process.
#: Set the same to ``null`` in the dask configuration of your own cluster's workers
#: (``distributed.nanny.pre-spawn-environ``).
UNSET_WORKER_ENVIRONMENT = ("MALLOC_TRIM_THRESHOLD_",)


#: Where a local cluster's scheduler serves its dashboard: a free port of this machine only.
#: (Without an address distributed takes port 8787, and warns when another cluster
#: holds it.)
LOCAL_DASHBOARD = "127.0.0.1:0"


@contextlib.contextmanager
def dask_client(jobs: int, scheduler: str | None, verbose: bool) -> Iterator[Any]:
    """A dask client for the block: of the cluster at ``scheduler``, or of a
    ``LocalCluster`` of ``jobs`` one-thread worker processes started for the block (with
    :data:`UNSET_WORKER_ENVIRONMENT` unset) and closed after it.

    :class:`~offcmab.validation.extras.MissingExtra` without the dask extra; an
    ``InputError`` naming ``scheduler`` when no scheduler answers at the address.
    """
    try:  # optional: dask extra
        import dask.config
        from dask.distributed import Client, LocalCluster
    except ImportError as error:
        raise MissingExtra("dask[distributed]", "dask", "--backend dask") from error
    cluster: Any = None
    if scheduler is None:
        unset = {f"distributed.nanny.pre-spawn-environ.{name}": None
                 for name in UNSET_WORKER_ENVIRONMENT}
        with sandbox.children_ignore_interrupts(), dask.config.set(unset):
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                   dashboard_address=LOCAL_DASHBOARD,
                                   silence_logs=logging.INFO if verbose
                                   else logging.CRITICAL + 1)
        client = Client(cluster)
    else:
        client = connect(Client, scheduler)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_dask(tasks: Sequence[Task], sieve: Sieve, jobs: int, scheduler: str | None,
             handed: Handed = Handed(), settings: Settings = Settings()) -> None:
    """Run the tasks on a dask.distributed cluster (``scheduler`` address or a local one).

    A worker that dies on a trial is restarted by its nanny; once the scheduler gives the
    trial up, it is reported as the subject's fault.
    """
    with quiet_dask(settings.verbose), dask_client(jobs, scheduler, settings.verbose) as client:
        from dask.distributed import KilledWorker, as_completed  # present: the client started

        futures = client.map(functools.partial(run_handed, handed, settings),
                             list(tasks), pure=False)
        by_future = dict(zip(futures, tasks, strict=True))
        for future in as_completed(futures):
            task = by_future[future]
            if future.cancelled() or not sieve.wanted(task):
                continue
            try:
                result = future.result()
            except KilledWorker:
                result = Finished(task.key, None, f"algorithm {label(task.key.subject)}: "
                                  + DIED.format(instance=task.instance.name, n=task.key.n,
                                                trial=task.key.trial))
            sieve(result)
            if result.fault:
                client.cancel([other for other, waiting in by_future.items()
                               if not sieve.wanted(waiting) and not other.done()])


def execute(tasks: Sequence[Task], done: Callback, backend: str, jobs: int,
            scheduler: str | None = None, theorems: Sequence[Theorem] = (),
            settings: Settings = Settings(), index: Index | None = None) -> None:
    """Run ``tasks`` (trials of ``theorems``) on ``backend``; ``done`` receives each
    :class:`Finished` in the main process.  Once a subject faults on a bound id, its
    other trials of that id are not started.  Worker processes find the records that
    ``index`` returns through it, and receive the others pickled."""
    if not tasks:
        return
    sieve = Sieve(done)
    if backend == "serial" or (backend == "processes" and jobs == 1):
        run_serial(tasks, sieve, theorems)
        return
    if backend == "processes":
        run_processes(tasks, sieve, jobs, portable(theorems, index), settings)
    elif backend == "dask":
        run_dask(tasks, sieve, jobs, scheduler, portable(theorems, index), settings)
    else:
        raise ValueError(f"backend: must be one of {', '.join(BACKENDS)}, got {backend!r}")
