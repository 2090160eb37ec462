r"""``offcmab solve im-node``: CLCB-IM-N on node-level cascades over a known graph structure."""

from __future__ import annotations

import argparse
from functools import partial

import numpy as np

from offcmab.reference.dataset_io import check_file
from offcmab.reference.errors import check_cardinality
from offcmab.reference.im.clcb_im_node import (
    CLCBIMResult,
    bernstein_radius,
    certifier_of,
    edge_lcbs,
)
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.graph_io import read_node_cascades, with_nodes
from offcmab.reference.im.oracles import IMMOracle
from offcmab.validation.arguments import (
    input_path,
    nonnegative_int,
    positive_float,
    positive_int,
    probability,
)
from offcmab.validation.solvers.graph_option import read_graph_option
from offcmab.validation.solvers.summary import Solution

HELP = "CLCB-IM-N: k seeds from node-level cascades (Algorithm CLCB-IM-N) with edge LCBs"

#: ``--algorithm`` choices: the paper's algorithm first, then Chen et al.'s plug-in baseline.
ALGORITHMS = {
    "clcb": "CLCB-IM-N, the IM oracle on the edge LCBs",
    "plug-in": "the IM oracle on the plug-in edge estimates (no pessimism)",
}


def add_graph_arguments(parser: argparse.ArgumentParser, data_help: str) -> None:
    """Arguments shared by the node- and edge-level IM solvers."""
    parser.add_argument("--graph", type=input_path, required=True,
                        help="graph structure CSV (source,target[,p]; p is ignored)")
    parser.add_argument("--data", type=input_path, required=True, help=data_help)
    parser.add_argument("--k", type=positive_int, required=True, help="number of seeds")
    parser.add_argument("--delta", type=probability, required=True,
                        help="failure probability in (0, 1)")
    parser.add_argument("--eps", type=positive_float, default=0.1,
                        help="IMM oracle slack eps (default 0.1)")
    parser.add_argument("--seed", type=nonnegative_int, default=0, help="oracle random seed")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_graph_arguments(parser, "cascades: JSON Lines ({\"nodes\": V} then {\"active\": [S_0, "
                        "...]}) or .npz (nodes, offsets, active, steps)")
    parser.add_argument("--estimator", choices=["correct", "printed"], default="correct",
                        help="p(v̄|ū) estimator: n_{1,ū,v̄}/n_{0,ū} as in the proof (default), "
                        "or n_{1,ū,v̄}/n_{1,v̄} as printed in the algorithm")


def statistics(args: argparse.Namespace) -> tuple[ICGraph, CLCBIMResult]:
    """Read the graph and the cascades, and compute the LCBs (checking the cascades follow the
    graph in the same pass).  The cascades are not returned: they are freed before the oracle
    runs, so the process never holds the log and the oracle's sets at once."""
    structure = read_graph_option(args.graph, need_p=False)
    cascades = read_node_cascades(args.data, structure.nodes)
    graph = with_nodes(structure, cascades.nodes)
    return graph, check_file(args.data, partial(edge_lcbs, graph, delta=args.delta,
                                                estimator=args.estimator, check_graph=True),
                             cascades)


def solve(args: argparse.Namespace) -> Solution:
    graph, result = statistics(args)
    index = result.lcb if args.algorithm == "clcb" else \
        np.nan_to_num(result.estimates.p_hat, nan=0.0)  # plug_in_node's index
    seeds = seed_oracle(graph, args)(index)
    # The edges the seeds can trigger first leave a seed; their conditional estimate rests on
    # the n_0(u) cascades where u was not seeded.
    leaving = np.isin(graph.sources, seeds)
    unseeded = result.counters.unseeded[graph.sources]
    count = int(unseeded[leaving].min()) if leaving.any() else None
    clcb = args.algorithm == "clcb"  # the plug-in baseline uses no radius: none is shown
    radius = float(bernstein_radius(np.asarray([0.5]), np.asarray([count or 0]),
                                    result.log_term)[0]) if clcb else None
    return Solution(args.algorithm, "seeds", seeds, result.counters.n, graph.edges, args.delta,
                    count, radius, "at most sqrt(6 x(1-x) L / N) + 9 L / N, L = log(12 n E / "
                    "delta), x = 1/2" if clcb else None, {"u": graph.sources, "v": graph.targets,
                                        "p_hat": result.estimates.p_hat, "lcb": result.lcb,
                                        "counts": unseeded}, rows_key="edges",
                    certificate=certifier_of(graph, result, args.delta, seed=args.seed)(seeds))


def seed_oracle(graph: ICGraph, args: argparse.Namespace) -> IMMOracle:
    """The IMM oracle both IM solvers use: ``--k`` seeds (checked against V), ``--eps``, 1/V."""
    k = check_cardinality(args.k, graph.nodes)
    return IMMOracle(graph, k, args.eps, 1.0 / max(graph.nodes, 2), args.seed)
