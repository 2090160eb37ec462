r"""LLM cache, offline: CLCB-LLM-C in its two variants, against the lemma and Theorem 3.

Each trial draws a log :math:`(\mathcal M_t, q_t, C_t)_{t\le n}` with
:func:`offcmab.reference.problems.llm_cache.sample_log`, runs
:func:`offcmab.reference.clcb_llm.clcb_llm` (``variant="standard"`` for the lemma,
``"improved"`` for Theorem 3; the module's ``THEORY_BY_VARIANT`` maps them), or the
subject substituted for it (:mod:`offcmab.validation.subjects`), and
measures the exact gap :math:`c(\hat{\mathcal M}) - c(\mathcal M^*)`.  Bounds take the
exact :math:`\sum_{q\notin\mathcal M^*}1/\nu(q)` and :math:`p^*` (see
:mod:`offcmab.validation.scenarios.llm_instances`).

Instances: Figure 3(a)'s setting (whose printed grid, n up to 2048, lies below the
theorems' sample-size condition, so those rows are ``n/a``; larger n are added), in its
published order and relabelled, a Zipf instance with random logged caches, an
out-of-distribution log that never holds the optimal cache, one instance of each region
family of :func:`offcmab.validation.scenarios.llm_instances.region_instances` (costs of
optimal queries never observed, costs outside the optimum rarely observed, many queries
against few samples, ties and costs at 0 and 1), and generated ones; every instance but
the published one has its ids relabelled by a seeded permutation (recorded in its
``permutation``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from offcmab.bounds.bound import Bound
from offcmab.reference.problems.llm_cache import sample_log
from offcmab.validation.actions import as_action
from offcmab.validation.parts.scenario import BoundValue, Kind, MaxGap, Subject, TrialOutcome
from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.scenarios import llm_instances as cases
from offcmab.validation.scenarios.common import (
    Traps,
    bound_value,
    generated_instances,
    scenario_seed,
)

PAPER_GRID = tuple(2**i for i in range(1, 12))
GRIDS: dict[str, tuple[int, ...]] = {
    "quick": (1000, 8000),
    "default": (500, 2000, 8000, 32000),
    "full": (500, 2000, 8000, 32000, 128000),
}


@dataclass(frozen=True)
class CacheScenario:
    """One of the two offline LLM cache bounds (``formula``), ``traps`` its trap instances;
    ``region_n`` a size added to the grids of the region instances (where the bound falls
    below their largest gap) in every profile but ``quick``."""

    formula: Bound
    traps: Traps
    region_n: int | None = None
    kind: Kind = "upper"
    algorithm: str = "offcmab.reference.clcb_llm"

    @property
    def bound_id(self) -> str:
        return str(self.formula.id)

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        grid = GRIDS[profile.name]
        paper = {"quick": None, "default": (2048, 8192),
                 "full": (*PAPER_GRID, 8192, 32768)}[profile.name]
        named = cases.relabeled_named(cases.named(grid, paper) + self.traps(profile), seed)
        sizes = grid
        if self.region_n is not None and profile.name != "quick":  # quick: a smoke run
            sizes = tuple(sorted({*grid, self.region_n}))
        regions = cases.region_instances(sizes, scenario_seed(seed, f"{self.bound_id}/regions"))
        return named + regions + generated_instances(
            cases.strategy(), profile, seed, self.bound_id, grid)

    def regions(self, instance: Instance) -> frozenset[str]:
        """The regions the instance lies in (:func:`~offcmab.validation.scenarios.
        llm_instances.offline_regions`)."""
        return cases.offline_regions(instance.params, instance.n_grid)

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        setup = cases.build(instance.params)
        problem = setup.problem
        log = sample_log(problem, setup.law, n, rng, instance.params["noise"])
        result = subject.function(log, problem.k, instance.delta)
        return TrialOutcome(problem.gap(as_action(result, problem.m, problem.k, subject.spec)))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        params = cases.coefficients(instance.params) | {
            "m": len(instance.params["p"]), "n": n, "delta": instance.delta}
        return bound_value(self.formula, variant, params)

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        return cases.max_gap(instance.params)

    def gap_range(self, instance: Instance, n: int) -> tuple[float, float]:
        r"""Every trial's gap lies in :math:`[0, \max c - c^*]` (the evaluator's)."""
        return cases.evaluation(instance.params).gap_range()

