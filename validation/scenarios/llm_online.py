r"""LLM cache, online streaming: the regret of CUCB-LLM-S.

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
from typing import Any

import numpy as np
import numpy.typing as npt

from offcmab.bounds.bound import Bound
from offcmab.reference.cucb_llm_stream import cucb_llm_stream
from offcmab.reference.dataset import IntArray
from offcmab.reference.problems.llm_cache import LLMCacheProblem, sample_costs, sample_queries
from offcmab.validation.actions import as_caches
from offcmab.validation.runner.scenario import BoundValue, Kind, MaxGap, Subject, TrialOutcome
from offcmab.validation.runner.spec import Instance, Profile
from offcmab.validation.scenarios import llm_instances as cases
from offcmab.validation.scenarios.common import Traps, bound_value, generated_instances

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
    """The online regret bound (``formula``) and the printed CUCB-LLM-S."""

    formula: Bound
    traps: Traps
    kind: Kind = "upper"
    algorithm: str = "offcmab.reference.cucb_llm_stream"

    @property
    def bound_id(self) -> str:
        return str(self.formula.id)

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        grid = GRIDS[profile.name]
        instances = cases.named(grid, grid if profile.name == "full" else None)
        return instances + self.traps(profile) + generated_instances(
            cases.strategy(), profile, seed, self.bound_id, grid)

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        problem = cases.build(instance.params).problem
        queries = sample_queries(problem.p, n, rng)  # the order cucb_llm_stream draws them in
        costs = sample_costs(problem.c[queries], rng, instance.params["noise"])
        result = subject.function(queries, costs, problem.m, problem.k, instance.delta)
        caches = as_caches(result, n, problem.m, problem.k, subject.spec)
        return TrialOutcome(stream_regret(problem, caches))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        params = {"m": len(instance.params["p"]), "T": n, "delta": instance.delta}
        return bound_value(self.formula, variant, params)

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        r"""Exact :math:`T\,[c(\emptyset) - c(\mathcal M^*)]`: a learner that never caches."""
        problem = cases.build(instance.params).problem
        return MaxGap(n * problem.gap(np.zeros(0, dtype=np.int64)), True,
                      "T rounds of the empty cache")



def printed_stream(queries: IntArray, costs: npt.NDArray[np.float64], m: int, k: int,
                   delta: float) -> Any:
    r"""The reference CUCB-LLM-S (``variant="printed"``) on a fixed stream, as a subject.

    Returns its :class:`offcmab.reference.cucb_llm_stream.StreamRun`: the harness measures the
    regret from ``caches`` and the event rows read ``lcbs``.  The printed algorithm does
    not use ``delta`` (its radius is :math:`\sqrt{6\log t/N}`).
    """
    return stream_run(queries, costs, m, k)


def stream_run(queries: IntArray, costs: npt.NDArray[np.float64], m: int, k: int,
               radius_scale: float = 1.0) -> Any:
    r"""The printed CUCB-LLM-S on a fixed stream with its radius times ``radius_scale``.

    The algorithm never reads the true means: they enter
    :func:`offcmab.reference.cucb_llm_stream.cucb_llm_stream` only through its regret
    accounting, so a placeholder problem (uniform arrivals, unit costs) stands in for
    them; its ``regret`` field is meaningless here.
    """
    placeholder = LLMCacheProblem(np.full(m, 1.0 / m), np.ones(m), k)
    return cucb_llm_stream(placeholder, int(np.size(queries)), np.random.default_rng(0),
                           "printed", queries=queries, costs=costs, diagnostics=False,
                           radius_scale=radius_scale)
