r"""Theorem 4 (``thm:IM``): CLCB-IM-N, influence maximization from node-level feedback.

Everything validation checks for this bound:

* **bound**: :math:`\alpha\sigma(S^*) - \sigma(\hat S)` against the bound of
  :data:`offcmab.bounds.theorems.im.THM4_IM` at the tightest :math:`\gamma,\eta` of the
  paper's assumption, with exact spreads on small graphs (:class:`IMScenario`); every
  runnable size is vacuous, so a **rate row** checks that the gap shrinks at the bound's
  order :math:`\sqrt{\log n / n}` on a grid of the six-node graph (a data-ignoring
  algorithm's gap stays flat);
* **instances**: a six-node graph, generated graphs of 4-6 nodes, and the trap below (the
  same graph solved by IMM);
* **signature**: ``f(graph, cascades, oracle, delta)``, in place of
  :func:`offcmab.reference.im.clcb_im_node.clcb_im_node`;
* **events**: the interval events of the estimator, the edge LCB below the truth, the
  oracle step on the algorithm's own LCBs, and the promises of the exact and the IMM
  oracle objects the scenario hands to the subject;
* **controls**: CLCB-IM-N with one expression broken, each also run through the event
  rows (their trap rows are vacuous, so they run on traps in the full profile only);
* **tightness**: the small-graph instance space.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offcmab.bounds.theorems.im import THM4_IM
from offcmab.reference.im.clcb_im_node import clcb_im_node
from offcmab.validation.controls.im import IM_CONTROLS
from offcmab.validation.events import im_node, oracles
from offcmab.validation.events.core import EventCase
from offcmab.validation.events.subject import NODE_FIELDS
from offcmab.validation.scenarios.im import RATE_INSTANCE, IMScenario, rate_factor
from offcmab.validation.scenarios.traps import imm_oracle_traps
from offcmab.validation.theorem import Rate, Signature, Theorem
from offcmab.validation.tightness.files import IM_PARAMS
from offcmab.validation.tightness.spaces import im_space


def events(profile: str, subject: Callable[..., Any] | None, spec: str) -> list[EventCase]:
    """The estimator's events, the oracle step, and the scenario's oracles' promises."""
    return [*im_node.cases(profile, subject, spec), *oracles.im_cases()]


THEOREM = Theorem(
    id=THM4_IM.id,
    bound=THM4_IM,
    title="Theorem 4's bound",
    scenario=IMScenario(THM4_IM, imm_oracle_traps),
    signature=Signature(
        "f(graph, cascades, oracle, delta)", clcb_im_node,
        returns="the seed set: a flat integer array of k distinct node ids, or a result "
                "object with a `seeds` attribute",
        exposes=NODE_FIELDS),
    events=events,
    controls=IM_CONTROLS,
    controls_check_events=True,
    traps_vacuous=True,
    space=im_space,
    check_params=IM_PARAMS,
    rate=Rate(-0.5, RATE_INSTANCE, rate_factor),
)
