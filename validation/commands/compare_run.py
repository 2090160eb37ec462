r"""The body of ``offcmab compare``: read both runs, test, print, exit code.

Also used by ``offcmab validate --baseline`` at the end of a run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from offcmab.validation.output import jsonable
from offcmab.validation.runner import compare


def report(base: Path, new: Path, test: str, level: float, as_json: bool) -> int:
    """Compare ``new`` against ``base``, print the result, return the exit code (0 or 1)."""
    result = compare.compare(base, new, test, level)
    sys.stdout.write(json.dumps(jsonable(result), indent=1) + "\n" if as_json
                     else compare.text(result))
    return compare.exit_code(result)


def run(args: argparse.Namespace) -> int:
    return report(args.base, args.new, args.test, args.level, args.json)
