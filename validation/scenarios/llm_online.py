r"""LLM cache, online streaming (``thm-llm-online``): the regret of CUCB-LLM-S.

Each trial runs :func:`offcmab.reference.cucb_llm_stream.cucb_llm_stream` as printed
(``variant="printed"``, the algorithm the theorem covers) for ``T`` rounds, with ``n``
of the report standing for ``T``, and measures the exact pseudo-regret
:math:`\sum_{t\le T} [c(\mathcal M_t) - c(\mathcal M^*)]` (closed-form expected costs of
the caches actually held).  The theorem bounds it with probability :math:`1-\delta`.
The scenario draws the stream (queries, then costs, as the algorithm would) and hands
it to the subject (:mod:`offcmab.validation.subjects`), which returns the cache it held in
every round; the regret is measured from those caches.
The instances are those of the offline scenarios without their logged caches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from offcmab.reference.problems.llm_cache import LLMCacheProblem
from offcmab.validation.runner.scenario import BoundValue, Kind, MaxGap, TrialOutcome
from offcmab.validation.runner.spec import Instance, Profile
from offcmab.validation.scenarios import llm_instances as cases
from offcmab.validation.scenarios import traps
from offcmab.validation.scenarios.common import bound_value, generated_instances
from offcmab.validation.subjects import REFERENCE, as_caches, resolve

GRIDS: dict[str, tuple[int, ...]] = {
    "quick": (150,),
    "default": (200, 800),
    "full": (500, 2000, 8000),
}


def stream_regret(problem: LLMCacheProblem, caches: np.ndarray) -> float:
    r"""Pseudo-regret :math:`\sum_t [c(\mathcal M_t) - c(\mathcal M^*)]` of per-round caches."""
    weights = problem.p * problem.c
    best = float(np.sum(weights[problem.optimal_cache()]))
    return float(np.sum(best - caches @ weights))


@dataclass(frozen=True)
class StreamScenario:
    """The online regret bound and the printed CUCB-LLM-S."""

    bound_id: str = "thm-llm-online"
    kind: Kind = "upper"
    algorithm: str = "offcmab.reference.cucb_llm_stream"

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        grid = GRIDS[profile.name]
        instances = cases.named(grid, grid if profile.name == "full" else None)
        return instances + traps.instances(self.bound_id, profile) + generated_instances(
            cases.strategy(), profile, seed, self.bound_id, grid)

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: str = REFERENCE) -> TrialOutcome:
        from offcmab.reference.problems.llm_cache import sample_costs, sample_queries

        problem = cases.build(instance.params).problem
        queries = sample_queries(problem.p, n, rng)  # the order cucb_llm_stream draws them in
        costs = sample_costs(problem.c[queries], rng, instance.params["noise"])
        result = resolve(subject, self.bound_id)(queries, costs, problem.m, problem.k,
                                                 instance.delta)
        caches = as_caches(result, n, problem.m, problem.k, subject)
        return TrialOutcome(stream_regret(problem, caches))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        params = {"m": len(instance.params["p"]), "T": n, "delta": instance.delta}
        return bound_value(self.bound_id, variant, params)

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        r"""Exact :math:`T\,[c(\emptyset) - c(\mathcal M^*)]`: a learner that never caches."""
        problem = cases.build(instance.params).problem
        return MaxGap(n * problem.gap(np.zeros(0, dtype=np.int64)), True,
                      "T rounds of the empty cache")


SCENARIOS = {"thm-llm-online": StreamScenario()}
