r"""The body of ``offcmab falsify``: resolve the subject, search, confirm, print, exit code.

The parser lives in :mod:`offcmab.validation.commands.falsify`, which imports this module
only when a search starts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator, Sequence

from offcmab.reference.errors import InputError
from offcmab.validation.arguments import backend_of
from offcmab.validation.costs import confirmation_cost
from offcmab.validation.door import describe
from offcmab.validation.falsify import report
from offcmab.validation.falsify.confirm import CONFIRM_TRIALS
from offcmab.validation.falsify.falsification import (
    DATABASE_FOLDER,
    STEP_BUDGET,
    check_database,
    falsify,
    recheck,
    uncovered,
)
from offcmab.validation.limits import check_cost
from offcmab.validation.parts.theorem import Theorem, find
from offcmab.validation.runner.backends import Settings
from offcmab.validation.runner.folder import atomic_write_text, check_output_folder
from offcmab.validation.sandbox import (
    FAULT_EXIT,
    AlgorithmFault,
    Terminated,
    captured,
    set_timeout,
    stop_signals,
)
from offcmab.validation.subjects import CONTROL, REFERENCE, is_user, resolve
from offcmab.validation.theorem_loader import records
from offcmab.validation.theorems import THEOREMS, index
from offcmab.validation.tightness.files import read_instance

#: Where what a user's algorithm prints goes, inside ``--out`` (as validate's).
ALGORITHM_LOG = "algorithm.log"


def subject_spec(text: str, theorem: Theorem) -> str:
    """The subject spec of the command line's ALGORITHM, checked against ``theorem``."""
    spec = text if text == REFERENCE or text.startswith(f"{CONTROL}:") else \
        describe(text, parallel=False)[0]
    resolve(spec, theorem)
    return spec


def replay(args: argparse.Namespace, theorems: Sequence[Theorem]) -> int:
    """``--replay FILE``: the saved instance's confirmation again (its seed and trials)."""
    bound_id, instance, document = read_instance(args.replay, "falsify", theorems,
                                                 force=args.force, field="replay")
    theorem = find(theorems, bound_id)
    if args.only is not None and args.only != bound_id:
        raise ValueError(f"only: {args.replay} holds an instance of {bound_id}, "
                         f"not {args.only}")
    if args.confirm_trials is None and "trials" in document:
        try:
            check_cost(confirmation_cost(int(document["trials"]), "trials"), args.force)
        except InputError as error:
            raise InputError("replay", f"{args.replay}: {error}") from None
    spec = subject_spec(args.algorithm, theorem)
    seed = int(document.get("seed", args.seed))
    trials = args.confirm_trials or int(document.get("trials", CONFIRM_TRIALS))
    with user_code(args, spec):
        found = recheck(theorem, spec, instance, seed, trials)
    record = {"bound_id": bound_id, "algorithm": args.algorithm, "file": str(args.replay),
              "seed": seed, "confirmation": found.summary()}
    if args.json:
        sys.stdout.write(json.dumps(record, indent=2) + "\n")
    else:
        sys.stdout.write(report.recheck_text(record))
    return 1 if found.confirmed else 0


def run(args: argparse.Namespace) -> int:
    set_timeout(args.trial_timeout)
    theorems, added = records(args.theorem, THEOREMS)
    if args.only is None and args.replay is None and len(added) == 1:
        args.only = added[0]  # the one theorem of one's own is the one to search
    if args.confirm_trials is not None:
        check_cost(confirmation_cost(args.confirm_trials), args.force)
    try:
        with stop_signals():  # SIGTERM stops like Ctrl-C; a KeyboardInterrupt the
            # algorithm raises itself is its fault
            return replay(args, theorems) if args.replay is not None else \
                search(args, theorems)
    except AlgorithmFault as fault:
        sys.stderr.write(f"offcmab falsify: {fault}; nothing was searched to the end\n")
        return FAULT_EXIT
    except KeyboardInterrupt as stop:
        sys.stderr.write("offcmab falsify: interrupted\n")
        return 143 if isinstance(stop, Terminated) else 130


@contextlib.contextmanager
def user_code(args: argparse.Namespace, spec: str) -> Iterator[None]:
    """Inside the block, what a user's algorithm prints goes to ``OUT/algorithm.log``
    (made at the first line printed)."""
    if not is_user(spec):
        yield
        return
    with captured(args.out / ALGORITHM_LOG, lazy=True):
        yield


def search(args: argparse.Namespace, theorems: Sequence[Theorem]) -> int:
    """A search of ``--only``'s instance space, its confirmation and files."""
    if args.only is None:
        raise ValueError("only: name the bound id to search (or give --replay FILE)")
    theorem = find(theorems, args.only)
    reason = uncovered(theorem)
    if reason:
        raise ValueError(f"only: {reason}")
    spec = subject_spec(args.algorithm, theorem)
    check_destinations(args, theorem.id)  # before anything is made: nothing written on refusal
    if not args.no_database:
        check_database(args.database if args.database is not None
                       else args.out / DATABASE_FOLDER)
    with user_code(args, spec):
        found = falsify(theorem, spec, args.out, theorems,
                        budget=args.budget, run_seed=args.seed,
                        database=args.database,
                        confirm_trials=args.confirm_trials or CONFIRM_TRIALS,
                        algorithm=args.algorithm, store=not args.no_database,
                        backend=backend_of(args), jobs=args.jobs, scheduler=args.scheduler,
                        settings=Settings(args.trial_timeout,
                                          str(args.out / ALGORITHM_LOG)
                                          if is_user(spec) else None),
                        index=index)
    if args.json:
        sys.stdout.write(json.dumps(found.record, indent=2) + "\n")
    else:
        sys.stdout.write(report.text(found.record) + f"  files in {args.out}\n")
    if found.record["verdict"] == report.NOT_CHECKED:
        return 3
    return 1 if found.confirmed else 0



def check_destinations(args: argparse.Namespace, bound_id: str) -> None:
    """Before the search: ``--out`` may not hold this id's summary or counterexample (unless
    ``--overwrite``); ``--database`` must be a folder offcmab can write in, or absent."""
    check_output_folder(args.out, "out", report.written_names(bound_id), args.overwrite)
    if not args.no_database:
        database = args.database if args.database is not None else args.out / DATABASE_FOLDER
        check_output_folder(database, "database" if args.database is not None else "out")


def search_step(args: argparse.Namespace, ids: Sequence[str],
                theorems: Sequence[Theorem] = THEOREMS) -> bool:
    """``validate --search``: a small search per id, printed and appended to ``report.md``
    under its own heading; True when a counterexample is confirmed.  A fault of the
    algorithm raises its :class:`~offcmab.validation.sandbox.AlgorithmFault`."""
    algorithm = args.algorithm or REFERENCE
    parts, confirmed = [], False
    for bound_id in ids:
        theorem = find(theorems, bound_id)
        reason = uncovered(theorem)
        if reason:
            parts.append(f"offcmab falsify {bound_id}: not searched: {reason}\n")
            continue
        spec = subject_spec(algorithm, theorem)
        with stop_signals(), user_code(args, spec):  # as in the run: faults raise
            found = falsify(theorem, spec, args.out / "falsify", theorems,
                            budget=STEP_BUDGET, run_seed=args.seed, algorithm=algorithm)
        confirmed = confirmed or found.confirmed
        parts.append(report.text(found.record))
    text = "".join(parts)
    sys.stdout.write(text)
    markdown = args.out / "report.md"  # rewritten whole: a reader never sees half of it
    atomic_write_text(markdown, markdown.read_text(encoding="utf-8") +
                      f"\n## Falsification search ({STEP_BUDGET} instances per id)\n\n"
                      f"```text\n{text}```\n")
    return confirmed
