r"""``offcmab solve PROBLEM --data FILE ...``: run the paper's algorithm on a logged dataset.

Each problem's solver lives in :mod:`validation.solvers` and exposes ``HELP``,
``add_arguments(parser)`` and ``solve(args) -> dict`` (the JSON payload).
"""

from __future__ import annotations

import argparse

from validation.cli import load_command
from validation.output import emit

HELP = "run the paper's algorithm for a problem on an offline dataset file"

#: Problem name -> solver module.
SOLVERS: dict[str, str] = {
    "cascade": "validation.solvers.cascade",
    "kpath": "validation.solvers.kpath",
    "llm-cache": "validation.solvers.llm_cache",
    "im-node": "validation.solvers.im_node",
    "im-edge": "validation.solvers.im_edge",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    problems = parser.add_subparsers(dest="problem", metavar="PROBLEM",
                                     parser_class=type(parser))
    problems.required = True
    for name, module_path in SOLVERS.items():
        module = load_command(module_path)
        if module is None:
            continue
        sub = problems.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.add_argument("--json", action="store_true", help="print one JSON object")
        sub.set_defaults(solve=module.solve)


def run(args: argparse.Namespace) -> int:
    emit(args.solve(args), args.json)
    return 0
