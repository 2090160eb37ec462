r"""``offcmab solve im-node``: CLCB-IM-N on node-level cascades over a known graph structure."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from validation.arguments import nonnegative_int, positive_float, positive_int, probability

HELP = "CLCB-IM-N: k seeds from node-level cascades (Algorithm CLCB-IM-N) with edge LCBs"


def add_graph_arguments(parser: argparse.ArgumentParser, data_help: str) -> None:
    """Arguments shared by the node- and edge-level IM solvers."""
    parser.add_argument("--graph", type=Path, required=True,
                        help="graph structure CSV (source,target[,p]; p is ignored)")
    parser.add_argument("--data", type=Path, required=True, help=data_help)
    parser.add_argument("--k", type=positive_int, required=True, help="number of seeds")
    parser.add_argument("--delta", type=probability, required=True,
                        help="failure probability in (0, 1)")
    parser.add_argument("--eps", type=positive_float, default=0.1,
                        help="IMM oracle slack eps (default 0.1)")
    parser.add_argument("--seed", type=nonnegative_int, default=0, help="oracle random seed")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_graph_arguments(parser, "cascades JSON Lines: {\"nodes\": V} then {\"active\": [S_0, ...]}")
    parser.add_argument("--estimator", choices=["correct", "printed"], default="correct",
                        help="p(v̄|ū) estimator: n_{1,ū,v̄}/n_{0,ū} as in the proof (default), "
                        "or n_{1,ū,v̄}/n_{1,v̄} as printed in the algorithm")


def solve(args: argparse.Namespace) -> dict[str, Any]:
    from reference.errors import check_cardinality
    from reference.im.clcb_im_node import clcb_im_node
    from reference.im.graph_io import read_graph_csv, read_node_cascades, with_nodes
    from reference.im.oracles import IMMOracle

    graph = read_graph_csv(args.graph)
    cascades = read_node_cascades(args.data, graph.nodes)
    graph = with_nodes(graph, cascades.nodes)
    k = check_cardinality(args.k, graph.nodes)
    oracle = IMMOracle(graph, k, args.eps, 1.0 / max(graph.nodes, 2), args.seed)
    result = clcb_im_node(graph, cascades, oracle, args.delta, args.estimator)
    return {"seeds": result.seeds,
            "edges": edge_rows(graph.sources, graph.targets, result.estimates.p_hat, result.lcb)}


def edge_rows(sources: Any, targets: Any, p_hat: Any, lcb: Any) -> list[dict[str, Any]]:
    """One ``{"u", "v", "p_hat", "lcb"}`` object per edge (non-finite numbers become null)."""
    return [{"u": u, "v": v, "p_hat": p, "lcb": b}
            for u, v, p, b in zip(sources.tolist(), targets.tolist(), p_hat.tolist(),
                                  lcb.tolist(), strict=True)]
