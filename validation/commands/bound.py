r"""``offcmab bound ID NAME=VALUE ...``: evaluate one of the paper's bounds.

Values are parsed strictly as decimal numbers (never evaluated as expressions).  ``--variant``
chooses the bound as printed (``stated``) or as its proof yields it (``proved``);
``--solve-n eps=E`` returns the smallest ``n`` meeting a target gap; ``--list`` names
every id with its parameters.  :mod:`offcmab.bounds` (and with it sympy) is imported when a
bound is evaluated, not when the parser is built, so that ``offcmab --help`` starts fast.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

import numpy as np

from offcmab.reference.errors import InputError
from offcmab.validation import numbers
from offcmab.validation.output import emit

HELP = "evaluate a bound of the paper (stated or proved variant) or solve it for n"


#: Largest sample count ``n`` accepted (far beyond any dataset; keeps ``n`` exact in a float).
MAX_N = 10**18


def parse_assignments(items: list[str]) -> dict[str, float]:
    """``["a=1", "b=2.5"]`` -> ``{"a": 1.0, "b": 2.5}``, strictly; errors name the field.

    ``n`` is a sample count: a whole number in ``[1, MAX_N]`` written in digits
    (``1000`` or ``1e6``; not ``2.5``).
    """
    values: dict[str, float] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise InputError(item, "expected NAME=VALUE")
        if name in values:
            raise InputError(name, "given twice")
        values[name] = numbers.parse_float(text, name)
        if name == "n" and not (values[name].is_integer() and 1 <= values[name] <= MAX_N):
            raise InputError("n", f"is a sample count: a whole number in [1, {MAX_N:.0e}], "
                             f"got {text!r}")
    return values


def parse_eps(text: str) -> float:
    """``eps=0.1`` or ``0.1`` -> 0.1 (a finite number above 0); another name is refused."""
    name, sep, number = text.partition("=")
    if sep and name.strip() != "eps":
        raise argparse.ArgumentTypeError(f"solves for the target gap eps: write eps=EPS, got "
                                         f"{name.strip()!r} in {text!r} (parameters of the "
                                         "bound are NAME=VALUE words)")
    number = number if sep else text
    try:
        value = numbers.parse_float(number, "eps")
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"eps must be a finite number above 0, got {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", nargs="?", help="bound id (see --list)")
    parser.add_argument("assignments", nargs="*", metavar="NAME=VALUE",
                        help="parameter values, e.g. n=1000 delta=0.05")
    parser.add_argument("--variant", choices=["stated", "proved"], default="stated",
                        help="as printed in the paper (default) or as the proof yields it")
    parser.add_argument("--solve-n", type=parse_eps, metavar="eps=EPS", dest="solve_n",
                        help="smallest n with bound <= EPS and the precondition holding")
    parser.add_argument("--list", action="store_true", help="list bound ids and parameters")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def list_table(listing: dict[str, dict[str, Any]]) -> str:
    """The bound ids as a table: title, where in the paper, parameters (optional ones in [])."""
    rows = [(bound_id, entry["title"], entry["paper_ref"],
             " ".join([*entry["parameters"], *(f"[{name}]" for name in entry["optional"])]))
            for bound_id, entry in listing.items()]
    header = ("id", "bound", "in the paper", "parameters ([optional])")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(3)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True))
             + "  " + row[3] for row in [header, *rows]]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from offcmab.bounds.registry import BOUNDS, get_bound  # sympy: not on 'offcmab --help'

    if args.list:
        listing = {bound.id: {"title": bound.title, "paper_ref": bound.paper_ref,
                              "parameters": list(bound.parameters),
                              "optional": list(bound.optional_parameters),
                              "domains": {name: domain.describe()
                                          for name, domain in bound.domains.items()}}
                   for bound in BOUNDS.values()}
        if args.json:
            emit(listing, True)
        else:
            sys.stdout.write(list_table(listing))
        return 0
    if args.id is None:
        raise InputError("id", "missing (use --list to see the bound ids)")
    bound = get_bound(args.id)
    params = parse_assignments(args.assignments)
    try:
        with np.errstate(all="raise"):
            return _evaluate(bound, params, args)
    except (FloatingPointError, OverflowError, ZeroDivisionError):
        if not params:
            raise InputError("parameters", "the bound overflows a 64-bit float") from None
        name = most_extreme(params)
        raise InputError(name, "the bound overflows a 64-bit float at these values (the most "
                         f"extreme given: {name}={params[name]:g})") from None


def most_extreme(params: dict[str, float]) -> str:
    """The parameter farthest from 1 in orders of magnitude (``alpha=1e-320`` before
    ``n=1000``): the likeliest cause of an overflow, as a huge value or a tiny divisor."""
    return max(params, key=lambda key: abs(math.log10(abs(params[key]))) if params[key] else 0.0)


def _evaluate(bound: Any, params: dict[str, float], args: argparse.Namespace) -> int:
    payload: dict[str, Any] = {"id": bound.id, "variant": args.variant}
    if args.solve_n is not None:
        from offcmab.bounds.sample_complexity import solve_n  # sympy, as in run()

        result = solve_n(bound, args.solve_n, args.variant, **params)
        payload["solve_n"] = {"eps": args.solve_n, "n": result.n, "n_gap": result.n_gap,
                              "n_precondition": result.n_precondition}
        params = {**params, "n": float(result.n)}
    payload["value"] = bound.evaluate(args.variant, **params)
    if not math.isfinite(payload["value"]):
        raise FloatingPointError  # reported as an overflow by run()
    payload["latex"] = bound.latex(args.variant)
    payload["precondition"] = {
        "holds": bound.precondition_holds(args.variant, **params),
        "latex": bound.precondition_latex(args.variant),
    }
    payload["failure_probability"] = bound.failure(args.variant, **params)
    payload["kind"] = bound.kind
    if not args.json and payload["precondition"]["holds"] is None:
        payload["precondition"]["holds"] = "unknown (a parameter it needs is not given)"
    emit(payload, args.json)
    return 0
