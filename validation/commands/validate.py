r"""``offcmab validate``: check every bound of the paper against Monte-Carlo gaps.

Writes ``report.json``, ``report.md``, ``figures/*.png`` and the durable trial log
``trials.jsonl`` into ``--out``.  Exit code 0 when no row fails, 1 when a bound is
violated beyond the run's false-alarm budget, 2 on bad usage, 3 with ``--require-power``
when a negative control a trap should catch is not flagged (:mod:`offcmab.validation.runner.power`;
controls never cause exit 1), and 3 when no row could fail for ``--algorithm`` (every
row vacuous, n/a or advisory: nothing was checked) unless ``--allow-unchecked`` is given, 4 when
``--algorithm`` failed to run (raised, exited, hung past ``--trial-timeout``, wrote into
its read-only input: ``error`` rows in the report; its prints go to ``algorithm.log``),
130 on Ctrl-C and 143 on ``SIGTERM`` (finished trials are kept; rerun with ``--resume``).  Rows
whose bound is at least the largest gap the instance allows are ``vacuous`` (they cannot
fail) and are counted apart from the rows with power.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from offcmab.validation.arguments import (
    add_theorem_argument,
    input_path,
    nonnegative_int,
    output_path,
    positive_float,
    positive_int,
)
from offcmab.validation.limits import add_force_argument
from offcmab.validation.parts.spec import PROFILES

HELP = "check every bound against Monte-Carlo suboptimality gaps; exit 1 on a violation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_const", const="quick", dest="profile",
                      help="smoke run (under 20 s; what the test suite runs)")
    size.add_argument("--full", action="store_const", const="full", dest="profile",
                      help="paper scale: the paper's grids, every row with power sized to detect "
                           "2 delta (up to 20000 trials per instance and n; use --jobs N)")
    size.add_argument("--profile", choices=list(PROFILES), dest="profile",
                      help="profile by name; ci: the rows that flag the most controls per "
                           "second (sized for CI minutes)")
    parser.set_defaults(profile="default")
    parser.add_argument("--only", nargs="+", metavar="ID",
                        help="bound ids to check (default all, or those of --theorem; "
                             "--signatures lists them)")
    parser.add_argument("--seed", type=nonnegative_int, default=2025, help="run seed")
    parser.add_argument("--jobs", type=positive_int, default=1, help="parallel workers")
    parser.add_argument("--backend", choices=["serial", "processes", "dask"], default=None,
                        help="where trials run (default: serial for --jobs 1, else processes)")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help="dask scheduler address (with --backend dask; default: a "
                             "local cluster of --jobs workers)")
    parser.add_argument("--out", type=output_path, default=Path("offcmab-report"),
                        help="output folder (default ./offcmab-report)")
    again = parser.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true",
                       help="continue an interrupted run from its trials.jsonl (checked line "
                            "by line; refused when the log is from other options)")
    again.add_argument("--resume-anyway", action="store_true",
                       help="resume even when the log's header differs from this run, "
                            "keeping the trials that still check out")
    again.add_argument("--overwrite", action="store_true",
                       help="replace the results --out already holds and an existing "
                            "--junit-xml file (without it, or --resume, they are refused)")
    parser.add_argument("--bound-scale", type=positive_float, default=1.0, metavar="X",
                        help="multiply every bound by X (a sensitivity probe)")
    parser.add_argument("--no-figures", action="store_true", help="skip figures/*.png")
    parser.add_argument("--algorithm", metavar="FILE.py:FUNCTION", default=None,
                        help="check your own function (or package.module:FUNCTION) in place "
                             "of the reference algorithm; needs --only (see --signatures)")
    parser.add_argument("--allow-unchecked", action="store_true",
                        help="exit 0, not 3, when no row could fail for --algorithm (every "
                             "row vacuous, n/a or advisory)")
    parser.add_argument("--signatures", action="store_true",
                        help="print the call signature --algorithm needs per bound id, exit")
    power = parser.add_mutually_exclusive_group()
    power.add_argument("--require-power", action="store_true",
                       help="exit 3 when a negative control that a trap should catch goes "
                            "unflagged (runs the controls in every profile)")
    power.add_argument("--no-power", action="store_true",
                       help="skip the negative controls (run by default and --full)")
    parser.add_argument("--search", action="store_true",
                        help="after the run, search each id for an instance where the "
                             "algorithm breaks its bound (offcmab falsify, small budget)")
    parser.add_argument("--trial-timeout", type=positive_float, default=600.0, metavar="SECONDS",
                        help="longest a call of --algorithm may take before its bound id is "
                             "an error (default 600)")
    parser.add_argument("--verbose", action="store_true",
                        help="let the dask backend log (quiet by default)")
    parser.add_argument("--instances", nargs="+", type=input_path, metavar="FILE",
                        help="replay only these saved instances (offcmab tightness --out); "
                             "the default and full profiles also run validation/corpus")
    add_force_argument(parser)
    add_theorem_argument(parser)
    parser.add_argument("--junit-xml", type=output_path, metavar="FILE", default=None,
                        help="also write the rows as JUnit XML (one testcase per row) for CI")
    parser.add_argument("--baseline", type=input_path, metavar="BASE_DIR", default=None,
                        help="compare this run's trials with BASE_DIR's (as offcmab compare) "
                             "at the end; exit 1 on a significant regression")


def run(args: argparse.Namespace) -> int:
    # imported here, not at the top: `offcmab --help` builds this parser, and the run needs
    # every theorem (sympy, scipy); the parser alone stays light
    from offcmab.validation.commands import validate_run

    return validate_run.run(args)
