r"""Theorem 1 in the 1-norm (``thm:upper_bound``): CLCB on any CMAB-T problem.

Everything validation checks for this bound:

* **bound**: :math:`\alpha r(S^*) - r(\hat S) \le 2\alpha B_1\sqrt{2\bar K^* C_1^*
  \log(\cdot)/n}` with probability :math:`1-\delta`, at the exact coverage coefficients
  (:data:`offcmab.bounds.theorems.upper.THM1_ONE`);
* **instances**, **signature**, **events**, **controls** and **tightness space**: those of
  Theorem 1 in the infinity norm (:mod:`offcmab.validation.theorems.thm1_inf`), the same
  algorithm on the same data; only the coverage coefficients differ.
"""

from __future__ import annotations

from offcmab.bounds.theorems.upper import THM1_ONE
from offcmab.validation.controls.cmab import CLCB_CONTROLS
from offcmab.validation.extend import Theorem
from offcmab.validation.scenarios.cmabt import CMABT_REGIONS
from offcmab.validation.scenarios.thm1 import CLCBScenario
from offcmab.validation.scenarios.traps import clcb_traps
from offcmab.validation.theorems import thm1_inf
from offcmab.validation.tightness.files import CMABT_PARAMS
from offcmab.validation.tightness.spaces import kpath_space

THEOREM = Theorem(
    id=THM1_ONE.id,
    bound=THM1_ONE,
    title="Theorem 1's bound (1-norm coverage)",
    scenario=CLCBScenario(THM1_ONE, ("alpha", "B1", "Kbar", "C_one", "p_star"),
                          clcb_traps),
    signature=thm1_inf.THEOREM.signature,
    events=thm1_inf.events,
    controls=CLCB_CONTROLS,
    controls_check_events=True,
    space=kpath_space,
    regions=CMABT_REGIONS,
    check_params=CMABT_PARAMS,
    rate=thm1_inf.THEOREM.rate,
)
