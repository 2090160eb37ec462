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
    pair-averaged gaps in :math:`[0, \tfrac12(\max g_1 + \max g_2)]`, see
    :func:`pair_range`); a failure would break the proof's argument.
``stated``
    The printed :math:`k\min(1,\sqrt{C_\infty^*/n})`.  The theorem takes a supremum over
    the whole k-path family, so a pair risk below it does not refute it: such a row is
    reported as ``note`` (the pair does not witness the printed constant), not ``FAIL``.
``clcb-risk``
    CLCB's mean pair risk must stay below the average over the pair of Theorem 1's
    proved bound turned into an expectation, :math:`U(\delta) + \delta G` with :math:`G`
    the largest gap on that instance.

and per instance a ``slope`` row: the log-log slope of CLCB's pair risk in ``n``
against :math:`-1/2` (the grid starts where :math:`\Delta < 1/4`).

Instances: the family as the proof needs it (``variant="proved"``: the perturbed path
is the rarely observed one) for two ``(m, k, C)``, and the family as printed
(``variant="printed"``), whose KL step the proof gets wrong (see
:mod:`offcmab.reference.problems.kpath`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from offcmab.bounds.bound import Bound
from offcmab.bounds.coefficients import problem_coverage
from offcmab.reference.baselines import cucb_offline, emp
from offcmab.reference.problems.kpath import lower_bound_family, lower_bound_gap_parameter
from offcmab.validation import regions as region
from offcmab.validation.evaluator.crosscheck import agree
from offcmab.validation.evaluator.pair import averaged_range, path_gaps
from offcmab.validation.parts.scenario import BoundValue, Kind, MaxGap, Subject, TrialOutcome
from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.scenarios.cmabt import RARE_COVERAGE, checked_action
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


_RANGES: dict[tuple[str, int], tuple[float, float]] = {}


def pair_range(instance: Instance, n: int) -> tuple[float, float]:
    r"""Least and largest pair-averaged gap on the pair at ``n``, by the independent evaluator.

    A trial averages the gap of the path chosen on data of :math:`\mathcal P_1` and that
    of the path chosen on data of :math:`\mathcal P_2`; the two choices are free, so the
    largest average is :math:`\tfrac12(\max_S g_1(S) + \max_S g_2(S))`: :math:`k\Delta`
    when there are only the two half-means paths (each instance's worse one), and
    :math:`\tfrac k2(1+\Delta)` once a path of mean 0 exists.  The first call per
    ``(instance, n)`` compares every path's gap on each instance with the problem's own
    ``gap`` (an :class:`~offcmab.validation.evaluator.crosscheck.InternalError` if they differ).
    """
    key = (json.dumps(instance.params, sort_keys=True), n)
    if key not in _RANGES:
        pair = family(instance, n)
        k = instance.params["k"]
        for law in (pair.first, pair.second):
            gaps = path_gaps(law.problem.path_means, k)
            for j, value in enumerate(gaps):
                agree(f"gap of path {j}", law.problem.gap(law.problem.path_arms(j)), value)
        _RANGES[key] = averaged_range(pair.first.problem.path_means,
                                      pair.second.problem.path_means, k)
    return _RANGES[key]


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

    def regions(self, instance: Instance) -> frozenset[str]:
        r"""The regions of the hypotheses the pair falls in, from its parameters.

        The proof's law logs two paths (with probabilities :math:`1/C_\infty^*` and
        :math:`1 - 1/C_\infty^*`) and never the others, so a pair of more than two paths
        has ``unobserved-arms``; :math:`C_\infty^* \ge` :data:`RARE_COVERAGE` is a
        ``rare-optimum``.  The pair is the proof's construction at fixed ids (its means
        are set by ``n``), so it is not relabeled.
        """
        params = instance.params
        found = set()
        if params["m"] // params["k"] > 2:
            found.add(region.UNOBSERVED_ARMS)
        if params["C_inf"] >= RARE_COVERAGE:
            found.add(region.RARE_OPTIMUM)
        return frozenset(found)

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
        r"""Largest pair-averaged gap :math:`\tfrac12(\max g_1 + \max g_2)` (:func:`pair_range`)."""
        return pair_range(instance, n)[1]

    def gap_range(self, instance: Instance, n: int) -> tuple[float, float]:
        """Where every trial's pair-averaged gap lies (:func:`pair_range`)."""
        return pair_range(instance, n)

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
        r"""Largest pair-averaged gap :math:`\tfrac12(\max g_1 + \max g_2)` (:func:`pair_range`)."""
        return MaxGap(self.risk_span(instance, n), True,
                      "(max gap on the first instance + max gap on the second) / 2, every path")

    def note_only(self, variant: str) -> bool:
        """The stated variant is informational on the pair (see the module docstring)."""
        return variant == "stated"

