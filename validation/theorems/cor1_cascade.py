r"""Corollary 1 (``thm:app_ranking``): CLCB-Cascade on cascading bandits.

Everything validation checks for this bound:

* **bound**: :math:`r(S^*) - r(\hat S) \le 2\sqrt{2kC_1^*\log(2mn/\delta)/n}` with
  probability :math:`1-\delta` at the exact :math:`C_1^*`
  (:data:`offcmab.bounds.theorems.cascade.COR1_CASCADE`);
* **instances**: Theorem 1's cascade instances, generated cascades and the trap below
  (:class:`CascadeScenario`);
* **signature**: ``f(dataset, k, delta)``, in place of
  :func:`offcmab.reference.clcb_cascade.clcb_cascade`;
* **events**: CLCB-Cascade's arm event, and exactness of the top-k oracle;
* **controls**: CLCB-Cascade with one expression broken;
* **tightness**: the cascade instance space.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offcmab.bounds.theorems.cascade import COR1_CASCADE
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.validation.controls.cmab import CASCADE_CONTROLS
from offcmab.validation.events import arms, oracles
from offcmab.validation.events.core import EventCase
from offcmab.validation.events.subject import arm_algorithm
from offcmab.validation.scenarios.cascade import CascadeScenario
from offcmab.validation.scenarios.traps import cascade_traps
from offcmab.validation.theorem import Signature, Theorem
from offcmab.validation.tightness.files import CASCADE_PARAMS
from offcmab.validation.tightness.spaces import cascade_space


def events(profile: str, subject: Callable[..., Any] | None, spec: str) -> list[EventCase]:
    """CLCB-Cascade's arm event; the top-k oracle's exactness when checking the reference."""
    if subject is None:
        return [*arms.cascade_cases(profile), *oracles.topk_cases()]
    return arms.cascade_cases(profile, arm_algorithm(subject, spec, cascade=True))


THEOREM = Theorem(
    id=COR1_CASCADE.id,
    bound=COR1_CASCADE,
    title="Corollary 1's bound",
    scenario=CascadeScenario(COR1_CASCADE, cascade_traps),
    signature=Signature("f(dataset, k, delta)", clcb_cascade, exposes=("counts", "lcb")),
    events=events,
    controls=CASCADE_CONTROLS,
    space=cascade_space,
    check_params=CASCADE_PARAMS,
)
