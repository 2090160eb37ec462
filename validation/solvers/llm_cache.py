r"""``offcmab solve llm-cache``: CLCB-LLM-C (or Zhu et al.'s LFU / LEC) on an LLM cache log."""

from __future__ import annotations

import argparse

import numpy as np

from offcmab.reference.certificates import cache_certificate
from offcmab.reference.clcb_llm import clcb_llm, ucb_radius
from offcmab.reference.errors import check_cardinality
from offcmab.reference.llm_baselines import lec, lfu
from offcmab.reference.problems.llm_cache_csv import read_any_cache_log
from offcmab.validation.arguments import input_path, positive_int, probability
from offcmab.validation.solvers.cascade import add_check_argument
from offcmab.validation.solvers.summary import Solution, smallest_count

HELP = "CLCB-LLM-C: the cache of k queries from a log of (cache, query, cost) rounds"

#: ``--algorithm`` choices: the paper's algorithm first, then Zhu et al.'s offline baselines.
ALGORITHMS = {
    "clcb": "CLCB-LLM-C, top-k by p times the UCB of c",
    "lfu": "LFU, top-k by arrival count",
    "lec": "LEC, top-k by p times c (plug-in)",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=input_path, required=True,
                        help='cache log (.jsonl with header {"queries": M}, .npz, or .csv: '
                        "one row per round, see 'Using your own data')")
    parser.add_argument("--k", type=positive_int, required=True, help="cache size")
    parser.add_argument("--delta", type=probability, required=True,
                        help="failure probability in (0, 1)")
    parser.add_argument("--variant", choices=["improved", "standard"], default="improved",
                        help="improved: empirical p times UCB of c (alg:CLCB-LLM, default); "
                        "standard: UCB of p times UCB of c (alg:CLCB-LLM_std)")
    parser.add_argument("--unbounded-costs", action="store_true",
                        help="accept any finite cost (sub-Gaussian noise) instead of [0, 1]")
    add_check_argument(parser, "caches (the algorithms use only whether a round was a hit, "
                       "which a null cost records)")


def solve(args: argparse.Namespace) -> Solution:
    log = read_any_cache_log(args.data, not args.unbounded_costs, args.check_logged_actions)
    k = check_cardinality(args.k, log.m)
    result = clcb_llm(log, k, args.delta, variant=args.variant)
    cache = result.cache
    if args.algorithm != "clcb":
        cache = (lfu if args.algorithm == "lfu" else lec)(log, k)
    # The radius that matters is the cost UCB's, at N_c(q): the cost observations of q.
    # LFU and LEC use no radius, so their output shows none.
    count = smallest_count(result.cost_counts, cache)
    radius = float(ucb_radius(np.asarray([count or 0]), log.n, log.m, args.delta)[0]) \
        if args.algorithm == "clcb" else None
    return Solution(args.algorithm, "cache", cache, log.n, log.m, args.delta, count, radius,
                    "sqrt(2 log(4 m n / delta) / N_c)" if radius is not None else None,
                    {"p_hat": result.p_hat, "c_hat": result.c_hat, "c_ucb": result.c_ucb,
                     "counts": result.counts, "cost_counts": result.cost_counts},
                    certificate=None if args.unbounded_costs else cache_certificate(
                        cache, result.counts, result.cost_counts, result.c_hat, log.n, k,
                        args.delta))
