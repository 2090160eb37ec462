r"""Regenerate the numbers and the plot of the "Performance" page from a real run.

Usage (from the repository root)::

    python docs/regenerate_performance.py                  # bench + scaling (a few minutes)
    python docs/regenerate_performance.py --full           # the 100,000-node IC grid too
    python docs/regenerate_performance.py --only clcb-statistics

It runs ``offcmab bench`` (the benchmarks named, all by default) and times two loops at a
range of log sizes ``n``:

* ``solve cascade``: reading a ``.npz`` log, checking it and running CLCB-Cascade
  (:func:`offcmab.validation.solvers.cascade.solve`, in this process, so the interpreter's fixed
  start-up does not hide the growth), ``m = 10^5`` items, lists of 5;
* validate's trial loop: one trial of ``cor1-cascade`` (draw a log of ``n`` lists, run
  CLCB-Cascade, compute the exact gap;
  :meth:`offcmab.validation.scenarios.cascade.CascadeScenario.trial`)
  on the first quick instance.

Each point is the median of 3 runs.  The slope of :math:`\log t` against :math:`\log n` is
fitted by least squares on the points with ``n >= 10^5`` (below, fixed costs dominate); a
cost linear in the log size has slope 1.  Written to ``docs/assets/performance/``:
``bench.json`` (the bench's JSON with the date and commit), ``scaling.json``,
``scaling.png``, ``table.md``, and when those benchmarks ran ``ic-grid.md`` (every case of
the IC simulation grid) and ``imm.md`` (the IMM comparison), included by
``docs/performance.md``.  Those files are
committed; the docs build only reads them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "assets" / "performance"
SOLVE_SIZES = [10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000]
TRIAL_SIZES = [1_000, 10_000, 30_000, 100_000, 300_000, 1_000_000]
FIT_FROM = 100_000


def git_commit() -> str:
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() or "unknown"


def median_seconds(function: Callable[[], Any], repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def slope(sizes: list[int], seconds: list[float]) -> float:
    """Least-squares slope of log(seconds) on log(n) over the points with n >= FIT_FROM."""
    import numpy as np

    points = [(n, t) for n, t in zip(sizes, seconds, strict=True) if n >= FIT_FROM]
    x = np.log([n for n, _ in points])
    y = np.log([t for _, t in points])
    return float(np.polyfit(x, y, 1)[0])


def solve_scaling(folder: Path) -> list[float]:
    import numpy as np

    from offcmab.reference.dataset_io import write_npz
    from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
    from offcmab.validation.solvers.cascade import solve

    rng = np.random.default_rng(2025)
    law = UniformListsLaw(CascadeProblem(rng.random(100_000), 5))
    seconds = []
    for n in SOLVE_SIZES:
        path = folder / f"log-{n}.npz"
        write_npz(law.sample(n, rng), path)
        args = argparse.Namespace(data=path, k=5, delta=0.05, radius="cascade",
                                  algorithm="clcb", check_logged_actions=False)
        solve(args)  # warm the page cache and the imports
        seconds.append(median_seconds(lambda args=args: solve(args)))
        path.unlink()
    return seconds


def trial_scaling() -> list[float]:
    import numpy as np

    from offcmab.bounds.theorems.cascade import COR1_CASCADE
    from offcmab.validation.parts.scenario import Subject
    from offcmab.validation.parts.spec import PROFILES
    from offcmab.validation.parts.theorem import find
    from offcmab.validation.subjects import REFERENCE, resolve
    from offcmab.validation.theorems import THEOREMS

    theorem = find(THEOREMS, COR1_CASCADE.id)
    scenario = theorem.scenario
    subject = Subject(REFERENCE, resolve(REFERENCE, theorem))
    instance = scenario.instances(PROFILES["quick"], 0)[0]
    rng = np.random.default_rng(0)
    return [median_seconds(lambda n=n: scenario.trial(instance, n, rng, subject))
            for n in TRIAL_SIZES]


def plot(scaling: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6.4, 4.2))
    for key, label in (("solve", "solve cascade (read, check, CLCB-Cascade)"),
                       ("trial", "validate trial (draw log, CLCB-Cascade, gap)")):
        rows = scaling[key]
        axes.loglog(rows["n"], rows["seconds"], marker="o",
                    label=f"{label}: slope {rows['slope']:.2f}")
    axes.set_xlabel("log size n (samples)")
    axes.set_ylabel("seconds (median of 3)")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    axes.set_title("Time against log size (slope 1 = linear)")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def table(bench: dict[str, Any]) -> str:
    """The summary's figures as a Markdown table."""
    lines = ["| figure | ratio | reference (measured in the same run) | goal | met |",
             "|---|---|---|---|---|"]
    for row in bench["summary"]["figures"]:
        bound = "≤" if row["better"] == "lower" else "≥"
        lines.append(f"| {row['figure']} | {row['ratio']:.2f}x | {row['reference']} | "
                     f"{bound} {row['goal']:g} | {'yes' if row['met'] else '**no**'} |")
    return "\n".join(lines) + "\n"


def ic_grid_table(bench: dict[str, Any]) -> str:
    """Every case of the IC simulation grid, worst ratio first."""
    lines = ["| case | mean cascade | ours (s) | cynetdiff (s) | ratio | CPU ratio "
             "| agreement p |", "|---|---|---|---|---|---|---|"]
    cases = bench["ic-simulation"]["cases"]
    for name in sorted(cases, key=lambda case: cases[case]["ratio"]):
        case = cases[name]
        lines.append(f"| {name} | {case['mean_cascade']:.1f} | {case['ours_s']:.4f} | "
                     f"{case['cynetdiff_s']:.4f} | {case['ratio']:.2f}x | "
                     f"{case['cpu_ratio']:.2f}x | {case['agreement_p_value']:.2g} |")
    return "\n".join(lines) + "\n"


def imm_table(bench: dict[str, Any]) -> str:
    """The IM oracle comparison's numbers (OPIM-C against pynetim's IMM), one column a size."""
    sizes = [value for value in bench["im-oracle"].values()
             if isinstance(value, dict) and "nodes" in value]
    keys = ("edges", "ours_s", "pynetim_s", "ratio", "cpu_ratio", "ours_spread",
            "pynetim_spread", "spread_ratio", "spread_ratio_inside", "ours_rr_sets",
            "pynetim_rr_sets", "goal_met")
    head = "| quantity | " + " | ".join(f"{size['nodes']} nodes" for size in sizes) + " |"
    lines = [head, "|---|" + "---|" * len(sizes)]
    for key in keys:
        cells = [size.get(key) for size in sizes]
        shown = [f"{cell:.4g}" if isinstance(cell, float) else str(cell) for cell in cells]
        lines.append(f"| {key} | " + " | ".join(shown) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", help="benchmarks to run (default: all)")
    parser.add_argument("--full", action="store_true", help="the benchmarks' whole grids")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    stamp = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
             "commit": git_commit()}
    command = [sys.executable, "-m", "validation", "bench", "--json"]
    if args.only:
        command += ["--only", *args.only]
    if args.full:
        command.append("--full")
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    # the bench's verdict: 0 every goal met, 1 some goal not met, 3 nothing compared; each
    # of these is a run to record (the table says which goals are missed); anything else
    # (bad input, a crash) is not
    if done.returncode not in (0, 1, 3):
        sys.exit(f"offcmab bench failed with exit code {done.returncode}: {done.stderr}")
    bench = {**json.loads(done.stdout), **stamp}
    (OUT / "bench.json").write_text(json.dumps(bench, indent=1) + "\n")
    (OUT / "table.md").write_text(table(bench))
    if "ic-simulation" in bench:
        (OUT / "ic-grid.md").write_text(ic_grid_table(bench))
    if "im-oracle" in bench and bench["im-oracle"].get("figures"):
        (OUT / "imm.md").write_text(imm_table(bench))
    with tempfile.TemporaryDirectory() as folder:
        solve_seconds = solve_scaling(Path(folder))
    trial_seconds = trial_scaling()
    scaling = {
        "solve": {"n": SOLVE_SIZES, "seconds": solve_seconds,
                  "slope": slope(SOLVE_SIZES, solve_seconds)},
        "trial": {"n": TRIAL_SIZES, "seconds": trial_seconds,
                  "slope": slope(TRIAL_SIZES, trial_seconds)},
        "fit_from_n": FIT_FROM, **stamp,
    }
    (OUT / "scaling.json").write_text(json.dumps(scaling, indent=1) + "\n")
    plot(scaling, OUT / "scaling.png")
    print(table(bench))
    print({key: round(scaling[key]["slope"], 3) for key in ("solve", "trial")})


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
