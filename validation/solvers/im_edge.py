r"""``offcmab solve im-edge``: CLCB with every edge a base arm, on edge-level feedback."""

from __future__ import annotations

import argparse
from typing import Any

from validation.solvers.im_node import add_graph_arguments, edge_rows

HELP = "edge-level CLCB: k seeds from edge-level IC feedback (each edge a base arm)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_graph_arguments(parser, "edge feedback JSON Lines: {\"nodes\": V} then "
                        "{\"seeds\": [...], \"edges\": [[u, v, fired], ...]}")
    parser.add_argument("--radius", choices=["alg1", "cascade"], default="alg1",
                        help="log(4mn/delta) as in Algorithm 1 (default) or log(2mn/delta)")


def solve(args: argparse.Namespace) -> dict[str, Any]:
    from reference.errors import check_cardinality
    from reference.im.clcb_im_edge import clcb_im_edge
    from reference.im.graph_io import read_edge_feedback, read_graph_csv, with_nodes
    from reference.im.oracles import IMMOracle

    graph = read_graph_csv(args.graph)
    feedback = read_edge_feedback(args.data, graph)
    graph = with_nodes(graph, feedback.nodes)
    k = check_cardinality(args.k, graph.nodes)
    oracle = IMMOracle(graph, k, args.eps, 1.0 / max(graph.nodes, 2), args.seed)
    result = clcb_im_edge(feedback, oracle, args.delta, args.radius)
    return {"seeds": result.action,
            "edges": edge_rows(graph.sources, graph.targets, result.means, result.lcb),
            "counts": result.counts}
