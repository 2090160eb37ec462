r"""From trial records to report rows: one row per (bound id, instance, n, variant).

Upper-bound rows test :math:`P(\text{gap} > b) \le \delta` with an exact binomial
tail; lower-bound rows test a minimax risk bound on the hard family with
Hoeffding's inequality, check that CLCB's risk stays below its upper bound, and
fit the log-log slope of CLCB's risk in ``n`` (see :mod:`validation.runner.verdict`).
Every tested row gets the same share of the run's false-alarm budget.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from validation.runner import verdict
from validation.runner.scenario import BoundValue, Scenario
from validation.runner.spec import VARIANTS, Instance
from validation.runner.store import TrialRecord

PASS, FAIL, NA, NOTE = "pass", "FAIL", "n/a", "note"

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


BoundFn = Callable[[Instance, int, str], BoundValue]


def planned_upper(cell: Cell, bound: BoundFn) -> list[tuple[str, BoundValue]]:
    """The (variant, bound) pairs of an upper-bound cell; ``proved`` only where it differs."""
    stated = bound(cell.instance, cell.n, "stated")
    proved = bound(cell.instance, cell.n, "proved")
    pairs = [("stated", stated)]
    if proved.value != stated.value or proved.reason != stated.reason:
        pairs.append(("proved", proved))
    return pairs


def upper_row(cell: Cell, variant: str, value: BoundValue, scale: float,
              level: float) -> dict[str, Any]:
    """One upper-bound row: violations, exact binomial tail, tightness, smallest scale."""
    row = cell.base() | {"variant": variant, "check": "P(gap > bound) <= delta",
                         "parameters": value.parameters}
    if value.value is None:
        return row | {"bound": None, "violations": None, "tightness": None,
                      "verdict": NA, "reason": value.reason}
    bound = value.value * scale
    delta = cell.instance.delta if value.failure is None else min(value.failure, 1.0)
    trials = int(cell.gaps.size)
    violations = verdict.count_violations(cell.gaps, cell.errors, bound)
    p_value = verdict.binomial_tail(violations, trials, delta)
    allowed = verdict.allowed_violations(trials, delta, level)
    return row | {
        "bound": bound, "bound_unscaled": value.value, "violations": violations,
        "failure_probability": delta, "p_value": p_value, "row_level": level,
        "allowed_violations": allowed,
        "gap_quantile": float(np.quantile(cell.gaps, 1 - delta, method="higher")),
        "tightness": verdict.tightness(cell.gaps, value.value, delta),
        "min_scale": verdict.smallest_passing_scale(cell.gaps, cell.errors, value.value,
                                                    allowed),
        "verdict": FAIL if p_value < level else PASS, "reason": "",
    }


def lower_rows(cell: Cell, scenario: LowerScenario, scale: float,
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
    for variant in VARIANTS:
        value = scenario.bound(cell.instance, cell.n, variant)
        row = cell.base() | {"variant": variant, "check": "min risk >= lower bound",
                             "risks": risks, "best_algorithm": best,
                             "parameters": value.parameters}
        if value.value is None:
            rows.append(row | {"bound": None, "violations": None, "tightness": None,
                               "verdict": NA, "reason": value.reason})
            continue
        bound = value.value * scale
        if scenario.note_only(variant):
            rows.append(row | _note_row(risks[best], bound, value.value))
            continue
        p_values = {name: verdict.hoeffding_below(risk, bound, trials, span)
                    for name, risk in risks.items()}
        flagged = [name for name, p in p_values.items() if p < share]
        rows.append(row | {
            "bound": bound, "bound_unscaled": value.value, "violations": len(flagged),
            "p_value": min(p_values.values()), "row_level": level,
            "tightness": value.value / risks[best] if risks[best] > 0 else math.inf,
            "max_scale": _largest_lower_scale(risks, value.value, trials, span, share),
            "verdict": FAIL if flagged else PASS,
            "reason": f"risk of {', '.join(flagged)} below the bound" if flagged else "",
        })
    rows.append(_clcb_upper_row(cell, scenario, scale, level, span))
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


def _clcb_upper_row(cell: Cell, scenario: LowerScenario, scale: float, level: float,
                    span: float) -> dict[str, Any]:
    value = scenario.clcb_upper(cell.instance, cell.n)
    risk = float(cell.gaps.mean())
    row = cell.base() | {"variant": "clcb-risk", "check": "CLCB risk <= upper bound",
                         "parameters": value.parameters}
    if value.value is None:
        return row | {"bound": None, "violations": None, "tightness": None,
                      "verdict": NA, "reason": value.reason}
    bound = value.value * scale
    p_value = verdict.hoeffding_above(risk, bound, int(cell.gaps.size), span)
    return row | {"bound": bound, "bound_unscaled": value.value, "violations": int(risk > bound),
                  "p_value": p_value, "row_level": level,
                  "tightness": risk / value.value if value.value > 0 else math.inf,
                  "verdict": FAIL if p_value < level else PASS, "reason": ""}


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
                           "bound": expected, "violations": None, "tightness": None}
    usable = [c for c in cells if c.gaps.mean() > 0]
    if len(usable) < 3:
        return row | {"verdict": NA, "reason": "fewer than 3 n with a positive mean risk"}
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
