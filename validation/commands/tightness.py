r"""``offcmab tightness ID``: the instance where a bound is closest to tight, and how close.

Runs :func:`offcmab.validation.tightness.search.search` (differential evolution over the
bound id's instance space, each evaluation the validate row of the real algorithm on
the decoded instance), prints the tightest candidate and saves it as JSON that
``offcmab validate --instances FILE`` replays, then reports the slack ledger of that instance
(:mod:`offcmab.validation.tightness.ledger`: the gap over the stated bound, the proved bound,
the certificate and the proof's intermediate sum, on held-out logs).  ``--objective
certificate`` maximises the certificate's ratio instead of the stated bound's; ``--ledger-of
FILE`` reports the ledger of a saved instance without searching.  Exit 0 with a candidate, 1
when no evaluated instance was a candidate (every bound inapplicable or vacuous: the message
says which), 2 on bad input (unknown id, a lower-bound id, budget below 1, an objective the id's
algorithm cannot be scored on).
"""

from __future__ import annotations

import argparse

from offcmab.validation.arguments import (
    add_backend_arguments,
    add_theorem_argument,
    input_path,
    nonnegative_int,
    output_path,
    positive_int,
)

#: What the search can maximise (:data:`offcmab.validation.tightness.search.OBJECTIVES`;
#: repeated here so the parser stays light).
OBJECTIVES = ("stated", "certificate")

HELP = "search for the instance where a bound is tightest; save it for validate --instances"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID",
                        help="bound id of an upper bound (offcmab bound --list lists them)")
    parser.add_argument("--budget", type=positive_int, default=60,
                        help="instances to evaluate (default 60)")
    parser.add_argument("--seed", type=nonnegative_int, default=2025,
                        help="seed of the optimizer and of every trial (default 2025)")
    add_backend_arguments(parser, "evaluations of each generation")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace an existing --out file (without it, it is refused)")
    parser.add_argument("--out", type=output_path, default=None, metavar="FILE.json",
                        help="where to save the tightest instance (default tightness-ID.json)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="stated",
                        help="the ratio to maximise: the gap over the stated bound (default) or "
                             "over the certificate the algorithm returns")
    parser.add_argument("--ledger-of", type=input_path, default=None, metavar="FILE.json",
                        help="report the slack ledger of this saved instance of ID; no search")
    parser.add_argument("--ledger-trials", type=positive_int, default=None, metavar="T",
                        help="held-out logs of the slack ledger (default 200)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_theorem_argument(parser)


def run(args: argparse.Namespace) -> int:
    # imported here, not at the top: `offcmab --help` builds this parser, and the search
    # needs every theorem (sympy, scipy); the parser alone stays light
    from offcmab.validation.commands import tightness_run

    return tightness_run.run(args)
