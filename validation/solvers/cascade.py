r"""``offcmab solve cascade``: CLCB-Cascade on a logged cascade dataset."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from reference.clcb_cascade import clcb_cascade
from reference.dataset_io import read_dataset
from validation.arguments import positive_int, probability

HELP = "CLCB-Cascade: the top-k arms by lower confidence bound from a cascade log"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, required=True, help="dataset (.jsonl or .npz)")
    parser.add_argument("--k", type=positive_int, required=True, help="length of the list")
    parser.add_argument("--delta", type=probability, required=True,
                        help="failure probability in (0, 1)")
    parser.add_argument("--radius", choices=["alg1", "cascade"], default="cascade",
                        help="log(4mn/delta) as in Algorithm 1, or log(2mn/delta) as in the "
                        "cascade algorithm (default)")


def solve(args: argparse.Namespace) -> dict[str, Any]:
    dataset = read_dataset(args.data)
    result = clcb_cascade(dataset, args.k, args.delta, radius=args.radius)
    return {
        "action": result.action,
        "lcb": result.lcb,
        "mean": result.means,
        "counts": result.counts,
    }
