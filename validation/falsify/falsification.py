r"""One falsification: search, confirm, record; and which theorems it covers.

A theorem is covered when it has an instance space and an upper bound that can fail at
runnable sizes.  A lower bound (no space) has no gap over a bound to maximise; a theorem
whose bound is vacuous at every runnable size (``traps_vacuous``) cannot be broken by
any runnable instance, so a search would only compare the subject with the reference
there, which this command does not do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from offcmab.validation.falsify import report
from offcmab.validation.falsify.confirm import CONFIRM_TRIALS, Confirmation, confirm
from offcmab.validation.falsify.search import DEFAULT_BUDGET, SearchResult, search
from offcmab.validation.theorem import Theorem

#: Where the example database goes inside the output folder (unless named).
DATABASE_FOLDER = "examples"
#: Instances tried per bound id by ``offcmab validate --search`` and ``check(search=True)``.
STEP_BUDGET = 40


def uncovered(theorem: Theorem) -> str:
    """Empty when ``theorem`` can be falsified, else why not."""
    if theorem.space is None:
        return (f"{theorem.id} is a lower bound (a minimax risk over a family): no instance "
                "can break it for an algorithm, so there is nothing to search")
    if theorem.traps_vacuous:
        return (f"{theorem.id}'s bound is at least the largest possible gap at every "
                "runnable size, so no runnable instance can break it; the search of the "
                "gap relative to the reference's is not implemented")
    return ""


@dataclass(frozen=True)
class Falsification:
    """A search, its confirmation (when it found an instance) and their record."""

    result: SearchResult
    confirmation: Confirmation | None
    record: dict[str, Any]

    @property
    def confirmed(self) -> bool:
        return self.confirmation is not None and self.confirmation.confirmed


def falsify(theorem: Theorem, subject: str, out: Path, theorems: Sequence[Theorem],
            budget: int = DEFAULT_BUDGET, run_seed: int = 2025, database: Path | None = None,
            confirm_trials: int = CONFIRM_TRIALS, algorithm: str = "",
            store: bool = True) -> Falsification:
    """Search ``theorem`` for a counterexample of ``subject``, confirm it, write the files.

    ``algorithm`` is how the user named the subject (for the replay command; default the
    spec).  The example database is ``database`` (default ``out/examples``); ``store``
    false searches without one."""
    reason = uncovered(theorem)
    if reason:
        raise ValueError(f"only: {reason}")
    folder = database if database is not None else out / DATABASE_FOLDER
    result = search(theorem, subject, budget, run_seed, folder if store else None)
    confirmation = None
    if result.shrunk is not None:
        confirmation = confirm(theorem, subject, result.shrunk, run_seed, confirm_trials)
    record = report.summary(result, confirmation, theorem, out, algorithm or subject)
    report.write(record, result, confirmation, theorem, theorems, out)
    return Falsification(result, confirmation, record)
