r"""``offcmab falsify ALGORITHM --only ID``: search for an instance where ALGORITHM breaks ID.

Hypothesis searches the bound id's instance space (sizes, ``k``, arm means and the
logging law of the data) for an instance where the algorithm's
:math:`(1-\delta)`-quantile gap exceeds the bound, shrinks it, and re-tests it on fresh
seeds (exact one-sided binomial test).  A confirmed counterexample is saved as a file
that ``offcmab validate --instances FILE --algorithm ALGORITHM`` replays.  Where the bound
is vacuous at every runnable size, the search looks instead for an instance where the
algorithm is significantly worse than the reference (paired sign test on shared seeds);
``offcmab falsify ALGORITHM --replay FILE`` repeats any saved counterexample's
confirmation.  Exit 0 when nothing is confirmed, 1 for a confirmed counterexample, 2 on
bad input or an id the search does not cover (the message says why), 3 when no instance
tried could break the bound (every one vacuous or with a failed precondition: nothing was
checked), 4 when the algorithm failed to run (raised, exited, hung past
``--trial-timeout``, wrote into its input, ended or signalled its process), 130 on Ctrl-C
and 143 on ``SIGTERM``.  What the algorithm prints goes to ``OUT/algorithm.log``, so the
output (``--json``) stays the command's own.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from offcmab.validation.arguments import (
    add_backend_arguments,
    add_theorem_argument,
    input_path,
    nonnegative_int,
    output_path,
    positive_float,
    positive_int,
)
from offcmab.validation.limits import add_force_argument

HELP = "search for an instance where an algorithm breaks a bound; confirm and save it"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("algorithm", metavar="ALGORITHM",
                        help="FILE.py:FUNCTION, package.module:FUNCTION, control:NAME or "
                             "reference (the call validate --signatures lists)")
    parser.add_argument("--only", metavar="ID",
                        help="the bound id to search (required unless --replay)")
    parser.add_argument("--replay", type=input_path, default=None, metavar="FILE",
                        help="repeat the confirmation of a saved counterexample (its "
                             "seed and trials) instead of searching; exit 1 if it holds")
    parser.add_argument("--budget", type=positive_int, default=None,
                        help="instances hypothesis tries (default 1200; 150 for a paired "
                             "comparison with the reference)")
    parser.add_argument("--seed", type=nonnegative_int, default=2025,
                        help="seed of the search and of every trial (default 2025)")
    parser.add_argument("--out", type=output_path, default=Path("offcmab-falsify"),
                        metavar="DIR", help="output folder (default ./offcmab-falsify)")
    parser.add_argument("--database", type=output_path, default=None, metavar="DIR",
                        help="hypothesis example database of found counterexamples "
                             "(default OUT/examples)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the summary and counterexample files of this bound id "
                             "that --out already holds (without it they are refused)")
    parser.add_argument("--no-database", action="store_true",
                        help="search from scratch: neither replay nor store counterexamples")
    parser.add_argument("--confirm-trials", type=positive_int, default=None, metavar="T",
                        help="fresh trials that confirm a found instance (default 100)")
    parser.add_argument("--trial-timeout", type=positive_float, default=600.0,
                        metavar="SECONDS",
                        help="longest a call of the algorithm may take before the search "
                             "stops with exit 4 (default 600)")
    add_backend_arguments(parser, "trials of each searched instance and of the confirmation")
    parser.add_argument("--json", action="store_true",
                        help="print the summary as JSON instead of text")
    add_force_argument(parser)
    add_theorem_argument(parser)


def run(args: argparse.Namespace) -> int:
    # imported here, not at the top: `offcmab --help` builds this parser, and the search
    # needs every theorem (sympy, scipy); the parser alone stays light
    from offcmab.validation.commands import falsify_run

    return falsify_run.run(args)
