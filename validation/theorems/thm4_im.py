r"""Theorem 4 (``thm:IM``): CLCB-IM-N, influence maximization from node-level feedback.

Everything validation checks for this bound:

* **bound**: :math:`\alpha\sigma(S^*) - \sigma(\hat S)` against the bound of
  :data:`offcmab.bounds.theorems.im.THM4_IM` at the tightest :math:`\gamma,\eta` of the
  paper's assumption, with exact spreads on small graphs (:class:`IMScenario`); every
  runnable size is vacuous, so a **rate row** checks that the gap shrinks at the bound's
  order :math:`\sqrt{\log n / n}` on a grid of the six-node graph (a data-ignoring
  algorithm's gap stays flat);
* **instances**: a six-node graph, the trap below (the same graph solved by IMM),
  generated graphs of 4-6 nodes, and region instances on a three-size grid (two graphs
  whose two sinks have four parents each, one whose data never inform a node's out-edges),
  every one but the trap with its node ids relabelled by a seeded permutation;
* **regions**: the assumption asks :math:`q_u \in [\gamma, 1-\gamma]` and
  :math:`p(\bar v) \ge \eta` only on the edges the optimum can trigger, so edges the data
  never inform elsewhere (``unobserved-arms``) and rarely inform there (small
  :math:`\gamma` or :math:`\eta`, ``rare-optimum``) lie inside it, as do nodes with several
  parents (``multi-parent``), tied edge probabilities and probabilities of 1
  (``ties-and-extremes``) and any numbering of the nodes (``relabeled``).  Many arms
  against few samples does not apply: spreads are exact only on graphs of a dozen edges,
  and the theorem's condition :math:`n \ge 392\log(12nE/\delta)/(\eta\gamma)` asks for
  thousands of cascades per edge there.  The bound rows being vacuous, these instances
  have power through the rate rows (each region instance has a grid of three sizes);
* **signature**: ``f(graph, cascades, oracle, delta)``, in place of
  :func:`offcmab.reference.im.clcb_im_node.clcb_im_node`;
* **events**: the interval events of the estimator, the edge LCB below the truth, the
  oracle step on the algorithm's own LCBs (on the six-node graph and on copies relabeled
  in every trial), and the promises of the exact and the IMM oracle objects the scenario
  hands to the subject (IMM also against exact optima on relabeled graphs and against a
  CELF baseline at 300 nodes);
* **controls**: CLCB-IM-N with one expression broken, each also run through the event
  rows (their trap rows are vacuous, so they run on traps in the full profile only); a
  half-width radius and a radius without the union bound stay valid confidence intervals
  for this Bernstein radius at every runnable size (:data:`NO_POWER`);
* **tightness**: the small-graph instance space.
* **falsify**: the bound being vacuous, ``offcmab falsify`` searches graphs of 4-8 nodes
  (one in-edge each, edge probabilities, seed law :math:`q_v`, ``k`` of 1-3, ``n`` of 1000
  or 4000) for an instance where the algorithm is worse than the reference on the same
  datasets (paired sign test at 1e-3 and a mean difference of 5% of the largest gap;
  :mod:`offcmab.validation.falsify.paired`), not for a bound violation.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from offcmab.bounds.theorems.im import THM4_IM
from offcmab.reference.im.clcb_im_node import clcb_im_node
from offcmab.validation.controls.im import CERTIFICATE_CONTROLS, IM_CONTROLS
from offcmab.validation.events import certificates, im_node, oracles, proof
from offcmab.validation.events.subject import NODE_FIELDS
from offcmab.validation.falsify.spaces import im_graph_space
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.parts.theorem import Rate, Signature, Theorem
from offcmab.validation.regions import (
    MULTI_PARENT,
    RARE_OPTIMUM,
    RELABELED,
    TIES_AND_EXTREMES,
    UNOBSERVED_ARMS,
)
from offcmab.validation.scenarios.im import (
    RATE_INSTANCE,
    IMScenario,
    build,
    rate_factor,
    star_and_chain,
)
from offcmab.validation.scenarios.traps import imm_oracle_traps
from offcmab.validation.tightness.files import IM_PARAMS
from offcmab.validation.tightness.spaces import im_space


def _not_run(graph: Any, cascades: Any, delta: float) -> Any:
    raise AssertionError("the no-power reasons read the row's numbers, never its trials")


#: The interval row of the default profile, whose numbers the no-power reasons quote.
_INTERVALS = im_node.node_case("event-im-intervals", "intervals", "star-and-chain",
                               star_and_chain(), 5000, 0.05, _not_run)
#: Its log term L = log(1/delta'), delta' the registry's share (offcmab.bounds.events).
_L = proof.im_log_term({"n": _INTERVALS.n, "E": build(star_and_chain()).graph.edges},
                       _INTERVALS.delta)
_L_LONE = math.log(1.0 / _INTERVALS.delta)

#: Control -> why no row of this bound can flag it.
NO_POWER = {
    "radius-0.5": (
        "CLCB-IM-N's Bernstein radius sqrt(6 x(1-x) L/N) + 9 L/N spans at least sqrt(6 L) "
        f"standard deviations of an estimate (L = log(1/delta') = {_L:.1f} on the six-node "
        f"graph at n = {_INTERVALS.n}: {math.sqrt(6 * _L):.1f}); at half width still "
        f"{math.sqrt(6 * _L) / 2:.1f}, so each interval misses with probability "
        "below 1e-6 and the interval event (promised failure "
        f"{_INTERVALS.failure:.3g}) would need "
        "about 10^4 independent intervals observed thousands of times each to fail visibly, "
        "far beyond a runnable node-level instance; the proof's event holds for this control"),
    "no-union-bound": (
        f"with L = log(1/delta) = {_L_LONE:.1f} in place of log(1/delta') the Bernstein radius "
        f"still spans sqrt(6 L) = {math.sqrt(6 * _L_LONE):.1f} standard deviations before its "
        "9 L/N term: each interval misses with probability ~1e-5, so as for radius-0.5 no "
        "runnable instance holds enough intervals for the event (promised failure "
        f"{_INTERVALS.failure:.3g}) to fail visibly"),
}


def events(profile: str, subject: Callable[..., Any], spec: str) -> list[EventCase]:
    """The estimator's events, the oracle step, and the scenario's oracles' promises."""
    return [*im_node.cases(profile, subject, spec), oracles.relabeled_step_case(subject, spec),
            *oracles.im_cases(profile),
            *certificates.im_cases(THM4_IM.id, profile, subject, spec, CERTIFICATE_CONTROLS)]


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
    no_power=NO_POWER,
    controls_check_events=True,
    traps_vacuous=True,
    space=im_space,
    falsify_space=im_graph_space,
    check_params=IM_PARAMS,
    rate=Rate(-0.5, RATE_INSTANCE, rate_factor),
    regions=(UNOBSERVED_ARMS, RARE_OPTIMUM, MULTI_PARENT, TIES_AND_EXTREMES, RELABELED),
)
