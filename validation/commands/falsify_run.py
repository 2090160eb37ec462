r"""The body of ``offcmab falsify``: resolve the subject, search, confirm, print, exit code.

The parser lives in :mod:`offcmab.validation.commands.falsify`, which imports this module
only when a search starts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from offcmab.validation.falsify import report
from offcmab.validation.falsify.confirm import CONFIRM_TRIALS
from offcmab.validation.falsify.falsification import (
    DATABASE_FOLDER,
    STEP_BUDGET,
    falsify,
    recheck,
    uncovered,
)
from offcmab.validation.runner.door import describe
from offcmab.validation.runner.folder import atomic_write_text, check_output_folder
from offcmab.validation.subjects import CONTROL, REFERENCE, resolve
from offcmab.validation.theorem import Theorem, find
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.tightness.files import read_instance


def subject_spec(text: str, theorem: Theorem) -> str:
    """The subject spec of the command line's ALGORITHM, checked against ``theorem``."""
    spec = text if text == REFERENCE or text.startswith(f"{CONTROL}:") else \
        describe(text, parallel=False)[0]
    resolve(spec, theorem)
    return spec


def replay(args: argparse.Namespace) -> int:
    """``--replay FILE``: the saved instance's confirmation again (its seed and trials)."""
    bound_id, instance, document = read_instance(args.replay, "falsify", THEOREMS)
    theorem = find(THEOREMS, bound_id)
    if args.only is not None and args.only != bound_id:
        raise ValueError(f"only: {args.replay} holds an instance of {bound_id}, "
                         f"not {args.only}")
    spec = subject_spec(args.algorithm, theorem)
    seed = int(document.get("seed", args.seed))
    trials = args.confirm_trials or int(document.get("trials", CONFIRM_TRIALS))
    found = recheck(theorem, spec, instance, seed, trials)
    record = {"bound_id": bound_id, "algorithm": args.algorithm, "file": str(args.replay),
              "seed": seed, "confirmation": found.summary()}
    if args.json:
        sys.stdout.write(json.dumps(record, indent=2) + "\n")
    else:
        sys.stdout.write(report.recheck_text(record))
    return 1 if found.confirmed else 0


def run(args: argparse.Namespace) -> int:
    if args.replay is not None:
        return replay(args)
    if args.only is None:
        raise ValueError("only: name the bound id to search (or give --replay FILE)")
    theorem = find(THEOREMS, args.only)
    reason = uncovered(theorem)
    if reason:
        raise ValueError(f"only: {reason}")
    spec = subject_spec(args.algorithm, theorem)
    check_destinations(args, theorem.id)
    found = falsify(theorem, spec, args.out, THEOREMS,
                    budget=args.budget, run_seed=args.seed,
                    database=args.database,
                    confirm_trials=args.confirm_trials or CONFIRM_TRIALS,
                    algorithm=args.algorithm, store=not args.no_database)
    if args.json:
        sys.stdout.write(json.dumps(found.record, indent=2) + "\n")
    else:
        sys.stdout.write(report.text(found.record) + f"  files in {args.out}\n")
    return 1 if found.confirmed else 0



def check_destinations(args: argparse.Namespace, bound_id: str) -> None:
    """Before the search: ``--out`` may not hold this id's summary or counterexample (unless
    ``--overwrite``); ``--database`` must be a folder offcmab can write in, or absent."""
    check_output_folder(args.out, "out", report.written_names(bound_id), args.overwrite)
    if not args.no_database:
        database = args.database if args.database is not None else args.out / DATABASE_FOLDER
        check_output_folder(database, "database" if args.database is not None else "out")


def search_step(args: argparse.Namespace, ids: Sequence[str]) -> bool:
    """``validate --search``: a small search per id, printed and appended to ``report.md``
    under its own heading; True when a counterexample is confirmed."""
    algorithm = args.algorithm or REFERENCE
    parts, confirmed = [], False
    for bound_id in ids:
        theorem = find(THEOREMS, bound_id)
        reason = uncovered(theorem)
        if reason:
            parts.append(f"offcmab falsify {bound_id}: not searched: {reason}\n")
            continue
        found = falsify(theorem, subject_spec(algorithm, theorem), args.out / "falsify",
                        THEOREMS, budget=STEP_BUDGET, run_seed=args.seed, algorithm=algorithm)
        confirmed = confirmed or found.confirmed
        parts.append(report.text(found.record))
    text = "".join(parts)
    sys.stdout.write(text)
    markdown = args.out / "report.md"  # rewritten whole: a reader never sees half of it
    atomic_write_text(markdown, markdown.read_text(encoding="utf-8") +
                      f"\n## Falsification search ({STEP_BUDGET} instances per id)\n\n"
                      f"```text\n{text}```\n")
    return confirmed
