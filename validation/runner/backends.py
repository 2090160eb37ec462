r"""Where trials run: in this process, in a process pool, or on a dask.distributed cluster.

Every backend runs the same pure function :func:`run_task` on the same tasks (worker
processes find a task's theorem in :data:`offcmab.validation.theorems.THEOREMS` by its id) and
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
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing.context
import pickle
import sys
import time
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from offcmab.reference.errors import InputError
from offcmab.validation.evaluator.crosscheck import InternalError, within
from offcmab.validation.extras import MissingExtra
from offcmab.validation.runner.scenario import Subject, TrialOutcome
from offcmab.validation.runner.seeding import trial_generator
from offcmab.validation.runner.spec import Instance, TrialKey
from offcmab.validation.runner.store import TrialRecord
from offcmab.validation.subjects import resolve
from offcmab.validation.theorem import Theorem, find
from offcmab.validation.theorems import THEOREMS

BACKENDS: tuple[str, ...] = ("serial", "processes", "dask")


@dataclass(frozen=True)
class Task:
    """Everything a worker needs to run one trial: pure data, cheap to pickle."""

    instance: Instance
    key: TrialKey
    seed: int


def run_task(task: Task, theorem: Theorem) -> TrialRecord:
    """Run one trial of ``theorem``: seed its generator from its key, draw data, measure the gap.

    The gap is checked against the range the scenario allows (:func:`check_gap`).
    """
    rng = trial_generator(task.seed, task.key)
    subject = Subject(task.key.subject, resolve(task.key.subject, theorem))
    start = time.perf_counter()
    outcome = theorem.scenario.trial(task.instance, task.key.n, rng, subject)
    seconds = time.perf_counter() - start
    check_gap(task, theorem, outcome)
    return TrialRecord(task.key.text(), float(outcome.gap), float(outcome.gap_error),
                       {k: float(v) for k, v in outcome.extra.items()}, seconds)


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


#: Records a worker process was handed at start (theorems outside the index).
_HANDED: dict[str, Theorem] = {}


#: Whether this process is a worker of the ``processes`` backend.
_WORKER = False


def receive(records: Sequence[Theorem]) -> None:
    """Worker start: keep the records the run handed over (see :func:`unregistered`)."""
    _HANDED.update({record.id: record for record in records})


def start_worker(records: Sequence[Theorem]) -> None:
    """Initializer of a pool worker: note that it is one, keep the handed records."""
    global _WORKER
    _WORKER = True
    receive(records)


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
    """A spawned process that does not run the caller's ``__main__`` (module doc)."""

    def start(self) -> None:
        with main_hidden():
            super().start()


class WorkerContext(multiprocessing.context.SpawnContext):
    """The ``spawn`` context whose processes are :class:`WorkerProcess`."""

    Process = WorkerProcess


def lookup(bound_id: str) -> Theorem:
    """A worker's record of ``bound_id``: one handed over at start, else the index's."""
    return _HANDED[bound_id] if bound_id in _HANDED else find(THEOREMS, bound_id)


def run_registered(task: Task) -> TrialRecord:
    """A worker's trial: its theorem looked up by the task's bound id."""
    return run_task(task, lookup(task.key.bound_id))


def run_handed(records: Sequence[Theorem], task: Task) -> TrialRecord:
    """A dask worker's trial, with the run's unregistered records passed along."""
    receive(records)
    return run_registered(task)


def unregistered(theorems: Sequence[Theorem]) -> tuple[Theorem, ...]:
    """The records that are not the index's record of their id: workers must be handed them.

    They travel pickled, so they must be picklable (module-level classes and functions);
    ``ValueError`` naming the theorem otherwise.
    """
    found = tuple(theorem for theorem in theorems
                  if next((known for known in THEOREMS if known.id == theorem.id), None)
                  is not theorem)
    for theorem in found:
        try:
            with main_hidden():  # what workers cannot import, since they skip __main__
                pickle.dumps(theorem)
        except (pickle.PicklingError, AttributeError, TypeError) as error:
            raise ValueError(f"backend: theorem {theorem.id!r} is not in "
                             "offcmab.validation.theorems and cannot be sent to worker "
                             f"processes ({error}); run it with the serial backend") from None
    return found


Callback = Callable[[TrialRecord], None]


def run_serial(tasks: Iterable[Task], done: Callback, theorems: Sequence[Theorem]) -> None:
    """Run the tasks one after the other in this process."""
    by_id = {theorem.id: theorem for theorem in theorems}
    for task in tasks:
        done(run_task(task, by_id[task.key.bound_id]))


def run_processes(tasks: Sequence[Task], done: Callback, jobs: int,
                  handed: Sequence[Theorem] = ()) -> None:
    """Run the tasks on ``jobs`` worker processes (``spawn``, without ``__main__``).

    At most ``4 * jobs`` tasks are in flight, so an interrupted run loses little.
    """
    pending: set[Future[TrialRecord]] = set()
    queue = iter(tasks)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=WorkerContext(),
                             initializer=start_worker,
                             initargs=(tuple(handed),)) as pool:
        try:
            for task in queue:
                pending.add(pool.submit(run_registered, task))
                if len(pending) >= 4 * jobs:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        done(future.result())
            for future in _drain(pending):
                done(future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def _drain(pending: set[Future[TrialRecord]]) -> Iterable[Future[TrialRecord]]:
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        yield from finished


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


def run_dask(tasks: Sequence[Task], done: Callback, jobs: int, scheduler: str | None,
             handed: Sequence[Theorem] = ()) -> None:
    """Run the tasks on a dask.distributed cluster (``scheduler`` address or a local one)."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed  # optional: dask extra
    except ImportError as error:
        raise MissingExtra("dask[distributed]", "dask", "--backend dask") from error

    cluster: Any = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = connect(Client, scheduler)
    try:
        futures = client.map(functools.partial(run_handed, tuple(handed)), list(tasks),
                             pure=False)
        for future in as_completed(futures):
            done(future.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def execute(tasks: Sequence[Task], done: Callback, backend: str, jobs: int,
            scheduler: str | None = None, theorems: Sequence[Theorem] = THEOREMS) -> None:
    """Run ``tasks`` (trials of ``theorems``) on ``backend``; ``done`` receives each record in
    the main process."""
    if not tasks:
        return
    if backend == "serial" or (backend == "processes" and jobs == 1):
        run_serial(tasks, done, theorems)
        return
    if backend == "processes":
        run_processes(tasks, done, jobs, unregistered(theorems))
    elif backend == "dask":
        run_dask(tasks, done, jobs, scheduler, unregistered(theorems))
    else:
        raise ValueError(f"backend: must be one of {', '.join(BACKENDS)}, got {backend!r}")
