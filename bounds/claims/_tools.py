r"""Small helpers shared by the claim modules: outcome constructors, adversarial search,
exact binomial tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp
from scipy import optimize, stats

from offcmab.bounds.claims.record import Method, Outcome

#: False-alarm probability of every statistical check in the registry.
FALSE_ALARM = 1e-3


def proved(detail: str, method: Method = "sympy-proof", **evidence: Any) -> Outcome:
    """A claim established over its whole stated domain."""
    return Outcome("proved", method, detail, evidence)


def verified(detail: str, method: Method = "adversarial-numeric", **evidence: Any) -> Outcome:
    """No violation found by an exact or adversarial numeric search."""
    return Outcome("verified-numeric", method, detail, evidence)


def refuted(
    detail: str,
    evidence: Mapping[str, Any],
    reproduce: Callable[[], bool],
    method: Method = "exact-rational",
) -> Outcome:
    """A reproduced counterexample; ``reproduce`` re-derives it from ``evidence``."""
    return Outcome("counterexample", method, detail, dict(evidence), reproduce)


def unchecked(reason: str) -> Outcome:
    """Not decided by machine, with the reason."""
    return Outcome("unchecked", "none", reason)


def decide(ok: bool, detail: str, failure: Callable[[], Outcome],
           method: Method = "sympy-proof", **evidence: Any) -> Outcome:
    """``proved`` when ``ok``; otherwise the counterexample built by ``failure``."""
    return proved(detail, method, **evidence) if ok else failure()


def is_zero(expr: sp.Expr) -> bool:
    """True when sympy simplifies ``expr`` to exactly zero."""
    return bool(sp.simplify(sp.expand(expr)) == 0)


def exact(value: sp.Expr) -> str:
    """Exact sympy value as a string, for evidence."""
    return str(sp.nsimplify(value)) if isinstance(value, float) else str(value)


def maximize(
    violation: Callable[[np.ndarray], float],
    bounds: Sequence[tuple[float, float]],
    seed: int,
    samples: int = 4000,
    starts: int = 8,
) -> tuple[float, np.ndarray]:
    r"""Largest value of ``violation`` found over a box: seeded random sampling, then
    L-BFGS-B from the best points (a violation is a positive value).

    Returns the best value and the point reaching it.
    """
    rng = np.random.default_rng(seed)
    low = np.array([b[0] for b in bounds])
    high = np.array([b[1] for b in bounds])
    points = low + (high - low) * rng.random((samples, len(bounds)))
    values = np.array([violation(x) for x in points])
    order = np.argsort(values)[::-1][:starts]
    best_value, best_point = float(values[order[0]]), points[order[0]]
    for index in order:
        result = optimize.minimize(
            lambda x: -violation(np.clip(x, low, high)),
            points[index],
            method="L-BFGS-B",
            bounds=list(zip(low, high, strict=True)),
        )
        if -result.fun > best_value:
            best_value, best_point = float(-result.fun), np.clip(result.x, low, high)
    return best_value, best_point


def binomial_rejects(failures: int, trials: int, p0: float, alpha: float = FALSE_ALARM) -> bool:
    r"""One-sided exact binomial test of :math:`H_0: \Pr[\text{fail}] \le p_0`.

    Rejects when :math:`\Pr[\mathrm{Bin}(\text{trials}, p_0) \ge \text{failures}] \le \alpha`,
    so a true claim is rejected with probability at most ``alpha``.
    """
    return bool(stats.binom.sf(failures - 1, trials, p0) <= alpha)
