r"""Theorem 3 (``thm:LLM_cache_main``): CLCB-LLM-C, improved, for LLM caching.

Everything validation checks for this bound:

* **bound**: the expected-cost gap of the cache CLCB-LLM-C (``variant="improved"``)
  returns (:data:`offcmab.bounds.theorems.llm.THM3_LLM`), at the exact
  :math:`\sum_{q\notin\mathcal M^*}1/\nu(q)` and :math:`p^*`;
* **instances**: those of the standard-view lemma (:class:`CacheScenario`), and the trap
  below;
* **regions**: every region the hypotheses allow.  The bound needs the costs of the
  queries outside the optimal cache observed (:math:`\nu(q) > 0` there, through
  :math:`\sum_{q\notin\mathcal M^*}1/\nu(q)` and the condition on ``n``), not those of the
  optimal queries, so data that never show an optimal query's cost (``unobserved-arms``)
  and rarely show one outside (``rare-optimum``) lie inside it, as do many queries against
  few samples, ties and costs at 0 and 1, and any numbering of the queries (``relabeled``);
* **signature**: ``f(log, k, delta)``, in place of
  :func:`offcmab.reference.clcb_llm.clcb_llm` with ``variant="improved"``;
* **events**: the cost event and the :math:`\ell_1` arrival event of the improved
  analysis (the cost event also on 800 queries with costs near 1/2, ``cache-wide``), and
  exactness of the top-k oracle;
* **controls**: CLCB-LLM-C (improved) with one expression broken, each also run through
  the event rows; half the printed cost radius still covers where the proof needs it
  (:data:`NO_POWER`), a lone Hoeffding radius without the union bound does not;
* **tightness**: the cache instance space.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offcmab.bounds.theorems.llm import THM3_LLM
from offcmab.reference.clcb_llm import clcb_llm
from offcmab.validation.controls.llm import IMPROVED_CONTROLS
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
from offcmab.validation.scenarios.traps import improved_cache_traps
from offcmab.validation.tightness.files import CACHE_PARAMS
from offcmab.validation.tightness.spaces import cache_space

#: Control -> why no row of this bound can flag it.
NO_POWER = {"radius-0.5": half_printed_cost_radius_reason(THM3_LLM.id, 'cost')}


def events(profile: str, subject: Callable[..., Any], spec: str) -> list[EventCase]:
    """The improved variant's cost and arrival events; top-k exactness (a row of the
    package's own oracle: reference runs only)."""
    return [*llm.offline_cases(profile, "improved", subject, spec), *oracles.topk_cases(),
            *certificates.cache_cases(THM3_LLM.id, "improved", profile, subject, spec, ())]


THEOREM = Theorem(
    id=THM3_LLM.id,
    bound=THM3_LLM,
    title="Theorem 3's bound",
    scenario=CacheScenario(THM3_LLM, improved_cache_traps),
    signature=Signature("f(log, k, delta)", clcb_llm, {"variant": "improved"},
                        exposes=CACHE_FIELDS),
    events=events,
    controls=IMPROVED_CONTROLS,
    no_power=NO_POWER,
    controls_check_events=True,
    space=cache_space,
    check_params=CACHE_PARAMS,
    rate=Rate(-0.5, log_factor=rate_factor),
    regions=(UNOBSERVED_ARMS, RARE_OPTIMUM, MANY_ARMS, TIES_AND_EXTREMES, RELABELED),
)
