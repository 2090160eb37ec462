r"""Theorem 1 (``thm1-inf``, ``thm1-one``): CLCB (Algorithm 1) on cascade and k-path instances.

Each trial draws an offline dataset from the instance's data law, runs
:func:`offcmab.reference.clcb.clcb` (whose ``THEORY`` names both ids) with an exact oracle
and Algorithm 1's radius, and measures the exact gap
:math:`r(S^*;\mu) - r(\hat S;\mu)`.  The bound uses the exact coefficients of
:mod:`offcmab.bounds.coefficients` (:math:`C_\infty^*, \bar K_2^*` for ``thm1-inf``,
:math:`C_1^*, \bar K^*` for ``thm1-one``, and :math:`p^*` for the precondition).

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
coverage is infinite and the row is n/a), and delta.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from offcmab.validation.runner.scenario import BoundValue, Kind, MaxGap, TrialOutcome
from offcmab.validation.runner.spec import Instance, Profile
from offcmab.validation.scenarios import cmabt, traps
from offcmab.validation.scenarios.common import bound_value, generated_instances, rounded
from offcmab.validation.scenarios.im import star_and_chain
from offcmab.validation.subjects import REFERENCE, resolve

PAPER_GRID = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
GRIDS: dict[str, tuple[int, ...]] = {
    "quick": (1000, 5000),
    "default": (300, 1000, 5000, 20000),
    "full": (100, 300, 1000, 3000, 10000, 30000),
}
DELTAS = (0.01, 0.05, 0.1, 0.2)

#: Coefficient names each bound id takes from the coverage.
COEFFICIENTS = {"thm1-inf": ("alpha", "B1", "K2bar", "C_inf", "p_star"),
                "thm1-one": ("alpha", "B1", "Kbar", "C_one", "p_star")}


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
    from hypothesis import strategies as st

    return st.tuples(st.one_of(cmabt.cascade_params(), cmabt.kpath_params()),
                     st.sampled_from(DELTAS))


@dataclass(frozen=True)
class CLCBScenario:
    r"""Theorem 1 for CLCB: ``bound_id`` is ``thm1-inf`` or ``thm1-one``."""

    bound_id: str
    kind: Kind = "upper"
    algorithm: str = "offcmab.reference.clcb"

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        return (named(profile) + traps.instances(self.bound_id, profile)
                + generated_instances(strategy(), profile, seed, self.bound_id,
                                      GRIDS[profile.name]))

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: str = REFERENCE) -> TrialOutcome:
        setup = cmabt.build(instance.params)
        data = setup.law.sample(n, rng)
        result = resolve(subject, self.bound_id)(data, setup.oracle, instance.delta)
        return TrialOutcome(cmabt.gap(setup, cmabt.checked_action(setup.problem, result, subject)))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        coefficients = cmabt.coverage(instance.params)
        params = {name: coefficients[name] for name in COEFFICIENTS[self.bound_id]}
        params |= {"m": cmabt.build(instance.params).problem.m, "n": n,
                   "delta": instance.delta}
        return bound_value(self.bound_id, variant, params)

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        return cmabt.max_gap(instance.params)


SCENARIOS = {bound_id: CLCBScenario(bound_id) for bound_id in COEFFICIENTS}
