r"""``offcmab reproduce FIGURE --out DIR``: regenerate a synthetic experiment of the paper."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from offcmab.validation.arguments import nonnegative_int
from offcmab.validation.output import emit
from offcmab.validation.reproduce import FIGURES
from offcmab.validation.reproduce.comparison import comparison_rows, write_comparison

HELP = ("regenerate the paper's experiments as PNG/PDF figures and CSV tables; 'all' also "
        "writes comparison.csv (the paper's numbers against ours)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("figure", choices=[*FIGURES, "all"], metavar="FIGURE",
                        help=f"one of {', '.join(FIGURES)}, or all")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--seed", type=nonnegative_int, default=2025, help="run seed")
    parser.add_argument("--quick", action="store_true",
                        help="fewer trials and a shorter grid (for smoke tests)")


def run(args: argparse.Namespace) -> int:
    names = list(FIGURES) if args.figure == "all" else [args.figure]
    args.out.mkdir(parents=True, exist_ok=True)
    summaries: dict[str, dict[str, Any] | None] = {}
    for name in names:
        summary = FIGURES[name].run(args.out, args.seed, args.quick)
        summaries[name] = summary
        emit({"figure": name, **summary}, True)
    if args.figure == "all":  # the paper's numbers against ours, one row each
        write_comparison(args.out / "comparison.csv", comparison_rows(summaries))
    return 0
