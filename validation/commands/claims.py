r"""``offcmab claims [--json] [--no-statistical] [--strict] [--id ID ...] [--regenerate]``:
every claim of the paper and the status its machine check gave (statistical checks included
by default), with how each was checked and how long it took."""

from __future__ import annotations

import argparse

HELP = "list every encoded claim of the paper with the status its machine check gave"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--no-statistical", action="store_true",
                        help="skip the statistical (simulation) checks (they run by default)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when any claim is a counterexample")
    parser.add_argument("--id", action="append", dest="ids", metavar="ID",
                        help="check only this claim (repeatable)")
    parser.add_argument("--regenerate", action="store_true",
                        help="rerun the slow checks whose results the package stores (the "
                        "rate row behind thm:IM, a few seconds) and rewrite them, then list")


def run(args: argparse.Namespace) -> int:
    # sympy and the simulations: not on 'offcmab --help'
    from offcmab.validation.commands import claims_run

    return claims_run.run(args)
