r"""``offcmab cite [RUN_DIR] [--json]``: BibTeX for the paper, the software, and a run.

Without ``RUN_DIR`` it prints the paper's and the software's entries (the software at the
installed version).  With the folder of a finished ``offcmab validate`` run it adds a
``@misc`` entry whose note is the run's provenance line (version, commit or package hash,
profile, seed, subject, rows with power, the command that ran it), read from its
``report.json``; a folder without one exits 2 naming the file.
"""

from __future__ import annotations

import argparse
import sys

from offcmab.validation.arguments import input_path
from offcmab.validation.citation import citation, read_report
from offcmab.validation.output import emit

HELP = "print BibTeX for the paper, the software and (given its folder) a validate run"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", metavar="RUN_DIR", nargs="?", type=input_path, default=None,
                        help="folder of a finished offcmab validate run (its --out)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")


def run(args: argparse.Namespace) -> int:
    report = None if args.run_dir is None else read_report(args.run_dir)
    entries = citation(report)
    if args.json:
        emit(entries, True)
        return 0
    blocks = [entries["paper"], entries["software"]]
    if report is not None:
        blocks.append(entries["run"])
    sys.stdout.write("\n\n".join(blocks) + "\n")
    if report is not None:
        sys.stdout.write(f"\n% provenance: {entries['provenance']}\n")
    return 0
