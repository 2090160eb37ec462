r"""The event cases of the theorems a run checks: gathered once each, run, turned into rows.

Several theorems can rest on one event (CLCB's arm event serves Theorem 1 in both
norms): a case listed by more than one record is run once, and its row names every
theorem that listed it (``bound_ids``, in the order of the records given).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from offcmab.validation.events.core import (
    TRIALS,
    EventResult,
    event_row,
    run_cases,
)
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.subjects import REFERENCE, resolve


def theorem_cases(theorem: Theorem, profile: str, subject: str = REFERENCE) -> list[EventCase]:
    """The event cases of one theorem, checking ``subject`` (a spec; the reference default).

    Every subject, the reference included, enters the same way: the record's ``events``
    receive the callable the spec resolves to (for the reference, the function its signature
    names with the signature's keywords) and read their statistics from what it returns.
    Messages name the reference by ``module:function``.

    Cases that check no subject (``subject_free``: the oracle a scenario hands over, an
    erratum's corrected algorithm) run in reference runs only: beside another subject they
    would pass whatever it does, and a run of a user's algorithm must not count them as
    checks of it.
    """
    function = resolve(subject, theorem)
    name = theorem.signature.reference_name if subject == REFERENCE else subject
    return [replace(case, bound_ids=(theorem.id,))
            for case in theorem.events(profile, function, name)
            if subject == REFERENCE or not case.subject_free]


def all_cases(theorems: Sequence[Theorem], profile: str,
              subject: str = REFERENCE) -> list[EventCase]:
    """Every event case of ``theorems`` in ``profile``, each (id, instance) once."""
    found: dict[tuple[str, str], EventCase] = {}
    for theorem in theorems:
        for case in theorem_cases(theorem, profile, subject):
            key = (case.id, case.instance)
            if key in found:
                earlier = found[key]
                found[key] = replace(earlier, bound_ids=(*earlier.bound_ids, theorem.id))
            else:
                found[key] = case
    return list(found.values())


def run(theorems: Sequence[Theorem], profile: str, seed: int,
        subject: str = REFERENCE) -> list[EventResult]:
    """Run the event cases of a validation run (in this process; each row has its own seed)."""
    found = run_cases(all_cases(theorems, profile, subject), TRIALS[profile], seed)
    if subject == REFERENCE:
        return found
    return [replace(result, case=replace(result.case, algorithm=subject)) for result in found]


def rows(results: Sequence[EventResult], level: float) -> list[dict[str, Any]]:
    """The report rows of finished event cases at row level ``level``."""
    return [event_row(result, level) for result in results]
