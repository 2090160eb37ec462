r"""Corollary 1 (``cor1-cascade``): CLCB-Cascade on cascading bandits.

Each trial draws ranked lists from the instance's law with cascade feedback, runs
:func:`offcmab.reference.clcb_cascade.clcb_cascade` (radius :math:`\log(2mn/\delta)`, its
``THEORY`` names this id) and measures the exact gap
:math:`r(S^*;\mu) - r(\hat S;\mu)`, :math:`r(S;\mu) = 1-\prod_{i\in S}(1-\mu_i)`.  The
bound takes the exact :math:`C_1^*` and :math:`p^*` of :mod:`offcmab.bounds.coefficients`
(the corollary's printed sum formula is an upper bound on this :math:`C_1^*`).

Instances: Figure 1(a)'s setting and the out-of-distribution cascade of
:mod:`offcmab.validation.scenarios.thm1`, a law given by its position matrix (items of the
optimal list favoured at late positions), and generated cascade instances.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from offcmab.validation.runner.scenario import BoundValue, Kind, MaxGap, TrialOutcome
from offcmab.validation.runner.spec import Instance, Profile
from offcmab.validation.scenarios import cmabt, traps
from offcmab.validation.scenarios.common import bound_value, generated_instances
from offcmab.validation.scenarios.thm1 import DELTAS, GRIDS, named
from offcmab.validation.subjects import REFERENCE, resolve


def strategy() -> Any:
    """Generated cascade instances and delta."""
    from hypothesis import strategies as st

    return st.tuples(cmabt.cascade_params(), st.sampled_from(DELTAS))


@dataclass(frozen=True)
class CascadeScenario:
    """Corollary 1 for CLCB-Cascade."""

    bound_id: str = "cor1-cascade"
    kind: Kind = "upper"
    algorithm: str = "offcmab.reference.clcb_cascade"

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        cascades = [i for i in named(profile) if i.params["family"] == "cascade"]
        return (cascades + traps.instances(self.bound_id, profile)
                + generated_instances(strategy(), profile, seed, self.bound_id,
                                      GRIDS[profile.name]))

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: str = REFERENCE) -> TrialOutcome:
        setup = cmabt.build(instance.params)
        data = setup.law.sample(n, rng)
        result = resolve(subject, self.bound_id)(data, instance.params["k"], instance.delta)
        return TrialOutcome(cmabt.gap(setup, cmabt.checked_action(setup.problem, result, subject)))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        coefficients = cmabt.coverage(instance.params)
        params = {"k": instance.params["k"], "C_one": coefficients["C_one"],
                  "p_star": coefficients["p_star"], "m": len(instance.params["mu"]),
                  "n": n, "delta": instance.delta}
        return bound_value(self.bound_id, variant, params)

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        return cmabt.max_gap(instance.params)


SCENARIOS = {"cor1-cascade": CascadeScenario()}
