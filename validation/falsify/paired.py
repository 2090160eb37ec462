r"""The paired comparison with the reference, for bounds no runnable instance can break.

Where a theorem's bound is at least the largest possible gap at every runnable size
(``traps_vacuous``), no instance shows a gap above it.  The search then asks a weaker,
still falsifiable question: is the subject clearly **worse than the reference
algorithm** on some instance?  Each trial runs the subject and the reference on the same
dataset (the trial seed ignores the subject: common random numbers) and records the
paired difference of their gaps :math:`D_t = \mathrm{gap}_{\rm subject} -
\mathrm{gap}_{\rm reference}`.

* **target**: the mean of :math:`D_t` over the instance's largest possible gap (the
  scale: :math:`\sigma^* - \min_S \sigma(S)` for influence maximization, :math:`T` rounds
  of the empty cache online), and the share of trials where the subject is worse;
* **test**: the one-sided exact sign test (:func:`scipy.stats.binomtest`, ties dropped):
  under "the subject is not worse", a non-tied trial is worse with probability at most
  1/2;
* **claim**: an instance is confirmed (on fresh seeds) when the sign test's p-value is
  below the level **and** the mean difference is at least :data:`MARGIN` of the scale; in
  the search it fails at :data:`SEARCH_MARGIN`.  The margin is a stated practical threshold on an
  estimate, not a confidence bound; the p-value carries the confidence.

Against itself the reference's differences are all 0 (every trial a tie), so it can never
be confirmed: its p-value is 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.stats import binomtest

from offcmab.validation.falsify.confirm import CONFIRM_LEVEL, CONFIRM_NAME, CONFIRM_TRIALS
from offcmab.validation.falsify.evaluate import CANDIDATE, NOT_APPLICABLE
from offcmab.validation.falsify.search import Judge
from offcmab.validation.parts.spec import Instance, TrialKey
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.backends import Task, run_task
from offcmab.validation.subjects import REFERENCE

#: The practical margin: the mean paired difference must reach this share of the scale.
MARGIN = 0.05
#: The margin a searched instance must reach on the search seeds: twice the confirmation's,
#: so that shrinking (which drives the effect down to the threshold) leaves room for the
#: fresh seeds' noise.
SEARCH_MARGIN = 2 * MARGIN
#: New instances a paired search evaluates while shrinking (each runs two algorithms).
SHRINK_EVALUATIONS = 40
#: Labels of what the paired search maximises.
EFFECT_TARGET = "mean paired difference over largest gap"
WORSE_TARGET = "share of trials where the subject is worse"
#: What a confirmed paired counterexample claims (the replay and the summaries say it).
TEST = ("one-sided exact sign test on paired gap differences (subject minus reference, "
        "ties dropped), and mean difference at least the margin times the largest gap")


@dataclass(frozen=True)
class PairedEvaluation:
    """An instance, its scale, and the subject's and the reference's gaps on shared seeds."""

    instance: Instance
    status: str
    scale: float = math.nan  # the largest gap the instance allows
    subject_gaps: tuple[float, ...] = field(default=(), repr=False)
    reference_gaps: tuple[float, ...] = field(default=(), repr=False)
    reason: str = ""

    @property
    def n(self) -> int:
        return self.instance.n_grid[0]

    @property
    def trials(self) -> int:
        return len(self.subject_gaps)

    @property
    def differences(self) -> np.ndarray:
        return np.array(self.subject_gaps) - np.array(self.reference_gaps)

    @property
    def worse(self) -> int:
        """Trials where the subject's gap exceeds the reference's."""
        return int(np.sum(self.differences > 0))

    @property
    def better(self) -> int:
        return int(np.sum(self.differences < 0))

    @property
    def p_value(self) -> float:
        """The one-sided exact sign test of "worse" among the non-tied trials."""
        untied = self.worse + self.better
        if self.status != CANDIDATE or untied == 0:
            return 1.0
        return float(binomtest(self.worse, untied, 0.5, alternative="greater").pvalue)

    @property
    def effect(self) -> float:
        """The mean paired difference over the scale (``nan`` for a non-candidate)."""
        if self.status != CANDIDATE or not self.trials:
            return math.nan
        return float(np.mean(self.differences)) / self.scale

    def significant(self, level: float, margin: float = MARGIN) -> bool:
        """Sign test below ``level`` and mean difference at least ``margin`` of the scale."""
        return self.p_value < level and self.effect >= margin

    def summary(self) -> dict[str, Any]:
        base = {"instance": self.instance.params, "delta": self.instance.delta, "n": self.n,
                "status": self.status, "largest_gap": self.scale}
        if self.status != CANDIDATE:
            return base | {"reason": self.reason}
        return base | {"trials": self.trials, "paired": True,
                       "subject_gap_mean": float(np.mean(self.subject_gaps)),
                       "reference_gap_mean": float(np.mean(self.reference_gaps)),
                       "worse": self.worse, "better": self.better, "p_value": self.p_value,
                       "effect": self.effect, "margin": MARGIN}


def _gaps(theorem: Theorem, subject: str, instance: Instance, seed: int,
          trials: range) -> tuple[float, ...]:
    n = instance.n_grid[0]
    return tuple(float(run_task(Task(instance, TrialKey(theorem.id, instance.name, n, t,
                                                        subject), seed), theorem).gap)
                 for t in trials)


def evaluate_paired(theorem: Theorem, subject: str, instance: Instance, seed: int,
                    trials: int, screen: int = 0) -> PairedEvaluation:
    """Run ``subject`` and the reference on the same ``trials`` seeded datasets.

    With ``screen`` > 0, stop after the first ``screen`` trials when the subject is worse
    in none of them.  An instance on which every action is optimal is not run.
    """
    scale = float(theorem.scenario.max_gap(instance, instance.n_grid[0]).value)
    if not scale > 0:
        return PairedEvaluation(instance, NOT_APPLICABLE, scale,
                                reason="every action has the same value: no gap to compare")

    def pair(first: int, last: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        own = _gaps(theorem, subject, instance, seed, range(first, last))
        return own, (own if subject == REFERENCE
                     else _gaps(theorem, REFERENCE, instance, seed, range(first, last)))

    start = min(screen, trials) if screen > 0 else trials
    own, reference = pair(0, start)
    if start < trials and any(a > b for a, b in zip(own, reference, strict=True)):
        more_own, more_reference = pair(start, trials)
        own, reference = own + more_own, reference + more_reference
    return PairedEvaluation(instance, CANDIDATE, scale, own, reference)


def paired_judge(theorem: Theorem, subject: str, level: float) -> Judge:
    """The search's judge: fails an instance significant at ``level`` (search seeds)."""
    def run(instance: Instance, run_seed: int, trials: int, screen: int) -> PairedEvaluation:
        return evaluate_paired(theorem, subject, instance, run_seed, trials, screen)

    def targets(found: PairedEvaluation) -> dict[str, float]:
        if found.status != CANDIDATE:
            return {}
        return {EFFECT_TARGET: found.effect, WORSE_TARGET: found.worse / found.trials}

    return Judge(run, lambda found: (found.status == CANDIDATE
                                     and found.significant(level, SEARCH_MARGIN)),
                 targets, lambda found: found.effect,
                 lambda found: (f"worse than the reference in {found.worse} of "
                                f"{found.trials} trials, mean difference "
                                f"{found.effect:.3g} of the largest gap"),
                 SHRINK_EVALUATIONS)


@dataclass(frozen=True)
class PairedConfirmation:
    """The fresh paired trials of a found instance, their sign test and effect."""

    evaluation: PairedEvaluation
    p_value: float
    level: float
    seed: int

    @property
    def confirmed(self) -> bool:
        return self.p_value < self.level and self.evaluation.effect >= MARGIN

    def summary(self) -> dict[str, Any]:
        found = self.evaluation
        return {"trials": found.trials, "paired": True, "worse": found.worse,
                "better": found.better, "p_value": self.p_value, "level": self.level,
                "seed": self.seed, "confirmed": self.confirmed, "effect": found.effect,
                "margin": MARGIN, "largest_gap": found.scale,
                "subject_gap_mean": float(np.mean(found.subject_gaps)),
                "reference_gap_mean": float(np.mean(found.reference_gaps)), "test": TEST}


def confirm_paired(theorem: Theorem, subject: str, instance: Instance, run_seed: int,
                   trials: int = CONFIRM_TRIALS,
                   level: float = CONFIRM_LEVEL) -> PairedConfirmation:
    """Re-run the paired comparison of ``instance`` on ``trials`` fresh trials."""
    if trials < 1:
        raise ValueError(f"confirm_trials: must be at least 1, got {trials}")
    fresh = Instance(CONFIRM_NAME, instance.params, instance.delta, instance.n_grid,
                     "falsify")
    found = evaluate_paired(theorem, subject, fresh, run_seed, trials)
    if found.status != CANDIDATE:
        raise ValueError(f"instance: not comparable on confirmation ({found.reason})")
    return PairedConfirmation(found, found.p_value, level, run_seed)
