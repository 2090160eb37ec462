r"""``offcmab errata [--json] [--no-statistical]``: the claims that failed, with evidence and
correction."""

from __future__ import annotations

import argparse
import json

from offcmab.validation.output import emit, jsonable

HELP = "list the paper's errata: failed claims with counterexample, correction and impact"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--no-statistical", action="store_true",
                        help="skip the statistical (simulation) checks (they run by default)")


def run(args: argparse.Namespace) -> int:
    from offcmab.bounds.errata import errata  # sympy: not on 'offcmab --help'

    found = errata(include_slow=not args.no_statistical)
    if args.json:
        emit({"errata": [item.as_dict() for item in found]}, True)
        return 0
    for item in found:
        print(f"{item.id}  [{item.paper_ref}]")
        print(f"  claim:      {item.claim}")
        print(f"  finding:    {item.finding}")
        print("  evidence:")
        evidence = jsonable(item.evidence, words=True)
        width = max((len(key) for key in evidence), default=0)
        for key, value in evidence.items():
            shown = json.dumps(value) if isinstance(value, list | dict) else str(value)
            print(f"    {key:<{width}}  {shown}")
        print(f"  correction: {item.correction}")
        print(f"  impact:     {item.impact}\n")
    print(f"{len(found)} errata")
    return 0
