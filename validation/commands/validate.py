r"""``offcmab validate``: check every bound of the paper against Monte-Carlo gaps.

Writes ``report.json``, ``report.md``, ``figures/*.png`` and the durable trial log
``trials.jsonl`` into ``--out``.  Exit code 0 when no row fails, 1 when a bound is
violated beyond the run's false-alarm budget, 2 on bad usage, 3 with ``--require-power``
when a negative control a trap should catch is not flagged (:mod:`offcmab.validation.power`;
controls never cause exit 1).  Rows whose bound is at least the largest gap the
instance allows are ``vacuous`` (they cannot fail) and are counted apart from the rows
with power.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from offcmab.validation.arguments import nonnegative_int, positive_float, positive_int
from offcmab.validation.runner.spec import Instance
from offcmab.validation.scenarios import REGISTRY

#: Most worker processes ``--jobs`` may start.
MAX_JOBS = 256

HELP = "check every bound against Monte-Carlo suboptimality gaps; exit 1 on a violation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_const", const="quick", dest="profile",
                      help="smoke run (under 20 s; what the test suite runs)")
    size.add_argument("--full", action="store_const", const="full", dest="profile",
                      help="paper scale: 20 trials, the paper's grids (minutes)")
    parser.set_defaults(profile="default")
    parser.add_argument("--only", nargs="+", choices=list(REGISTRY), metavar="ID",
                        help=f"bound ids to check (default all: {', '.join(REGISTRY)})")
    parser.add_argument("--seed", type=nonnegative_int, default=2025, help="run seed")
    parser.add_argument("--jobs", type=positive_int, default=1, help="parallel workers")
    parser.add_argument("--backend", choices=["serial", "processes", "dask"], default=None,
                        help="where trials run (default: serial for --jobs 1, else processes)")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help="dask scheduler address (with --backend dask; default: a "
                             "local cluster of --jobs workers)")
    parser.add_argument("--out", type=Path, default=Path("offcmab-report"),
                        help="output folder (default ./offcmab-report)")
    parser.add_argument("--resume", action="store_true",
                        help="continue an interrupted run from its trials.jsonl")
    parser.add_argument("--bound-scale", type=positive_float, default=1.0, metavar="X",
                        help="multiply every bound by X (a sensitivity probe)")
    parser.add_argument("--no-figures", action="store_true", help="skip figures/*.png")
    parser.add_argument("--algorithm", metavar="FILE.py:FUNCTION", default=None,
                        help="check your own function (or package.module:FUNCTION) in place "
                             "of the reference algorithm; needs --only (see --signatures)")
    parser.add_argument("--signatures", action="store_true",
                        help="print the call signature --algorithm needs per bound id, exit")
    power = parser.add_mutually_exclusive_group()
    power.add_argument("--require-power", action="store_true",
                       help="exit 3 when a negative control that a trap should catch goes "
                            "unflagged (runs the controls in every profile)")
    power.add_argument("--no-power", action="store_true",
                       help="skip the negative controls (run by default and --full)")
    parser.add_argument("--instances", nargs="+", type=Path, metavar="FILE",
                        help="replay only these saved instances (offcmab tightness --out); "
                             "the default and full profiles also run validation/corpus")


def run(args: argparse.Namespace) -> int:
    from offcmab.validation.runner.folder import folder_lock

    if args.signatures:  # prints the table only: no run, no output folder
        from offcmab.validation.api import signature_table

        sys.stdout.write(signature_table() + "\n")
        return 0
    with folder_lock(args.out):  # one run per output folder: a second one exits 2
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from offcmab.validation.runner import figures, report
    from offcmab.validation.runner.spec import PROFILES
    from offcmab.validation.runner.sweep import (
        RunConfig,
        RunInterrupted,
        package_versions,
        run_validation,
    )

    if args.out.exists() and not args.out.is_dir():
        raise ValueError(f"out: {args.out} exists and is not a folder")
    if args.jobs > MAX_JOBS:  # each job is a Python process (or a dask worker) started here
        raise ValueError(f"jobs: at most {MAX_JOBS} workers, got {args.jobs}")
    if args.scheduler is not None and args.backend != "dask":
        raise ValueError("scheduler: only used with --backend dask (add --backend dask)")
    backend = args.backend or ("dask" if args.scheduler else
                               "serial" if args.jobs == 1 else "processes")
    only = tuple(dict.fromkeys(args.only)) if args.only else ()
    extra, only = _saved_instances(args, only)
    algorithm: dict[str, object] = {}
    if args.algorithm is not None:
        from offcmab.validation.api import cli_subject

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
        result = run_validation(config, REGISTRY, describe)
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
        from offcmab.validation.api import CheckReport

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
    from offcmab.validation.tightness.corpus import corpus_instances
    from offcmab.validation.tightness.files import read_instances

    if not args.instances:
        return corpus_instances(args.profile), only
    if only:
        raise ValueError("only: not used with --instances (the files name their bound ids)")
    found = read_instances(args.instances, "file")
    for path, (_, _, document) in zip(args.instances, found, strict=True):
        if document.get("seed", args.seed) != args.seed:
            sys.stderr.write(f"offcmab validate: note: {path} was searched with seed "
                             f"{document.get('seed')}; with --seed {document.get('seed')} the "
                             "replay's trials start with the search's own draws\n")
    ids = dict.fromkeys(bound_id for bound_id, _, _ in found)
    return tuple((bound_id, instance) for bound_id, instance, _ in found), \
        tuple(bound_id for bound_id in REGISTRY if bound_id in ids)
