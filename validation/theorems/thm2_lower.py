r"""Theorem 2 (``thm:lower_bound``): the minimax lower bound, on the proof's hard pair.

Everything validation checks for this bound:

* **bound**: every algorithm's pair-averaged risk is at least
  :math:`\tfrac{k}{8e}\min(\tfrac14,\sqrt{C_\infty^*/(20n)})`
  (:data:`offcmab.bounds.theorems.lower.THM2_LOWER`), checked for CLCB and the two
  baselines; CLCB's own risk is also checked against Theorem 1's proved bound in
  expectation, and its decay in ``n`` by a log-log slope (:class:`LowerBoundScenario`);
* **instances**: the proof's pair for two ``(m, k, C)`` and the printed pair, and the
  trap below (the pair for ``m = 12, k = 3, C = 10`` never logs two of its four paths and
  logs the other rarely: the regions ``unobserved-arms`` and ``rare-optimum``);
* **signature**: ``f(dataset, oracle, delta)``, taking CLCB's place on the pair;
* **events**: none of its own (CLCB's arm event is Theorem 1's);
* **controls**: CLCB's, except the oracle that ignores its weights (on the pair it picks
  what CLCB picks); the four that only narrow or drop the radius (no pessimism, a tenth
  or half of the radius, no union bound) cannot be flagged on the pair (:data:`NO_POWER`);
* **tightness**: not searched (a lower bound).
"""

from __future__ import annotations

from offcmab.bounds.theorems.lower import THM2_LOWER
from offcmab.bounds.theorems.upper import THM1_INF
from offcmab.reference.clcb import clcb
from offcmab.validation.controls.cmab import LOWER_CONTROLS
from offcmab.validation.extend import Signature, Theorem, no_events
from offcmab.validation.regions import RARE_OPTIMUM, UNOBSERVED_ARMS
from offcmab.validation.scenarios.thm2_lower import LowerBoundScenario
from offcmab.validation.scenarios.traps import wide_pair_traps

#: Control -> why no row of this bound can flag it.
NO_POWER = {
    "no-pessimism": (
        "a lower bound holds for every algorithm, so only the clcb-risk row can flag a "
        "control; the proof's pair observes every path often, where dropping pessimism "
        "lowers the risk"),
    "radius-0.1": "as no-pessimism: on the proof's pair a smaller radius lowers the risk",
    "radius-0.5": "as no-pessimism: on the proof's pair a smaller radius lowers the risk",
    "no-union-bound": "as no-pessimism: the lone Hoeffding radius is a smaller radius (times "
                      "sqrt(log(2/delta)/log(4mn/delta)) < 1), which lowers the risk on the "
                      "proof's pair",
}

THEOREM = Theorem(
    id=THM2_LOWER.id,
    bound=THM2_LOWER,
    title="Theorem 2's lower bound",
    scenario=LowerBoundScenario(THM2_LOWER, THM1_INF, wide_pair_traps),
    signature=Signature(
        "f(dataset, oracle, delta)", clcb,
        returns="the action, as for Theorem 1; it takes CLCB's place on the proof's hard "
                "pair beside the two baselines (the lower bound holds for every algorithm; "
                "its risk is also checked against Theorem 1's upper bound)"),
    events=no_events,
    controls=LOWER_CONTROLS,
    no_power=NO_POWER,
    # the proof's pair logs two paths and never the others; relabeling, ties and many arms
    # are not part of its construction
    regions=(UNOBSERVED_ARMS, RARE_OPTIMUM),
)
