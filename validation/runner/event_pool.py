r"""Event rows of the package's own algorithms on worker processes.

An event case holds its trial as a closure, which does not travel to another process.  So
a worker is sent the case's name instead (:class:`EventJob`: bound id, profile, subject
spec, row id, instance), rebuilds the theorem's cases exactly as the main process did, runs
the one named, and sends back the counts.  Each row draws from its own generator (run
seed, row id, instance), so a row's result is the same on any worker and in this process.

Only the reference and the negative controls go to workers: their code is the package's,
so nothing a worker can meet needs the fault handling a user's algorithm gets (the event
rows of a user's algorithm run in the main process, where a fault is told per theorem).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace

from offcmab.validation import sandbox
from offcmab.validation.events.collect import theorem_cases
from offcmab.validation.events.core import EventResult, run_case, run_cases
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.backends import (
    Index,
    Settings,
    WorkerContext,
    lookup,
    portable,
    start_worker,
    stop_pool,
)


@dataclass(frozen=True)
class EventBatch:
    """Event cases of one subject: ``cases`` as built by :func:`theorem_cases` of the first of
    their ``bound_ids`` for ``profile`` and ``subject``, with ``trials`` where a case sets none."""

    profile: str
    subject: str
    cases: tuple[EventCase, ...]
    trials: int


@dataclass(frozen=True)
class EventJob:
    """One event case named so a worker can rebuild it: pure data."""

    bound_id: str
    profile: str
    subject: str
    case_id: str
    instance: str
    trials: int
    seed: int


@dataclass(frozen=True)
class Counted:
    """What a worker sends back for one :class:`EventJob`."""

    trials: int
    failures: int
    seconds: float
    reason: str


def run_job(job: EventJob) -> Counted:
    """A worker's event row: the named case rebuilt from the theorem's record and run."""
    sandbox.begin((job.seed,))
    for case in theorem_cases(lookup(job.bound_id), job.profile, job.subject):
        if (case.id, case.instance) == (job.case_id, job.instance):
            result = run_case(replace(case, trials=job.trials), job.trials, job.seed)
            return Counted(result.trials, result.failures, result.seconds, result.reason)
    raise LookupError(f"event row {job.case_id} on {job.instance} is not a case of "
                      f"{job.bound_id} for {job.subject} in the {job.profile} profile")


def _jobs(batch: EventBatch, seed: int) -> list[EventJob]:
    return [EventJob(case.bound_ids[0], batch.profile, batch.subject, case.id, case.instance,
                     case.trials or batch.trials, seed) for case in batch.cases]


def run_batches(batches: Sequence[EventBatch], seed: int, jobs: int,
                theorems: Sequence[Theorem], settings: Settings | None = None,
                index: Index | None = None) -> list[list[EventResult]]:
    """The results of every batch, in order: on ``jobs`` spawned workers, or here for one.

    The costliest cases (rounds or samples times trials) are handed out first, so the
    workers finish together.
    """
    if jobs <= 1:
        return [run_cases(batch.cases, batch.trials, seed) for batch in batches]
    named = [(case, job) for batch in batches
             for case, job in zip(batch.cases, _jobs(batch, seed), strict=True)]
    order = sorted(range(len(named)), key=lambda i: -named[i][1].trials * max(named[i][0].n, 1))
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=WorkerContext(),
                               initializer=start_worker,
                               initargs=(portable(theorems, index), settings or Settings()))
    try:
        futures: dict[int, Future[Counted]] = {}
        for position in order:
            with sandbox.children_ignore_interrupts():  # a submit may start a worker
                futures[position] = pool.submit(run_job, named[position][1])
        wait(futures.values())
        counted = [futures[position].result() for position in range(len(named))]
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown()
    results = [EventResult(case, got.trials, got.failures, got.seconds, got.reason)
               for (case, _job), got in zip(named, counted, strict=True)]
    out, start = [], 0
    for batch in batches:
        out.append(results[start:start + len(batch.cases)])
        start += len(batch.cases)
    return out
