r"""``offcmab solve cascade``: CLCB-Cascade (or a baseline) on a logged cascade dataset."""

from __future__ import annotations

import argparse

from offcmab.reference.baselines import cucb_offline, emp
from offcmab.reference.certificates import cascade_certificate
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.confidence import LOG_CONSTANT
from offcmab.reference.csv_io import check_log, read_log
from offcmab.reference.errors import check_cardinality
from offcmab.reference.oracles import TopK
from offcmab.reference.problems.cascade_log import check_cascade_log
from offcmab.validation.arguments import input_path, positive_int, probability
from offcmab.validation.solvers.summary import Solution, hoeffding_rule, smallest_count

HELP = "CLCB-Cascade: the top-k arms by lower confidence bound from a cascade log"

#: ``--algorithm`` choices: the paper's algorithm first, then the baselines of its Figure 1.
ALGORITHMS = {
    "clcb": "CLCB-Cascade, top-k by LCB",
    "emp": "EMP, top-k by empirical mean (unobserved last)",
    "cucb-offline": "CUCB-Offline, top-k by UCB (unobserved first)",
}


def add_data_arguments(parser: argparse.ArgumentParser, k_help: str, radius_default: str) -> None:
    """``--data``, ``--k``, ``--delta`` and ``--radius`` (shared with ``solve kpath``)."""
    parser.add_argument("--data", type=input_path, required=True,
                        help="dataset (.jsonl, .npz, or .csv: one row per round, see 'Using "
                             "your own data')")
    parser.add_argument("--k", type=positive_int, required=True, help=k_help)
    parser.add_argument("--delta", type=probability, required=True,
                        help="failure probability in (0, 1)")
    rules = {"alg1": "log(4mn/delta) as in Algorithm 1",
             "cascade": "log(2mn/delta) as in the cascade algorithm"}
    parser.add_argument("--radius", choices=list(rules), default=radius_default,
                        help=", or ".join(f"{key}: {text}" for key, text in rules.items())
                        + f" (default {radius_default})")
    add_check_argument(parser, "ranked lists (action, action_offsets)")


def add_check_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """``--check-logged-actions``: also read and check what the algorithm does not use."""
    parser.add_argument("--check-logged-actions", action="store_true",
                        help=f"also read a .npz log's {what} and check them against the "
                        "feedback (slower; the algorithm does not use them, so by default "
                        "they are not read)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_data_arguments(parser, "length of the list", "cascade")


def solve(args: argparse.Namespace) -> Solution:
    # The logged lists are not used by the algorithm: a .npz archive's are read on request.
    dataset = check_log(args.data, check_cascade_log,
                        read_log(args.data, actions=args.check_logged_actions))
    if args.algorithm == "clcb":
        result = clcb_cascade(dataset, args.k, args.delta, radius=args.radius)
    else:
        baseline = emp if args.algorithm == "emp" else cucb_offline
        result = baseline(dataset, TopK(check_cardinality(args.k, dataset.m)), args.delta,
                          args.radius)
    count = smallest_count(result.counts, result.action)
    return Solution(args.algorithm, "action", result.action, dataset.n, dataset.m, args.delta,
                    count, *hoeffding_rule(count, dataset.n, dataset.m, args.delta, args.radius,
                                            args.algorithm != "emp"),
                    {"lcb": result.lcb, "mean": result.means, "counts": result.counts},
                    certificate=cascade_certificate(result.action, result.counts, result.means,
                                                    dataset.n, args.k, args.delta,
                                                    LOG_CONSTANT[args.radius]))
