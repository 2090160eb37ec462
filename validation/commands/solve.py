r"""``offcmab solve PROBLEM --data FILE ...``: run the paper's algorithm on a logged dataset.

Each problem's solver lives in :mod:`offcmab.validation.solvers` and exposes ``HELP``,
``ALGORITHMS`` (the ``--algorithm`` choices, the paper's first), ``add_arguments(parser)``
and ``solve(args) -> Solution``.  The output is a short summary by default; ``--json`` and
``--out`` give every per-arm statistic (:mod:`offcmab.validation.solvers.summary`).
"""

from __future__ import annotations

import argparse

from offcmab.validation.cli import load_command, requested
from offcmab.validation.limits import add_force_argument, check_cost
from offcmab.validation.reading_cost import dataset_cost
from offcmab.validation.runner.folder import check_output_file
from offcmab.validation.solvers.summary import add_output_arguments, report

HELP = "run the paper's algorithm (or a baseline) for a problem on an offline dataset file"

#: Problem name -> solver module path, imported through the CLI's lazy loader as the
#: subcommands are: ``offcmab solve cascade`` imports only its own solver and the reference
#: modules it needs (all five solvers' would add about 50 ms, a third, to its imports).
SOLVERS: dict[str, str] = {
    "cascade": "offcmab.validation.solvers.cascade",
    "kpath": "offcmab.validation.solvers.kpath",
    "llm-cache": "offcmab.validation.solvers.llm_cache",
    "im-node": "offcmab.validation.solvers.im_node",
    "im-edge": "offcmab.validation.solvers.im_edge",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    problems = parser.add_subparsers(dest="problem", metavar="PROBLEM",
                                     parser_class=type(parser))
    problems.required = True
    argv = getattr(parser, "argv", None)
    only = requested(argv, list(SOLVERS)) if argv is not None else None
    for name, module_path in SOLVERS.items():
        if only is not None and name != only:
            continue  # build only the problem asked for (start-up time)
        module = load_command(module_path)
        if module is None:
            continue
        sub = problems.add_parser(name, help=module.HELP, description=module.HELP)
        sub.add_argument("--algorithm", choices=list(module.ALGORITHMS),
                         default=next(iter(module.ALGORITHMS)),
                         help="; ".join(f"{key}: {text}" for key, text in
                                        module.ALGORITHMS.items()) + " (default: "
                         f"{next(iter(module.ALGORITHMS))})")
        module.add_arguments(sub)
        add_output_arguments(sub)
        add_force_argument(sub)
        sub.set_defaults(solve=module.solve)


def run(args: argparse.Namespace) -> int:
    if args.out is not None:  # before the data is read: a mistake costs nothing
        check_output_file(args.out, "out", args.overwrite)
    check_cost(dataset_cost(args.data), args.force)
    report(args.solve(args), args.json, args.out)
    return 0
