r"""``offcmab solve kpath``: CLCB with the best-path oracle on a logged k-path dataset."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from reference.clcb import clcb
from reference.dataset_io import read_dataset
from reference.oracles import KPathOracle
from validation.arguments import positive_int, probability

HELP = "CLCB for k-path: the path (k consecutive arms) of largest total LCB from a path log"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, required=True, help="dataset (.jsonl or .npz)")
    parser.add_argument("--k", type=positive_int, required=True,
                        help="arms per path (must divide the number of arms m)")
    parser.add_argument("--delta", type=probability, required=True,
                        help="failure probability in (0, 1)")
    parser.add_argument("--radius", choices=["alg1", "cascade"], default="alg1",
                        help="log(4mn/delta) as in Algorithm 1 (default), or log(2mn/delta)")


def solve(args: argparse.Namespace) -> dict[str, Any]:
    dataset = read_dataset(args.data)
    oracle = KPathOracle(dataset.m, args.k)
    result = clcb(dataset, oracle, args.delta, radius=args.radius)
    return {
        "action": result.action,
        "path": int(result.action[0]) // args.k,
        "lcb": result.lcb,
        "mean": result.means,
        "counts": result.counts,
    }
