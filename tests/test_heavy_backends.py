"""The heavy commands give the serial result on a dask cluster and on worker processes.

Every task carries its own seed (a calibration run its run seed, a mutant's run its job,
an evaluation or a batch of trials its trial keys), so the backend only decides where a
task runs.  Each test runs a tiny budget serially and on a dask ``LocalCluster`` of two
in-process workers (given by its address, as a user's cluster is) and asks for the very
same result, timings aside.  No statistics: the assertions are equalities.  The cluster's
workers are processes of one thread each: a trial seeds the global random generators for a
user's code, so two trials must not share a process at the same time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from offcmab.validation.calibration import calibrate
from offcmab.validation.commands.falsify_run import subject_spec
from offcmab.validation.falsify.falsification import falsify, recheck
from offcmab.validation.mutation.score import mutation
from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.parts.theorem import find
from offcmab.validation.runner import backends
from offcmab.validation.runner.pool import worker_pool
from offcmab.validation.theorems import THEOREMS, index
from offcmab.validation.tightness.search import search

distributed = pytest.importorskip("dask.distributed")

#: The cheapest id to run (LLM cache, standard view).
CHEAP = "lem-llm-std"
#: Timings differ between any two runs; everything else must not.
TIMINGS = {"seconds", "cpu_seconds", "search_seconds", "shrink_seconds"}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a dask cluster of two one-thread worker processes."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=backends.LOCAL_DASHBOARD) as cluster:
        yield cluster.scheduler_address


def untimed(value: Any) -> Any:
    """``value`` with every timing field left out, at any depth."""
    if isinstance(value, dict):
        return {key: untimed(item) for key, item in value.items() if key not in TIMINGS}
    if isinstance(value, list):
        return [untimed(item) for item in value]
    return value


def test_pool_keeps_the_order_of_the_tasks(scheduler: str) -> None:
    finished: list[int] = []
    with worker_pool("dask", 2, scheduler) as pool:
        assert pool.map(abs, [-3, 2, -1, 0], lambda index, _: finished.append(index)) == \
            [3, 2, 1, 0]
    assert sorted(finished) == [0, 1, 2, 3]


def _environment(name: str) -> str | None:
    """A worker's value of the environment variable ``name``."""
    return os.environ.get(name)


def test_local_cluster_workers_keep_the_default_allocator(monkeypatch: pytest.MonkeyPatch) \
        -> None:
    """Dask's nanny sets ``MALLOC_TRIM_THRESHOLD_`` in its workers, which turns off glibc's
    adaptive mmap threshold and slows every mid-sized numpy array; the local cluster of
    the heavy commands must leave it unset (and still pass on the rest of the nanny's
    settings, such as one BLAS thread per worker)."""
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    assert distributed.Nanny is not None  # the nanny is what sets the environment
    with backends.dask_client(2, None, verbose=False) as client:
        trim = client.run(_environment, "MALLOC_TRIM_THRESHOLD_")
        threads = client.run(_environment, "OMP_NUM_THREADS")
    assert len(trim) == 2 and set(trim.values()) == {None}
    assert set(threads.values()) == {"1"}


def test_pool_refuses_a_scheduler_without_dask() -> None:
    with pytest.raises(ValueError, match=r"^scheduler: "), worker_pool("processes", 2, "tcp://x"):
        pass
    with pytest.raises(ValueError, match=r"^backend: "), worker_pool("threads", 2):
        pass


def test_calibrate_on_dask_gives_the_serial_runs(scheduler: str) -> None:
    def run(**options: Any) -> Any:
        return calibrate(THEOREMS, PROFILES["quick"], runs=2, seed=11, only=[CHEAP], **options)

    serial, spread = run(), run(backend="dask", jobs=2, scheduler=scheduler)
    assert spread.outcomes == serial.outcomes
    assert spread.json() == serial.json()


def test_mutation_on_dask_gives_the_serial_report(scheduler: str) -> None:
    def run(**options: Any) -> dict[str, Any]:
        return mutation((CHEAP,), profile="quick", seed=7,
                        mutants=("data-ignored", "relabelled"), **options)

    serial, spread = run(), run(backend="dask", jobs=2, scheduler=scheduler)
    assert len(serial["entries"]) == 2
    different = {"jobs", "backend"}
    assert {k: v for k, v in untimed(spread).items() if k not in different} == \
        {k: v for k, v in untimed(serial).items() if k not in different}


def test_tightness_on_dask_gives_the_serial_search(scheduler: str) -> None:
    theorem = find(THEOREMS, "thm1-inf")
    serial = search(theorem, budget=10, seed=5, trials=5)
    spread = search(theorem, budget=10, seed=5, trials=5, backend="dask", jobs=2,
                    scheduler=scheduler, index=index)
    assert serial.evaluations == spread.evaluations == 10
    assert serial.counts["candidate"] > 0  # some evaluations ran trials
    assert serial.counts == spread.counts
    assert serial.start == spread.start
    assert serial.best == spread.best and serial.closest_vacuous == spread.closest_vacuous


def test_falsify_on_dask_gives_the_serial_search_and_confirmation(scheduler: str,
                                                                  tmp_path: Path) -> None:
    theorem = find(THEOREMS, "thm1-inf")
    algorithm = f"{Path(__file__).with_name('user_mistakes.py')}:total_reward"
    spec = subject_spec(algorithm, theorem)

    def run(out: Path, **options: Any) -> Any:
        return falsify(theorem, spec, out, THEOREMS, budget=20, run_seed=2025,
                       store=False, algorithm=algorithm, **options)

    serial = run(tmp_path / "serial")
    spread = run(tmp_path / "dask", backend="dask", jobs=2, scheduler=scheduler, index=index)
    assert serial.result.best is not None and serial.result.best.trials > 0
    assert spread.result.best == serial.result.best
    assert spread.result.counts == serial.result.counts
    assert untimed(spread.record) | {"files": None} == untimed(serial.record) | {"files": None}
    # the confirmation's trials, on the best instance the search saw
    instance = serial.result.best.instance
    alone = recheck(theorem, spec, instance, 2025, 40)
    with worker_pool("dask", 2, scheduler, [theorem], index=index) as pool:
        assert recheck(theorem, spec, instance, 2025, 40, pool) == alone
    assert alone.evaluation.trials == 40
