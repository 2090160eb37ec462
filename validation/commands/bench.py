r"""``offcmab bench [--json] [--quick | --full]``: run the speed benchmarks and print their numbers.

Runs every module of :data:`offcmab.validation.benchmarks.BENCHMARKS` (one row per
benchmark), as a table or as one JSON object.  A benchmark lists its headline figures under
``figures``: each a ratio against a reference measured in the same run (the numpy floor
script, cynetdiff, pynetim), with its goal; ``summary`` gathers them with the worst ratio of
each direction and whether every goal is met.

Exit code (the verdict on the goals, as in ``validate`` and ``calibrate``): 0 when every
figure measured meets its goal, 1 when some goal is not met, 3 when nothing was compared
(no benchmark run measured its reference, so no goal could be met or missed), 2 on bad input
(an unknown benchmark name, a reference package that is not installed).  The numbers are
printed (or emitted as JSON) in every case, so a run whose goals are not met is still
recorded.
"""

from __future__ import annotations

import argparse
import sys
from inspect import signature
from typing import Any

from offcmab.validation.benchmarks import BENCHMARKS
from offcmab.validation.output import emit

HELP = ("time CLCB and the simulators against bare numpy floors; exit 1 when a speed goal is "
        "not met, 3 when nothing was compared")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke test)")
    parser.add_argument("--full", action="store_true",
                        help="whole grids where a benchmark has one (ic-simulation: up to "
                             "100,000 nodes, 10,000 cascades; several minutes)")
    parser.add_argument("--only", nargs="+", choices=list(BENCHMARKS), metavar="NAME",
                        help=f"run only these benchmarks ({', '.join(BENCHMARKS)})")


def run(args: argparse.Namespace) -> int:
    names = args.only or list(BENCHMARKS)
    for name in names:  # a missing reference package stops the command before any timing
        if hasattr(BENCHMARKS[name], "reference"):
            BENCHMARKS[name].reference()
    results: dict[str, dict[str, Any]] = {}
    for name in names:
        module = BENCHMARKS[name]
        extra = {"full": True} if args.full and "full" in signature(module.run).parameters else {}
        results[name] = {"title": module.TITLE, **module.run(args.quick, **extra)}
    results["summary"] = summary(results)
    if args.json:
        emit(results, True)
        return verdict(results["summary"])
    for name, numbers in results.items():
        if name == "summary":
            continue
        print(f"{name}: {numbers['title']}")
        _print_rows({key: value for key, value in numbers.items()
                     if key not in ("title", "figures")}, 2)
    print("summary: ratio against a reference measured in this run, and its goal")
    for row in results["summary"]["figures"]:
        bound = "<=" if row["better"] == "lower" else ">="
        print(f"  {row['figure']:<40} {row['ratio']:>8.3g}x  goal {bound} {row['goal']:g}  "
              f"{'met' if row['met'] else 'NOT met'}  (vs {row['reference']})")
    for name in results["summary"]["not_compared"]:
        print(f"  {name}: no reference measured in this run (not compared, no goal met)")
    code = verdict(results["summary"])
    if code:
        sys.stderr.write(f"offcmab bench: {VERDICTS[code]}\n")
    return code


#: What a non-zero exit code of the bench says (one line on stderr).
VERDICTS = {1: "some speed goal is not met (exit 1)",
            3: "no reference was measured, nothing was compared (exit 3)"}


def verdict(found: dict[str, Any]) -> int:
    """The exit code of a :func:`summary`: 0 every goal met, 1 some goal not met, 3 nothing
    compared."""
    if found["all_met"] is None:
        return 3
    return 0 if found["all_met"] else 1


def summary(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Every benchmark's ``figures``, the worst ratio in each direction, all goals met?

    ``all_met`` is ``None`` when no figure was measured (a missing reference is not a goal
    met); ``not_compared`` names the benchmarks that produced no figure.
    """
    rows = [row for numbers in results.values() for row in numbers.get("figures", [])]
    lower = [row for row in rows if row["better"] == "lower"]
    higher = [row for row in rows if row["better"] == "higher"]
    return {
        "figures": rows,
        "worst_lower_is_better": max(lower, key=lambda row: row["ratio"]) if lower else None,
        "worst_higher_is_better": min(higher, key=lambda row: row["ratio"]) if higher else None,
        "all_met": all(row["met"] for row in rows) if rows else None,
        "not_compared": sorted(name for name, numbers in results.items()
                               if not numbers.get("figures")),
    }


def _print_rows(numbers: dict[str, object], indent: int) -> None:
    """Aligned ``key value`` rows; a nested mapping becomes an indented block."""
    for key, value in numbers.items():
        if isinstance(value, dict):
            print(f"{' ' * indent}{key}")
            _print_rows(value, indent + 2)
            continue
        print(f"{' ' * indent}{key:<{36 - indent}} {_shown(value)}")


def _shown(value: object) -> str:
    """A number to 4 significant digits; a list of them one by one."""
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(item) for item in value) + "]"
    return str(value)
