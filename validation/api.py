r"""``offcmab.validation.check``: run ``offcmab validate`` on your own function from Python.

>>> from offcmab.validation import check
>>> report = check(my_cascade, "cor1-cascade")   # doctest: +SKIP
>>> report.passed, len(report.rows)              # doctest: +SKIP
(True, 36)
>>> report.raise_for_violation()                 # doctest: +SKIP

The function takes the place of the reference algorithm of the bound id, with the
call signature its theorem record lists (:func:`signature_table`, ``offcmab validate
--signatures``).  ``check`` runs exactly what ``offcmab validate --algorithm FILE.py:FUNC
--only ID`` runs (the same profile, instances, rows and report; see
:mod:`offcmab.validation.door`).  Worker processes (``jobs > 1``) import the
function again from its file by its qualified name; a lambda or a function defined
inside another function can only run with ``jobs=1``.  Workers never run your script
itself, so ``check(..., jobs=2)`` needs no ``if __name__ == "__main__":`` guard unless
the function is defined in that very script.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from offcmab.validation import door
from offcmab.validation.door import AlgorithmFailed, NothingChecked
from offcmab.validation.falsify import report as falsify_report
from offcmab.validation.falsify.falsification import STEP_BUDGET, falsify, uncovered
from offcmab.validation.parts.theorem import Theorem, find
from offcmab.validation.runner import junit
from offcmab.validation.runner.folder import LOCK_NAME
from offcmab.validation.sandbox import DEFAULT_TIMEOUT
from offcmab.validation.theorem_loader import records
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.user_algorithm import AlgorithmError

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
    search: dict[str, Any] | None = None  # the falsification record of ``check(search=True)``

    @property
    def rows(self) -> list[dict[str, Any]]:
        """The report's rows as plain dicts (the fields of ``report.json``)."""
        return list(self.report["rows"])

    @property
    def failures(self) -> list[dict[str, Any]]:
        """The rows whose verdict is ``FAIL``."""
        return [row for row in self.rows if row["verdict"] == "FAIL"]

    @property
    def counterexample(self) -> bool:
        """True when ``check(search=True)`` confirmed a counterexample."""
        return self.search is not None and self.search["verdict"] == "confirmed"

    @property
    def passed(self) -> bool:
        """True when no row failed and no counterexample was confirmed (exit 0)."""
        return not self.failures and not self.counterexample

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
        if self.search is not None and self.counterexample:
            lines.append(falsify_report.text(self.search).rstrip("\n"))
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


def signature_table(theorems: Sequence[Theorem] = THEOREMS) -> str:
    """The call signature per bound id, as a Markdown table (``validate --signatures``).

    The last column lists the attributes of a returned result object that the bound id's
    event rows read (an action alone turns those rows ``n/a``).
    """
    lines = ["| bound id | your function is called as | it replaces | it returns | "
             "event rows read |", "|---|---|---|---|---|"]
    for theorem in theorems:
        sig = theorem.signature
        keywords = ", ".join(f"{k}={v!r}" for k, v in sig.keywords.items())
        replaced = f"`{sig.reference_name}`" + (f" ({keywords})" if keywords else "")
        read = ", ".join(f"`{name}`" for name in sig.exposes) or "—"
        lines.append(f"| {theorem.id} | `{sig.call}` | {replaced} | {sig.returns} | {read} |")
    return "\n".join(lines)


def check(function: Callable[..., Any] | str, bound_id: str, profile: str = "default",
          seed: int = 2025, jobs: int = 1, backend: str | None = None,
          out: str | Path | None = None, theorems: Sequence[Theorem] = THEOREMS, *,
          allow_unchecked: bool = False, junit_xml: str | Path | None = None,
          trial_timeout: float | None = DEFAULT_TIMEOUT,
          via: str = "offcmab.validation.check", search: bool = False,
          overwrite: bool = False,
          theorem: str | Theorem | Sequence[str | Theorem] = ()) -> CheckReport:
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
        ``quick``, ``default``, ``full`` or ``ci`` (sized for CI minutes).
    seed, jobs, backend
        As the ``validate`` options ``--seed``, ``--jobs`` and ``--backend``.
    out
        Folder for ``report.json``, ``report.md``, ``figures/`` and the trial log
        (default: a temporary folder, removed afterwards).
    theorems
        The theorem records ``bound_id`` is looked up in (default: every theorem of
        :mod:`offcmab.validation.theorems`).
    theorem
        A theorem of your own (:mod:`offcmab.validation.extend`) added to ``theorems``, as
        ``--theorem``: a target ``"FILE.py:NAME"`` / ``"package.module:NAME"``, a
        :class:`~offcmab.validation.parts.theorem.Theorem`, or a list of them.  Records run on
        every backend: one loaded from a target is loaded again by each worker process;
        one handed over as an object travels pickled (its scenario and functions defined at
        the top level of a module).
    allow_unchecked
        Return the report even when no row could fail for ``function`` (every row vacuous
        or ``n/a``; its field ``unchecked`` is then true), as ``--allow-unchecked``.
    junit_xml
        Also write the rows as JUnit XML to this file (one testcase per row, as
        ``validate --junit-xml``), also when the run raises :class:`NothingChecked`.
    trial_timeout
        Seconds each call of ``function`` may take (``None``: no limit), as
        ``--trial-timeout``.
    via
        How the report's provenance names the caller (the pytest fixture says so).
    overwrite
        Replace the results ``out`` already holds and an existing ``junit_xml`` file, as
        ``--overwrite`` (without it they are refused before the run, ``ValueError``).
    search
        Also search ``bound_id``'s instances for a confirmed counterexample, as
        ``offcmab validate --search`` (:mod:`offcmab.validation.falsify`); its record is
        the report's ``search`` (verdict ``not searched`` and the reason for an id the
        search does not cover), its files go to ``out/falsify``.

    Raises
    ------
    AlgorithmFailed
        ``function`` failed to run on the bound id: it raised, called ``sys.exit``, did
        not return within ``trial_timeout``, or wrote into its read-only input
        (``offcmab validate`` exits 4); the exception's ``report`` holds the report, with
        an ``error`` row and the message in its field ``errors``.
    NothingChecked
        No row could fail for ``function`` and ``allow_unchecked`` is false (``offcmab
        validate`` exits 3); the exception's ``report`` holds the report.
    ValueError
        Bad arguments, or an :class:`~offcmab.validation.user_algorithm.AlgorithmError` naming
        the function: it could not be loaded, has the wrong signature, or returned an
        infeasible action.
    """
    added = [theorem] if isinstance(theorem, str | Theorem) else list(theorem)
    theorems = records(added, theorems)[0]
    known = [record.id for record in theorems]
    if bound_id not in known:
        raise ValueError(f"bound_id: must be one of {', '.join(known)}, got {bound_id!r}")
    arguments = {"function": _name(function), "bound_id": bound_id, "profile": profile,
                 "seed": seed, "jobs": jobs, "backend": backend,
                 "out": None if out is None else str(out), "theorems": known,
                 "allow_unchecked": allow_unchecked, "trial_timeout": trial_timeout}
    request = door.Door(function, (bound_id,), profile, seed, jobs, backend,
                        None if out is None else Path(out),
                        {"door": via, "arguments": arguments}, allow_unchecked=allow_unchecked,
                        trial_timeout=trial_timeout, overwrite=overwrite)
    if junit_xml is not None:  # before the run, as the command line does
        junit.check_destination(Path(junit_xml), request.out, (*door.RUN_NAMES, LOCK_NAME),
                                overwrite, option="junit_xml")
    try:
        result = door.run(request, theorems)
    except NothingChecked as nothing:
        if junit_xml is not None:
            junit.write_junit(nothing.report, Path(junit_xml))
        raise
    if junit_xml is not None:
        junit.write_junit(result, Path(junit_xml))
    if not search:
        return CheckReport(result.get("algorithm", {}), result)
    record = find(theorems, bound_id)
    if uncovered(record):
        return CheckReport(result.get("algorithm", {}), result,
                           {"bound_id": bound_id, "verdict": "not searched",
                            "reason": uncovered(record)})
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(out if out is not None else scratch) / "falsify"
        spec = door.describe(function, parallel=False)[0]
        found = falsify(record, spec, folder, theorems, budget=STEP_BUDGET, run_seed=seed,
                        algorithm=_name(function))
    return CheckReport(result.get("algorithm", {}), result, found.record)


def _name(function: Callable[..., Any] | str) -> str:
    """How the provenance names the checked function: its target, or module:qualname."""
    if isinstance(function, str):
        return function
    return (f"{getattr(function, '__module__', '?')}:"
            f"{getattr(function, '__qualname__', repr(function))}")


__all__ = ["AlgorithmError", "AlgorithmFailed", "BoundViolation", "CheckReport",
           "NothingChecked", "check"]
