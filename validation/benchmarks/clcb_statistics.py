r"""CLCB-Cascade on a large log: the whole ``offcmab solve cascade`` process vs a numpy floor.

The log: ``n = 2e6`` uniformly random ranked lists of ``k = 5`` items out of
``m = 1e5`` (cascade feedback, means ~ U[0, 1]), saved as an uncompressed ``.npz``.

Timed, best of ``repeats`` runs each (5; 1 with ``quick``):

* ``solve_process_s``: ``python -m validation solve cascade --data log.npz --k 5
  --delta 0.05 --json`` as a subprocess (start-up, imports, loading and
  validating the file, statistics, LCB, top-k, JSON output);
* ``floor_process_s``: a subprocess that only imports numpy, loads every array
  of the archive (as the solver must, to validate it), does the two
  ``bincount`` calls, the LCB and an ``argpartition``;
* ``floor_minimal_process_s``: the same but loading only the three arrays the
  statistics use (not the logged actions);
* ``floor_inprocess_s``: the full floor inside this process (no start-up);
* ``solve_inprocess_s``: the solver's work inside this process (read and
  validate the file, CLCB-Cascade, JSON text), so ``ratio_both_inprocess``
  compares the two without interpreter start-up and imports.

``ratio_process`` = solve / floor, both whole processes (the fair comparison;
goal <= 2, stretch 1.2); ``ratio_minimal_process`` charges the solver for
reading and validating the actions too; ``ratio_inprocess`` = solve process /
in-process floor (strictest: it charges the interpreter's start-up to the solver).

``loop_estimate_s`` and ``numpy_loop_estimate_s`` are per-sample Python loops (over Python lists,
conversion excluded; over numpy CSR slices with ``counts[ids] += 1``) timed on a
subsample of ``loop_samples`` samples and extrapolated linearly to ``n``;
``speedup_vs_*`` divide them by the whole solve process, and
``speedup_statistics_vs_loop`` divides the list loop by ``statistics_s``, the
time of CLCB-Cascade proper on the loaded log (the work the loop replaces).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TITLE = "CLCB-Cascade statistics: whole solve process vs bare numpy floor"

FLOOR = """
import numpy as np
with np.load(PATH, allow_pickle=False) as z:
    arrays = {key: z[key] for key in z.files if ALL or key in ("m", "triggered", "outcomes",
                                                                 "triggered_offsets")}
m = int(arrays["m"]); ids = arrays["triggered"]; x = arrays["outcomes"]
n = arrays["triggered_offsets"].size - 1
counts = np.bincount(ids, minlength=m)
sums = np.bincount(ids, weights=x, minlength=m)
with np.errstate(divide="ignore", invalid="ignore"):
    lcb = sums / counts - np.sqrt(np.log(2 * m * n / 0.05) / (2 * counts))
lcb[counts == 0] = -np.inf
top = np.argpartition(-lcb, 5)[:5]
"""


def _best(function: Any, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def _loop_statistics(ids: list[int], values: list[float], offsets: list[int], m: int) -> None:
    """The per-sample Python loop that CLCB's bincounts replace (timed, never used)."""
    counts = [0] * m
    sums = [0.0] * m
    for t in range(len(offsets) - 1):
        for e in range(offsets[t], offsets[t + 1]):
            counts[ids[e]] += 1
            sums[ids[e]] += values[e]


def _numpy_loop_statistics(data: Any, samples: int) -> None:
    """The per-sample loop over CSR slices (timed, never used)."""
    import numpy as np

    counts = np.zeros(data.m, dtype=np.int64)
    sums = np.zeros(data.m)
    offsets = data.triggered_offsets
    for t in range(samples):
        ids = data.triggered[offsets[t]:offsets[t + 1]]
        counts[ids] += 1
        sums[ids] += data.outcomes[offsets[t]:offsets[t + 1]]


def _solve_in_process(path: Path, k: int) -> str:
    """What ``offcmab solve cascade --json`` computes (the solver itself), without start-up."""
    import argparse

    from validation.output import jsonable, to_json
    from validation.solvers.cascade import solve

    arguments = argparse.Namespace(data=path, k=k, delta=0.05, radius="cascade",
                                   algorithm="clcb")
    return to_json(jsonable(solve(arguments).payload()))


def run(quick: bool) -> dict[str, Any]:
    import numpy as np

    from reference.dataset_io import write_npz
    from reference.problems.cascade import CascadeProblem, UniformListsLaw

    n, m, k = (20_000, 1_000, 5) if quick else (2_000_000, 100_000, 5)
    repeats = 1 if quick else 5
    rng = np.random.default_rng(2025)
    law = UniformListsLaw(CascadeProblem(rng.random(m), k))
    data = law.sample(n, rng)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.npz"
        write_npz(data, path)
        solve = [sys.executable, "-m", "validation", "solve", "cascade", "--data", str(path),
                 "--k", str(k), "--delta", "0.05", "--json"]
        floor = [sys.executable, "-c", f"PATH = {str(path)!r}\nALL = True\n{FLOOR}"]
        minimal = [sys.executable, "-c", f"PATH = {str(path)!r}\nALL = False\n{FLOOR}"]

        def run_process(argv: list[str]) -> None:
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)

        solve_s = _best(lambda: run_process(solve), repeats)
        floor_process_s = _best(lambda: run_process(floor), repeats)
        minimal_process_s = _best(lambda: run_process(minimal), repeats)
        code = compile(FLOOR, "<floor>", "exec")
        floor_inprocess_s = _best(
            lambda: exec(code, {"PATH": str(path), "ALL": True}), repeats
        )
        solve_inprocess_s = _best(lambda: _solve_in_process(path, k), repeats)
        python_s = _best(lambda: run_process([sys.executable, "-c", "pass"]), repeats)
    from reference.clcb_cascade import clcb_cascade

    statistics_s = _best(lambda: clcb_cascade(data, k, 0.05), repeats)
    sub = min(n, 20_000)
    end = int(data.triggered_offsets[sub])
    ids, values = data.triggered[:end].tolist(), data.outcomes[:end].tolist()
    offsets = data.triggered_offsets[: sub + 1].tolist()
    loop_s = _best(lambda: _loop_statistics(ids, values, offsets, m), repeats) * n / sub
    numpy_loop_s = _best(lambda: _numpy_loop_statistics(data, sub), repeats) * n / sub
    return {
        "n": n, "m": m, "k": k, "entries": int(data.triggered.size),
        "solve_process_s": solve_s,
        "floor_process_s": floor_process_s,
        "floor_minimal_process_s": minimal_process_s,
        "floor_inprocess_s": floor_inprocess_s,
        "solve_inprocess_s": solve_inprocess_s,
        "ratio_both_inprocess": solve_inprocess_s / floor_inprocess_s,
        "python_startup_s": python_s,
        "ratio_process": solve_s / floor_process_s,
        "ratio_minimal_process": solve_s / minimal_process_s,
        "ratio_inprocess": solve_s / floor_inprocess_s,
        "goal_ratio": 2.0,
        "stretch_ratio": 1.2,
        "loop_samples": sub,
        "loop_estimate_s": loop_s,
        "speedup_vs_loop": loop_s / solve_s,
        "statistics_s": statistics_s,
        "speedup_statistics_vs_loop": loop_s / statistics_s,
        "numpy_loop_estimate_s": numpy_loop_s,
        "speedup_vs_numpy_loop": numpy_loop_s / solve_s,
    }
