r"""The body of ``offcmab calibrate``: run the calibration, print it, exit code.

The parser lives in :mod:`offcmab.validation.commands.calibrate`, which imports this
module only when a calibration starts.
"""

from __future__ import annotations

import argparse
import sys

from offcmab.validation.calibration import EXCEEDS, LEVEL, Calibration, Estimate, calibrate
from offcmab.validation.costs import calibration_cost
from offcmab.validation.door import MAX_JOBS
from offcmab.validation.limits import check_cost
from offcmab.validation.output import jsonable, to_json
from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.sandbox import Terminated, stop_signals
from offcmab.validation.theorem_loader import records
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.tightness.corpus import corpus_instances

#: Columns of the human table.
HEADER = ("id", "runs", "runs with a FAIL", "rate", f"{LEVEL:.0%} interval",
          "stated budget", "verdict")


def run(args: argparse.Namespace) -> int:
    if args.jobs > MAX_JOBS:  # each job is a Python process started here
        raise ValueError(f"jobs: at most {MAX_JOBS} workers, got {args.jobs}")
    theorems, added = records(args.theorem, THEOREMS)
    only = tuple(dict.fromkeys(args.only)) if args.only else added
    check_cost(calibration_cost(args.runs), args.force)
    try:
        with stop_signals():  # SIGTERM stops like Ctrl-C, the workers with it
            result = calibrate(theorems, PROFILES[args.profile], runs=args.runs,
                               seed=args.seed, only=only, jobs=min(args.jobs, args.runs),
                               bound_scale=args.bound_scale,
                               extra_instances=corpus_instances(args.profile, theorems),
                               progress=not args.json)
    except KeyboardInterrupt as stop:
        sys.stderr.write("offcmab calibrate: interrupted; no run is kept (rerun it)\n")
        return 143 if isinstance(stop, Terminated) else 130
    if args.json:
        sys.stdout.write(to_json(jsonable(result.json())) + "\n")
    else:
        sys.stdout.write(table(result))
    return 1 if result.overall.verdict == EXCEEDS else 0


def _cells(entry: Estimate) -> tuple[str, ...]:
    return (entry.name, str(entry.runs), str(entry.failed), f"{entry.rate:.3g}",
            f"[{entry.low:.3g}, {entry.high:.3g}]", f"{entry.budget:.3g}", entry.verdict)


def table(result: Calibration) -> str:
    """The human table: one line per theorem, then the whole run, then how it was made."""
    lines = [HEADER, *(_cells(entry) for entry in result.theorems), _cells(result.overall)]
    widths = [max(len(line[column]) for line in lines) for column in range(len(HEADER))]
    text = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True))
            .rstrip() for line in lines]
    data = result.json()
    text += ["", f"{data['runs']} runs of validate --profile {result.profile}"
             f"{'' if result.bound_scale == 1.0 else f' --bound-scale {result.bound_scale:g}'}"
             f", run seeds spawned from --seed {result.base_seed}; per-theorem rows are "
             "not corrected for multiplicity, the 'all' row sets the exit code",
             f"with no flagged run, {data['runs_to_confirm']} runs would confirm the budget "
             f"{result.overall.budget:g}"]
    text += [f"flagged: seed {run['seed']} ({run['fail_rows']} FAIL rows: "
             f"{', '.join(run['ids'])})" for run in data["flagged_runs"]]
    return "\n".join(text) + "\n"
