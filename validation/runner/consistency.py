r"""Consistency rows: what a run checks on an instance where its bound rows cannot speak.

A bound row has no power where the bound is at least the largest gap the instance allows
(``vacuous``) or does not apply (``n/a``).  Two consequences of the theorem still can fail
there, and both read nothing but the subject's gaps, so they run for the reference, the
negative controls and a user's algorithm alike:

Rate rows
    On every instance of a theorem with a proven order
    (:class:`~offcmab.validation.parts.theorem.Rate`) whose bound rows all lack power, whose
    bound applies at some sample size (the instance meets the theorem's hypotheses,
    :func:`applies`), and whose grid has at least
    :data:`MIN_RATE_SIZES` sizes: the mean gap at the largest size may be no larger than the
    order allows from *every* smaller size (:func:`offcmab.validation.runner.analysis.rate_row`).
    Where the scenario knows the instance's smallest positive gap :math:`g_{\min}`, the largest
    size must also be able to tell the nearest actions apart (:func:`resolves`): before that,
    a correct algorithm may return the nearest suboptimal action at every size, and its mean
    gap stays flat.  Mean gaps below the floor (the record's, or :data:`RELATIVE_FLOOR` of the
    largest gap the instance allows at its smallest size, whichever is larger) are not
    resolved: a subject whose mean gap lies at or below the floor at the smallest size has
    nothing left to shrink, and its row is ``n/a``.

Identification rows
    Gaps are discrete: every feasible action's gap :math:`\alpha r(S^*) - r(S)` is 0 or at
    least the instance's smallest positive gap :math:`g_{\min}` (exact where the scenario
    enumerates the actions, :attr:`~offcmab.validation.parts.scenario.MaxGap.smallest_positive`).
    Where a bound :math:`b < g_{\min}` holds with probability :math:`1-f`, an algorithm that keeps
    it returns an action of gap at most 0 with probability at least :math:`1-f`.  One row per
    instance pools every size of its grid where some bound lies below :math:`g_{\min}`, when
    there are at least two (at one size, a gap above the bound is a gap of at least
    :math:`g_{\min}`, so the row would repeat that size's bound row and only take a share of
    the budget): with
    :math:`V` trials of positive gap (a gap, less its estimation error, above
    :math:`g_{\min}/2`) among :math:`T`, it fails when
    :math:`P(\mathrm{Binomial}(T, f) \ge V)` is below the row's share of the false-alarm budget,
    :math:`f` the largest failure probability of the bounds pooled (trials at different sizes
    are independent, each positive with probability at most :math:`f`, so their count is
    stochastically below :math:`\mathrm{Binomial}(T, f)`).

The identification row can fail: it takes one share of the run's false-alarm budget
(:data:`offcmab.validation.parts.spec.FALSE_ALARM_BUDGET`), counted when the run is planned,
and flags an algorithm that keeps the theorem with probability at most that share, exactly.

The rate row is *advisory* (:data:`offcmab.validation.runner.analysis.ADVISORY`): it is computed
and reported, and its reason says when the subject's mean gap shrinks more slowly than the
proven order on the instance, but it never fails a run, takes no share of the budget and is not
a row with power.  Where every bound row is vacuous the theorem says nothing about how fast a
mean gap must shrink, so a correct algorithm that is more cautious than the reference (a wider
confidence radius that still covers the proof's event) may be slower there without breaking
anything the theorem implies.  A row that could fail such an algorithm would test a habit of
the reference, not the theorem.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from offcmab.validation.parts import verdict
from offcmab.validation.parts.spec import VARIANTS, Instance
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner import analysis
from offcmab.validation.runner.analysis import Cell, RowPlan

#: The fewest sizes a grid needs for a rate row: the row fails only when the gap at the
#: largest size exceeds what the order allows from every one of at least two smaller sizes.
MIN_RATE_SIZES = 3

#: A sample size beyond every sample-size precondition of the paper's bounds (they grow as
#: :math:`\log n`): a bound that does not apply there fails a hypothesis of its theorem.
LARGE_N = 10**12

#: Mean gaps below this fraction of the largest gap an instance allows are not resolved by
#: the rate row (a near-tie that a correct algorithm confuses at every runnable size).
RELATIVE_FLOOR = 0.01


@dataclass(frozen=True)
class Consistency:
    r"""The consistency rows of one instance, decided before any trial runs.

    Attributes
    ----------
    rate
        Whether the instance has a rate row.
    floor
        The rate row's floor on mean gaps.
    identify
        The sizes an identification row pools (empty: no identification row).
    failure
        The failure probability the identification row tests against.
    smallest_gap
        The instance's smallest positive gap (``None``: unknown).
    """

    rate: bool = False
    floor: float = 0.0
    identify: tuple[int, ...] = ()
    failure: float = 0.0
    smallest_gap: float | None = None

    @property
    def power_rows(self) -> int:
        """How many rows with power this instance adds (each takes a budget share): the
        identification row only; the rate row is advisory."""
        return int(bool(self.identify))


def plan_instance(theorem: Theorem, instance: Instance,
                  rows: Mapping[int, Sequence[RowPlan]]) -> Consistency:
    """The consistency rows of an upper-bound instance, from its bound rows' plans."""
    if theorem.scenario.kind != "upper":
        return Consistency()
    plans = [row for n in instance.n_grid for row in rows[n]]
    largest = next((row.max_gap for row in rows[instance.n_grid[0]]
                    if row.max_gap is not None), None)
    smallest = None if largest is None else largest.smallest_positive
    rate = (theorem.rate is not None and len(instance.n_grid) >= MIN_RATE_SIZES
            and not any(row.power for row in plans)
            and (any(row.bound is not None for row in plans) or applies(theorem, instance))
            and resolves(instance, smallest))
    floor = 0.0
    if theorem.rate is not None:
        relative = 0.0 if largest is None else RELATIVE_FLOOR * largest.value
        floor = max(theorem.rate.floor, relative)
    identify: list[int] = []
    failures: list[float] = []
    for n in instance.n_grid:
        below = [row for row in rows[n] if not row.note and below_gap(row, smallest)]
        if below:
            identify.append(n)
            failures.append(max(analysis.upper_failure(row, instance.delta) for row in below))
    if len(identify) < 2:  # at one size the row would test exactly what its bound row tests
        identify, failures = [], []
    return Consistency(rate, floor, tuple(identify), max(failures, default=0.0), smallest)


def below_gap(row: RowPlan, smallest: float | None) -> bool:
    """Whether the row's (scaled) bound lies below the smallest positive gap."""
    bound = row.bound
    return bound is not None and smallest is not None and bound < smallest


def applies(theorem: Theorem, instance: Instance) -> bool:
    """Whether the theorem's bound applies to ``instance`` at some sample size (its hypotheses
    hold; a sample-size precondition is met at :data:`LARGE_N`)."""
    return any(theorem.scenario.bound(instance, LARGE_N, variant).value is not None
               for variant in VARIANTS)


def resolves(instance: Instance, smallest: float | None) -> bool:
    r"""Whether the largest size of the grid can tell the nearest actions apart:
    :math:`\sqrt{\log(1/\delta)/(2n)} < g_{\min}` (``True`` when :math:`g_{\min}` is unknown).

    The left side is Hoeffding's radius of a mean observed in every one of :math:`n` samples,
    the most any dataset of that size shows; below it, two actions :math:`g_{\min}` apart
    cannot be told apart at confidence :math:`1-\delta`, so a correct algorithm may return the
    nearest suboptimal one at every size of the grid and its mean gap need not shrink.
    """
    if smallest is None:
        return True
    radius = math.sqrt(math.log(1.0 / instance.delta) / (2.0 * max(instance.n_grid)))
    return radius < smallest


def rate_row(theorem: Theorem, plan: Consistency, group: Sequence[Cell],
             level: float) -> dict[str, Any]:
    """The rate row of one instance's cells, with the record's order and log factor: advisory.

    ``level`` is only the significance of the reported comparison (``slower``, recorded as
    ``advice_level``); the row never fails and takes no share of the false-alarm budget
    (its ``row_level`` is 0).
    """
    rate = theorem.rate
    assert rate is not None
    factors = [1.0 if rate.log_factor is None else rate.log_factor(cell.instance, cell.n)
               for cell in group]
    row = analysis.rate_row(group, rate.order, factors, plan.floor, level)
    row |= {"kind": "rate", "false_alarm_probability": 0.0, "row_level": 0.0,
            "advice_level": level}
    if row["verdict"] == analysis.NA:
        return row | {"slower": None}
    slower = row["verdict"] == analysis.FAIL
    reason = (f"slower than the proven order on this instance: {row['reason']}" if slower
              else "follows the proven order on this instance")
    return row | {"slower": slower, "violations": 0, "verdict": analysis.ADVISORY,
                  "reason": reason}


def identification_row(plan: Consistency, group: Sequence[Cell],
                       level: float) -> dict[str, Any]:
    r"""The identification row of one instance: trials with a positive gap where a bound lies
    below the smallest positive gap, against the bounds' failure probability (exact binomial)."""
    assert plan.smallest_gap is not None
    cells = [cell for cell in group if cell.n in plan.identify]
    first = cells[0]
    positive = sum(verdict.count_violations(cell.gaps, cell.errors, plan.smallest_gap / 2)
                   for cell in cells)
    trials = sum(int(cell.gaps.size) for cell in cells)
    p_value = verdict.binomial_tail(positive, trials, plan.failure)
    failed = p_value < level
    gaps = np.concatenate([cell.gaps for cell in cells])
    return {
        "id": first.bound_id, "kind": "identification", "instance": first.instance.name,
        "origin": first.instance.origin, "n": None, "variant": "identification",
        "check": "P(gap > 0) <= failure probability where a bound is below the smallest "
                 "positive gap",
        "n_grid": list(plan.identify), "trials": trials, "delta": first.instance.delta,
        "smallest_gap": plan.smallest_gap, "bound": None, "violations": positive,
        "failure_probability": plan.failure, "p_value": p_value,
        "allowed_violations": verdict.allowed_violations(trials, plan.failure, level),
        "detectable_rate": verdict.detectable_rate(trials, plan.failure, level),
        "row_level": level, "false_alarm_probability": level, "tightness": None,
        "gap_mean": float(gaps.mean()), "gap_max": float(gaps.max()),
        "verdict": analysis.FAIL if failed else analysis.PASS,
        "reason": f"{positive} of {trials} trials returned an action of positive gap (at "
                  f"least {plan.smallest_gap:.4g}) where a bound below that gap holds with "
                  f"probability {1 - plan.failure:.4g}" if failed else "",
    }
