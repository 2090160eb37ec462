r"""``offcmab claims [--json] [--no-statistical] [--strict] [--id ID ...]``: every claim of
the paper and the status its machine check gave (statistical checks included by default)."""

from __future__ import annotations

import argparse

from offcmab.validation.output import emit

HELP = "list every encoded claim of the paper with the status its machine check gave"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--no-statistical", action="store_true",
                        help="skip the statistical (simulation) checks (they run by default)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when any claim is a counterexample")
    parser.add_argument("--id", action="append", dest="ids", metavar="ID",
                        help="check only this claim (repeatable)")


def run(args: argparse.Namespace) -> int:
    # sympy: not on 'offcmab --help'
    from offcmab.bounds.claims import check_all, check_claim, count_statuses, get_claim

    if args.ids:
        results = [check_claim(get_claim(claim_id), not args.no_statistical)
                   for claim_id in args.ids]
    else:
        results = check_all(include_slow=not args.no_statistical)
    counts = count_statuses(results)
    if args.json:
        payload = {"claims": [result.as_dict() for result in results], "counts": counts}
        emit(payload, True)
    else:
        width = max(len(result.claim.id) for result in results)
        for result in results:
            print(f"{result.claim.id:<{width}}  {result.outcome.status:<20}  "
                  f"{result.outcome.method}")
        print("counts: " + ", ".join(f"{status} {number}" for status, number in counts.items()))
    return 1 if args.strict and counts["counterexample"] else 0
