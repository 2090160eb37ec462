r"""How much data is enough: invert a bound for the smallest ``n`` that meets a target gap.

For an upper bound :math:`g(n)` (``n`` also appears inside its logarithm) and a target
:math:`\epsilon`, :func:`solve_n` returns the smallest integer :math:`n\ge1` with
:math:`g(n)\le\epsilon` and the bound's precondition on :math:`n` holding, and such that
both stay true for every larger :math:`n` (checked: :math:`g' \le 0` and the
precondition's slack is non-decreasing on a geometric grid beyond the answer).  Each
threshold is bracketed on a geometric grid and refined with :func:`scipy.optimize.brentq`;
the final integer is verified directly.

For ``thm2-lower`` the same inversion answers "below how many samples does every
algorithm still have expected gap above :math:`\epsilon`".

References
----------
Remark ``rmk:thm_dis`` (":math:`\tilde O(B_1^2\alpha^2\bar K_2^{*2}C_\infty^*/\epsilon^2)`
samples").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp
from scipy.optimize import brentq

from offcmab.bounds.bound import Bound, check_variant
from offcmab.bounds.symbols import n as n_symbol
from offcmab.reference.errors import InputError

#: Largest sample size searched.
N_MAX = 1e18
_GRID = np.unique(np.concatenate([np.arange(1.0, 64.0), np.geomspace(64.0, N_MAX, 2000)]))


@dataclass(frozen=True)
class SampleSize:
    r"""Result of :func:`solve_n`.

    Attributes
    ----------
    n
        Smallest integer sample size meeting the target and the precondition.
    n_gap
        Smallest integer ``n`` (beyond which) the bound is at most ``eps``.
    n_precondition
        Smallest integer ``n`` (beyond which) the precondition holds; 1 when there is
        none; ``None`` when a parameter it needs is absent (then ``n`` ignores it).
    value
        The bound at ``n``.
    """

    n: int
    n_gap: int
    n_precondition: int | None
    value: float


def _threshold(predicate_margin: Callable[[Any], Any], what: str) -> int:
    """Smallest integer n >= 1 with margin(n) >= 0 from there on (margin vectorized)."""
    margins = np.asarray(predicate_margin(_GRID), dtype=np.float64)
    bad = np.flatnonzero(margins < 0)
    if bad.size == 0:
        return 1
    last_bad = int(bad[-1])
    if last_bad == len(_GRID) - 1:
        raise InputError("eps", f"{what} is not reached for any n up to {N_MAX:g}")
    low, high = float(_GRID[last_bad]), float(_GRID[last_bad + 1])
    def scalar(x: float) -> float:
        return float(predicate_margin(x))

    root = brentq(scalar, low, high, xtol=1e-9, rtol=1e-14) if high - low > 1 else low
    candidate = max(1, math.floor(root))
    while scalar(float(candidate)) < 0:
        candidate += 1
    while candidate - 1 > low and scalar(float(candidate - 1)) >= 0:
        candidate -= 1
    return candidate


def solve_n(bound: Bound, eps: float, variant: str = "stated",
            **params: Any) -> SampleSize:
    r"""Smallest ``n`` with ``bound(n) <= eps`` and the precondition holding.

    Parameters
    ----------
    bound
        A registry bound with an ``n`` parameter.
    eps
        Target gap, a positive number.
    variant
        ``"stated"`` or ``"proved"``.
    params
        All other parameters of the bound (``n`` must not be given).
    """
    variant = check_variant(variant)
    eps = _check_eps(eps)
    if "n" not in bound.parameters:
        raise InputError("eps", f"{bound.id} has no sample size n to solve for")
    if "n" in params:
        raise InputError("n", "must not be given with --solve-n (it is the unknown)")
    expression = bound.expression(variant)
    derivative = sp.diff(expression, n_symbol)

    def value(x: Any) -> Any:
        return bound.evaluate(variant, n=x, **params)

    slope = _partial(bound, derivative, variant, params)

    def gap_margin(x: Any) -> Any:
        return eps - value(x)

    n_gap = _threshold(gap_margin, f"gap {eps:g}")
    _check_monotone(lambda x: slope(x) <= 1e-15 * np.maximum(1.0, np.abs(value(x))),
                    n_gap, "bound")

    n_pre: int | None = 1
    condition = bound.precondition(variant)
    if condition is not None:
        margin_expr = condition.lhs - condition.rhs
        if bound.precondition_holds(variant, n=1.0, **params) is None:
            n_pre = None
        else:
            margin = _partial(bound, margin_expr, variant, params)
            n_pre = _threshold(margin, "the precondition")
            dmargin = _partial(bound, sp.diff(margin_expr, n_symbol), variant, params)
            _check_monotone(lambda x: dmargin(x) >= 0, n_pre, "precondition slack")
    answer = max(n_gap, n_pre or 1)
    return SampleSize(n=answer, n_gap=n_gap, n_precondition=n_pre,
                      value=float(value(float(answer))))


def _check_eps(eps: float) -> float:
    try:
        value = float(eps)
    except (TypeError, ValueError):
        raise InputError("eps", f"must be a positive number, got {eps!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise InputError("eps", f"must be a finite number above 0, got {eps!r}")
    return value


def _partial(bound: Bound, expr: sp.Expr, variant: str,
             params: Mapping[str, Any]) -> Callable[[Any], Any]:
    """``expr`` as a function of n with the other parameters (and alternatives) fixed."""
    helper = Bound(id=bound.id, title="", paper_ref="", parameters=bound.parameters,
                   optional_parameters=bound.optional_parameters,
                   expressions={"stated": expr, "proved": expr},
                   preconditions={"stated": None, "proved": None},
                   failure_probability={"stated": sp.Integer(0), "proved": sp.Integer(0)},
                   alternatives=bound.alternatives)
    return lambda x: helper.evaluate("stated", n=x, **params)


def _check_monotone(ok: Callable[[Any], Any], start: int, what: str) -> None:
    grid = _GRID[start <= _GRID]
    good = np.asarray(ok(grid), dtype=bool)
    if not np.all(good):
        x = float(grid[~good][0])
        raise InputError("eps", f"the {what} is not monotone in n beyond {start} "
                         f"(fails at n={x:g}); no unique smallest n")
