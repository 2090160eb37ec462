r"""The body of ``offcmab claims`` (imported when the command runs: it needs sympy)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

from offcmab.bounds.claims import (
    ClaimResult,
    check_all,
    check_claim,
    count_statuses,
    get_claim,
)
from offcmab.bounds.claims.stored import STORED
from offcmab.validation.output import emit
from offcmab.validation.stored_checks import regenerate
from offcmab.validation.table import render_table


def results_of(args: argparse.Namespace) -> list[ClaimResult]:
    """The claims asked for (all by default), each checked."""
    if args.ids:
        return [check_claim(get_claim(claim_id), not args.no_statistical)
                for claim_id in args.ids]
    return check_all(include_slow=not args.no_statistical)


def how_checked(result: ClaimResult) -> str:
    """The method, or why the check did not run."""
    return result.outcome.method if result.ran else "skipped (--no-statistical)"


def table(results: list[ClaimResult]) -> str:
    """One row per claim: id, status, how it was checked, seconds."""
    rows = [[result.claim.id, result.outcome.status, how_checked(result),
             f"{result.seconds:.2f}"] for result in results]
    return render_table(["claim", "status", "checked by", "time (s)"], rows,
                        right=("time (s)",))


def run(args: argparse.Namespace) -> int:
    if args.regenerate:
        stored = regenerate()
        sys.stderr.write(f"offcmab claims: reran {len(stored)} stored check(s) "
                         f"({', '.join(stored)}) and wrote {STORED}\n")
    results = results_of(args)
    counts = count_statuses(results)
    total = sum(result.seconds for result in results)
    if args.json:
        payload: dict[str, Any] = {"claims": [result.as_dict() for result in results],
                                   "counts": counts, "seconds": round(total, 3)}
        emit(payload, True)
    else:
        sys.stdout.write(table(results))
        if args.ids:  # a few claims asked for by id: what each check found, too
            for result in results:
                sys.stdout.write(textwrap.fill(f"{result.claim.id}: {result.outcome.detail}",
                                               width=100, subsequent_indent="  ") + "\n")
        sys.stdout.write("counts: " + ", ".join(f"{status} {number}"
                                                for status, number in counts.items()))
        sys.stdout.write(f"; checked in {total:.1f} s (--json: each claim's method, "
                         "evidence and time)\n")
    return 1 if args.strict and counts["counterexample"] else 0
