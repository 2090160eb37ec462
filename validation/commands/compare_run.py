r"""The body of ``offcmab compare``: read both runs, test, print, exit code.

Also used by ``offcmab validate --baseline`` at the end of a run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from offcmab.reference.errors import InputError
from offcmab.validation.output import jsonable
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner import compare
from offcmab.validation.runner.report_schema import read_report
from offcmab.validation.theorem_loader import provenance, records
from offcmab.validation.theorems import THEOREMS


def report(base: Path, new: Path, test: str, level: float, as_json: bool) -> int:
    """Compare ``new`` against ``base``, print the result, return the exit code (0 or 1)."""
    result = compare.compare(base, new, test, level)
    sys.stdout.write(json.dumps(jsonable(result), indent=1) + "\n" if as_json
                     else compare.text(result))
    return compare.exit_code(result)


def run(args: argparse.Namespace) -> int:
    theorems, added = records(args.theorem, THEOREMS)
    for theorem in theorems:
        if theorem.id in added:
            for folder in (args.base, args.new):
                check_theorem(theorem, folder)
    return report(args.base, args.new, args.test, args.level, args.json)


def check_theorem(theorem: Theorem, folder: Path) -> None:
    """Refuse a run that checked ``theorem``'s id from another version of its file than the
    one ``--theorem`` names now (``InputError`` on ``theorem``)."""
    recorded = compare.outside_theorems(read_report(folder, "runs"))
    if theorem.id not in recorded:
        return
    now = provenance(theorem).get("sha256")
    if recorded[theorem.id] != now:
        raise InputError("theorem", f"{folder} checked {theorem.id} from a file with sha256 "
                                    f"{recorded[theorem.id]}, not {now} (the file "
                                    f"{theorem.target} now)")
