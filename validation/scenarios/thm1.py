r"""Theorem 1 in both norms: CLCB (Algorithm 1) on cascade and k-path instances.

Each trial draws an offline dataset from the instance's data law, runs
:func:`offcmab.reference.clcb.clcb` (whose ``THEORY`` names both bounds) with an exact
oracle and Algorithm 1's radius, and measures the exact gap
:math:`r(S^*;\mu) - r(\hat S;\mu)`.  The bound uses the exact coefficients of
:mod:`offcmab.bounds.coefficients` (:math:`C_\infty^*, \bar K_2^*` in the infinity norm,
:math:`C_1^*, \bar K^*` in the 1-norm, and :math:`p^*` for the precondition).

Named instances:

``paper-fig1a``
    The cascade setting of Figure 1(a): ``m = 100`` items, lists of ``K = 5``,
    means drawn once from ``U[0, 1]`` (seed 2025), uniformly random lists.
``cascade-ood``
    Ten items, lists of 3, data that never play an optimal list (``ood``).
``kpath-close``
    Three nearly tied paths of two arms (means 0.52, 0.5, 0.48), equally likely: CLCB
    often picks a wrong path, so the gaps are small but rarely zero.
``im-edge``
    Influence maximization with edge-level feedback on the six-node graph of
    :mod:`offcmab.validation.scenarios.im` (:math:`B_1 = V`), with an exact oracle.
``pessimism``
    One good path (mean 0.6) played half the time and 2000 poor paths (mean 0.3)
    sharing the other half: each poor path is seen about once or twice, so an
    algorithm without pessimism picks a lucky poor path; the bound is below that
    gap, which makes this instance the regression detector for the radius.

Generated instances (hypothesis, from the run seed): cascade or k-path, random
means on a 1/1000 grid (ties and 0/1 included), sizes, uniform, out-of-distribution
or random-mixture laws (a mixture may leave an optimal arm unobserved: then the
coverage is infinite and the row is n/a), and delta; and the instances of
:mod:`offcmab.validation.scenarios.unseen`, whose data never show many arms outside the
optimum (``unseen-below-*``: a rule that values an unseen arm above the optimum's lower
confidence bound fails there) or log the optimum rarely (``unseen-mixed-*``).

Every instance has its ids relabeled by a seeded permutation
(:mod:`offcmab.validation.scenarios.relabel`): a generated one by a permutation drawn from
the run seed, a named one and a trap by one seeded by its name; ``paper-fig1a`` also
runs in its published order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from offcmab.bounds.bound import Bound
from offcmab.validation.parts.scenario import BoundValue, Kind, MaxGap, Subject, TrialOutcome
from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.scenarios import cmabt, unseen
from offcmab.validation.scenarios.common import Traps, bound_value, generated_instances, rounded
from offcmab.validation.scenarios.im import star_and_chain
from offcmab.validation.scenarios.relabel import relabeled_instances

PAPER_GRID = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
GRIDS: dict[str, tuple[int, ...]] = {
    "quick": (1000, 5000),
    "default": (300, 1000, 5000, 20000),
    "full": (100, 300, 1000, 3000, 10000, 30000),
}
DELTAS = (0.01, 0.05, 0.1, 0.2)


def paper_fig1a() -> dict[str, Any]:
    """Figure 1(a)'s cascade instance with means fixed by seed 2025."""
    mu = np.random.default_rng(2025).random(100)
    return {"family": "cascade", "mu": rounded(mu), "k": 5, "law": {"kind": "uniform"}}


def named(profile: Profile) -> list[Instance]:
    """The hand-picked instances (a subset in the quick profile)."""
    grid = GRIDS[profile.name]
    ood = {"family": "cascade", "mu": [0.6, 0.5, 0.45, 0.4, 0.3, 0.3, 0.2, 0.1, 0.1, 0.05],
           "k": 3, "law": {"kind": "ood"}}
    close = {"family": "kpath", "path_means": [0.52, 0.5, 0.48], "k": 2,
             "law": {"kind": "paths", "weights": [1 / 3, 1 / 3, 1 / 3]}}
    poor = 2000
    pessimism = {"family": "kpath", "path_means": [0.6] + [0.3] * poor, "k": 2,
                 "law": {"kind": "paths", "weights": [0.5] + [0.5 / poor] * poor}}
    instances = [
        Instance("cascade-ood", ood, 0.05, grid, "named"),
        Instance("kpath-close", close, 0.05, tuple(sorted({300, *grid})), "named",
                 "three nearly tied paths: CLCB often errs, by little"),
        Instance("pessimism", pessimism, 0.05, (5000,), "named",
                 "one good path, 2000 rarely seen poor paths"),
    ]
    if profile.name != "quick":
        paper_grid = PAPER_GRID if profile.name == "full" else (1000, 5000, 10000)
        instances.append(Instance("paper-fig1a", paper_fig1a(), 0.05, paper_grid, "paper"))
        im_edge = {"family": "im-edge", "graph": {k: v for k, v in star_and_chain().items()
                                                  if k in ("nodes", "sources", "targets", "p")},
                   "k": 2, "law": {"kind": "seeds", "q": [0.5] * 6}}
        instances.append(Instance("im-edge", im_edge, 0.05, grid, "named",
                                  "influence maximization with edge-level feedback"))
    return instances


def strategy() -> Any:
    """Hypothesis strategy of generated instances: cascade or k-path, and delta."""
    return st.tuples(st.one_of(cmabt.cascade_params(), cmabt.kpath_params()),
                     st.sampled_from(DELTAS))


@dataclass(frozen=True)
class CLCBScenario:
    r"""Theorem 1 for CLCB, with the coverage coefficients ``coefficients`` of one norm.

    ``formula`` is the bound, ``coefficients`` the names it takes from the exact coverage
    (:func:`offcmab.validation.scenarios.cmabt.coverage`), ``traps`` its trap instances.
    """

    formula: Bound
    coefficients: tuple[str, ...]
    traps: Traps
    kind: Kind = "upper"
    algorithm: str = "offcmab.reference.clcb"

    @property
    def bound_id(self) -> str:
        return str(self.formula.id)

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        return (relabeled_instances(named(profile) + self.traps(profile))
                + relabeled_instances(generated_instances(strategy(), profile, seed,
                                                          self.bound_id, GRIDS[profile.name]),
                                      f"{seed}/{self.bound_id}/")
                + unseen.instances(("kpath", "cascade"), profile, seed, self.bound_id))

    def regions(self, instance: Instance) -> frozenset[str]:
        """The regions of the hypotheses ``instance`` falls in (:func:`cmabt.regions`)."""
        return cmabt.regions(instance)

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        setup = cmabt.build(instance.params)
        data = setup.law.sample(n, rng)
        result = subject.function(data, setup.oracle, instance.delta)
        return TrialOutcome(cmabt.gap(setup, cmabt.checked_action(setup.problem, result,
                                                                  subject.spec)))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        coefficients = cmabt.coverage(instance.params)
        params = {name: coefficients[name] for name in self.coefficients}
        params |= {"m": cmabt.build(instance.params).problem.m, "n": n,
                   "delta": instance.delta}
        return bound_value(self.formula, variant, params)

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        return cmabt.max_gap(instance.params)

    def gap_range(self, instance: Instance, n: int) -> tuple[float, float]:
        return cmabt.gap_range(instance.params)
