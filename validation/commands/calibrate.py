r"""``offcmab calibrate``: measure validate's false-alarm rate on the reference algorithm.

Runs ``offcmab validate`` (without the negative controls) ``--runs`` times with
independent run seeds spawned from ``--seed``, counts the runs with a ``FAIL`` row, and
compares the rate, with its exact 95% Clopper-Pearson interval, to the budget the run
states (:mod:`offcmab.validation.calibration`).  Prints a table (``--json``: one JSON
object).  Exit 0 when the rate is consistent with the budget, 1 when it is
significantly above it, 2 on bad input (a ``--runs`` whose bookkeeping alone would not fit
in memory is refused before any run, unless ``--force``), 130 on Ctrl-C and 143 on
``SIGTERM`` (the workers are ended; no run is kept).
"""

from __future__ import annotations

import argparse

from offcmab.validation.arguments import (
    add_theorem_argument,
    nonnegative_int,
    positive_float,
    positive_int,
)
from offcmab.validation.limits import add_force_argument

HELP = "measure how often validate flags the correct reference; exit 1 above its budget"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", nargs="+", metavar="ID",
                        help="bound ids run in each validation (default all)")
    parser.add_argument("--runs", type=positive_int, default=40,
                        help="independent validation runs (default 40)")
    parser.add_argument("--profile", choices=["quick", "default"], default="default",
                        help="the validate profile of each run (default: default)")
    parser.add_argument("--seed", type=nonnegative_int, default=2025,
                        help="base seed the run seeds are spawned from (default 2025)")
    parser.add_argument("--jobs", type=positive_int, default=1,
                        help="runs executed in parallel worker processes (default 1)")
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

    return calibrate_run.run(args)
