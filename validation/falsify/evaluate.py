r"""One candidate instance: the subject's gaps on fixed seeds, against the stated bound.

A candidate is a deterministic test: its trials are
:func:`offcmab.validation.runner.backends.run_task` on the keys
``(id, name, n, t, subject)`` for ``t < trials`` with one run seed, so every candidate of
a search sees the same random numbers (common random numbers), and the same instance
evaluated twice gives the same gaps.  An instance whose bound does not apply
(precondition failed) or cannot fail (the bound is at least the largest gap the
instance allows) is not run.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from offcmab.validation.parts import verdict
from offcmab.validation.parts.spec import Instance, TrialKey
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.backends import Task, lookup, run_task
from offcmab.validation.runner.pool import Pool

CANDIDATE, VACUOUS, NOT_APPLICABLE = "candidate", "vacuous", "n/a"


@dataclass(frozen=True)
class Evaluation:
    """An instance, its bound and largest gap, and (for a candidate) the subject's gaps."""

    instance: Instance
    status: str
    bound: float | None = None
    failure: float = math.nan  # the probability with which the bound may fail
    largest_gap: float | None = None
    gaps: tuple[float, ...] = field(default=(), repr=False)
    violations: int = 0
    reason: str = ""

    @property
    def n(self) -> int:
        return self.instance.n_grid[0]

    @property
    def trials(self) -> int:
        return len(self.gaps)

    @property
    def p_value(self) -> float:
        """Exact binomial tail of the violations if the bound failed with its probability."""
        if self.status != CANDIDATE:
            return 1.0
        return verdict.binomial_tail(self.violations, self.trials, self.failure)

    @property
    def quantile(self) -> float:
        """The empirical (1-failure)-quantile of the gap (``nan`` for a non-candidate)."""
        if self.status != CANDIDATE:
            return math.nan
        return float(np.quantile(np.array(self.gaps), 1.0 - self.failure, method="higher"))

    @property
    def ratio(self) -> float:
        """The gap's quantile over the bound: above 1 where the bound is broken."""
        if self.status != CANDIDATE or not self.bound:
            return math.nan
        return self.quantile / self.bound

    def summary(self) -> dict[str, Any]:
        """The JSON-able description (instance, sizes, bound, gaps' statistics)."""
        base = {"instance": self.instance.params, "delta": self.instance.delta, "n": self.n,
                "status": self.status, "bound": self.bound, "largest_gap": self.largest_gap}
        if self.status != CANDIDATE:
            return base | {"reason": self.reason}
        return base | {"trials": self.trials, "violations": self.violations,
                       "failure_probability": self.failure, "p_value": self.p_value,
                       "gap_quantile": self.quantile, "gap_mean": float(np.mean(self.gaps)),
                       "ratio": self.ratio}


def trials_of(theorem: Theorem, batch: tuple[str, str, Instance, int, int, int]
              ) -> list[tuple[float, float]]:
    """The (gap, gap error) of trials ``first`` to ``last - 1`` of ``theorem``: a batch of
    one evaluation, ``(bound id, subject, instance, seed, first, last)``."""
    bound_id, subject, instance, seed, first, last = batch
    n = instance.n_grid[0]
    records = [run_task(Task(instance, TrialKey(bound_id, instance.name, n, t, subject), seed),
                        theorem) for t in range(first, last)]
    return [(record.gap, record.gap_error) for record in records]


def run_trials(batch: tuple[str, str, Instance, int, int, int]) -> list[tuple[float, float]]:
    """A worker's batch (:func:`trials_of`), its theorem looked up by the batch's bound id."""
    return trials_of(lookup(batch[0]), batch)


def batches(first: int, last: int, parts: int) -> list[tuple[int, int]]:
    """``range(first, last)`` cut into at most ``parts`` consecutive pieces of near-equal size."""
    edges = np.linspace(first, last, min(parts, max(last - first, 1)) + 1).round().astype(int)
    return [(int(low), int(high)) for low, high in itertools.pairwise(edges) if high > low]


def evaluate(theorem: Theorem, subject: str, instance: Instance, seed: int,
             trials: int, screen: int = 0, pool: Pool | None = None) -> Evaluation:
    """Run ``trials`` trials of ``subject`` on ``instance`` at its one ``n`` (seeded).

    With ``screen`` > 0, stop after the first ``screen`` trials when none of them exceeds
    the bound (the evaluation then holds those trials only): a search spends its trials
    on the instances that show a violation early.  With a ``pool``, the trials run on its
    workers in one batch per worker (:func:`run_trials`); each trial's seed is its key's,
    so the evaluation is the same.
    """
    n = instance.n_grid[0]
    value = theorem.scenario.bound(instance, n, "stated")
    if value.value is None:
        return Evaluation(instance, NOT_APPLICABLE, reason=value.reason)
    largest = theorem.scenario.max_gap(instance, n).value
    failure = instance.delta if value.failure is None else min(value.failure, 1.0)
    if value.value >= largest:
        return Evaluation(instance, VACUOUS, value.value, failure, largest,
                          reason=f"bound {value.value:.4g} >= largest gap {largest:.4g}")
    def run(first: int, last: int) -> tuple[np.ndarray, np.ndarray]:
        parts = [(theorem.id, subject, instance, seed, low, high)
                 for low, high in batches(first, last, 1 if pool is None else pool.jobs)]
        found = ([trials_of(theorem, part) for part in parts] if pool is None
                 else pool.map(run_trials, parts))
        pairs = np.array([pair for part in found for pair in part], dtype=float).reshape(-1, 2)
        return pairs[:, 0], pairs[:, 1]

    start = min(screen, trials) if screen > 0 else trials
    gaps, errors = run(0, start)
    if verdict.count_violations(gaps, errors, value.value) > 0 or start == trials:
        more_gaps, more_errors = run(start, trials)
        gaps, errors = np.concatenate([gaps, more_gaps]), np.concatenate([errors, more_errors])
    violations = verdict.count_violations(gaps, errors, value.value)
    return Evaluation(instance, CANDIDATE, value.value, failure, largest,
                      tuple(float(g) for g in gaps), violations)
