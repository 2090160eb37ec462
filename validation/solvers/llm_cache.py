r"""``offcmab solve llm-cache``: CLCB-LLM-C on a logged LLM cache dataset."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from validation.arguments import positive_int, probability

HELP = "CLCB-LLM-C: the cache of k queries from a log of (cache, query, cost) rounds"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, required=True,
                        help='cache log (.jsonl with header {"queries": M}, or .npz)')
    parser.add_argument("--k", type=positive_int, required=True, help="cache size")
    parser.add_argument("--delta", type=probability, required=True,
                        help="failure probability in (0, 1)")
    parser.add_argument("--variant", choices=["improved", "standard"], default="improved",
                        help="improved: empirical p times UCB of c (alg:CLCB-LLM, default); "
                        "standard: UCB of p times UCB of c (alg:CLCB-LLM_std)")
    parser.add_argument("--unbounded-costs", action="store_true",
                        help="accept any finite cost (sub-Gaussian noise) instead of [0, 1]")


def solve(args: argparse.Namespace) -> dict[str, Any]:
    from reference.clcb_llm import clcb_llm
    from reference.errors import check_cardinality
    from reference.problems.llm_cache_io import read_cache_log

    log = read_cache_log(args.data, bounded=not args.unbounded_costs)
    k = check_cardinality(args.k, log.m)
    result = clcb_llm(log, k, args.delta, variant=args.variant)
    return {
        "cache": result.cache,
        "p_hat": result.p_hat,
        "c_hat": result.c_hat,
        "c_ucb": result.c_ucb,
        "counts": result.counts,
        "cost_counts": result.cost_counts,
    }
