r"""The interface every validation scenario implements.

A scenario checks one bound id.  It lists its instances for a profile, runs one
trial (draw a dataset, run the algorithm the theorem covers or a substituted
subject of :mod:`offcmab.validation.subjects`, measure the exact suboptimality gap) and
evaluates the bound for an instance and ``n`` from exact coefficients.  The scenario
classes live in :mod:`offcmab.validation.scenarios`; each theorem record of
:mod:`offcmab.validation.theorems` holds one, and trials name it by the bound id, so a
worker process finds it in the theorem index (nothing is pickled but data).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np

from offcmab.validation.parts.spec import Instance, Profile

Kind = Literal["upper", "lower"]


@dataclass(frozen=True)
class Subject:
    r"""The algorithm a trial runs: its spec (:mod:`offcmab.validation.subjects`) and callable.

    ``spec`` is ``reference`` for the reference algorithm; messages about an infeasible
    action name it.
    """

    spec: str
    function: Callable[..., Any]


@dataclass(frozen=True)
class TrialOutcome:
    r"""What one trial measured.

    Attributes
    ----------
    gap
        The suboptimality gap of the algorithm's output (exact, from closed-form
        rewards, or an estimate when ``gap_error > 0``).
    gap_error
        Half-width of a confidence interval around an estimated gap (0 when exact);
        a trial counts as a violation only when ``gap - gap_error`` exceeds the bound.
    extra
        Further measurements (for example each algorithm's gap in a lower-bound trial).
    """

    gap: float
    gap_error: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class BoundValue:
    r"""A bound evaluated for one instance and ``n``, or why it does not apply.

    Attributes
    ----------
    value
        The bound, or ``None`` when it does not apply (``reason`` says why).
    reason
        Empty when ``value`` is a number; otherwise the failed precondition or the
        missing piece, in words.
    parameters
        The exact parameters the bound was evaluated at (coefficients, m, n, delta).
    failure
        The probability with which the bound may fail, as its variant promises it
        (``None``: the instance's ``delta``).
    """

    value: float | None
    reason: str = ""
    parameters: dict[str, float] = field(default_factory=dict)
    failure: float | None = None

    @classmethod
    def not_applicable(cls, reason: str, **parameters: float) -> BoundValue:
        """A bound that does not apply, with the reason."""
        return cls(None, reason, dict(parameters))


@dataclass(frozen=True)
class MaxGap:
    r"""The largest gap an instance allows at ``n``: what no bound needs to exceed.

    Attributes
    ----------
    value
        :math:`\alpha r(S^*) - \min_S r(S)` over feasible actions (``exact``), or a
        proven upper bound on it.
    exact
        True when ``value`` is attained by some feasible action.
    how
        How it was obtained, in words (shown in the row).
    smallest_positive
        The smallest positive gap a feasible action has, where the scenario enumerates
        every action (``None``: unknown).  Gaps are discrete: an algorithm whose gap is
        below it returned an optimal action.
    """

    value: float
    exact: bool
    how: str
    smallest_positive: float | None = None

    def describe(self) -> str:
        """``exact: ...`` or ``upper bound: ...``, for the report."""
        return f"{'exact' if self.exact else 'upper bound'}: {self.how}"


class Scenario(Protocol):
    r"""Checks one bound id against the algorithm its theorem covers.

    Beside the members below, a scenario may define ``regions(instance)``: the regions of
    :mod:`offcmab.validation.regions` the instance falls in (read through
    :func:`offcmab.validation.regions.instance_regions`; a scenario without it covers none).
    """

    @property
    def bound_id(self) -> str:
        """The bound id (a key of ``offcmab.bounds.registry.BOUNDS``)."""
        ...

    @property
    def kind(self) -> Kind:
        """``upper`` (a high-probability gap bound) or ``lower`` (a minimax risk bound)."""
        ...

    @property
    def algorithm(self) -> str:
        """Module path of the reference algorithm checked (its ``THEORY`` names this bound)."""
        ...

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        """The instances to check under ``profile``; generated ones depend on ``seed``."""
        ...

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        """Draw one dataset of ``n`` samples, run ``subject``, measure its gap.

        The dataset must not depend on the subject (only on ``rng``): every subject sees
        the same data on the same trial.
        """
        ...

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        """The bound for ``instance`` at ``n`` in ``variant`` (``stated`` or ``proved``)."""
        ...

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        """The largest gap any algorithm can have on ``instance`` at ``n`` (vacuity check).

        Optional: a scenario without it gets no ``vacuous`` verdicts.
        """
        ...
