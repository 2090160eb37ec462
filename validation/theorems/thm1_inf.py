r"""Theorem 1 in the infinity norm (``thm:upper_bound``): CLCB on any CMAB-T problem.

Everything validation checks for this bound:

* **bound**: :math:`\alpha r(S^*) - r(\hat S) \le 2\alpha B_1\sqrt{2\bar K_2^* C_\infty^*
  \log(\cdot)/n}` with probability :math:`1-\delta`, at the exact coverage
  coefficients of each instance (:data:`offcmab.bounds.theorems.upper.THM1_INF`);
* **instances**: Figure 1(a)'s cascade setting, an out-of-distribution cascade, three
  nearly tied k-paths, edge-level influence maximization, a pessimism detector, generated
  cascade and k-path instances (among them data that never show many arms outside the
  optimum, :mod:`~offcmab.validation.scenarios.unseen`), and the trap below
  (:class:`CLCBScenario`), every one relabeled by a seeded permutation of its ids;
* **regions**: every region of :mod:`offcmab.validation.regions` but several parents in
  an influence graph (:data:`~offcmab.validation.scenarios.cmabt.CMABT_REGIONS`);
* **signature**: ``f(dataset, oracle, delta)``, in place of
  :func:`offcmab.reference.clcb.clcb`;
* **events**: CLCB's arm event :math:`\mathcal E_{\text{arm}}` on k-path, cascade and
  edge-level IM data, and on 500 edges with probabilities near 1/2 each observed in every
  round (``im-edge-wide``), where every interval must cover at once and a radius half as
  wide or without the union bound fails; the scenario's oracle against exact optima, and
  the subject's action on its own LCBs;
* **controls**: CLCB with one expression broken (no pessimism, optimism, a tenth or half
  of the radius, a lone Hoeffding radius without the union bound, data ignored, an oracle
  that ignores its weights, returns the last arms, minimizes or picks at random), each
  also run through the event rows;
* **tightness**: the k-path instance space.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offcmab.bounds.theorems.upper import THM1_INF
from offcmab.reference.clcb import clcb
from offcmab.validation.controls.cmab import CERTIFICATE_CONTROLS, CLCB_CONTROLS
from offcmab.validation.events import arms, certificates, oracles
from offcmab.validation.events.subject import arm_algorithm
from offcmab.validation.extend import EventCase, Rate, Signature, Theorem
from offcmab.validation.scenarios.cmabt import CMABT_REGIONS, rate_factor
from offcmab.validation.scenarios.thm1 import CLCBScenario
from offcmab.validation.scenarios.traps import clcb_traps
from offcmab.validation.tightness.files import CMABT_PARAMS
from offcmab.validation.tightness.spaces import kpath_space


def events(profile: str, subject: Callable[..., Any], spec: str) -> list[EventCase]:
    """CLCB's arm event on ``subject``'s ``counts`` and ``lcb`` (the reference CLCB in a
    reference run), and the oracle rows (the scenario's oracle, and the choice on the
    subject's LCBs)."""
    return [*arms.clcb_cases(profile, arm_algorithm(subject, spec)),
            *oracles.cmabt_cases(profile, subject, spec),
            *certificates.kpath_cases(THM1_INF.id, profile, subject, spec,
                                        CERTIFICATE_CONTROLS)]


THEOREM = Theorem(
    id=THM1_INF.id,
    bound=THM1_INF,
    title="Theorem 1's bound (infinity-norm coverage)",
    scenario=CLCBScenario(THM1_INF, ("alpha", "B1", "K2bar", "C_inf", "p_star"),
                          clcb_traps),
    signature=Signature("f(dataset, oracle, delta)", clcb, exposes=("counts", "lcb")),
    events=events,
    controls=CLCB_CONTROLS,
    controls_check_events=True,
    space=kpath_space,
    regions=CMABT_REGIONS,
    check_params=CMABT_PARAMS,
    rate=Rate(-0.5, log_factor=rate_factor),
)
