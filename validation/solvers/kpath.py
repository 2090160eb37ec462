r"""``offcmab solve kpath``: CLCB (or a baseline) with the best-path oracle on a k-path log."""

from __future__ import annotations

import argparse

from offcmab.reference.baselines import cucb_offline, emp
from offcmab.reference.certificates import kpath_certificate
from offcmab.reference.clcb import clcb
from offcmab.reference.confidence import LOG_CONSTANT
from offcmab.reference.csv_io import check_log, read_log
from offcmab.reference.oracles import KPathOracle
from offcmab.reference.problems.kpath import check_kpath_log
from offcmab.validation.solvers.cascade import add_data_arguments
from offcmab.validation.solvers.summary import Solution, hoeffding_rule, smallest_count

HELP = "CLCB for k-path: the path (k consecutive arms) of largest total LCB from a path log"

#: ``--algorithm`` choices: the paper's algorithm first.
ALGORITHMS = {
    "clcb": "CLCB, the path of largest total LCB",
    "emp": "EMP, the path of largest total empirical mean",
    "cucb-offline": "CUCB-Offline, the path of largest total UCB",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_data_arguments(parser, "arms per path (must divide the number of arms m)", "alg1")


def solve(args: argparse.Namespace) -> Solution:
    dataset = read_log(args.data, actions=args.check_logged_actions)  # paths: unused
    if args.check_logged_actions:
        check_log(args.data, lambda data: check_kpath_log(data, args.k), dataset)
    oracle = KPathOracle(dataset.m, args.k)
    algorithm = {"clcb": clcb, "emp": emp, "cucb-offline": cucb_offline}[args.algorithm]
    result = algorithm(dataset, oracle, args.delta, radius=args.radius)
    count = smallest_count(result.counts, result.action)
    return Solution(args.algorithm, "action", result.action, dataset.n, dataset.m, args.delta,
                    count, *hoeffding_rule(count, dataset.n, dataset.m, args.delta, args.radius,
                                            args.algorithm != "emp"),
                    {"lcb": result.lcb, "mean": result.means, "counts": result.counts},
                    extra={"path": int(result.action[0]) // args.k},
                    certificate=kpath_certificate(result.action, result.counts, result.means,
                                                  dataset.n, args.k, args.delta,
                                                  LOG_CONSTANT[args.radius]))
