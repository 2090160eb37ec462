r"""The online LLM cache regret bound (``thm:LLM_cache_online``): CUCB-LLM-S, as printed.

Everything validation checks for this bound:

* **bound**: the pseudo-regret of the printed CUCB-LLM-S over ``T`` rounds
  (:data:`offcmab.bounds.theorems.llm.THM_LLM_ONLINE`); no runnable ``T`` makes it smaller
  than the largest possible regret, so its rows are vacuous and the events below carry
  the check (:class:`StreamScenario`), with a **rate row**: the regret may grow at most as
  :math:`\sqrt{T\log T}` on a grid of a four-query instance (a learner that never caches
  grows linearly);
* **instances**: the offline cache instances without their logged caches, and the trap
  below, each with its ids relabelled by a seeded permutation, and a region instance on
  the rate row's grid (ties and costs at 0 and 1);
* **regions**: a learner collects its own data, so the theorem has no coverage hypothesis
  and the regions about what a log leaves out (``unobserved-arms``, ``rare-optimum``) do
  not apply, nor ``multi-parent`` (no graph); what its hypotheses do allow, and a run
  covers, is any numbering of the queries (``relabeled``) and tied costs and costs at 0 and 1
  (``ties-and-extremes``).  Many queries against a short horizon (``many-arms``) are allowed
  but not checked: there the regret is still in its burn-in, growing about linearly while
  rare queries wait to be observed, and a rate row, which tests the proven order between
  horizons, would flag a correct learner (the printed learner's regret on twelve Zipf
  queries grew with slope 0.88 over T = 200 to 3200 at seed 2025); the bound itself is
  vacuous at those horizons;
* **signature**: a learner factory ``f(m, k, delta)`` in place of
  :func:`offcmab.validation.scenarios.llm_online.printed_cache`; the scenario feeds its
  learner one round at a time (``cache()``, then ``observe(query, cost_or_None)``), so it
  never sees a later round nor a hit's cost;
* **events**: the streaming oracle lemma (on the erratum's corrected algorithm, and as
  printed: a known failure that fails a learner breaking it more often than the printed
  algorithm), the online cost event and the corrected LCB steps of the regret proof (and,
  as printed, a known failure), the LCB steps also on fifty queries with costs near 1/2
  (``stream-wide``), where an LCB without the union bound over queries and rounds fails;
* **controls**: the printed learner with its radius broken (times 0, -1, 0.1, 0.5, huge,
  and a lone Hoeffding interval without the union bound), each also run through the
  event rows (their trap rows are vacuous, so they run on traps in the full profile only);
  half the printed radius still covers where the proof needs it, and the lone Hoeffding
  radius is flagged only in most default runs (:data:`NO_POWER`);
* **tightness**: the online instance space.
* **falsify**: the bound being vacuous, ``offcmab falsify`` searches 3-12 queries (arrival
  law, Bernoulli cost means, cache size, ``T`` of 200 or 500 rounds) for an instance where
  the algorithm is worse than the reference on the same datasets (paired sign test at 1e-3
  and a mean difference of 5% of the largest gap; :mod:`offcmab.validation.falsify.paired`),
  not for a bound violation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offcmab.bounds.theorems.llm import THM_LLM_ONLINE
from offcmab.validation.controls.stream import STREAM_CONTROLS
from offcmab.validation.events import llm, proof
from offcmab.validation.falsify.spaces import online_paired_space
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.parts.theorem import Rate, Signature, Theorem
from offcmab.validation.regions import RELABELED, TIES_AND_EXTREMES
from offcmab.validation.scenarios.llm_instances import wide_stream
from offcmab.validation.scenarios.llm_online import (
    RATE_INSTANCE,
    StreamScenario,
    printed_cache,
    rate_factor,
)
from offcmab.validation.scenarios.traps import lock_in_traps
from offcmab.validation.tightness.files import CACHE_PARAMS
from offcmab.validation.tightness.spaces import online_space

#: The cost event's radius sqrt(log(c/delta)/(2N)) (offcmab.bounds.events).
_R_E = proof.radius_text(THM_LLM_ONLINE.id, "cost")
_LOG = proof.log_text(THM_LLM_ONLINE.id, "cost")
#: The stream-wide LCB row, whose promised failure a reason quotes.
_WIDE = llm.online_lcb_case(wide_stream(), "stream-wide", llm.WIDE_HORIZON, 0.05, 1)

#: Control -> why no row of this bound can flag it.
NO_POWER = {
    "radius-0.5": (
        "half the printed radius, sqrt(1.5 log t/N), is at least the cost event's "
        f"r_E = {_R_E} once 3 log t >= {_LOG}, and the LCB row "
        f"checks lcb <= c only from 12 log t >= {_LOG}; in between an LCB above its cost "
        "needs the running mean sqrt(6 log t) >= 2.9 standard deviations above it with at "
        "most t observations, which the stream-wide row (50 queries near 1/2, T = 1500) "
        "is not given enough trials to show. Its caches differ from the printed algorithm's, "
        "so the "
        "printed streaming-lemma row (a known failure, rejected only when a learner breaks "
        "the lemma in all 20 trials of a default run) can flag it, never with the 10 trials "
        "a control gets in --quick"),
    "no-union-bound": (
        "a lone two-sided Hoeffding interval, sqrt(log(2/delta)/(2N)), without the union "
        f"bound over queries and rounds, is narrower than the cost event's r_E = {_R_E} "
        "(3Tm > 2 always), so the event is not kept: the "
        "proof's event may fail more often than the promised "
        f"{_WIDE.failure:.1%} on the stream-wide row (50 queries near 1/2, T = "
        f"{llm.WIDE_HORIZON}), the instance where lone intervals miss most often. But a "
        f"trial feeds the learner {llm.WIDE_HORIZON} rounds one at a time, so the row runs "
        "only 20 trials (10 for a control in --quick), too few to flag it in every run; "
        "fewer queries or rounds make a miss rarer"),
}


def events(profile: str, subject: Callable[..., Any], spec: str) -> list[EventCase]:
    """The streaming lemma, the online cost event and the online LCB steps."""
    return llm.online_cases(profile, subject, spec)


THEOREM = Theorem(
    id=THM_LLM_ONLINE.id,
    bound=THM_LLM_ONLINE,
    title="The online LLM cache regret bound",
    scenario=StreamScenario(THM_LLM_ONLINE, lock_in_traps),
    signature=Signature(
        "f(m, k, delta) -> learner with cache() and observe(query, cost_or_None)",
        printed_cache,
        returns="a learner, fed one round at a time: cache() gives the cache for the next "
                "round (at most k distinct ids, or a boolean mask of length m); then "
                "observe(query, cost) reports that round's query, with its cost on a miss "
                "and None on a hit; optionally lcb, the cost LCBs after the latest round "
                "(length m), which the event rows inspect"),
    events=events,
    controls=STREAM_CONTROLS,
    no_power=NO_POWER,
    controls_check_events=True,
    traps_vacuous=True,
    space=online_space,
    falsify_space=online_paired_space,
    check_params=CACHE_PARAMS,
    rate=Rate(0.5, RATE_INSTANCE, rate_factor),
    regions=(RELABELED, TIES_AND_EXTREMES),
)
