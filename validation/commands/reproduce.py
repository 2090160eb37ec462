r"""``offcmab reproduce FIGURE --out DIR``: regenerate a synthetic experiment of the paper."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from offcmab.validation.arguments import nonnegative_int, output_path
from offcmab.validation.output import emit
from offcmab.validation.reproduce import FIGURES
from offcmab.validation.reproduce.comparison import comparison_rows, write_comparison
from offcmab.validation.runner.folder import check_output_folder

#: The table ``reproduce all`` writes beside the figures.
COMPARISON = "comparison.csv"

HELP = ("regenerate the paper's experiments as PNG/PDF figures and CSV tables; 'all' also "
        "writes comparison.csv (the paper's numbers against ours)")


def describe(name: str, summary: dict[str, Any] | None, out: Path) -> str:
    """What a reproduction wrote and its headline numbers, for a person (``--json``: all)."""
    files = sorted(str(path) for path in out.glob(f"{name}*"))
    lines = [f"{name}: wrote {', '.join(files) or 'no file'}"]
    width = max((len(key) for key in summary or {}), default=0) + 1
    for key, value in (summary or {}).items():
        if isinstance(value, bool | int | float | str):
            text = f"{value:.4g}" if isinstance(value, float) else str(value)
        elif isinstance(value, dict) and all(isinstance(v, list) for v in value.values()):
            text = "; ".join(f"{k} {', '.join(map(str, v))}" for k, v in value.items())
        else:
            text = "in the CSV (--json prints it)"
        lines.append(f"  {key + ':':<{width}} {text}")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("figure", choices=[*FIGURES, "all"], metavar="FIGURE",
                        help=f"one of {', '.join(FIGURES)}, or all")
    parser.add_argument("--out", type=output_path, required=True, help="output folder")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the figure's files that --out already holds (without "
                             "it they are refused)")
    parser.add_argument("--seed", type=nonnegative_int, default=2025, help="run seed")
    parser.add_argument("--quick", action="store_true",
                        help="fewer trials and a shorter grid (for smoke tests)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per figure instead of the summary")


def run(args: argparse.Namespace) -> int:
    names = list(FIGURES) if args.figure == "all" else [args.figure]
    written = [f"{name}*" for name in names] + ([COMPARISON] if args.figure == "all" else [])
    check_output_folder(args.out, "out", written, args.overwrite)
    args.out.mkdir(parents=True, exist_ok=True)
    summaries: dict[str, dict[str, Any] | None] = {}
    for name in names:
        summary = FIGURES[name].run(args.out, args.seed, args.quick)
        summaries[name] = summary
        if args.json:
            emit({"figure": name, **(summary or {})}, True)
        else:
            print(describe(name, summary, args.out))
    if args.figure == "all":  # the paper's numbers against ours, one row each
        write_comparison(args.out / COMPARISON, comparison_rows(summaries))
    return 0
