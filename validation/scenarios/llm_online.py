r"""LLM cache, online streaming (``thm-llm-online``): the regret of CUCB-LLM-S.

Each trial runs :func:`reference.cucb_llm_stream.cucb_llm_stream` as printed
(``variant="printed"``, the algorithm the theorem covers) for ``T`` rounds, with ``n``
of the report standing for ``T``, and measures the exact pseudo-regret
:math:`\sum_{t\le T} [c(\mathcal M_t) - c(\mathcal M^*)]` (closed-form expected costs of
the caches actually held).  The theorem bounds it with probability :math:`1-\delta`.
The instances are those of the offline scenarios without their logged caches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from validation.runner.scenario import BoundValue, Kind, TrialOutcome
from validation.runner.spec import Instance, Profile
from validation.scenarios import llm_instances as cases
from validation.scenarios.common import bound_value, generated_instances

GRIDS: dict[str, tuple[int, ...]] = {
    "quick": (150,),
    "default": (200, 800),
    "full": (500, 2000, 8000),
}


@dataclass(frozen=True)
class StreamScenario:
    """The online regret bound and the printed CUCB-LLM-S."""

    bound_id: str = "thm-llm-online"
    kind: Kind = "upper"
    algorithm: str = "reference.cucb_llm_stream"

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        grid = GRIDS[profile.name]
        instances = cases.named(grid, grid if profile.name == "full" else None)
        return instances + generated_instances(cases.strategy(), profile, seed,
                                               self.bound_id, grid)

    def trial(self, instance: Instance, n: int, rng: np.random.Generator) -> TrialOutcome:
        from reference.cucb_llm_stream import cucb_llm_stream

        problem = cases.build(instance.params).problem
        run = cucb_llm_stream(problem, n, rng, "printed", instance.params["noise"])
        return TrialOutcome(float(run.regret.sum()))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        params = {"m": len(instance.params["p"]), "T": n, "delta": instance.delta}
        return bound_value(self.bound_id, variant, params)


SCENARIOS = {"thm-llm-online": StreamScenario()}
