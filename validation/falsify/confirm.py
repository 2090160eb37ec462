r"""Confirmation: a found instance counts only when it fails again on fresh seeds.

The search tries many instances on the same seeds and keeps the worst, so its own
p-values say nothing.  The found instance is therefore run again, under another instance
name (:data:`CONFIRM_NAME`, so every trial seed differs from the search's), for
``trials`` trials, and the violations (gap above the bound) are tested with the exact
one-sided binomial test of :func:`scipy.stats.binomtest`: under the theorem a trial
violates with probability at most :math:`\delta` (the bound's failure probability), so
with a correct algorithm the confirmation's p-value falls below ``level`` with
probability at most ``level``.  That is the false-alarm probability of a confirmed
counterexample.

:data:`CONFIRM_NAME` is also the name the saved instance carries: ``offcmab validate
--instances`` replays it on the trial seeds of that name and the run seed, so a replay
with the search's ``--seed`` starts with the confirmation's own trials.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scipy.stats import binomtest

from offcmab.validation.falsify.evaluate import CANDIDATE, Evaluation, evaluate
from offcmab.validation.parts.spec import Instance
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.pool import Pool

#: Name of the confirmed (and saved) instance: part of its trial seeds.
CONFIRM_NAME = "counterexample"
#: Fresh trials of a confirmation.
CONFIRM_TRIALS = 100
#: A confirmation succeeds when its binomial p-value is below this.
CONFIRM_LEVEL = 1e-3


@dataclass(frozen=True)
class Confirmation:
    """The fresh trials of a found instance and their exact binomial test."""

    evaluation: Evaluation
    p_value: float
    level: float
    seed: int

    @property
    def confirmed(self) -> bool:
        return self.p_value < self.level

    def summary(self) -> dict[str, Any]:
        found = self.evaluation
        return {"trials": found.trials, "violations": found.violations,
                "failure_probability": found.failure, "p_value": self.p_value,
                "level": self.level, "seed": self.seed, "confirmed": self.confirmed,
                "gap_quantile": found.quantile, "ratio": found.ratio,
                "test": "one-sided exact binomial: violation rate > failure probability"}


def confirm(theorem: Theorem, subject: str, found: Evaluation, run_seed: int,
            trials: int = CONFIRM_TRIALS, level: float = CONFIRM_LEVEL,
            pool: Pool | None = None) -> Confirmation:
    """Re-run ``found`` on ``trials`` fresh trials (on ``pool``'s workers, when given) and
    test its violation rate."""
    if trials < 1:
        raise ValueError(f"confirm_trials: must be at least 1, got {trials}")
    source = found.instance
    instance = Instance(CONFIRM_NAME, source.params, source.delta, source.n_grid, "falsify")
    fresh = evaluate(theorem, subject, instance, run_seed, trials, pool=pool)
    if fresh.status != CANDIDATE:  # a found instance is a candidate: the same bound
        raise ValueError(f"instance: not a candidate on confirmation ({fresh.reason})")
    test = binomtest(fresh.violations, fresh.trials, fresh.failure, alternative="greater")
    return Confirmation(fresh, float(test.pvalue), level, run_seed)
