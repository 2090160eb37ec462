r"""Where trials run: in this process, in a process pool, or on a dask.distributed cluster.

Every backend runs the same pure function :func:`run_task` on the same tasks and
hands each finished :class:`~offcmab.validation.runner.store.TrialRecord` to a callback in
the main process as soon as it completes (the callback writes it to the durable
log).  Results depend only on the task, never on the backend or the order of
completion, because each task carries its own seed key.

``dask`` is imported only when the dask backend is chosen; a scheduler address
runs the trials on an existing cluster (whose workers must have this package
installed), otherwise a ``LocalCluster`` of ``jobs`` worker processes is started.
"""

from __future__ import annotations

import importlib
import multiprocessing
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Literal

from offcmab.validation.runner.scenario import Scenario
from offcmab.validation.runner.seeding import trial_generator
from offcmab.validation.runner.spec import Instance, TrialKey
from offcmab.validation.runner.store import TrialRecord

Backend = Literal["serial", "processes", "dask"]
BACKENDS: tuple[str, ...] = ("serial", "processes", "dask")


@dataclass(frozen=True)
class Task:
    """Everything a worker needs to run one trial: pure data, cheap to pickle."""

    module: str
    instance: Instance
    key: TrialKey
    seed: int


def load_scenario(module: str, bound_id: str) -> Scenario:
    """The scenario ``bound_id`` of the scenario module ``module`` (imported on demand)."""
    scenario: Scenario = importlib.import_module(module).SCENARIOS[bound_id]
    return scenario


def run_task(task: Task) -> TrialRecord:
    """Run one trial: seed its generator from its key, draw data, measure the gap."""
    scenario = load_scenario(task.module, task.key.bound_id)
    rng = trial_generator(task.seed, task.key)
    start = time.perf_counter()
    subject = task.key.subject
    outcome = (scenario.trial(task.instance, task.key.n, rng) if subject == "reference"
               else scenario.trial(task.instance, task.key.n, rng, subject))
    seconds = time.perf_counter() - start
    return TrialRecord(task.key.text(), float(outcome.gap), float(outcome.gap_error),
                       {k: float(v) for k, v in outcome.extra.items()}, seconds)


Callback = Callable[[TrialRecord], None]


def run_serial(tasks: Iterable[Task], done: Callback) -> None:
    """Run the tasks one after the other in this process."""
    for task in tasks:
        done(run_task(task))


def run_processes(tasks: Sequence[Task], done: Callback, jobs: int) -> None:
    """Run the tasks on ``jobs`` worker processes (started with ``spawn``).

    At most ``4 * jobs`` tasks are in flight, so an interrupted run loses little.
    """
    context = multiprocessing.get_context("spawn")
    pending: set[Future[TrialRecord]] = set()
    queue = iter(tasks)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        try:
            for task in queue:
                pending.add(pool.submit(run_task, task))
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
    from offcmab.reference.errors import InputError

    try:
        return client_type(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        reason = str(error) or type(error).__name__
        raise InputError("scheduler", f"cannot reach a dask scheduler at {scheduler!r} within "
                         f"{CONNECT_SECONDS:g} s ({reason})") from None


def run_dask(tasks: Sequence[Task], done: Callback, jobs: int, scheduler: str | None) -> None:
    """Run the tasks on a dask.distributed cluster (``scheduler`` address or a local one)."""
    from dask.distributed import Client, LocalCluster, as_completed

    cluster: Any = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = connect(Client, scheduler)
    try:
        futures = client.map(run_task, list(tasks), pure=False)
        for future in as_completed(futures):
            done(future.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def execute(tasks: Sequence[Task], done: Callback, backend: str, jobs: int,
            scheduler: str | None = None) -> None:
    """Run ``tasks`` on ``backend``; ``done`` receives each record in the main process."""
    if not tasks:
        return
    if backend == "serial" or (backend == "processes" and jobs == 1):
        run_serial(tasks, done)
    elif backend == "processes":
        run_processes(tasks, done, jobs)
    elif backend == "dask":
        run_dask(tasks, done, jobs, scheduler)
    else:
        raise ValueError(f"backend: must be one of {', '.join(BACKENDS)}, got {backend!r}")
