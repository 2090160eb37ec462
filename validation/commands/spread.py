r"""``offcmab spread --graph FILE --seeds a,b``: Monte-Carlo influence spread with its error."""

from __future__ import annotations

import argparse

import numpy as np

from offcmab.reference.errors import InputError
from offcmab.reference.im.diffusion import MAX_SAMPLES, estimate_spread
from offcmab.reference.im.graph import MAX_NODES
from offcmab.validation.arguments import input_path, nonnegative_int, positive_int
from offcmab.validation.costs import spread_cost
from offcmab.validation.limits import add_force_argument, check_cost
from offcmab.validation.numbers import parse_int, parse_list
from offcmab.validation.output import emit
from offcmab.validation.solvers.graph_option import read_graph_option

HELP = "influence spread sigma(S; G) of a seed set under the IC model, with a standard error"


def seed_list(text: str) -> list[int]:
    """Comma-separated non-negative node ids (``--seeds 0,4,7``), none of them empty."""
    try:
        return parse_list(text, "seeds", lambda item, field: parse_int(item, field, 0,
                                                                       MAX_NODES - 1))
    except InputError as error:
        raise argparse.ArgumentTypeError(f"node ids: {error.message}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--graph", type=input_path, required=True,
                        help="graph CSV with header source,target,p")
    parser.add_argument("--seeds", type=seed_list, required=True, help="seed nodes, e.g. 0,4,7")
    parser.add_argument("--samples", type=positive_int, default=10000,
                        help="number of simulated cascades (default 10000)")
    parser.add_argument("--seed", type=nonnegative_int, default=0, help="random seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_force_argument(parser)


def run(args: argparse.Namespace) -> int:
    if args.samples <= MAX_SAMPLES:  # more: refused by cascade_sizes before any allocation
        check_cost(spread_cost(args.samples, len(set(args.seeds))), args.force)
    graph = read_graph_option(args.graph)
    estimate = estimate_spread(graph, np.asarray(args.seeds, dtype=np.int64), args.samples,
                               np.random.default_rng(args.seed))
    if args.json:
        emit({"spread": estimate.spread, "stderr": estimate.stderr}, True)
        return 0
    emit({"spread": f"{estimate.spread:.6g} nodes (expected number activated, "
                    f"{args.samples:,} simulated cascades)",
          "stderr": f"{estimate.stderr:.3g} nodes"}, False)
    return 0
