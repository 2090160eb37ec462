r"""``offcmab compare BASE_DIR NEW_DIR``: did the gaps of the new run get significantly worse?

Both folders are written by ``offcmab validate --out`` with the same seed, profile and
package version (for example the main branch's run and a pull request's).  Trials are
paired by their keys, which fix their datasets; each cell's paired gap differences get an
exact sign test (or ``--test wilcoxon``), Holm-corrected at ``--level`` over the cells
(:mod:`offcmab.validation.runner.compare`).  Prints the rows whose verdict changed and the
cells whose gaps got significantly worse or better.  Exit 0 without a significant
regression, 1 with one, 2 when the runs cannot be paired (the line says what differs), when
a ``report.json`` is malformed (the line names the field) or when no trial pairs (an empty,
damaged or header-only ``trials.jsonl``): a comparison of nothing is never "no regression".
"""

from __future__ import annotations

import argparse

from offcmab.validation.arguments import add_theorem_argument, input_path, probability

HELP = "compare two validate runs trial by trial; exit 1 when the gaps got significantly worse"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("base", type=input_path, metavar="BASE_DIR",
                        help="run folder of the baseline (validate --out)")
    parser.add_argument("new", type=input_path, metavar="NEW_DIR",
                        help="run folder of the run to judge (validate --out)")
    parser.add_argument("--level", type=probability, default=0.01, metavar="A",
                        help="family-wise level over the cells (Holm; default 0.01)")
    parser.add_argument("--test", choices=["sign", "wilcoxon"], default="sign",
                        help="paired test per cell (default: exact sign test)")
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    add_theorem_argument(parser)


def run(args: argparse.Namespace) -> int:
    # imported here, not at the top: `offcmab --help` builds this parser without scipy
    from offcmab.validation.commands import compare_run

    return compare_run.run(args)
