r"""A pool of workers for the heavy commands: a function mapped over tasks, on any backend.

``offcmab validate`` sends trials to its backend (:mod:`offcmab.validation.runner.backends`);
``calibrate``, ``mutation``, ``tightness`` and ``falsify`` send larger or smaller units of
work (a whole validation run, a mutant's run, one instance's evaluation, one trial) to the
same three backends through :func:`worker_pool`:

* ``serial``: the tasks run one after the other in this process;
* ``processes``: ``jobs`` spawned worker processes that skip the caller's ``__main__``
  (:class:`~offcmab.validation.runner.backends.WorkerContext`), ended at once on Ctrl-C,
  ``SIGTERM`` or a failed task (:func:`~offcmab.validation.runner.backends.stop_pool`);
* ``dask``: the cluster at ``scheduler``, or a ``LocalCluster`` of ``jobs`` one-thread worker
  processes started for the block and closed after it.  A cluster given by address needs
  workers of one thread each: a trial seeds the global random generators for a user's
  code, so two trials must not run in one process at the same time.

A pool lives for a ``with`` block, so a command that maps many times (a search, one
generation after another) starts its workers once.  :meth:`Pool.map` returns the results
in the order of the tasks, whatever the order they finish in.  Every task must carry its
own seed: the function is pure, so its result does not depend on the worker that ran it,
and a command gives the same result on every backend.  Functions and tasks travel pickled
(module-level functions, plain data).  Workers are handed the records the tasks look up
(:func:`~offcmab.validation.runner.backends.portable`: the package's through its index,
a loaded record through its source, any other pickled) and find them with
:func:`~offcmab.validation.runner.backends.lookup`.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, TypeVar

from offcmab.validation import sandbox
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner import backends

Item = TypeVar("Item")
Result = TypeVar("Result")

#: Called in this process with (task index, result) as each task finishes.
Done = Callable[[int, Any], None]


@contextlib.contextmanager
def handed_here(records: backends.Handed) -> Iterator[None]:
    """Inside the block, :func:`~offcmab.validation.runner.backends.lookup` in this process
    also finds ``records`` (as a worker that was handed them would)."""
    saved = dict(backends._HANDED)
    backends.receive(records)
    try:
        yield
    finally:
        backends._HANDED.clear()
        backends._HANDED.update(saved)


def take(records: backends.Handed, settings: backends.Settings | None) -> None:
    """In a worker: keep the handed records, and take the run's settings for a user's code
    (the trial timeout, where its output goes) once per process."""
    backends.receive(records)
    if settings is not None and settings not in backends._SETTLED:
        backends._SETTLED.append(settings)
        settings.apply()


def _call_with_records(records: backends.Handed, settings: backends.Settings | None,
                       function: Callable[[Any], Any], item: Any) -> Any:
    """A dask worker's task: :func:`take` the records and settings, then run the function."""
    take(records, settings)
    return function(item)


@dataclass
class Pool:
    """Workers open for a ``with`` block of :func:`worker_pool`.

    ``executor`` is ``None`` (serial), a process pool or a dask client.
    """

    backend: str
    jobs: int
    records: backends.Handed
    executor: Any = None
    settings: backends.Settings | None = None

    def map(self, function: Callable[[Item], Result], items: Sequence[Item],
            done: Done | None = None) -> list[Result]:
        """``[function(item) for item in items]``, computed by the pool's workers.

        ``done(index, result)`` is called in this process as each task finishes (in the
        order they finish).  A task that raises stops the others and the error goes on.
        """
        items = list(items)
        found: dict[int, Result] = {}

        def keep(index: int, result: Result) -> None:
            found[index] = result
            if done is not None:
                done(index, result)

        if self.executor is None:
            with handed_here(self.records):
                for index, item in enumerate(items):
                    keep(index, function(item))
        elif self.backend == "processes":
            self._map_processes(function, items, keep)
        else:
            self._map_dask(function, items, keep)
        return [found[index] for index in range(len(items))]

    def _map_processes(self, function: Callable[[Item], Result], items: list[Item],
                       keep: Callable[[int, Result], None]) -> None:
        pending: dict[Future[Result], int] = {}
        with sandbox.children_ignore_interrupts():  # a submit may start a worker
            for index, item in enumerate(items):
                pending[self.executor.submit(function, item)] = index
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                keep(pending.pop(future), future.result())

    def _map_dask(self, function: Callable[[Item], Result], items: list[Item],
                  keep: Callable[[int, Result], None]) -> None:
        from dask.distributed import as_completed

        futures = self.executor.map(functools.partial(_call_with_records, self.records,
                                                      self.settings, function),
                                    items, pure=False)
        index = {future.key: position for position, future in enumerate(futures)}
        try:
            for future in as_completed(futures):
                keep(index[future.key], future.result())
        except BaseException:
            self.executor.cancel(futures)
            raise


def check_backend(backend: str, jobs: int, scheduler: str | None) -> None:
    """``ValueError`` naming the field for a backend outside
    :data:`~offcmab.validation.runner.backends.BACKENDS`, ``jobs`` below 1, or a scheduler
    address without the dask backend."""
    if backend not in backends.BACKENDS:
        raise ValueError(f"backend: must be one of {', '.join(backends.BACKENDS)}, "
                         f"got {backend!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs: must be an integer of at least 1, got {jobs!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError("scheduler: a scheduler address needs --backend dask")


@contextlib.contextmanager
def worker_pool(backend: str, jobs: int = 1, scheduler: str | None = None,
                theorems: Sequence[Theorem] = (), verbose: bool = False,
                settings: backends.Settings | None = None,
                index: backends.Index | None = None) -> Iterator[Pool]:
    """A :class:`Pool` of ``jobs`` workers on ``backend`` for the ``with`` block.

    ``theorems`` are the records the tasks look up; workers find those ``index`` returns
    (the package's index) through it, and are handed the others.  ``settings``, when
    given, are taken by every worker (the trial timeout of a user's algorithm and where
    its output goes).  ``processes`` with one
    job runs serially.  The workers are ended when the block is left, at once when it is
    left by an error or an interrupt.
    """
    check_backend(backend, jobs, scheduler)
    if backend == "serial" or (backend == "processes" and jobs == 1):
        yield Pool("serial", 1, backends.Handed(tuple(theorems)))
        return
    records = backends.portable(theorems, index)
    if backend == "processes":
        sandbox.start_resource_tracker(None if settings is None else settings.log)
        executor = ProcessPoolExecutor(max_workers=jobs, mp_context=backends.WorkerContext(),
                                       initializer=take, initargs=(records, settings))
        try:
            yield Pool(backend, jobs, records, executor, settings)
        except BaseException:
            backends.stop_pool(executor)
            raise
        executor.shutdown()
        return
    with backends.quiet_dask(verbose), backends.dask_client(jobs, scheduler, verbose) as client:
        yield Pool(backend, jobs, records, client, settings)
