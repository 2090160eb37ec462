r"""The body of ``offcmab calibrate``: run the calibration, print it, exit code.

The parser lives in :mod:`offcmab.validation.commands.calibrate`, which imports this
module only when a calibration starts.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from offcmab.validation.calibration import (
    CONFIRMED,
    EXCEEDS,
    LEVEL,
    Calibration,
    Estimate,
    calibrate,
)
from offcmab.validation.calibration_auto import (
    REFUTED,
    UNDECIDED,
    AutoCalibration,
    calibrate_auto,
    decision,
    plan,
)
from offcmab.validation.costs import calibration_cost
from offcmab.validation.door import MAX_JOBS
from offcmab.validation.limits import check_cost
from offcmab.validation.output import jsonable, to_json
from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET, PROFILES
from offcmab.validation.parts.theorem import Theorem
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
    if args.auto:
        return run_auto(args, theorems, added)
    for name in ("out", "max_runs"):
        if getattr(args, name) is not None:
            raise ValueError(f"{name.replace('_', '-')}: only with --runs auto")
    only = tuple(dict.fromkeys(args.only)) if args.only else added
    check_cost(calibration_cost(args.runs), args.force)
    try:
        with stop_signals():  # SIGTERM stops like Ctrl-C, the workers with it
            result = calibrate(theorems, PROFILES[args.profile], runs=args.runs,
                               seed=args.seed, only=only, jobs=min(args.jobs, args.runs),
                               bound_scale=args.bound_scale,
                               extra_instances=corpus_instances(args.profile, theorems),
                               progress=shown(args), backend=args.backend,
                               scheduler=args.scheduler)
    except KeyboardInterrupt as stop:
        sys.stderr.write("offcmab calibrate: interrupted; no run is kept (rerun it)\n")
        return 143 if isinstance(stop, Terminated) else 130
    if args.json:
        sys.stdout.write(to_json(jsonable(result.json())) + "\n")
    else:
        sys.stdout.write(table(result))
    return 1 if result.overall.verdict == EXCEEDS else 0


def shown(args: argparse.Namespace) -> bool:
    """Whether the progress bar is shown: ``--progress``, or stderr is a terminal."""
    return bool(args.progress or sys.stderr.isatty())


#: Decision of ``--runs auto`` -> exit code: no exit 0 without a confirmed budget.
AUTO_EXIT_CODES = {CONFIRMED: 0, REFUTED: 1, UNDECIDED: 3}


def run_auto(args: argparse.Namespace, theorems: Sequence[Theorem],
             added: tuple[str, ...]) -> int:
    """``--runs auto``: calibrate ``theorems`` (the package's and those of ``--theorem``,
    whose ids are ``added``) in the folder ``--out`` until the plan decides."""
    only = tuple(dict.fromkeys(args.only)) if args.only else added
    folder = args.out
    check_cost(calibration_cost(plan(FALSE_ALARM_BUDGET).runs), args.force)
    try:
        with stop_signals():
            result = calibrate_auto(theorems, PROFILES[args.profile], seed=args.seed,
                                    folder=folder, only=only, jobs=args.jobs,
                                    backend=args.backend, scheduler=args.scheduler,
                                    bound_scale=args.bound_scale,
                                    extra_instances=corpus_instances(args.profile, theorems),
                                    max_runs=args.max_runs, progress=shown(args))
    except KeyboardInterrupt as stop:
        sys.stderr.write(f"offcmab calibrate: interrupted; the finished runs are kept in "
                         f"{folder}: rerun the same command to resume\n")
        return 143 if isinstance(stop, Terminated) else 130
    if args.json:
        sys.stdout.write(to_json(jsonable(result.json())) + "\n")
    else:
        sys.stdout.write(auto_table(result))
    return AUTO_EXIT_CODES[result.decision]


def auto_table(result: AutoCalibration) -> str:
    """The human table of ``--runs auto``: the plan, then one line per id and the decision."""
    chosen = result.plan
    text = []
    if result.calibration is not None:
        lines = [AUTO_HEADER, *((*_cells(entry)[:-1], decision(entry))
                                for entry in result.calibration.theorems)]
        widths = [max(len(line[column]) for line in lines) for column in range(len(lines[0]))]
        text = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True))
                .rstrip() for line in lines] + [""]
    runs = 0 if result.calibration is None else len(result.calibration.outcomes)
    flagged = 0 if result.calibration is None else result.calibration.overall.failed
    text += [f"{result.decision}: {flagged} of {runs} runs flagged against the budget "
             f"{chosen.budget:g} (plan: confirmed by {chosen.runs} runs with none flagged, "
             f"refuted by {chosen.refuting} flagged; {result.resumed} runs resumed from "
             f"{result.folder})"]
    if result.decision == UNDECIDED:
        text.append(f"rerun the same command to go on ({chosen.runs - runs} runs left at "
                    "most)" if runs < chosen.runs else
                    "every planned run is made: the flagged runs neither confirm nor refute "
                    "the budget")
    return "\n".join(text) + "\n"


#: Columns of the ``--runs auto`` table.
AUTO_HEADER = (*HEADER[:-1], "decision")


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
