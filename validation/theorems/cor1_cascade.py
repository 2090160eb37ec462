r"""Corollary 1 (``thm:app_ranking``): CLCB-Cascade on cascading bandits.

Everything validation checks for this bound:

* **bound**: :math:`r(S^*) - r(\hat S) \le 2\sqrt{2kC_1^*\log(2mn/\delta)/n}` with
  probability :math:`1-\delta` at the exact :math:`C_1^*`
  (:data:`offcmab.bounds.theorems.cascade.COR1_CASCADE`);
* **instances**: Theorem 1's cascade instances, generated cascades (among them logs that
  never show many items) and the trap below (:class:`CascadeScenario`), relabeled;
* **regions**: those of Theorem 1 (:data:`~offcmab.validation.scenarios.cmabt.CMABT_REGIONS`);
* **signature**: ``f(dataset, k, delta)``, in place of
  :func:`offcmab.reference.clcb_cascade.clcb_cascade`;
* **events**: CLCB-Cascade's arm event (also on 600 items with means near 1/2,
  ``cascade-wide``, where a radius half as wide or without the union bound fails it),
  exactness of the top-k oracle, and the subject's action on its own LCBs;
* **controls**: CLCB-Cascade with one expression broken (half the radius and no union
  bound among them, oracle mistakes included), each also run through the event rows; the
  few trials a control gets cannot show half the radius (:data:`NO_POWER`), although the
  reference's trial count on ``cascade-wide`` does;
* **tightness**: the cascade instance space.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offcmab.bounds.theorems.cascade import COR1_CASCADE
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.validation.controls.cmab import CASCADE_CONTROLS, CERTIFICATE_CONTROLS
from offcmab.validation.events import arms, certificates, oracles
from offcmab.validation.events.subject import arm_algorithm
from offcmab.validation.extend import EventCase, Rate, Signature, Theorem
from offcmab.validation.falsify.spaces import logged_cascade_space
from offcmab.validation.scenarios.cascade import CascadeScenario
from offcmab.validation.scenarios.cmabt import CMABT_REGIONS, rate_factor
from offcmab.validation.scenarios.traps import cascade_traps
from offcmab.validation.tightness.files import CASCADE_PARAMS
from offcmab.validation.tightness.spaces import cascade_space

#: Control -> why no row of this bound can flag it.
NO_POWER = {
    "radius-0.5": (
        "half the printed radius keeps the cascade-wide row's event far less often than the "
        "promised failure probability allows, which a row of the reference's 100 trials "
        "would show; a control gets 20 trials in a power run (10 in --quick), too few to "
        "tell its rate "
        "from the promised one at the row's level in every run.  A cascade observes about "
        "1.5 items per round whatever its size, so more items do not make the miss much "
        "more frequent"),
}


def events(profile: str, subject: Callable[..., Any], spec: str) -> list[EventCase]:
    """CLCB-Cascade's arm event, the top-k oracle's exactness and the choice on the
    subject's own LCBs."""
    return [*arms.cascade_cases(profile, arm_algorithm(subject, spec, cascade=True)),
            *oracles.cascade_cases(profile, subject, spec),
            *certificates.cascade_cases(COR1_CASCADE.id, profile, subject, spec,
                                        CERTIFICATE_CONTROLS)]


THEOREM = Theorem(
    id=COR1_CASCADE.id,
    bound=COR1_CASCADE,
    title="Corollary 1's bound",
    scenario=CascadeScenario(COR1_CASCADE, cascade_traps),
    signature=Signature("f(dataset, k, delta)", clcb_cascade, exposes=("counts", "lcb")),
    events=events,
    controls=CASCADE_CONTROLS,
    no_power=NO_POWER,
    controls_check_events=True,
    space=cascade_space,
    falsify_space=logged_cascade_space,
    regions=CMABT_REGIONS,
    check_params=CASCADE_PARAMS,
    rate=Rate(-0.5, log_factor=rate_factor),
)
