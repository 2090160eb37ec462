r"""Start-up of the command line against the start-up of ``python -c "import numpy"``.

Three child processes are timed, one after the other and then again, ``repeats`` times (15;
3 with ``quick``), so that a busy machine slows all of them alike, and their medians are
compared with the first one's:

* ``import numpy``: ``python -c "import numpy"``, the least any command that touches an
  array pays;
* ``--version``: ``offcmab --version`` (it needs no subcommand and no numpy);
* ``solve cascade``: ``offcmab solve cascade`` on a log of :data:`TINY_LISTS` ranked lists
  of 5 among :data:`TINY_ITEMS` items, small enough that reading it and running
  CLCB-Cascade take a few milliseconds: what is measured is the start-up of ``solve``
  (the interpreter, the imports, the parser) and its output.

The commands run as the console script runs them (``from offcmab.validation.cli import
main``), with the interpreter running this benchmark, all of them with compiled files in a
cache of the benchmark's own (:func:`~offcmab.validation.benchmarks.children.compiled_env`),
written by the first run of each.  Goal: each ratio ``<= 1.5``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.dataset_io import write_npz
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
from offcmab.validation.benchmarks.children import compiled_env
from offcmab.validation.benchmarks.figures import figure

TITLE = "start-up: offcmab --version and offcmab solve vs python -c 'import numpy'"

GOAL_RATIO = 1.5

#: Size of the log ``solve`` reads: small enough that start-up is nearly all of its time.
TINY_LISTS, TINY_ITEMS = 1_000, 100

#: What the ``offcmab`` console script runs (its arguments follow on the command line).
CONSOLE_SCRIPT = "import sys; from offcmab.validation.cli import main; sys.exit(main())"


def interleaved_runs(commands: dict[str, list[str]], repeats: int,
                     env: dict[str, str] | None = None) -> dict[str, list[float]]:
    """Wall seconds of every command, run in turn ``repeats`` times (output discarded)."""
    seconds: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
            seconds[name].append(time.perf_counter() - start)
    return seconds


def run(quick: bool) -> dict[str, Any]:
    rng = np.random.default_rng(2025)
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "tiny.npz"
        law = UniformListsLaw(CascadeProblem(rng.random(TINY_ITEMS), 5))
        write_npz(law.sample(TINY_LISTS, rng), log)
        commands = {
            "import numpy": [sys.executable, "-c", "import numpy"],
            "--version": [sys.executable, "-c", CONSOLE_SCRIPT, "--version"],
            "solve cascade": [sys.executable, "-c", CONSOLE_SCRIPT, "solve", "cascade",
                              "--data", str(log), "--k", "5", "--delta", "0.05"],
        }
        env = compiled_env(Path(folder) / "compiled")
        interleaved_runs(commands, 1, env)  # a first run of each: compiled files, disk cache
        runs = interleaved_runs(commands, 3 if quick else 15, env)
    medians = {name: statistics.median(times) for name, times in runs.items()}
    numpy_s = medians["import numpy"]
    out: dict[str, Any] = {"repeats": len(runs["import numpy"]),
                           "solve_log": {"lists": TINY_LISTS, "items": TINY_ITEMS}}
    for name, median in medians.items():
        out[name] = {"median_s": median, "runs_s": runs[name], "ratio": median / numpy_s}
    out["figures"] = [figure(f"offcmab {name} start-up", medians[name] / numpy_s,
                             "python -c 'import numpy' (same run)", GOAL_RATIO, "lower")
                      for name in ("--version", "solve cascade")]
    return out
