r"""``offcmab im-oracle --graph FILE --k K``: seed selection by OPIM-C (default) or IMM, each a
(1-1/e-eps)-approximation with probability 1-delta'."""

from __future__ import annotations

import argparse
import math

import numpy as np

from offcmab.reference.errors import check_cardinality
from offcmab.reference.im.opim import opim_c
from offcmab.reference.im.oracles import imm
from offcmab.validation.arguments import (
    input_path,
    nonnegative_int,
    positive_float,
    positive_int,
    probability,
)
from offcmab.validation.costs import imm_cost, opim_cost
from offcmab.validation.limits import add_force_argument, check_cost
from offcmab.validation.output import emit
from offcmab.validation.solvers.graph_option import read_graph_option

HELP = ("k seeds maximizing the IC influence spread by OPIM-C or IMM (reverse-reachable sets), "
        "a (1-1/e-eps)-approximation with probability 1-delta'")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--graph", type=input_path, required=True,
                        help="graph CSV with header source,target,p")
    parser.add_argument("--k", type=positive_int, required=True, help="number of seeds")
    parser.add_argument("--eps", type=positive_float, default=0.1,
                        help="approximation slack eps in (0, 1-1/e) (default 0.1)")
    parser.add_argument("--delta-prime", type=probability, default=None,
                        help="failure probability of the guarantee (default 1/V)")
    parser.add_argument("--method", choices=("opim", "imm"), default="opim",
                        help="opim: OPIM-C, which stops once its RR sets prove the guarantee "
                             "(default); imm: IMM with fresh selection-phase RR sets")
    parser.add_argument("--seed", type=nonnegative_int, default=0, help="random seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_force_argument(parser)


def run(args: argparse.Namespace) -> int:
    graph = read_graph_option(args.graph)
    k = check_cardinality(args.k, graph.nodes)
    delta_prime = args.delta_prime if args.delta_prime is not None else 1.0 / max(graph.nodes, 2)
    if args.eps < 1.0 - 1.0 / math.e:  # a larger eps: refused by name by either algorithm
        cost = imm_cost if args.method == "imm" else opim_cost
        check_cost(cost(graph.nodes, float(graph.p.sum()), k, args.eps, delta_prime),
                   args.force)
    rng = np.random.default_rng(args.seed)
    if args.method == "imm":
        found = imm(graph, k, args.eps, delta_prime, rng)
        seeds, spread, rr_sets = found.seeds, found.spread, found.rr_sets
    else:
        result = opim_c(graph, k, args.eps, delta_prime, rng)
        seeds, spread, rr_sets = result.seeds, result.spread, result.rr_sets
    alpha = 1.0 - 1.0 / math.e - args.eps
    if args.json:
        emit({"seeds": seeds, "spread": spread, "alpha": alpha, "delta_prime": delta_prime,
              "method": args.method, "rr_sets": rr_sets}, True)
        return 0
    emit({"seeds": seeds,
          "spread": f"{spread:.6g} nodes (the RR-set estimate of the expected number activated)",
          "alpha": f"{alpha:.4g} (the guarantee's approximation ratio, 1 - 1/e - eps)",
          "delta_prime": f"{delta_prime:.4g} (the guarantee's failure probability)",
          "method": "OPIM-C" if args.method == "opim" else "IMM",
          "rr_sets": f"{rr_sets:,} reverse-reachable sets sampled"}, False)
    return 0
