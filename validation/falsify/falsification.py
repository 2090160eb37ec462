r"""One falsification: search, confirm, record; and which theorems it covers.

A theorem is covered when it has an instance space.  A lower bound (no space) has no
gap over a bound to maximise.  An upper bound that can fail at runnable sizes is searched
for a gap above it (:mod:`.search`, :mod:`.confirm`); one that is vacuous at every
runnable size (``traps_vacuous``) cannot be broken by any runnable instance, so there
the search looks for an instance where the subject is significantly worse than the
reference algorithm (:mod:`.paired`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from offcmab.validation.falsify import report
from offcmab.validation.falsify.confirm import CONFIRM_TRIALS, Confirmation, confirm
from offcmab.validation.falsify.evaluate import Evaluation
from offcmab.validation.falsify.paired import (
    PairedConfirmation,
    confirm_paired,
    paired_judge,
)
from offcmab.validation.falsify.search import DEFAULT_BUDGET, SEARCH_LEVEL, SearchResult, search
from offcmab.validation.parts.spec import Instance
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.backends import Index, Settings
from offcmab.validation.runner.pool import Pool, worker_pool

#: Where the example database goes inside the output folder (unless named).
DATABASE_FOLDER = "examples"
#: Instances tried per bound id by ``offcmab validate --search`` and ``check(search=True)``.
STEP_BUDGET = 40
#: Default budget of a paired search (two algorithms run per trial): about a minute.
PAIRED_BUDGET = 150


def check_database(folder: Path) -> None:
    """Refuse, before any search, an example database hypothesis could not write into
    (it would silently store nothing): a file, a folder that cannot be made, or one
    without write permission.  ``ValueError`` naming ``database``."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"database: {folder} is a file, not a folder of examples")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"database: cannot make the folder {folder} "
                         f"({error.strerror or error})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"database: {folder} is not writable, so no counterexample "
                         "could be stored (--no-database searches without one)")


def uncovered(theorem: Theorem) -> str:
    """Empty when ``theorem`` can be falsified, else why not."""
    if theorem.space is None:
        return (f"{theorem.id} is a lower bound (a minimax risk over a family): no instance "
                "can break it for an algorithm, so there is nothing to search")
    return ""


def paired(theorem: Theorem) -> bool:
    """Whether ``theorem`` is searched by the paired comparison with the reference."""
    return theorem.traps_vacuous


def default_budget(theorem: Theorem) -> int:
    return PAIRED_BUDGET if paired(theorem) else DEFAULT_BUDGET


def recheck(theorem: Theorem, subject: str, instance: Instance, run_seed: int,
            trials: int = CONFIRM_TRIALS, pool: Pool | None = None
            ) -> Confirmation | PairedConfirmation:
    """The confirmation of ``instance`` (a saved counterexample): the same fresh seeds,
    so a replay with the search's seed repeats the confirmation exactly.  The trials of a
    bound's confirmation run on ``pool``'s workers when given (a paired one's here)."""
    if paired(theorem):
        return confirm_paired(theorem, subject, instance, run_seed, trials)
    return confirm(theorem, subject, Evaluation(instance, "candidate"), run_seed, trials,
                   pool=pool)


@dataclass(frozen=True)
class Falsification:
    """A search, its confirmation (when it found an instance) and their record."""

    result: SearchResult
    confirmation: Confirmation | PairedConfirmation | None
    record: dict[str, Any]

    @property
    def confirmed(self) -> bool:
        return self.confirmation is not None and self.confirmation.confirmed


def falsify(theorem: Theorem, subject: str, out: Path, theorems: Sequence[Theorem],
            budget: int | None = None, run_seed: int = 2025, database: Path | None = None,
            confirm_trials: int = CONFIRM_TRIALS, algorithm: str = "",
            store: bool = True, backend: str = "serial", jobs: int = 1,
            scheduler: str | None = None, settings: Settings | None = None,
            index: Index | None = None) -> Falsification:
    """Search ``theorem`` for a counterexample of ``subject``, confirm it, write the files.

    ``algorithm`` is how the user named the subject (for the replay command; default the
    spec); ``budget`` defaults to :func:`default_budget`.  The example database is
    ``database`` (default ``out/examples``); ``store`` false searches without one.  The
    trials of each searched instance and of the confirmation run on ``backend``
    (:func:`~offcmab.validation.runner.pool.worker_pool`); the result does not depend on it
    (a paired search runs here); workers take ``settings`` (the trial timeout) and find the
    package's records through ``index``."""
    reason = uncovered(theorem)
    if reason:
        raise ValueError(f"only: {reason}")
    folder = database if database is not None else out / DATABASE_FOLDER
    judge = paired_judge(theorem, subject, SEARCH_LEVEL) if paired(theorem) else None
    with worker_pool(backend, jobs, scheduler, theorems, settings=settings,
                     index=index) as pool:
        result = search(theorem, subject, budget or default_budget(theorem), run_seed,
                        folder if store else None, judge=judge, pool=pool)
        confirmation = None
        if result.shrunk is not None:
            confirmation = recheck(theorem, subject, result.shrunk.instance, run_seed,
                                   confirm_trials, pool)
    record = report.summary(result, confirmation, theorem, out, algorithm or subject)
    report.write(record, result, confirmation, theorem, theorems, out)
    return Falsification(result, confirmation, record)
