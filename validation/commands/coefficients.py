r"""``offcmab coefficients PROBLEM NAME=VALUE ...``: exact coverage coefficients of an instance.

Problems: ``cascade`` (``mu=0.7,0.5,... k=4 data=uniform``), ``kpath``
(``means=... k=... w=...``: path means and path sampling probabilities), ``llm-cache``
(``p=... c=... k=... cache=empty|random [size=S]``) and ``vectors``
(``p_opt=... p_data=...``: the two triggering-probability vectors directly).
Lists are comma-separated decimal numbers, parsed strictly; nothing is evaluated.
"""

from __future__ import annotations

import argparse
from typing import Any

from offcmab.bounds import coefficients
from offcmab.reference.errors import InputError
from offcmab.validation import numbers
from offcmab.validation.costs import cascade_coefficients_cost
from offcmab.validation.limits import add_force_argument, check_cost
from offcmab.validation.output import emit

HELP = "exact coverage coefficients (C_inf, C_one, Kbar, K2bar, B1, p_star) of an instance"

#: Problem -> (list-valued names, integer names, word-valued names with their choices).
PROBLEMS: dict[str, tuple[tuple[str, ...], tuple[str, ...], dict[str, tuple[str, ...]]]] = {
    "cascade": (("mu",), ("k",), {"data": ("uniform",)}),
    "kpath": (("means", "w"), ("k",), {}),
    "llm-cache": (("p", "c"), ("k", "size"), {"cache": ("empty", "random")}),
    "vectors": (("p_opt", "p_data"), (), {}),
}
OPTIONAL = {"data", "cache", "size"}


def parse_list(name: str, text: str) -> list[float]:
    """``"0.7,0.5"`` -> ``[0.7, 0.5]``, parsed strictly; errors name the field."""
    return numbers.parse_list(text, name, numbers.parse_float)


def parse_integer(name: str, text: str) -> int:
    return numbers.parse_int(text, name)


def parse_problem_arguments(problem: str, items: list[str]) -> dict[str, Any]:
    """Parse ``NAME=VALUE`` items for ``problem``; unknown, missing or repeated names fail."""
    lists, integers, words = PROBLEMS[problem]
    values: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise InputError(item, "expected NAME=VALUE")
        if name in values:
            raise InputError(name, "given twice")
        if name in lists:
            values[name] = parse_list(name, text)
        elif name in integers:
            values[name] = parse_integer(name, text)
        elif name in words:
            if text not in words[name]:
                raise InputError(name, f"must be one of {list(words[name])}, got {text!r}")
            values[name] = text
        else:
            known = ", ".join((*lists, *integers, *words))
            raise InputError(name, f"is not a parameter of {problem} (parameters: {known})")
    for name in (*lists, *integers, *words):
        if name not in values and name not in OPTIONAL:
            raise InputError(name, f"missing (needed by {problem})")
    return values


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("problem", choices=sorted(PROBLEMS), help="problem family")
    parser.add_argument("assignments", nargs="*", metavar="NAME=VALUE",
                        help="e.g. mu=0.7,0.5,0.3 k=2 data=uniform")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_force_argument(parser)


def run(args: argparse.Namespace) -> int:
    values = parse_problem_arguments(args.problem, args.assignments)
    result: dict[str, Any]
    if args.problem == "cascade":
        m = len(values["mu"])
        check_cost(cascade_coefficients_cost(m, min(values["k"], m)), args.force)
        result = coefficients.cascade_coefficients(values["mu"], values["k"],
                                                   values.get("data", "uniform"))
    elif args.problem == "kpath":
        result = coefficients.kpath_coefficients(values["means"], values["k"], values["w"])
    elif args.problem == "llm-cache":
        result = coefficients.llm_coefficients(values["p"], values["c"], values["k"],
                                               values.get("cache", "empty"), values.get("size"))
    else:
        result = coefficients.coverage(values["p_opt"], values["p_data"]).as_dict()
    emit({"problem": args.problem, **result}, args.json)
    return 0
