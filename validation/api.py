r"""``offcmab.validation.check``: run ``offcmab validate`` on your own function from Python.

>>> from offcmab.validation import check
>>> report = check(my_cascade, "cor1-cascade", profile="quick")   # doctest: +SKIP
>>> report.passed, len(report.rows)                               # doctest: +SKIP
(True, 12)
>>> report.raise_for_violation()                                  # doctest: +SKIP

The function takes the place of the reference algorithm of the bound id, with the
call signature its theorem record lists (:func:`signature_table`, ``offcmab validate
--signatures``).  Worker processes (``jobs > 1``) import it again from its file by
its qualified name; a lambda or a function defined inside another function can only
run with ``jobs=1``.
"""

from __future__ import annotations

import inspect
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from offcmab.validation.runner import report as report_io
from offcmab.validation.runner.spec import PROFILES
from offcmab.validation.runner.sweep import RunConfig, run_validation
from offcmab.validation.subjects import resolve
from offcmab.validation.theorem import Theorem
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.user_algorithm import (
    AlgorithmError,
    UserAlgorithm,
    file_digest,
    load,
    object_spec,
    subject_spec,
)

#: Row fields a violation message shows, in order.
VIOLATION_FIELDS = ("id", "instance", "n", "variant", "bound", "gap_quantile", "gap_max",
                    "violations", "allowed_violations", "trials", "p_value")


class BoundViolation(AssertionError):
    """A bound or event row failed for the checked algorithm (``offcmab validate`` exit 1)."""


@dataclass(frozen=True)
class CheckReport:
    r"""The outcome of :func:`check`.

    Attributes
    ----------
    algorithm
        What was checked: ``kind``, ``file`` or ``module``, ``function``, ``sha256``.
    report
        The whole report, as ``report.json`` holds it.
    """

    algorithm: dict[str, Any]
    report: dict[str, Any]

    @property
    def rows(self) -> list[dict[str, Any]]:
        """The report's rows as plain dicts (the fields of ``report.json``)."""
        return list(self.report["rows"])

    @property
    def failures(self) -> list[dict[str, Any]]:
        """The rows whose verdict is ``FAIL``."""
        return [row for row in self.rows if row["verdict"] == "FAIL"]

    @property
    def passed(self) -> bool:
        """True when no row failed (``offcmab validate`` would exit 0)."""
        return not self.failures

    def message(self) -> str:
        """The failing rows, one line each, under a line naming the algorithm."""
        name = self.algorithm.get("function", "?")
        where = _relative(self.algorithm.get("file") or self.algorithm.get("module") or "")
        lines = [f"{name} ({where}) violates {len(self.failures)} row(s) of "
                 f"{', '.join(dict.fromkeys(r['id'] for r in self.failures))} "
                 f"(profile {self.report['profile']}, seed {self.report['seed']}):"]
        lines += ["  " + ", ".join(f"{field}={_short(row.get(field))}"
                                   for field in VIOLATION_FIELDS if field in row)
                  for row in self.failures]
        return "\n".join(lines)

    def raise_for_violation(self) -> None:
        """Raise :class:`BoundViolation` listing the failing rows, if any."""
        if not self.passed:
            raise BoundViolation(self.message())


def _relative(where: str) -> str:
    """A file below the working folder as a relative path; anything else unchanged."""
    path = Path(where)
    return str(path.relative_to(Path.cwd())) if path.is_absolute() and \
        path.is_relative_to(Path.cwd()) else where


def _short(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def describe(function: Callable[..., Any] | str, parallel: bool) -> tuple[str, dict[str, Any]]:
    """The subject spec and the report's description of ``function``.

    A string is a target ``FILE.py:FUNCTION`` or ``module:FUNCTION``.  A function that
    its own file or module names at top level (by ``__qualname__``) is referenced by
    that file, so workers can import it; any other callable only runs in this process
    (``parallel`` then raises ``ValueError``).
    """
    if isinstance(function, str):
        algorithm = load(function)
        return subject_spec(algorithm), algorithm.describe()
    if not callable(function):
        raise ValueError(f"function: must be a callable or 'FILE.py:FUNCTION', got "
                         f"{type(function).__name__}")
    source = referenced_by_file(function)
    if source is not None:
        return subject_spec(source), source.describe()
    if parallel:
        raise ValueError(f"function: {getattr(function, '__qualname__', function)!r} is not "
                         "defined at the top level of a file (a lambda, closure or "
                         "rebound name), so worker processes cannot import it; use jobs=1")
    return object_spec(function), {"kind": "object", "function": getattr(
        function, "__qualname__", repr(function)), "file": _file_of(function)}


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


def signature_table(theorems: Sequence[Theorem] = THEOREMS) -> str:
    """The call signature per bound id, as a Markdown table (``validate --signatures``)."""
    lines = ["| bound id | your function is called as | it replaces | it returns |",
             "|---|---|---|---|"]
    for theorem in theorems:
        sig = theorem.signature
        keywords = ", ".join(f"{k}={v!r}" for k, v in sig.keywords.items())
        replaced = f"`{sig.reference_name}`" + (f" ({keywords})" if keywords else "")
        lines.append(f"| {theorem.id} | `{sig.call}` | {replaced} | {sig.returns} |")
    return "\n".join(lines)


def cli_subject(target: str, only: tuple[str, ...],
                theorems: Sequence[Theorem] = THEOREMS) -> tuple[str, dict[str, Any]]:
    """The subject spec and description of ``--algorithm TARGET`` for the ids ``only``.

    Loads the function and checks its signature against every id here, so a bad
    target fails before any trial runs.
    """
    ids = ", ".join(theorem.id for theorem in theorems)
    if not only:
        raise ValueError(f"only: --algorithm needs --only with bound ids among {ids}")
    known = {theorem.id: theorem for theorem in theorems}
    uncovered = [bound_id for bound_id in only if bound_id not in known]
    if uncovered:
        raise ValueError(f"only: no algorithm can be substituted for {', '.join(uncovered)}; "
                         f"--algorithm covers {ids}")
    spec, described = describe(target, parallel=True)
    for bound_id in only:
        resolve(spec, known[bound_id])
    return spec, described


def check(function: Callable[..., Any] | str, bound_id: str, profile: str = "default",
          seed: int = 2025, jobs: int = 1, backend: str | None = None,
          out: str | Path | None = None,
          theorems: Sequence[Theorem] = THEOREMS) -> CheckReport:
    r"""Check ``function`` against the bound ``bound_id`` as ``offcmab validate`` would.

    Parameters
    ----------
    function
        Your algorithm, with the call signature of ``bound_id`` (see
        :func:`signature_table`), or a target string
        ``"FILE.py:FUNCTION"`` / ``"package.module:FUNCTION"``.
    bound_id
        The bound to check, e.g. ``"cor1-cascade"``.
    profile
        ``quick``, ``default`` or ``full``.
    seed, jobs, backend
        As the ``validate`` options ``--seed``, ``--jobs`` and ``--backend``.
    out
        Folder for ``report.json``, ``report.md`` and the trial log (default: a
        temporary folder, removed afterwards).
    theorems
        The theorem records ``bound_id`` is looked up in (default: every theorem of
        :mod:`offcmab.validation.theorems`; a record of your own runs with ``jobs=1``).

    Raises
    ------
    ValueError
        Bad arguments, or an :class:`~offcmab.validation.user_algorithm.AlgorithmError` naming
        the function: it could not be loaded, has the wrong signature, raised, or
        returned an infeasible action.
    """
    known = {theorem.id: theorem for theorem in theorems}
    if bound_id not in known:
        raise ValueError(f"bound_id: must be one of {', '.join(known)}, got {bound_id!r}")
    if profile not in PROFILES:
        raise ValueError(f"profile: must be one of {', '.join(PROFILES)}, got {profile!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs: must be a positive integer, got {jobs!r}")
    backend = backend or ("serial" if jobs == 1 else "processes")
    spec, described = describe(function, parallel=backend != "serial" and jobs > 1)
    resolve(spec, known[bound_id])  # load and check the signature, before any worker starts
    with tempfile.TemporaryDirectory(prefix="offcmab-check-") as scratch:
        folder = Path(out) if out is not None else Path(scratch)
        config = RunConfig(profile=PROFILES[profile], seed=seed, out=folder,
                           only=(bound_id,), jobs=jobs, backend=backend, subject=spec)
        result = run_validation(config, theorems) | {"algorithm": described}
        if out is not None:
            report_io.write_json(result, folder / "report.json")
            report_io.write_markdown(result, folder / "report.md")
    return CheckReport(described, result)


__all__ = ["AlgorithmError", "BoundViolation", "CheckReport", "check"]
