r"""``offcmab solve im-edge``: CLCB with every edge a base arm, on edge-level feedback."""

from __future__ import annotations

import argparse
from functools import partial

import numpy as np

from offcmab.reference.dataset_io import check_file
from offcmab.reference.im.clcb_im_edge import clcb_im_edge
from offcmab.reference.im.data import check_feedback_follows_graph
from offcmab.reference.im.graph_io import read_edge_feedback, with_nodes
from offcmab.validation.solvers.graph_option import read_graph_option
from offcmab.validation.solvers.im_node import add_graph_arguments, seed_oracle
from offcmab.validation.solvers.summary import Solution, hoeffding_rule

HELP = "edge-level CLCB: k seeds from edge-level IC feedback (each edge a base arm)"

#: ``--algorithm`` choices: the paper's algorithm (CLCB on edges) only.
ALGORITHMS = {"clcb": "CLCB, the IM oracle on the edge LCBs"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_graph_arguments(parser, "edge feedback: JSON Lines ({\"nodes\": V} then "
                        "{\"seeds\": [...], \"edges\": [[u, v, fired], ...]}) or .npz "
                        "(nodes, seed_offsets, seeds, edge_offsets, sources, targets, fired)")
    parser.add_argument("--radius", choices=["alg1", "cascade"], default="alg1",
                        help="log(4mn/delta) as in Algorithm 1 (default) or log(2mn/delta)")


def solve(args: argparse.Namespace) -> Solution:
    structure = read_graph_option(args.graph, need_p=False)
    feedback = read_edge_feedback(args.data, structure)
    graph = with_nodes(structure, feedback.nodes)
    check_file(args.data, partial(check_feedback_follows_graph, graph), feedback)
    result = clcb_im_edge(feedback, seed_oracle(graph, args), args.delta, args.radius,
                          structure=graph)
    leaving = np.isin(graph.sources, result.action)  # the edges the seeds trigger first
    count = int(result.counts[leaving].min()) if leaving.any() else None
    n, m = feedback.dataset.n, feedback.dataset.m
    return Solution(args.algorithm, "seeds", result.action, n, m, args.delta, count,
                    *hoeffding_rule(count, n, m, args.delta, args.radius),
                    {"u": graph.sources, "v": graph.targets, "p_hat": result.means,
                     "lcb": result.lcb, "counts": result.counts}, rows_key="edges",
                    certificate=result.certificate)
