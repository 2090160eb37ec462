r"""``offcmab calibrate``: measure validate's false-alarm rate on the reference algorithm.

Runs ``offcmab validate`` (without the negative controls) ``--runs`` times with
independent run seeds spawned from ``--seed``, counts the runs with a ``FAIL`` row, and
compares the rate, with its exact 95% Clopper-Pearson interval, to the budget the run
states (:mod:`offcmab.validation.calibration`).  Prints a table (``--json``: one JSON
object).  Exit 0 when the rate is consistent with the budget, 1 when it is
significantly above it.  ``--runs auto`` makes runs until the budget is confirmed or
refuted (:mod:`offcmab.validation.calibration_auto`), keeping them in the folder ``--out``
so that the same command resumes it; exit 0 confirmed, 1 refuted, 3 undecided.  Exit 2 on
bad input (a ``--runs`` whose bookkeeping alone would not fit
in memory is refused before any run, unless ``--force``), 130 on Ctrl-C and 143 on
``SIGTERM`` (the workers are ended; no run is kept).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from offcmab.validation.arguments import (
    add_backend_arguments,
    add_theorem_argument,
    nonnegative_int,
    output_path,
    positive_float,
    positive_int,
)
from offcmab.validation.limits import add_force_argument

#: The calibration folder of ``--runs auto`` when ``--out`` is not given.
DEFAULT_FOLDER = "offcmab-calibration"

#: ``--runs`` that makes runs until the budget is decided.
AUTO = "auto"


def runs_count(text: str) -> int | str:
    """``--runs``: a positive count, or ``auto``."""
    return AUTO if text == AUTO else positive_int(text)


HELP = "measure how often validate flags the correct reference; exit 1 above its budget"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", nargs="+", metavar="ID",
                        help="bound ids run in each validation (default all)")
    parser.add_argument("--runs", type=runs_count, default=40, metavar="N|auto",
                        help="independent validation runs (default 40); auto: until the "
                             "budget is confirmed or refuted, kept in --out")
    parser.add_argument("--out", type=output_path, default=None, metavar="DIR",
                        help="with --runs auto: the calibration folder; the same command "
                             f"resumes it (default {DEFAULT_FOLDER})")
    parser.add_argument("--max-runs", type=positive_int, default=None, metavar="M",
                        help="with --runs auto: stop after M runs on file (undecided unless "
                             "decided before)")
    parser.add_argument("--progress", action="store_true",
                        help="show the progress bar on stderr even when it is not a terminal")
    parser.add_argument("--profile", choices=["quick", "default"], default="default",
                        help="the validate profile of each run (default: default)")
    parser.add_argument("--seed", type=nonnegative_int, default=2025,
                        help="base seed the run seeds are spawned from (default 2025)")
    add_backend_arguments(parser, "runs")
    parser.add_argument("--bound-scale", type=positive_float, default=1.0, metavar="X",
                        help="multiply every bound by X, as validate --bound-scale (below 1: "
                             "a deliberately wrong bound whose flags are no false alarms)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_force_argument(parser)
    add_theorem_argument(parser)


def run(args: argparse.Namespace) -> int:
    # imported here, not at the top: `offcmab --help` builds this parser, and the runs
    # need every theorem (sympy, scipy); the parser alone stays light
    from offcmab.validation.commands import calibrate_run

    args.auto = args.runs == AUTO
    if args.auto and args.out is None:
        args.out = Path(DEFAULT_FOLDER)
    return calibrate_run.run(args)
