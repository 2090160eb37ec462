r"""``offcmab calibrate`` on a local dask cluster of two workers against the same run in series.

Two child processes are timed in turn, ``repeats`` times (2; 1 with ``quick``), after an
untimed one-run calibration that leaves compiled files for them and their workers
(:func:`~offcmab.validation.benchmarks.children.compiled_env`):

* serial: ``offcmab calibrate --only cor1-cascade --profile quick --runs R --backend
  serial --json``;
* dask: the same with ``--backend dask --jobs 2``, which starts a ``LocalCluster`` of two
  one-thread worker processes, sends it the ``R`` validation runs and closes it.

Both print the whole calibration as JSON, and the two outputs must be the same (every run
carries its own seed, so the backend cannot change a result): a difference stops the
benchmark with an error rather than timing two different computations.  The ratio is the
serial median over the dask median, start-up, the cluster's start and its close included.
``R`` is :data:`RUNS` (:data:`QUICK_RUNS` with ``quick``, where the cluster's start weighs
more: the local cluster's start, each worker's imports and its close cost a few seconds,
which a calibration of thousands of runs never notices).  Goal: at least :data:`GOAL` with
two workers on two cores.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from offcmab.validation.benchmarks.children import compiled_env
from offcmab.validation.benchmarks.figures import figure
from offcmab.validation.benchmarks.startup import CONSOLE_SCRIPT
from offcmab.validation.extras import MissingExtra

TITLE = "offcmab calibrate --backend dask --jobs 2 vs --backend serial (same runs, same result)"

#: The speed-up two local dask workers must reach against the serial run.
GOAL = 1.7

#: The bound id calibrated, and the validation runs of one calibration.
BOUND_ID = "cor1-cascade"
RUNS, QUICK_RUNS = 64, 8

#: The backend options of the two commands timed.
BACKENDS = {"serial": ["--backend", "serial"], "dask": ["--backend", "dask", "--jobs", "2"]}


def reference() -> None:
    """Stop before any timing when the dask extra is missing."""
    try:
        import dask.distributed  # noqa: F401  (optional: the dask extra)
    except ImportError as error:
        raise MissingExtra("dask[distributed]", "dask", "calibrate-dask") from error


def calibration(runs: int) -> list[str]:
    """The command line of a calibration of ``runs`` runs (backend options follow)."""
    return [sys.executable, "-c", CONSOLE_SCRIPT, "calibrate", "--only", BOUND_ID,
            "--profile", "quick", "--runs", str(runs), "--seed", "2025", "--json"]


def run(quick: bool) -> dict[str, Any]:
    runs = QUICK_RUNS if quick else RUNS
    base = calibration(runs)
    seconds: dict[str, list[float]] = {name: [] for name in BACKENDS}
    outputs: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as folder:
        env = compiled_env(Path(folder) / "compiled")  # the dask workers read them too
        subprocess.run(calibration(1), check=True, capture_output=True,
                       env=env)  # untimed: writes the compiled files
        for _ in range(1 if quick else 2):
            for name, options in BACKENDS.items():
                start = time.perf_counter()
                done = subprocess.run([*base, *options], check=True, capture_output=True,
                                      env=env)
                seconds[name].append(time.perf_counter() - start)
                if outputs.setdefault(name, done.stdout) != done.stdout:
                    raise RuntimeError(f"calibrate --backend {name} printed two different "
                                       "results")
    if outputs["serial"] != outputs["dask"]:
        raise RuntimeError("calibrate printed different results on the serial and dask backends")
    medians = {name: statistics.median(times) for name, times in seconds.items()}
    ratio = medians["serial"] / medians["dask"]
    return {"bound_id": BOUND_ID, "runs": runs, "repeats": len(seconds["serial"]),
            "cpus": os.cpu_count(),
            **{name: {"median_s": medians[name], "runs_s": seconds[name]} for name in BACKENDS},
            "speed_up": ratio,
            "figures": [figure(f"calibrate {BOUND_ID}, {runs} runs: dask (2 workers) speed-up",
                               ratio, "calibrate --backend serial (same run)", GOAL,
                               "higher")]}
