r"""From trial records to report rows: one row per (bound id, instance, n, variant).

Upper-bound rows test :math:`P(\text{gap} > b) \le \delta` with an exact binomial
tail; lower-bound rows test a minimax risk bound on the hard family with
Hoeffding's inequality, check that CLCB's risk stays below its upper bound, and
fit the log-log slope of CLCB's risk in ``n`` (see :mod:`offcmab.validation.parts.verdict`).

Rows are planned before any trial runs (:class:`RowPlan`): a bound that is at least
the largest gap its instance allows can never be exceeded, so the row is
``vacuous``, not ``pass``, and gets no share of the false-alarm budget; every row
that can fail (*with power*) gets the same share.  Upper-bound rows with power
report ``detectable_rate``, the smallest exceedance probability they flag with
probability 0.9; Hoeffding rows report the shortfall or excess they detect.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Protocol, cast

import numpy as np

from offcmab.validation.evaluator.crosscheck import InternalError
from offcmab.validation.parts import verdict
from offcmab.validation.parts.scenario import BoundValue, MaxGap, Scenario
from offcmab.validation.parts.spec import VARIANTS, Instance
from offcmab.validation.runner.store import TrialRecord

PASS, FAIL, NA, NOTE, VACUOUS = "pass", "FAIL", "n/a", "note", "vacuous"

#: The verdict of a bound id whose algorithm failed to run (raised, exited, hung, wrote into
#: its input; see :mod:`offcmab.validation.sandbox`): nothing about the bound was measured.
ERROR = "error"

#: The verdict of a rate row (:mod:`offcmab.validation.runner.consistency`): reported beside
#: the rows that can fail, never failing a run and taking no share of the false-alarm budget.
ADVISORY = "advisory"

#: Every verdict, in report order.
VERDICTS = (PASS, FAIL, VACUOUS, NA, NOTE, ADVISORY, ERROR)

#: Float-rounding allowance of the slope check (exact when the gaps do not vary).
SLOPE_ROUNDING = 1e-9


class LowerScenario(Scenario, Protocol):
    """What a lower-bound scenario adds: its algorithms, gap range and CLCB's upper bound."""

    @property
    def algorithms(self) -> tuple[str, ...]:
        """Names of the algorithms whose risk is measured (keys of ``TrialOutcome.extra``)."""
        ...

    def risk_span(self, instance: Instance, n: int) -> float:
        """Largest possible gap :math:`G` on this instance (for Hoeffding's inequality)."""
        ...

    def clcb_upper(self, instance: Instance, n: int) -> BoundValue:
        """An upper bound on CLCB's expected gap (the theorem-1 side of the sandwich)."""
        ...

    def note_only(self, variant: str) -> bool:
        """True when a shortfall in ``variant`` is informational (``note``), not a failure."""
        ...


@dataclass
class Cell:
    """The trials of one (scenario, instance, n): gaps, errors and extras, in trial order."""

    bound_id: str
    instance: Instance
    n: int
    gaps: np.ndarray
    errors: np.ndarray
    extras: dict[str, np.ndarray]

    @classmethod
    def from_records(cls, bound_id: str, instance: Instance, n: int,
                     records: Sequence[TrialRecord]) -> Cell:
        """Collect records (already sorted by trial index)."""
        names = sorted({name for record in records for name in record.extra})
        extras = {name: np.array([r.extra[name] for r in records]) for name in names}
        return cls(bound_id, instance, n, np.array([r.gap for r in records]),
                   np.array([r.gap_error for r in records]), extras)

    def base(self) -> dict[str, Any]:
        """Fields every row of this cell shares."""
        return {"id": self.bound_id, "instance": self.instance.name,
                "origin": self.instance.origin, "n": self.n, "trials": int(self.gaps.size),
                "delta": self.instance.delta, "gap_mean": float(self.gaps.mean()),
                "gap_max": float(self.gaps.max()),
                "gap_error_max": float(self.errors.max())}


@dataclass(frozen=True)
class RowPlan:
    r"""A row as decided before any trial runs: its bound, the largest gap, whether it can fail.

    Attributes
    ----------
    variant
        ``stated``, ``proved`` or ``clcb-risk``.
    value
        The bound (unscaled), or why it does not apply.
    max_gap
        The largest gap the instance allows (``None`` when the scenario cannot say).
    scale
        The run's ``--bound-scale``.
    note
        True for a row that is informational only (never fails).
    """

    variant: str
    value: BoundValue
    max_gap: MaxGap | None
    scale: float = 1.0
    note: bool = False

    @property
    def bound(self) -> float | None:
        """The scaled bound."""
        return None if self.value.value is None else self.value.value * self.scale

    @property
    def vacuous(self) -> bool:
        """The bound is at least the largest gap the instance allows: it cannot be exceeded."""
        bound = self.bound
        return bound is not None and self.max_gap is not None and bound >= self.max_gap.value

    @property
    def power(self) -> bool:
        """The row can fail (it gets a share of the false-alarm budget)."""
        return self.bound is not None and not self.vacuous and not self.note


def _max_gap(scenario: Any, instance: Instance, n: int) -> MaxGap | None:
    method = getattr(scenario, "max_gap", None)
    try:
        return None if method is None else cast(MaxGap, method(instance, n))
    except InternalError as mismatch:  # the evaluator's cross-check, located
        raise mismatch.at(f"{scenario.bound_id}, instance {instance.name}, n={n}") from None


def plan_upper(scenario: Scenario, instance: Instance, n: int,
               scale: float) -> list[RowPlan]:
    """The rows of an upper-bound cell: ``stated``, and ``proved`` where it differs."""
    largest = _max_gap(scenario, instance, n)
    stated = scenario.bound(instance, n, "stated")
    proved = scenario.bound(instance, n, "proved")
    plans = [RowPlan("stated", stated, largest, scale)]
    if proved.value != stated.value or proved.reason != stated.reason:
        plans.append(RowPlan("proved", proved, largest, scale))
    return plans


def plan_lower(scenario: LowerScenario, instance: Instance, n: int,
               scale: float) -> list[RowPlan]:
    """The rows of a lower-bound cell: each variant, then CLCB's risk against its upper bound."""
    largest = _max_gap(scenario, instance, n)
    plans = [RowPlan(variant, scenario.bound(instance, n, variant), None, scale,
                     scenario.note_only(variant)) for variant in VARIANTS]
    return [*plans, RowPlan("clcb-risk", scenario.clcb_upper(instance, n), largest, scale)]


def upper_failure(plan: RowPlan, delta: float) -> float:
    """The probability with which the row's bound may fail (the variant's, else ``delta``)."""
    return delta if plan.value.failure is None else min(plan.value.failure, 1.0)


def _largest(plan: RowPlan) -> dict[str, Any]:
    largest = plan.max_gap
    return {"max_gap": None if largest is None else largest.value,
            "max_gap_source": "unknown" if largest is None else largest.describe()}


def _vacuous_reason(plan: RowPlan) -> str:
    assert plan.max_gap is not None and plan.bound is not None
    return (f"vacuous: bound {plan.bound:.4g} >= {plan.max_gap.value:.4g}, the largest gap "
            f"this instance allows ({plan.max_gap.describe()})")


def upper_row(cell: Cell, plan: RowPlan, level: float, detect: float) -> dict[str, Any]:
    r"""One upper-bound row: violations, exact binomial tail, tightness, detectability.

    ``detect`` is the profile's target: the row should flag an exceedance
    probability of ``detect`` times its failure probability with probability 0.9.
    """
    value = plan.value
    row = cell.base() | {"variant": plan.variant, "check": "P(gap > bound) <= failure_probability",
                         "parameters": value.parameters} | _largest(plan)
    if plan.bound is None or value.value is None:
        return row | {"bound": None, "violations": None, "tightness": None,
                      "detectable_rate": None, "row_level": 0.0, "verdict": NA,
                      "reason": value.reason}
    bound = plan.bound
    delta = upper_failure(plan, cell.instance.delta)
    trials = int(cell.gaps.size)
    violations = verdict.count_violations(cell.gaps, cell.errors, bound)
    p_value = verdict.binomial_tail(violations, trials, delta)
    allowed = verdict.allowed_violations(trials, delta, level)
    detectable = verdict.detectable_rate(trials, delta, level) if plan.power else None
    target = min(detect * delta, 1.0)
    reason = ""
    if plan.vacuous:
        reason = _vacuous_reason(plan)
    elif detectable is None or detectable > target:
        reason = (f"detects only exceedance rates >= {detectable:.3g}"
                  if detectable is not None else "cannot flag even all trials violating")
        reason += (f", not {detect:g} failure_probability = {target:.3g} (the trial cap was "
                   "reached)")
    failed = p_value < level
    return row | {
        "bound": bound, "bound_unscaled": value.value, "violations": violations,
        "failure_probability": delta, "p_value": p_value,
        "row_level": level if plan.power else 0.0,
        "allowed_violations": allowed, "detectable_rate": detectable,
        "detect_target": target if plan.power else None,
        "gap_quantile": float(np.quantile(cell.gaps, 1 - delta, method="higher")),
        "tightness": verdict.tightness(cell.gaps, value.value, delta),
        "min_scale": verdict.smallest_passing_scale(cell.gaps, cell.errors, value.value,
                                                    allowed),
        "verdict": FAIL if failed else VACUOUS if plan.vacuous else PASS,
        "reason": reason if not failed or not plan.vacuous else
        "violations above a bound that is at least the largest possible gap: the largest "
        "gap is miscomputed",
    }


def hoeffding_margin(trials: int, span: float, share: float,
                     power: float = verdict.DETECTION_POWER) -> float:
    r"""The shortfall (or excess) of a true mean that a Hoeffding row flags with ``power``.

    The row flags when the sample mean lies :math:`s = G\sqrt{\log(1/a)/(2T)}` beyond
    the bound; a true mean :math:`d` beyond it misses that by chance at most
    :math:`\exp(-2T(d-s)^2/G^2) \le 1-\text{power}` once
    :math:`d \ge s + G\sqrt{\log(1/(1-\text{power}))/(2T)}`.
    """
    return span * (math.sqrt(math.log(1.0 / share) / (2.0 * trials))
                   + math.sqrt(math.log(1.0 / (1.0 - power)) / (2.0 * trials)))


def lower_rows(cell: Cell, scenario: LowerScenario, plans: Sequence[RowPlan],
               level: float) -> list[dict[str, Any]]:
    r"""Rows of a lower-bound cell: each variant, and CLCB's risk against its upper bound.

    A lower bound holds for every algorithm, so each algorithm's mean risk is tested
    (Hoeffding, share ``level / len(algorithms)``); the row reports the best one.  A
    variant the scenario marks ``note_only`` is compared by point estimate and never
    fails the run (``note`` when the best risk lies below it).
    """
    rows: list[dict[str, Any]] = []
    span = scenario.risk_span(cell.instance, cell.n)
    trials = int(cell.gaps.size)
    risks = {name: float(cell.extras[name].mean()) for name in scenario.algorithms}
    best = min(risks, key=lambda name: risks[name])
    share = level / len(scenario.algorithms)
    for plan in plans[:-1]:
        value = plan.value
        row = cell.base() | {"variant": plan.variant, "check": "min risk >= lower bound",
                             "risks": risks, "best_algorithm": best,
                             "parameters": value.parameters, "detectable_rate": None}
        if plan.bound is None or value.value is None:
            rows.append(row | {"bound": None, "violations": None, "tightness": None,
                               "row_level": 0.0, "verdict": NA, "reason": value.reason})
            continue
        bound = plan.bound
        if plan.note:
            rows.append(row | {"row_level": 0.0} | _note_row(risks[best], bound, value.value))
            continue
        p_values = {name: verdict.hoeffding_below(risk, bound, trials, span)
                    for name, risk in risks.items()}
        flagged = [name for name, p in p_values.items() if p < share]
        rows.append(row | {
            "bound": bound, "bound_unscaled": value.value, "violations": len(flagged),
            "p_value": min(p_values.values()), "row_level": level,
            "detectable_shortfall": hoeffding_margin(trials, span, share),
            "tightness": value.value / risks[best] if risks[best] > 0 else math.inf,
            "max_scale": _largest_lower_scale(risks, value.value, trials, span, share),
            "verdict": FAIL if flagged else PASS,
            "reason": f"risk of {', '.join(flagged)} below the bound" if flagged else "",
        })
    rows.append(_clcb_upper_row(cell, plans[-1], level, span))
    return rows


def _note_row(best_risk: float, bound: float, unscaled: float) -> dict[str, Any]:
    """An informational row: the best measured risk against a bound it cannot refute."""
    below = best_risk < bound
    return {"bound": bound, "bound_unscaled": unscaled, "violations": int(below),
            "tightness": unscaled / best_risk if best_risk > 0 else math.inf,
            "verdict": NOTE if below else PASS,
            "reason": "the best measured risk on this pair is below the printed value "
                      "(informational: the statement's supremum runs over the whole family)"
            if below else ""}


def _largest_lower_scale(risks: dict[str, float], bound: float, trials: int, span: float,
                         share: float) -> float:
    """The largest factor on the lower bound that every algorithm's risk still passes."""
    slack = span * math.sqrt(math.log(1.0 / share) / (2.0 * trials))
    return (min(risks.values()) + slack) / bound if bound > 0 else math.inf


def _clcb_upper_row(cell: Cell, plan: RowPlan, level: float, span: float) -> dict[str, Any]:
    value = plan.value
    risk = float(cell.gaps.mean())
    trials = int(cell.gaps.size)
    row = cell.base() | {"variant": "clcb-risk", "check": "CLCB risk <= upper bound",
                         "parameters": value.parameters, "detectable_rate": None} \
        | _largest(plan)
    if plan.bound is None or value.value is None:
        return row | {"bound": None, "violations": None, "tightness": None, "row_level": 0.0,
                      "verdict": NA, "reason": value.reason}
    bound = plan.bound
    p_value = verdict.hoeffding_above(risk, bound, trials, span)
    failed = p_value < level
    return row | {"bound": bound, "bound_unscaled": value.value, "violations": int(risk > bound),
                  "p_value": p_value, "row_level": level if plan.power else 0.0,
                  "detectable_excess": hoeffding_margin(trials, span, level)
                  if plan.power else None,
                  "tightness": risk / value.value if value.value > 0 else math.inf,
                  "verdict": FAIL if failed else VACUOUS if plan.vacuous else PASS,
                  "reason": _vacuous_reason(plan) if plan.vacuous and not failed else ""}


def slope_row(cells: Sequence[Cell], level: float, expected: float = -0.5) -> dict[str, Any]:
    r"""Fit the log-log slope of CLCB's mean risk over the ``n`` grid; compare with -1/2.

    Tolerance: ``z`` standard errors, ``z`` the two-sided normal quantile at ``level``
    (a normal approximation of the fitted slope; its delta-method standard error
    shrinks as :math:`1/\sqrt{T}` with the number of trials :math:`T`), plus
    ``SLOPE_ROUNDING`` for float rounding when every trial gives the same gap.
    """
    first = cells[0]
    row: dict[str, Any] = {"id": first.bound_id, "instance": first.instance.name,
                           "origin": first.instance.origin, "n": None, "variant": "slope",
                           "check": f"log-log slope of CLCB risk = {expected}",
                           "trials": int(first.gaps.size), "delta": first.instance.delta,
                           "bound": expected, "violations": None, "tightness": None,
                           "detectable_rate": None}
    usable = [c for c in cells if c.gaps.mean() > 0]
    if len(usable) < 3:
        return row | {"verdict": NA, "row_level": level,  # its share stays unused
                      "reason": "fewer than 3 n with a positive mean risk"}
    ns = [c.n for c in usable]
    means = [float(c.gaps.mean()) for c in usable]
    errors = [float(c.gaps.std(ddof=1) / math.sqrt(c.gaps.size)) for c in usable]
    slope, error = verdict.loglog_slope(ns, means, errors)
    z = verdict.normal_two_sided_quantile(level)
    tolerance = z * error + SLOPE_ROUNDING
    off = abs(slope - expected) > tolerance
    return row | {"slope": slope, "slope_se": error, "tolerance": tolerance,
                  "violations": int(off), "row_level": level,
                  "verdict": FAIL if off else PASS,
                  "reason": f"slope {slope:.3f} outside {expected} +/- {tolerance:.3f}"
                  if off else ""}


def rate_row(cells: Sequence[Cell], order: float, log_factor: Sequence[float], floor: float,
             level: float) -> dict[str, Any]:
    r"""Test that the mean gap at the largest ``n`` is no larger than the proven order allows
    from every smaller ``n`` of the grid.

    For each smaller size :math:`n_j` the bound's shape :math:`n^{\text{order}} L(n)`
    (``L`` the bound's logarithmic factor, ``log_factor``, one value per ``n``) carries
    the mean gap :math:`\bar g_j` to the largest size :math:`n_J`; the statistic is
    :math:`s_j = \log \bar g_J - \log \bar g_j - \text{order}\,\log(n_J/n_j)
    - \log(L(n_J)/L(n_j))`, with each mean's standard error carried through the
    logarithm (the delta method; trials at different ``n`` are independent; means below
    the floor ``f`` count as ``f``, and so does an allowance below it: the row does not
    resolve gaps below the floor).  The row fails only when every :math:`s_j` is
    significantly positive, its one-sided lower limit :math:`s_j - z\,\mathrm{se}_j`
    above 0 (``z`` the standard normal quantile at ``1 - level``): the gap at the largest
    size exceeds what the order allows from *every* starting point, including the one
    most favourable to the subject (``p_value``: the largest one-sided normal p-value of the
    :math:`s_j`, below ``level`` exactly when the row fails).  A subject whose gap follows
    the bound's shape from any point of the grid on is flagged with probability at most
    ``level`` (normal approximation), while a gap that does not shrink (an offline learner
    that ignores its data) or a regret that grows linearly (a cache that never caches) is
    flagged once its standard errors are small.  A subject whose mean gap is at most the
    floor at the smallest ``n`` has nothing left to shrink: the row is ``n/a``.

    The fitted log-log slope over the whole grid is reported beside the test (``slope``,
    ``slope_se``, ``slope_lower``) but does not decide it: a learner that starts far
    below the reference (a lucky tie rule, renamed arms) can have a steeper fitted slope
    and a smaller gap everywhere, and a slope test would flag it.

    What the row does not claim: the theorem bounds the gap with high probability at each
    ``n``, not how the mean gap of one instance changes with ``n``, and the grids may lie
    below the theorem's sample-size condition.  The row is a regression check of a weaker,
    testable consequence on a grid where the reference's gap does shrink.
    """
    first = cells[0]
    ns = [cell.n for cell in cells]
    x = np.log(np.asarray(ns, dtype=float))
    logs = np.log(np.asarray(log_factor, dtype=float))
    centred = x - x.mean()
    factor_slope = float(np.sum(centred * logs) / np.sum(centred**2))
    allowed = order + factor_slope
    means = np.asarray([max(float(cell.gaps.mean()), floor) for cell in cells])
    errors = np.asarray([float(cell.gaps.std(ddof=1) / math.sqrt(cell.gaps.size))
                         for cell in cells])
    slope, error = verdict.loglog_slope(ns, list(means), list(errors))
    z = NormalDist().inv_cdf(1.0 - level)  # one-sided
    relative = errors / means
    allowed_log = np.log(means[:-1]) + order * (x[-1] - x[:-1]) + (logs[-1] - logs[:-1])
    unresolved = allowed_log <= math.log(floor)  # what the order allows is below the floor
    excess = np.log(means[-1]) - np.maximum(allowed_log, math.log(floor))
    spread = np.sqrt(relative[-1] ** 2 + np.where(unresolved, 0.0, relative[:-1] ** 2))
    excess_lower = excess - z * spread
    weakest = float(excess_lower.min())
    p_value = max(_normal_tail(float(e) - SLOPE_ROUNDING, float(s))
                  for e, s in zip(excess, spread, strict=True))
    row: dict[str, Any] = {
        "id": first.bound_id, "instance": first.instance.name, "origin": first.instance.origin,
        "n": None, "variant": "rate",
        "check": f"mean gap at n={ns[-1]} within n^{order:g} L(n) of the gap at every "
                 "smaller n",
        "trials": int(first.gaps.size), "delta": first.instance.delta, "n_grid": ns,
        "gap_means": [float(cell.gaps.mean()) for cell in cells], "floor": floor,
        "order": order, "log_factor_slope": factor_slope, "bound": allowed,
        "slope": slope, "slope_se": error, "slope_lower": slope - z * error,
        "excess": [float(value) for value in excess],
        "excess_lower": [float(value) for value in excess_lower], "tightness": None,
        "p_value": p_value,
        "detectable_rate": None, "row_level": level, "gap_mean": float(means[0]),
        "gap_max": float(max(cell.gaps.max() for cell in cells))}
    if float(first.gaps.mean()) <= floor:
        return row | {"violations": None, "verdict": NA,
                      "reason": f"mean gap {first.gaps.mean():.3g} at n={first.n} is already "
                                f"at most the floor {floor:g}: nothing left to shrink"}
    failed = weakest > SLOPE_ROUNDING
    return row | {"violations": int(failed), "verdict": FAIL if failed else PASS,
                  "reason": f"mean gap {means[-1]:.3g} at n={ns[-1]} grows faster than the "
                            f"proven order {order:g} allows from every smaller n (smallest "
                            f"lower limit of the excess {weakest:.3f} in log units; fitted "
                            f"slope {slope:.3f} against {allowed:.3f})" if failed else ""}


def _normal_tail(excess: float, error: float) -> float:
    r""":math:`P(Z \ge \text{excess}/\text{error})` for a standard normal :math:`Z` (0 or 1 when
    the error is 0): one starting size's p-value; the rate row's is the largest of them."""
    if error <= 0:
        return 0.0 if excess > 0 else 1.0
    return 1.0 - NormalDist().cdf(excess / error)


def error_row(bound_id: str, message: str, algorithm: str) -> dict[str, Any]:
    """The row of a bound id whose algorithm failed to run: verdict ``error``, the fault's
    message as the reason (its rows were not measured)."""
    return {"id": bound_id, "kind": ERROR, "instance": None, "n": None, "variant": ERROR,
            "bound": None, "gap_max": None, "verdict": ERROR, "reason": message,
            "algorithm": algorithm}


def unstable_row(bound_id: str, difference: str, algorithm: str) -> dict[str, Any]:
    """A ``note`` row: the algorithm gave another result on a repeat of the same trial."""
    return {"id": bound_id, "kind": "repeat", "instance": None, "n": None,
            "variant": "repeat", "bound": None, "gap_max": None, "verdict": NOTE,
            "reason": f"not reproducible: the algorithm returned another result when the "
                      f"first trial was repeated with the same data and seeds ({difference}); "
                      "it draws randomness the run does not seed (numpy.random and random "
                      "are seeded per call; a generator of its own is not), so its rows "
                      "change from run to run",
            "algorithm": algorithm}
