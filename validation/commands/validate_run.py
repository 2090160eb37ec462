r"""The body of ``offcmab validate``: plan and run the trials, write the report, exit code.

The parser lives in :mod:`offcmab.validation.commands.validate`, which imports this
module only when a run starts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from offcmab.validation.api import CheckReport, cli_subject, signature_table
from offcmab.validation.runner import figures, report
from offcmab.validation.runner.folder import folder_lock
from offcmab.validation.runner.spec import PROFILES, Instance
from offcmab.validation.runner.sweep import (
    RunConfig,
    RunInterrupted,
    package_versions,
    run_validation,
)
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.tightness.corpus import corpus_instances
from offcmab.validation.tightness.files import read_instances

#: The ids of the checked theorems, in report order.
IDS = tuple(theorem.id for theorem in THEOREMS)

#: Most worker processes ``--jobs`` may start.
MAX_JOBS = 256


def run(args: argparse.Namespace) -> int:
    if args.signatures:  # prints the table only: no run, no output folder
        sys.stdout.write(signature_table() + "\n")
        return 0
    with folder_lock(args.out):  # one run per output folder: a second one exits 2
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    if args.out.exists() and not args.out.is_dir():
        raise ValueError(f"out: {args.out} exists and is not a folder")
    if args.jobs > MAX_JOBS:  # each job is a Python process (or a dask worker) started here
        raise ValueError(f"jobs: at most {MAX_JOBS} workers, got {args.jobs}")
    if args.scheduler is not None and args.backend != "dask":
        raise ValueError("scheduler: only used with --backend dask (add --backend dask)")
    backend = args.backend or ("dask" if args.scheduler else
                               "serial" if args.jobs == 1 else "processes")
    only = tuple(dict.fromkeys(args.only)) if args.only else ()
    unknown = [bound_id for bound_id in only if bound_id not in IDS]
    if unknown:
        raise ValueError(f"only: unknown bound id {unknown[0]!r}; known: {', '.join(IDS)}")
    extra, only = _saved_instances(args, only)
    algorithm: dict[str, object] = {}
    if args.algorithm is not None:
        args.subject, algorithm = cli_subject(args.algorithm, only)
    config = RunConfig(profile=PROFILES[args.profile], seed=args.seed, out=args.out,
                       only=only, jobs=args.jobs, backend=backend, scheduler=args.scheduler,
                       resume=args.resume, bound_scale=args.bound_scale, progress=True,
                       stop_after=getattr(args, "stop_after", None),
                       subject=getattr(args, "subject", "reference"),
                       power=args.require_power or (args.profile != "quick"
                                                    and not args.no_power),
                       extra_instances=extra, replay_only=bool(args.instances))

    def describe() -> dict[str, object]:
        return {"versions": package_versions(),
                "git_commit": report.git_commit(Path(__file__).resolve().parent),
                **({"algorithm": algorithm} if algorithm else {})}

    try:
        result = run_validation(config, THEOREMS, describe)
    except (KeyboardInterrupt, RunInterrupted):
        sys.stderr.write(f"offcmab validate: interrupted; finished trials are in "
                         f"{args.out / 'trials.jsonl'}; rerun with --resume\n")
        return 130
    report.write_json(result, args.out / "report.json")
    report.write_markdown(result, args.out / "report.md")
    if not args.no_figures:
        figures.write_figures(result["rows"], args.out / "figures")
        if "power" in result:
            figures.write_power_figures(result["rows"], result["power"]["rows"],
                                        args.out / "figures")
    summary = result["summary"]
    power = result.get("power")
    flagged = (f"; controls flagged {power['flagged']} of "
               f"{sum(entry['rows'] > 0 for entry in power['table'])} run"
               if power is not None else "")
    sys.stdout.write(f"offcmab validate: {summary['power']} rows with power "
                     f"({summary['pass']} pass, {summary['FAIL']} fail), "
                     f"{summary['vacuous']} vacuous, {summary['n/a']} n/a, "
                     f"{summary['note']} note, {summary.get('known-failure', 0)} known-failure"
                     f"{flagged}; report in {args.out}\n")
    if algorithm and summary["FAIL"]:
        sys.stdout.write(CheckReport(algorithm, result).message() + "\n")
    if summary["FAIL"]:
        return 1
    if args.require_power and power is not None and power["missing"]:
        sys.stderr.write("offcmab validate: controls not flagged: "
                         f"{', '.join(power['missing'])}\n")
        return 3
    return 0


def _saved_instances(args: argparse.Namespace, only: tuple[str, ...]
                     ) -> tuple[tuple[tuple[str, Instance], ...], tuple[str, ...]]:
    """The ``--instances`` files (then only their ids run), else the profile's corpus."""
    if not args.instances:
        return corpus_instances(args.profile, THEOREMS), only
    if only:
        raise ValueError("only: not used with --instances (the files name their bound ids)")
    found = read_instances(args.instances, "file", THEOREMS)
    for path, (_, _, document) in zip(args.instances, found, strict=True):
        if document.get("seed", args.seed) != args.seed:
            sys.stderr.write(f"offcmab validate: note: {path} was searched with seed "
                             f"{document.get('seed')}; with --seed {document.get('seed')} the "
                             "replay's trials start with the search's own draws\n")
    ids = dict.fromkeys(bound_id for bound_id, _, _ in found)
    return tuple((bound_id, instance) for bound_id, instance, _ in found), \
        tuple(bound_id for bound_id in IDS if bound_id in ids)
