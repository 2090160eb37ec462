r"""``offcmab mutation``: the mutation score of the checker itself.

Runs every mutant of the catalogue (:mod:`offcmab.validation.mutation.operators`) that
applies to a bound id as the subject of a validation run, through the same door as
``offcmab validate --algorithm`` (same profile, instances and rows), and reports per id
each mutant as ``KILLED``, ``EXPLAINED`` (it survived, and a recorded no-power reason shows
that no runnable size can kill it), ``SURVIVED`` (it survived with no such reason),
``FALSE ALARM`` (a declared equivalent mutant was flagged) or ``EQUIVALENT-OK``, with the
mutation score killed / real mutants.  With ``--replicates R`` each mutant runs on ``R`` run
seeds and the table gives its kill probability with an exact 95% interval.  Exit 0 when
every survivor is explained and every equivalent mutant passes, 1 on an unexplained
survivor, a false alarm or a mutant that raised, 3 when no mutant applies ("not checked"),
2 on bad input.
"""

from __future__ import annotations

import argparse

from offcmab.validation.arguments import (
    add_backend_arguments,
    add_theorem_argument,
    nonnegative_int,
    positive_int,
)
from offcmab.validation.limits import add_force_argument

HELP = ("how many broken variants of the reference validate flags; exit 1 on an unexplained "
        "survivor or a false alarm, 3 when no mutant applies")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", nargs="+", metavar="ID",
                        help="bound ids whose mutants run (default all)")
    parser.add_argument("--mutants", nargs="+", metavar="NAME",
                        help="run only the mutants of these names (default all)")
    parser.add_argument("--profile", choices=["quick", "ci", "default"], default="default",
                        help="the validate profile of each mutant's run (default: default)")
    parser.add_argument("--seed", type=nonnegative_int, default=2025,
                        help="run seed of the first replicate (default 2025)")
    parser.add_argument("--replicates", type=positive_int, default=1, metavar="R",
                        help="runs per mutant, on seeds seed .. seed+R-1: the kill "
                             "probability and its exact interval (default 1)")
    add_backend_arguments(parser, "mutant runs (every mutant and replicate)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_force_argument(parser)
    add_theorem_argument(parser)


def run(args: argparse.Namespace) -> int:
    # imported here, not at the top: `offcmab --help` builds this parser, and the runs
    # need every theorem (sympy, scipy); the parser alone stays light
    from offcmab.validation.commands import mutation_run

    return mutation_run.run(args)
