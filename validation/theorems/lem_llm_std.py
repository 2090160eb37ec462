r"""The standard-view LLM cache lemma (``apdx_lem:LLM_cache_std``): CLCB-LLM-C, standard.

Everything validation checks for this bound:

* **bound**: the expected-cost gap of the cache CLCB-LLM-C (``variant="standard"``)
  returns, from Theorem 1 applied to the :math:`2m` arms of the standard CMAB-T view
  (:data:`offcmab.bounds.theorems.llm.LEM_LLM_STD`), at the exact
  :math:`\sum_{q\notin\mathcal M^*}1/\nu(q)` and :math:`p^*`;
* **instances**: Figure 3(a)'s setting, a Zipf instance with random logged caches, an
  out-of-distribution log, one instance per region family (with ``n`` up to
  :data:`REGION_N`), generated instances and the trap below (:class:`CacheScenario`);
* **regions**: every region the hypotheses allow.  The bound needs the costs of the
  queries outside the optimal cache observed (:math:`\nu(q) > 0` there, through
  :math:`\sum_{q\notin\mathcal M^*}1/\nu(q)` and the condition on ``n``), not those of the
  optimal queries, so data that never show an optimal query's cost (``unobserved-arms``)
  and rarely show one outside (``rare-optimum``) lie inside it, as do many queries against
  few samples, ties and costs at 0 and 1, and any numbering of the queries (``relabeled``);
* **signature**: ``f(log, k, delta)``, in place of
  :func:`offcmab.reference.clcb_llm.clcb_llm` with ``variant="standard"``;
* **events**: the cost and frequency confidence events of the standard variant (the cost
  event also on 800 queries with costs near 1/2, ``cache-wide``), and exactness of the
  top-k oracle;
* **controls**: CLCB-LLM-C (standard) with one expression broken, each also run through
  the event rows; half the printed cost radius still covers where the proof needs it
  (:data:`NO_POWER`), a lone Hoeffding radius without the union bound does not;
* **tightness**: the cache instance space.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offcmab.bounds.theorems.llm import LEM_LLM_STD
from offcmab.reference.clcb_llm import clcb_llm
from offcmab.validation.controls.llm import STANDARD_CONTROLS
from offcmab.validation.events import certificates, llm, oracles
from offcmab.validation.events.subject import CACHE_FIELDS
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.parts.theorem import Rate, Signature, Theorem
from offcmab.validation.radius_facts import half_printed_cost_radius_reason
from offcmab.validation.regions import (
    MANY_ARMS,
    RARE_OPTIMUM,
    RELABELED,
    TIES_AND_EXTREMES,
    UNOBSERVED_ARMS,
)
from offcmab.validation.scenarios.llm import CacheScenario
from offcmab.validation.scenarios.llm_instances import rate_factor
from offcmab.validation.scenarios.traps import standard_cache_traps
from offcmab.validation.tightness.files import CACHE_PARAMS
from offcmab.validation.tightness.spaces import cache_space

#: The size added to the region instances' grids: the bound (a factor sqrt(m+1) above
#: Theorem 3's) falls below their largest gap only there.
REGION_N = 128000

#: Control -> why no row of this bound can flag it.
NO_POWER = {"radius-0.5": half_printed_cost_radius_reason(LEM_LLM_STD.id, 'arm')}


def events(profile: str, subject: Callable[..., Any], spec: str) -> list[EventCase]:
    """The standard variant's cost and frequency events; top-k exactness (a row of the
    package's own oracle: reference runs only)."""
    return [*llm.offline_cases(profile, "standard", subject, spec), *oracles.topk_cases(),
            *certificates.cache_cases(LEM_LLM_STD.id, "standard", profile, subject, spec, ())]


THEOREM = Theorem(
    id=LEM_LLM_STD.id,
    bound=LEM_LLM_STD,
    title="The standard-view LLM cache bound",
    scenario=CacheScenario(LEM_LLM_STD, standard_cache_traps, region_n=REGION_N),
    signature=Signature("f(log, k, delta)", clcb_llm, {"variant": "standard"},
                        exposes=CACHE_FIELDS),
    events=events,
    controls=STANDARD_CONTROLS,
    no_power=NO_POWER,
    controls_check_events=True,
    space=cache_space,
    check_params=CACHE_PARAMS,
    rate=Rate(-0.5, log_factor=rate_factor),
    regions=(UNOBSERVED_ARMS, RARE_OPTIMUM, MANY_ARMS, TIES_AND_EXTREMES, RELABELED),
)
