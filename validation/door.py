r"""One door for every run: ``offcmab validate``, ``check()`` and the pytest fixture.

The command line (:mod:`offcmab.validation.commands.validate_run`),
:func:`offcmab.validation.check` and the pytest fixture ``offcmab_check`` describe the
run they want as a :class:`Door` and call :func:`run`, so they share the defaults
(profile ``default``, seed 2025, one job), the instances (each profile's scenarios, plus
the regression corpus in the ``default`` and ``full`` profiles), the rows and the
report, provenance included.  Only how the report is shown differs: a table and an exit
code, a :class:`~offcmab.validation.api.CheckReport`, a failed test.

The subject is the reference algorithm (``None``), a target string
``FILE.py:FUNCTION`` / ``package.module:FUNCTION``, or a function.  A function that its
own file names at top level is run from that file, so worker processes can import it;
any other callable runs in this process only.  A function defined in the script being
run (``__main__``) is run from that file only when the script guards its calls with
``if __name__ == "__main__":``, since importing the file runs whatever is not guarded.
"""

from __future__ import annotations

import ast
import inspect
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import offcmab
from offcmab import bounds, reference
from offcmab import validation as validation_package
from offcmab.validation.parts.spec import PROFILES, Instance
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner import figures
from offcmab.validation.runner import report as report_io
from offcmab.validation.runner.backends import BACKENDS, in_worker
from offcmab.validation.runner.folder import check_output_folder, folder_lock
from offcmab.validation.runner.store import DROPPED_NAME, LOG_NAME
from offcmab.validation.runner.sweep import RunConfig, package_versions, run_validation
from offcmab.validation.sandbox import DEFAULT_TIMEOUT
from offcmab.validation.subjects import REFERENCE, resolve
from offcmab.validation.theorem_loader import provenance
from offcmab.validation.theorems import THEOREMS, index
from offcmab.validation.tightness.corpus import corpus_instances
from offcmab.validation.user_algorithm import (
    UserAlgorithm,
    file_digest,
    load,
    object_spec,
    subject_spec,
)

#: The file in the run folder that receives what the algorithm prints.
ALGORITHM_LOG = "algorithm.log"

#: Most worker processes a run may start.
MAX_JOBS = 256

#: The folders of the installed package whose files the provenance hashes.
PACKAGE_FOLDERS = tuple(Path(module.__file__ or "").resolve().parent
                        for module in (offcmab, reference, bounds, validation_package))

#: The report files ``write`` puts in ``out``.
REPORT_NAMES = ("report.json", "report.md")

#: Everything a run writes in its folder (besides the lock): a folder that holds any of it
#: already is refused unless the run resumes or overwrites (``--search`` adds ``falsify/``).
RUN_NAMES = (LOG_NAME, *REPORT_NAMES, DROPPED_NAME, ALGORITHM_LOG, "figures", "falsify")

#: What to do about a folder that holds an earlier run's files.
RESUME_HINT = "add --resume to continue that run or --overwrite to replace it"

#: What ``power`` may be: ``auto`` runs the controls outside ``quick``; ``require`` in
#: every profile (the command line then exits 3 when one goes unflagged); ``off`` never.
POWER = ("auto", "require", "off")


class NothingChecked(AssertionError):
    r"""A user's algorithm met no row that could fail: every row was vacuous or ``n/a``.

    Raised by :func:`run` after the report files are written (``offcmab validate`` exit 3)
    unless the door allows it (``--allow-unchecked``, ``allow_unchecked=True``);
    ``report`` is the run's report, whose field ``unchecked`` is true.
    """

    def __init__(self, report: dict[str, Any]) -> None:
        ids = ", ".join(dict.fromkeys(row["id"] for row in report["rows"])) or "no bound id"
        super().__init__(f"nothing was checked: no row of {ids} could fail for "
                         f"{report['subject']} (every row vacuous, n/a or advisory in profile "
                         f"{report['profile']}); a pass here would be a pass on nothing "
                         "(allow it with --allow-unchecked / allow_unchecked=True)")
        self.report = report


class AlgorithmFailed(AssertionError):
    r"""The algorithm failed to run on some bound id: it raised, exited, hung or wrote into
    its input (``error`` rows; ``offcmab validate`` exit 4).

    Raised by :func:`run` after the report files are written; ``report`` is the report,
    whose field ``errors`` maps each such bound id to the fault's message.
    """

    def __init__(self, report: dict[str, Any]) -> None:
        errors = report["errors"]
        faults = "; ".join(errors.values()) if len(errors) == 1 else "; ".join(
            f"{bound_id}: {message}" for bound_id, message in errors.items())
        super().__init__(f"{', '.join(errors)} not checked, the algorithm failed to run: "
                         f"{faults}")
        self.report = report


@dataclass(frozen=True)
class Door:
    r"""One run as a user asks for it, whichever door they use.

    Attributes
    ----------
    subject
        ``None`` (the reference algorithms), a function, or a target string
        ``FILE.py:FUNCTION`` / ``package.module:FUNCTION``.
    only
        The bound ids to check (all when empty; a user's algorithm needs at least one).
    profile, seed, jobs, backend
        As ``validate --quick/--full``, ``--seed``, ``--jobs``, ``--backend`` (default
        backend: ``serial`` for one job, else ``processes``).
    out
        Folder for ``report.json``, ``report.md``, ``figures/`` and ``trials.jsonl``;
        ``None``: a temporary folder, removed afterwards.
    invocation
        How the run was asked for (``argv`` or the call's arguments), for the provenance.
    scheduler, resume, bound_scale, power, figures, progress
        Options of the command line (``--scheduler``, ``--resume``, ``--bound-scale``,
        ``--require-power``/``--no-power``, ``--no-figures``; a progress bar).
    overwrite, resume_anyway
        ``--overwrite``: replace the results ``out`` already holds (without it, and without
        ``resume``, such a folder is refused); ``--resume-anyway``: resume a log whose
        header does not match this run, keeping the trials that still check out.
    saved
        Saved ``(bound id, instance)`` pairs (``--instances``): only they run, instead of
        the scenarios' instances and the corpus.
    allow_unchecked
        Return the report even when a user's algorithm met no row with power (else
        :class:`NothingChecked`; ``--allow-unchecked``).
    trial_timeout, verbose
        Seconds each call of the algorithm may take (``--trial-timeout``; ``None``: no
        limit); let the dask backend log (``--verbose``).
    """

    subject: Callable[..., Any] | str | None = None
    only: tuple[str, ...] = ()
    profile: str = "default"
    seed: int = 2025
    jobs: int = 1
    backend: str | None = None
    out: Path | None = None
    invocation: Mapping[str, Any] = field(default_factory=dict)
    scheduler: str | None = None
    resume: bool = False
    bound_scale: float = 1.0
    power: str = "auto"
    figures: bool = True
    progress: bool = False
    saved: tuple[tuple[str, Instance], ...] = ()
    allow_unchecked: bool = False
    overwrite: bool = False
    resume_anyway: bool = False
    trial_timeout: float | None = DEFAULT_TIMEOUT
    verbose: bool = False


def run(door: Door, theorems: Sequence[Theorem] = THEOREMS) -> dict[str, Any]:
    """Check the arguments and the subject, run, write the report files; return the report.

    ``ValueError`` naming the field for a bad argument, before any trial runs;
    :class:`AlgorithmFailed` when the algorithm failed to run on some bound id;
    :class:`NothingChecked` when a user's algorithm met no row with power and the door
    does not allow it.
    """
    if in_worker():
        raise ValueError("check: called inside a worker process of another offcmab run (the "
                         "file that defines the algorithm starts a run when imported); put "
                         "that call under `if __name__ == \"__main__\":`")
    backend = _backend(door)
    known = [theorem.id for theorem in theorems]
    unknown = [bound_id for bound_id in door.only if bound_id not in known]
    if unknown:
        raise ValueError(f"only: unknown bound id {unknown[0]!r}; known: {', '.join(known)}")
    spec, algorithm = subject(door.subject, door.only, backend != "serial" and door.jobs > 1,
                              theorems)
    power = door.power == "require" or (door.power == "auto" and door.profile != "quick")
    identity = report_io.package_identity(PACKAGE_FOLDERS)
    # the records from outside the package that this run checks: where each is defined
    outside = [provenance(theorem) for theorem in theorems
               if (not door.only or theorem.id in door.only)
               and not any(theorem is ours for ours in THEOREMS)]

    def describe() -> dict[str, Any]:
        return {"versions": package_versions(), "git_commit": identity["git_commit"],
                **({"algorithm": algorithm} if algorithm else {}),
                "provenance": {"package": identity, "seed": door.seed,
                               "invocation": dict(door.invocation),
                               "subject": {"spec": spec, "sha256": algorithm.get("sha256")},
                               **({"theorems": outside} if outside else {})}}

    def execute(folder: Path, log: Path) -> dict[str, Any]:
        config = RunConfig(
            profile=PROFILES[door.profile], seed=door.seed, out=folder, only=door.only,
            jobs=door.jobs, backend=backend, scheduler=door.scheduler,
            resume=door.resume or door.resume_anyway, resume_anyway=door.resume_anyway,
            bound_scale=door.bound_scale, progress=door.progress,
            subject=spec, power=power, replay_only=bool(door.saved),
            extra_instances=door.saved or corpus_instances(door.profile, THEOREMS),
            trial_timeout=door.trial_timeout, algorithm_log=log, verbose=door.verbose,
            index=index)
        result = run_validation(config, theorems, describe)
        if log.exists() and log.stat().st_size == 0:
            log.unlink()  # the algorithm printed nothing
            result["algorithm_log"] = None
        return result

    if door.out is None:
        with tempfile.TemporaryDirectory(prefix="offcmab-check-") as scratch:
            handle, name = tempfile.mkstemp(prefix="offcmab-algorithm-", suffix=".log")
            os.close(handle)  # kept when the algorithm printed: the report names it
            result = execute(Path(scratch), Path(name))
    else:
        again = door.resume or door.resume_anyway or door.overwrite
        # before the lock file is made in it; again under the lock (another run may have
        # written there meanwhile)
        check_output_folder(door.out, "out", RUN_NAMES, again, RESUME_HINT)
        with folder_lock(door.out):  # every argument is checked: only now touch the folder
            check_output_folder(door.out, "out", RUN_NAMES, again, RESUME_HINT)
            if door.overwrite:  # no report of the replaced run may sit beside the new log
                for name in REPORT_NAMES:
                    (door.out / name).unlink(missing_ok=True)
            result = execute(door.out, door.out / ALGORITHM_LOG)
            write(result, door.out, door.figures)
    if result["errors"]:
        raise AlgorithmFailed(result)
    if result["unchecked"] and not door.allow_unchecked:
        raise NothingChecked(result)
    return result


def _backend(door: Door) -> str:
    """The backend the door runs on, after checking the arguments that choose it."""
    if door.profile not in PROFILES:
        raise ValueError(f"profile: must be one of {', '.join(PROFILES)}, got {door.profile!r}")
    if isinstance(door.seed, bool) or not isinstance(door.seed, int) or door.seed < 0:
        raise ValueError(f"seed: must be a non-negative integer, got {door.seed!r}")
    if isinstance(door.jobs, bool) or not isinstance(door.jobs, int) or door.jobs < 1:
        raise ValueError(f"jobs: must be a positive integer, got {door.jobs!r}")
    if door.jobs > MAX_JOBS:  # each job is a Python process (or a dask worker) started here
        raise ValueError(f"jobs: at most {MAX_JOBS} workers, got {door.jobs}")
    if door.backend is not None and door.backend not in BACKENDS:
        raise ValueError(f"backend: must be one of {', '.join(BACKENDS)}, got {door.backend!r}")
    if door.scheduler is not None and door.backend != "dask":
        raise ValueError("scheduler: only used with --backend dask (add --backend dask)")
    if door.power not in POWER:
        raise ValueError(f"power: must be one of {', '.join(POWER)}, got {door.power!r}")
    if door.overwrite and (door.resume or door.resume_anyway):
        raise ValueError("overwrite: not with --resume / --resume-anyway (overwrite starts "
                         "over, resume continues)")
    timeout = door.trial_timeout
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                or not timeout > 0):
        raise ValueError(f"trial_timeout: must be a positive number of seconds, got {timeout!r}")
    if door.out is not None and door.out.exists() and not door.out.is_dir():
        raise ValueError(f"out: {door.out} exists and is not a folder")
    return door.backend or ("serial" if door.jobs == 1 else "processes")


def write(result: dict[str, Any], out: Path, with_figures: bool) -> None:
    """``report.json``, ``report.md`` and (``with_figures``) ``figures/*.png`` in ``out``."""
    report_io.write_json(result, out / REPORT_NAMES[0])
    report_io.write_markdown(result, out / REPORT_NAMES[1])
    if with_figures:
        figures.write_figures(result["rows"], out / "figures")
        if "power" in result:
            figures.write_power_figures(result["rows"], result["power"]["rows"],
                                        out / "figures")


def subject(function: Callable[..., Any] | str | None, only: Sequence[str], parallel: bool,
            theorems: Sequence[Theorem] = THEOREMS) -> tuple[str, dict[str, Any]]:
    """The subject spec and the report's description of ``function`` for the ids ``only``.

    Loads the function and checks its signature against every id, so a bad function
    fails before any trial runs.  ``None`` is the reference algorithms.
    """
    if function is None:
        return REFERENCE, {}
    if not only:
        raise ValueError(f"only: --algorithm needs --only with bound ids among "
                         f"{', '.join(theorem.id for theorem in theorems)}")
    spec, described = describe(function, parallel)
    for theorem in theorems:
        if theorem.id in only:
            resolve(spec, theorem)
    return spec, described


def describe(function: Callable[..., Any] | str, parallel: bool) -> tuple[str, dict[str, Any]]:
    """The subject spec and the report's description of a function or target string.

    ``parallel`` raises ``ValueError`` for a function that worker processes cannot import.
    """
    if isinstance(function, str):
        algorithm = load(function)
        return subject_spec(algorithm), algorithm.describe()
    if not callable(function):
        raise ValueError(f"function: must be a callable or 'FILE.py:FUNCTION', got "
                         f"{type(function).__name__}")
    name = getattr(function, "__qualname__", repr(function))
    source = referenced_by_file(function)
    script = unguarded_script(function)
    if source is not None and script is None:
        return subject_spec(source), source.describe()
    if parallel and script is not None:
        raise ValueError(f"function: {name!r} is defined in {script.name}, which worker "
                         "processes would import and so run again; put the script's calls "
                         "under `if __name__ == \"__main__\":` or use jobs=1")
    if parallel:
        raise ValueError(f"function: {name!r} is not defined at the top level of a file (a "
                         "lambda, closure or rebound name), so worker processes cannot "
                         "import it; use jobs=1")
    path = _file_of(function)
    return object_spec(function), {"kind": "object", "function": name, "file": path,
                                   "sha256": file_digest(Path(path)) if path else None}


def _file_of(function: Callable[..., Any]) -> str | None:
    try:
        return inspect.getsourcefile(function)
    except TypeError:
        return None


def referenced_by_file(function: Callable[..., Any]) -> UserAlgorithm | None:
    """``function`` as a file and qualified name, when that file's top level reaches it."""
    qualname = getattr(function, "__qualname__", "")
    module = inspect.getmodule(function)
    path = _file_of(function)
    if not qualname or "<" in qualname or module is None or path is None:
        return None
    value: Any = module
    for part in qualname.split("."):
        value = getattr(value, part, None)
    if value is not function:
        return None
    location = str(Path(path).resolve())
    return UserAlgorithm("file", location, qualname, file_digest(Path(location)), function)


def unguarded_script(function: Callable[..., Any]) -> Path | None:
    """The running script that defines ``function``, when its top level has no
    ``if __name__ == "__main__":`` block; else ``None``."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or inspect.getmodule(function) is not main:
        return None
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return Path(path)
    return None if any(isinstance(node, ast.If) and _tests_main(node.test)
                       for node in tree.body) else Path(path)


def _tests_main(test: ast.expr) -> bool:
    """Whether ``test`` is ``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = (test.left, test.comparators[0])
    return (any(isinstance(side, ast.Name) and side.id == "__name__" for side in sides)
            and any(isinstance(side, ast.Constant) and side.value == "__main__"
                    for side in sides))
