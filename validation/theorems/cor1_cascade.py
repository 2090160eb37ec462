r"""Corollary 1 (``thm:app_ranking``): CLCB-Cascade on cascading bandits.

Everything validation checks for this bound:

* **bound**: :math:`r(S^*) - r(\hat S) \le 2\sqrt{2kC_1^*\log(2mn/\delta)/n}` with
  probability :math:`1-\delta` at the exact :math:`C_1^*`
  (:data:`offcmab.bounds.theorems.cascade.COR1_CASCADE`);
* **instances**: Theorem 1's cascade instances, generated cascades and the trap below
  (:class:`CascadeScenario`);
* **signature**: ``f(dataset, k, delta)``, in place of
  :func:`offcmab.reference.clcb_cascade.clcb_cascade`;
* **events**: CLCB-Cascade's arm event, exactness of the top-k oracle, and the subject's
  action on its own LCBs;
* **controls**: CLCB-Cascade with one expression broken (oracle mistakes included), each
  also run through the event rows;
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
from offcmab.validation.falsify.spaces import logged_cascade_space
from offcmab.validation.scenarios.cascade import CascadeScenario
from offcmab.validation.scenarios.traps import cascade_traps
from offcmab.validation.theorem import Signature, Theorem
from offcmab.validation.tightness.files import CASCADE_PARAMS
from offcmab.validation.tightness.spaces import cascade_space


def events(profile: str, subject: Callable[..., Any] | None, spec: str) -> list[EventCase]:
    """CLCB-Cascade's arm event, the top-k oracle's exactness and the choice on the
    subject's own LCBs."""
    run = None if subject is None else arm_algorithm(subject, spec, cascade=True)
    return [*arms.cascade_cases(profile, run), *oracles.cascade_cases(profile, subject, spec)]


THEOREM = Theorem(
    id=COR1_CASCADE.id,
    bound=COR1_CASCADE,
    title="Corollary 1's bound",
    scenario=CascadeScenario(COR1_CASCADE, cascade_traps),
    signature=Signature("f(dataset, k, delta)", clcb_cascade, exposes=("counts", "lcb")),
    events=events,
    controls=CASCADE_CONTROLS,
    controls_check_events=True,
    space=cascade_space,
    falsify_space=logged_cascade_space,
    check_params=CASCADE_PARAMS,
)
