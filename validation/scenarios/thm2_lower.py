r"""Theorem 2: the minimax lower bound, checked on the proof's hard pair.

For each ``n`` the proof (``apdx_sec:lower_bound``) builds two k-path instances
:math:`\mathcal P_1, \mathcal P_2` with gap parameter
:math:`\Delta = \min(1/4, \sqrt{C_\infty^*/(20n)})` and shows that *every* algorithm
has average risk :math:`\tfrac12(\mathbb E_1 g + \mathbb E_2 g) \ge
\tfrac{k}{8e}\min(\tfrac14, \sqrt{C_\infty^*/(20n)})` on that pair.  Each trial draws
one dataset from each instance (from :func:`offcmab.reference.problems.kpath.lower_bound_family`)
and runs CLCB (or the subject substituted for it, :mod:`offcmab.validation.subjects`) and the two
baselines of :mod:`offcmab.reference.baselines` (CUCB-Offline, EMP)
on both; a trial's value per algorithm is its pair-averaged gap.

Rows per ``n``:

``proved``
    Every algorithm's mean pair risk must not fall below the proved bound (Hoeffding,
    gaps in :math:`[0, k(1/2+\Delta)]`); a failure would break the proof's argument.
``stated``
    The printed :math:`k\min(1,\sqrt{C_\infty^*/n})`.  The theorem takes a supremum over
    the whole k-path family, so a pair risk below it does not refute it: such a row is
    reported as ``note`` (the pair does not witness the printed constant), not ``FAIL``.
``clcb-risk``
    CLCB's mean pair risk must stay below the average over the pair of Theorem 1's
    proved bound turned into an expectation, :math:`U(\delta) + \delta\,k(1/2+\Delta)`.

and per instance a ``slope`` row: the log-log slope of CLCB's pair risk in ``n``
against :math:`-1/2` (the grid starts where :math:`\Delta < 1/4`).

Instances: the family as the proof needs it (``variant="proved"``: the perturbed path
is the rarely observed one) for two ``(m, k, C)``, and the family as printed
(``variant="printed"``), whose KL step the proof gets wrong (see
:mod:`offcmab.reference.problems.kpath`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from offcmab.bounds.bound import Bound
from offcmab.bounds.coefficients import problem_coverage
from offcmab.reference.baselines import cucb_offline, emp
from offcmab.reference.problems.kpath import lower_bound_family, lower_bound_gap_parameter
from offcmab.validation.runner.scenario import BoundValue, Kind, MaxGap, Subject, TrialOutcome
from offcmab.validation.runner.spec import Instance, Profile
from offcmab.validation.scenarios.cmabt import checked_action
from offcmab.validation.scenarios.common import Traps, bound_value

ALGORITHMS = ("clcb", "cucb", "emp")
GRIDS: dict[str, tuple[int, ...]] = {
    "quick": (100, 400, 1600),
    "default": (100, 300, 1000, 3000, 10000),
    "full": (100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000),
}


def family(instance: Instance, n: int) -> Any:
    """The proof's pair of k-path instances at ``n``."""
    p = instance.params
    delta_gap = lower_bound_gap_parameter(p["C_inf"], n)
    return lower_bound_family(p["m"], p["k"], p["C_inf"], delta_gap, p["variant"])


@dataclass(frozen=True)
class LowerBoundScenario:
    """The lower bound (``formula``) on its hard pair, CLCB and the baselines.

    ``upper`` is Theorem 1's bound in the infinity norm, against which CLCB's risk on the
    pair is checked (:meth:`clcb_upper`); ``traps`` are the trap instances.
    """

    formula: Bound
    upper: Bound
    traps: Traps
    kind: Kind = "lower"
    algorithm: str = "offcmab.reference.clcb + reference.baselines"
    algorithms: tuple[str, ...] = ALGORITHMS

    @property
    def bound_id(self) -> str:
        return str(self.formula.id)

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        grid = GRIDS[profile.name]
        cases = [("proof-pair", 4, 2, 4.0, "proved"), ("proof-pair-wide", 12, 3, 10.0, "proved"),
                 ("printed-pair", 4, 2, 4.0, "printed")]
        if profile.name == "quick":
            cases = cases[:1]
        return [Instance(name, {"m": m, "k": k, "C_inf": c, "variant": variant}, 0.05,
                         tuple(n for n in grid if n >= c), "paper")
                for name, m, k, c, variant in cases] + self.traps(profile)

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        pair = family(instance, n)
        runs = {"clcb": subject.function, "cucb": cucb_offline, "emp": emp}
        risks = dict.fromkeys(ALGORITHMS, 0.0)
        for law in (pair.first, pair.second):
            data = law.sample(n, rng)
            oracle = law.problem.oracle()
            for name in ALGORITHMS:
                result = runs[name](data, oracle, instance.delta)
                action = checked_action(law.problem, result,
                                        subject.spec if name == "clcb" else name)
                risks[name] += law.problem.gap(action) / 2.0
        return TrialOutcome(risks["clcb"], extra=risks)

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        p = instance.params
        return bound_value(self.formula, variant, {"k": p["k"], "C_inf": p["C_inf"], "n": n})

    def risk_span(self, instance: Instance, n: int) -> float:
        r"""Largest pair-averaged gap: :math:`k(1/2+\Delta)` (a mean-0 path on both)."""
        return float(instance.params["k"] * (0.5 + family(instance, n).gap_parameter))

    def clcb_upper(self, instance: Instance, n: int) -> BoundValue:
        r"""Theorem 1 (infinity norm, proved) in expectation, averaged over the pair."""
        pair = family(instance, n)
        span = self.risk_span(instance, n)
        values = []
        for law in (pair.first, pair.second):
            c = problem_coverage(law.problem, law)
            params = {name: c[name] for name in ("alpha", "B1", "K2bar", "C_inf", "p_star")}
            value = bound_value(self.upper, "proved",
                                params | {"m": law.problem.m, "n": n, "delta": instance.delta})
            if value.value is None:
                return value
            values.append(value.value + instance.delta * span)
        return BoundValue(float(np.mean(values)), parameters={"n": n, "delta": instance.delta})

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        r"""Largest pair-averaged gap, :math:`k(1/2+\Delta)` (see :meth:`risk_span`)."""
        return MaxGap(self.risk_span(instance, n), False, "k(1/2 + Delta), the risk span")

    def note_only(self, variant: str) -> bool:
        """The stated variant is informational on the pair (see the module docstring)."""
        return variant == "stated"

