r"""Counts the pages show, computed during the build: ``{{ count("claims") }}``.

A number of claims, errata, bound ids, controls or rows typed into a page goes stale the day
the package changes; every such number is computed here instead, from one source each, and
every page (hand-written or generated) that shows it calls :func:`count`.  Names:

``claims`` (``status="..."`` for one status), ``errata``
    the claims registry as ``offcmab claims`` checks it (statistical checks included; one
    run per build, shared with the claims and errata pages);
``bound ids``
    the bounds of the paper (:data:`docgen.theory.BOUND_IDS`, the order of the pages);
``controls``
    the negative controls of every theorem record (``offcmab validate``'s power table);
``rows``, ``rows with power``, ``rows passing``, ``rows failing`` (``run="DIR"``)
    the summary of the report a ``run("offcmab validate ... --out DIR")`` block earlier on
    the same page wrote.

An unknown name or a missing report stops the build with a message naming it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docgen import theory


class CountError(ValueError):
    """A ``count`` directive names no known count, or its run folder has no report."""


def claims(status: str | None = None) -> int:
    """Claims in the registry (with this status, when given)."""
    rows = theory.all_claims() or []
    return sum(1 for row in rows if status is None or row["status"] == status)


def errata() -> int:
    """Claims whose check found a counterexample: the errata page's entries."""
    return len(theory.all_errata() or [])


def bound_ids() -> int:
    """Bound ids of the paper, as the bounds section lists them."""
    return len(theory.BOUND_IDS)


def controls() -> int:
    """Negative controls over every theorem record."""
    from offcmab.validation.theorems import THEOREMS  # the docs build only

    return sum(len(theorem.controls) for theorem in THEOREMS)


def _report(run: str) -> dict[str, Any]:
    path = Path(run) / "report.json"
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
        return {"rows": len(report["rows"]), **report["summary"]}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CountError(f"count: no validate report in {run} (run the command that writes "
                         f"it earlier on the page): {error}") from None


def _rows(run: str, key: str) -> int:
    return int(_report(run)[key])


#: Every count a page may show: name -> function of the directive's keyword arguments.
COUNTS: dict[str, Callable[..., int]] = {
    "claims": claims,
    "errata": errata,
    "bound ids": bound_ids,
    "controls": controls,
    "rows": lambda run: _rows(run, "rows"),
    "rows with power": lambda run: _rows(run, "power"),
    "rows passing": lambda run: _rows(run, "pass"),
    "rows failing": lambda run: _rows(run, "FAIL"),
}


def count(name: str, **arguments: Any) -> str:
    """The count ``name`` as the page shows it (digits, thousands separated)."""
    try:
        function = COUNTS[name]
    except KeyError:
        raise CountError(f"count: unknown count {name!r}; known: {', '.join(COUNTS)}") from None
    return f"{function(**arguments):,}"
