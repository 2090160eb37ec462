r"""The body of ``offcmab validate``: plan and run the trials, write the report, exit code.

The parser lives in :mod:`offcmab.validation.commands.validate`, which imports this
module only when a run starts.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from offcmab.validation import door
from offcmab.validation.api import CheckReport, signature_table
from offcmab.validation.commands import compare_run, falsify_run
from offcmab.validation.parts.spec import Instance
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner import compare, junit
from offcmab.validation.runner.folder import LOCK_NAME
from offcmab.validation.runner.sweep import RunInterrupted
from offcmab.validation.sandbox import FAULT_EXIT, AlgorithmFault, Terminated, stop_signals
from offcmab.validation.theorem_loader import records
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.tightness.files import read_instances


def run(args: argparse.Namespace) -> int:
    theorems, added = records(getattr(args, "theorem", None) or (), THEOREMS)
    if args.signatures:  # prints the table only: no run, no output folder
        sys.stdout.write(signature_table(theorems) + "\n")
        return 0
    return _run(args, theorems, added)


def _run(args: argparse.Namespace, theorems: tuple[Theorem, ...], added: tuple[str, ...]
         ) -> int:
    only = tuple(dict.fromkeys(args.only)) if args.only else added
    saved, only = _saved_instances(args, only, theorems)
    if args.baseline is not None:  # before any trial runs: a missing baseline is bad input
        if args.baseline.resolve() == args.out.resolve():
            raise ValueError("baseline: must be another folder than --out (this run "
                             "overwrites --out)")
        compare.load_run(args.baseline, "baseline")
    if args.junit_xml is not None:
        junit.check_destination(args.junit_xml, args.out, (*door.RUN_NAMES, LOCK_NAME),
                                args.overwrite, args.resume or args.resume_anyway)
    request = door.Door(
        subject=args.algorithm, only=only, profile=args.profile, seed=args.seed,
        jobs=args.jobs, backend=args.backend, out=args.out,
        invocation={"door": "offcmab validate",
                    "argv": ["offcmab", *getattr(args, "argv", ["validate"])]},
        scheduler=args.scheduler, resume=args.resume, bound_scale=args.bound_scale,
        power="require" if args.require_power else "off" if args.no_power else "auto",
        figures=not args.no_figures, progress=True, saved=saved,
        allow_unchecked=args.allow_unchecked, overwrite=args.overwrite,
        resume_anyway=args.resume_anyway, trial_timeout=args.trial_timeout,
        verbose=args.verbose)
    try:  # one run per output folder: the door locks it, a second run exits 2
        with stop_signals():  # SIGTERM stops like Ctrl-C, whatever phase the run is in
            result = door.run(request, theorems)
    except (KeyboardInterrupt, RunInterrupted) as stop:
        sys.stderr.write(f"offcmab validate: interrupted; finished trials are in "
                         f"{args.out / 'trials.jsonl'}; resume with: {resume_command(args)}\n")
        return 143 if isinstance(stop, Terminated) else 130
    except door.AlgorithmFailed as failed:
        if args.junit_xml is not None:
            junit.write_junit(failed.report, args.junit_xml)
        sys.stderr.write(f"offcmab validate: {failed}; report in {args.out}\n")
        return FAULT_EXIT
    except door.NothingChecked as nothing:
        if args.junit_xml is not None:
            junit.write_junit(nothing.report, args.junit_xml)
        sys.stderr.write(f"offcmab validate: {nothing}; report in {args.out}\n")
        return 3
    if args.junit_xml is not None:
        junit.write_junit(result, args.junit_xml)
    summary = result["summary"]
    power = result.get("power")
    flagged = (f"; controls flagged {power['flagged']} of "
               f"{sum(entry['rows'] > 0 for entry in power['table'])} run"
               if power is not None else "")
    if result["unchecked"]:
        sys.stderr.write("offcmab validate: warning: no row could fail for this algorithm "
                         "(every row vacuous, n/a or advisory): nothing was checked\n")
    sys.stdout.write(f"offcmab validate: {summary['power']} rows with power "
                     f"({summary['pass']} pass, {summary['FAIL']} fail), "
                     f"{summary['vacuous']} vacuous, {summary['n/a']} n/a, "
                     f"{summary['note']} note, {summary.get('advisory', 0)} advisory, "
                     f"{summary.get('known-failure', 0)} known-failure{flagged}; "
                     f"report in {args.out}\n")
    ids = dict.fromkeys(row["id"] for row in result["rows"])
    figures = [path for path in (args.out / "figures" / f"{bound_id}.png" for bound_id in ids)
               if not args.no_figures and path.is_file()]
    if figures:
        sys.stdout.write(f"figures: {', '.join(map(str, figures))}\n")
    if "algorithm" in result and summary["FAIL"]:
        sys.stdout.write(CheckReport(result["algorithm"], result).message() + "\n")
    regression = args.baseline is not None and compare_run.report(
        args.baseline, args.out, "sign", compare.LEVEL, False) == 1
    try:
        if args.search and falsify_run.search_step(
                args, only or tuple(theorem.id for theorem in theorems), theorems):
            return 1
    except AlgorithmFault as fault:
        sys.stderr.write(f"offcmab validate: --search: {fault}\n")
        return FAULT_EXIT
    if summary["FAIL"] or regression:
        return 1
    if args.require_power and power is not None and power["missing"]:
        sys.stderr.write("offcmab validate: controls not flagged: "
                         f"{', '.join(power['missing'])}\n")
        return 3
    return 0


def resume_command(args: argparse.Namespace) -> str:
    """The command that continues this run: its arguments, ``--overwrite`` (which would
    start over) left out, plus ``--resume``."""
    argv = ["offcmab", *(word for word in getattr(args, "argv", ["validate", "--out",
                                                                  str(args.out)])
                         if word != "--overwrite")]
    if "--resume" not in argv:
        argv.append("--resume")
    return shlex.join(argv)


def _saved_instances(args: argparse.Namespace, only: tuple[str, ...],
                     theorems: tuple[Theorem, ...]
                     ) -> tuple[tuple[tuple[str, Instance], ...], tuple[str, ...]]:
    """The ``--instances`` files and their ids (then only they run), else nothing."""
    if not args.instances:
        return (), only
    found = read_instances(args.instances, "file", theorems, force=args.force)
    outside = [bound_id for bound_id, _, _ in found if only and bound_id not in only]
    if outside:
        raise ValueError(f"only: the --instances files are instances of {outside[0]}, not "
                         "among --only (the files name their bound ids; --only may be left out)")
    for path, (_, _, document) in zip(args.instances, found, strict=True):
        if document.get("seed", args.seed) != args.seed:
            sys.stderr.write(f"offcmab validate: note: {path} was searched with seed "
                             f"{document.get('seed')}; with --seed {document.get('seed')} the "
                             "replay's trials start with the search's own draws\n")
    ids = dict.fromkeys(bound_id for bound_id, _, _ in found)
    return tuple((bound_id, instance) for bound_id, instance, _ in found), \
        tuple(theorem.id for theorem in theorems if theorem.id in ids)
