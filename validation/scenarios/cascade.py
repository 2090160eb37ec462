r"""Corollary 1: CLCB-Cascade on cascading bandits.

Each trial draws ranked lists from the instance's law with cascade feedback, runs
:func:`offcmab.reference.clcb_cascade.clcb_cascade` (radius :math:`\log(2mn/\delta)`, its
``THEORY`` names this bound) and measures the exact gap
:math:`r(S^*;\mu) - r(\hat S;\mu)`, :math:`r(S;\mu) = 1-\prod_{i\in S}(1-\mu_i)`.  The
bound takes the exact :math:`C_1^*` and :math:`p^*` of :mod:`offcmab.bounds.coefficients`
(the corollary's printed sum formula is an upper bound on this :math:`C_1^*`).

Instances: Figure 1(a)'s setting and the out-of-distribution cascade of
:mod:`offcmab.validation.scenarios.thm1`, a law given by its position matrix (items of the
optimal list favoured at late positions), generated cascade instances, and the cascades of
:mod:`offcmab.validation.scenarios.unseen` whose data never show many items; every instance
relabeled as in :mod:`offcmab.validation.scenarios.thm1`.
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
from offcmab.validation.scenarios.common import Traps, bound_value, generated_instances
from offcmab.validation.scenarios.relabel import relabeled_instances
from offcmab.validation.scenarios.thm1 import DELTAS, GRIDS, named


def strategy() -> Any:
    """Generated cascade instances and delta."""
    return st.tuples(cmabt.cascade_params(), st.sampled_from(DELTAS))


@dataclass(frozen=True)
class CascadeScenario:
    """Corollary 1 for CLCB-Cascade (``formula`` the bound, ``traps`` its trap instances)."""

    formula: Bound
    traps: Traps
    kind: Kind = "upper"
    algorithm: str = "offcmab.reference.clcb_cascade"

    @property
    def bound_id(self) -> str:
        return str(self.formula.id)

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        cascades = [i for i in named(profile) if i.params["family"] == "cascade"]
        return (relabeled_instances(cascades + self.traps(profile))
                + relabeled_instances(generated_instances(strategy(), profile, seed,
                                                          self.bound_id, GRIDS[profile.name]),
                                      f"{seed}/{self.bound_id}/")
                + unseen.instances(("cascade",), profile, seed, self.bound_id))

    def regions(self, instance: Instance) -> frozenset[str]:
        """The regions of the hypotheses ``instance`` falls in (:func:`cmabt.regions`)."""
        return cmabt.regions(instance)

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        setup = cmabt.build(instance.params)
        data = setup.law.sample(n, rng)
        result = subject.function(data, instance.params["k"], instance.delta)
        return TrialOutcome(cmabt.gap(setup, cmabt.checked_action(setup.problem, result,
                                                                  subject.spec)))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        coefficients = cmabt.coverage(instance.params)
        params = {"k": instance.params["k"], "C_one": coefficients["C_one"],
                  "p_star": coefficients["p_star"], "m": len(instance.params["mu"]),
                  "n": n, "delta": instance.delta}
        return bound_value(self.formula, variant, params)

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        return cmabt.max_gap(instance.params)

    def gap_range(self, instance: Instance, n: int) -> tuple[float, float]:
        return cmabt.gap_range(instance.params)

