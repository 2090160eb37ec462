"""Event rows of validate: they pass the reference algorithms and catch broken ones.

Every row below is decided by the exact binomial test at ``LEVEL``: a correct
implementation fails a row with probability at most ``LEVEL`` = 1e-6 (the event fails
with probability at most the promised ``p`` in each trial, so the failure count is
stochastically below Binomial(trials, p)).  The broken variants are run on the same
fixed seeds; that they fail shows the rows have power against them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from offcmab.validation.events import arms, collect, core, im_node, llm, oracles
from offcmab.validation.events.subject import arm_algorithm
from offcmab.validation.parts import verdict
from offcmab.validation.parts.event_case import EventCase, KnownRate
from offcmab.validation.parts.theorem import find
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.user_algorithm import object_spec

LEVEL = 1e-6
SEED = 2025
TRIALS = 40


def reference(bound_id: str) -> Any:
    """The reference as every run calls it: the function its record's signature names."""
    return find(THEOREMS, bound_id).reference_algorithm()


def verdicts(cases: list[EventCase]) -> list[str]:
    return [core.event_row(core.run_case(case, TRIALS, SEED), LEVEL)["verdict"]
            for case in cases]


def scaled_clcb(scale: float) -> arms.LCBAlgorithm:
    """CLCB's LCB with its radius multiplied by ``scale`` (0: the empirical mean)."""
    from offcmab.reference.confidence import arm_statistics, hoeffding_radius

    def run(dataset: Any, oracle: Any, delta: float) -> tuple[np.ndarray, np.ndarray]:
        stats = arm_statistics(dataset)
        radius = hoeffding_radius(stats.counts, dataset.n, dataset.m, delta)
        lcb = np.full(stats.counts.size, -np.inf)
        seen = stats.counts > 0
        lcb[seen] = stats.means[seen] - scale * radius[seen]
        return stats.counts, lcb

    return run


def arm_cases(profile: str, run: arms.LCBAlgorithm | None = None) -> list[EventCase]:
    """CLCB's and CLCB-Cascade's arm-event rows, both checking ``run`` when given (else the
    references, read through the subject door)."""
    clcb = run or arm_algorithm(reference("thm1-inf"), "clcb")
    cascade = run or arm_algorithm(reference("cor1-cascade"), "clcb-cascade", cascade=True)
    return [*arms.clcb_cases(profile, clcb), *arms.cascade_cases(profile, cascade)]


def online_cases(profile: str) -> list[EventCase]:
    """The online events on the printed learner, the online bound's reference."""
    return llm.online_cases(profile, reference("thm-llm-online"), llm.PRINTED)


def llm_cases(profile: str) -> list[EventCase]:
    """The cache events of both variants and the online events, on the reference."""
    return [*llm.offline_cases(profile, "standard", reference("lem-llm-std"), "standard"),
            *llm.offline_cases(profile, "improved", reference("thm3-llm"), "improved"),
            *online_cases(profile)]


def test_reference_algorithms_pass_every_event_row() -> None:
    cases = [*arm_cases("quick"), *llm_cases("quick"), *oracles.topk_cases(),
             *oracles.im_cases()]
    rows = [core.event_row(core.run_case(c, TRIALS, SEED), LEVEL) for c in cases]
    assert {row["verdict"] for row in rows if not row["erratum"]} == {core.PASS}


@pytest.mark.parametrize("scale", [0.1, 0.0, -1.0, 10.0])
def test_arm_event_catches_wrong_radius(scale: float) -> None:
    """Radius x0.1, no radius (empirical mean), a UCB (x-1), and radius x10 all fail."""
    assert set(verdicts(arm_cases("quick", scaled_clcb(scale)))) == {core.FAIL}


def test_im_intervals_catch_the_printed_estimator() -> None:
    from offcmab.reference.im.clcb_im_node import edge_lcbs

    def printed(graph: Any, cascades: Any, oracle: Any, delta: float) -> Any:
        return edge_lcbs(graph, cascades, delta, "printed")

    assert verdicts(im_node.cases("quick", reference("thm4-im"), "reference")) \
        == [core.PASS, core.PASS, core.PASS]
    intervals, _edge, _oracle = im_node.cases("quick", printed, "printed")
    assert verdicts([intervals]) == [core.FAIL]


def test_im_oracle_step_catches_seeds_that_ignore_the_lcbs() -> None:
    # Promise 0 with the exact oracle: the reference never falls short (one shortfall fails
    # the row, no false alarm possible); seeds fixed in advance, or an oracle that sees 1 on
    # every edge, fall short on the LCB-weighted graph at n = 20000.
    controls = find(THEOREMS, "thm4-im").controls
    for name in ("ignores-data", "oracle-ignores-weights"):
        oracle_row = im_node.cases("quick", controls[name], f"control:{name}")[2]
        assert oracle_row.id == "event-im-oracle-step"
        assert verdicts([oracle_row]) == [core.FAIL], name


def test_im_edge_row_catches_an_lcb_above_the_truth() -> None:
    from dataclasses import replace

    from offcmab.reference.im.clcb_im_node import edge_lcbs

    def optimistic(graph: Any, cascades: Any, oracle: Any, delta: float) -> Any:
        result = edge_lcbs(graph, cascades, delta)
        return replace(result, lcb=np.minimum(result.estimates.p_hat + 0.05, 1.0))

    assert verdicts(im_node.cases("quick", optimistic, "optimistic")[1:2]) == [core.FAIL]


def broken_cache(change: str) -> Callable[[Any, int, float, str], Any]:
    """CLCB-LLM-C with the cost UCB replaced by the mean or an LCB, or the arrival UCB
    turned into an LCB."""
    from dataclasses import replace

    from offcmab.reference.clcb_llm import clcb_llm

    def run(log: Any, k: int, delta: float, variant: str) -> Any:
        result = clcb_llm(log, k, delta, variant)  # type: ignore[arg-type]
        spread = result.c_ucb - result.c_hat
        if change == "cost-mean":
            return replace(result, c_ucb=result.c_hat)
        if change == "cost-lcb":
            return replace(result, c_ucb=result.c_hat - spread)
        return replace(result, p_ucb=2 * result.p_hat - result.p_ucb)

    return run


@pytest.mark.parametrize(("change", "event_id"), [
    ("cost-mean", "event-llm-cost-improved"), ("cost-lcb", "event-llm-cost-standard"),
    ("frequency-lcb", "event-llm-frequency-standard")])
def test_cache_events_catch_broken_ucbs(change: str, event_id: str) -> None:
    variant = event_id.rsplit("-", 1)[1]
    broken = broken_cache(change)

    def subject(log: Any, k: int, delta: float) -> Any:
        return broken(log, k, delta, variant)

    cases = [c for c in llm.offline_cases("quick", variant, subject, change) if c.id == event_id]
    assert cases and set(verdicts(cases)) == {core.FAIL}  # ood-small, and cache-wide for costs


def test_printed_stream_lemma_is_a_known_failure_linked_to_its_erratum() -> None:
    from offcmab.bounds.claims import CLAIMS

    cases = {c.id: c for c in online_cases("default")}
    printed = cases["event-stream-oracle-printed"]
    assert printed.erratum in {claim.id for claim in CLAIMS}
    row = core.event_row(core.run_case(printed, 20, SEED), LEVEL)
    assert row["verdict"] == core.KNOWN and row["violations"] > 0
    assert row["known_rate"] == llm.STREAM_ORACLE_RATE.rate
    corrected = core.event_row(core.run_case(cases["event-stream-oracle"], 20, SEED), LEVEL)
    assert corrected["verdict"] == core.PASS and corrected["failure_probability"] == 0.0


def test_the_corrected_lemma_row_names_the_algorithm_it_runs() -> None:
    """The erratum corrects the algorithm (a radius fixed between feedbacks), so the
    corrected row runs the fixed-log variant and its algorithm and statement say so; the
    printed row runs the printed learner (the online bound's reference)."""
    cases = {c.id: c for c in online_cases("quick")}
    corrected = cases["event-stream-oracle"]
    assert "fixed-log" in corrected.algorithm and "fixed-log" in corrected.statement
    assert not corrected.erratum
    assert cases["event-stream-oracle-printed"].algorithm.endswith("printed_cache")


@pytest.mark.parametrize(("case", "rate"), [
    (llm.stream_oracle_case(), llm.STREAM_ORACLE_RATE),
    (llm.printed_radius_case(), llm.PRINTED_RADIUS_RATE)], ids=["oracle", "radius"])
def test_stored_known_failure_rates_are_remeasured(case: EventCase,
                                                   rate: KnownRate) -> None:
    """The printed algorithm's rates stored with the known-failure rows are what the same
    measurement (reference learner, seed MEASURE_SEED, the stored number of trials) gives."""
    assert rate.seed == llm.MEASURE_SEED
    assert llm.measured(case, rate.trials) == rate.failures


def test_online_cost_event_counts_each_running_mean() -> None:
    """Hand-made stream: query 0 misses with costs 1, 0 (means 1, 1/2); a hit is ignored."""
    queries, costs = np.array([0, 0, 1, 0]), np.array([1.0, 0.0, 0.3, 0.9])
    hits = np.array([False, False, False, True])
    c = np.array([0.5, 0.3])
    # radius at N = 1: sqrt(log(3*2*4/delta)/2); the first mean is off by 0.5.
    loose = 3 * 2 * 4 / np.exp(2 * 0.5**2) * 1.01  # delta making that radius just below 0.5
    assert llm.online_cost_event_fails(queries, costs, hits, c, loose)
    assert not llm.online_cost_event_fails(queries, costs, hits, c, 0.05)


def test_topk_row_catches_an_oracle_that_ignores_its_weights() -> None:
    from dataclasses import replace

    case = oracles.topk_case(10, 3)
    ignores = replace(case, draw=lambda rng: case.draw(rng) or bool(rng.random() < 0.5))
    assert verdicts([ignores]) == [core.FAIL]


def test_detectable_rate_is_flagged_with_probability_point_nine() -> None:
    trials, failure = 150, 0.05
    rate = core.detectable_rate(trials, failure, LEVEL)
    allowed = verdict.allowed_violations(trials, failure, LEVEL)
    assert verdict.binomial_tail(allowed + 1, trials, rate) == pytest.approx(0.9, abs=1e-6)
    assert failure < rate < 1.0


def test_known_failure_rows_count_against_the_budget() -> None:
    """An erratum row can fail (a subject worse than the printed algorithm), so it counts,
    unless the printed algorithm breaks the statement in every measured trial; a run that
    does not reproduce the erratum gives a note."""
    cases = {c.id: c for c in online_cases("quick") if c.erratum}
    assert core.can_fail(cases["event-stream-oracle-printed"])
    assert not core.can_fail(cases["event-online-lcb-printed"])  # 1000 of 1000 measured
    assert all(core.can_fail(c) for c in online_cases("quick") if not c.erratum)
    result = core.EventResult(cases["event-stream-oracle-printed"], 10, 0, 0.0)
    assert core.event_row(result, LEVEL)["verdict"] == core.NOTE


def _known_row(failures: int, trials: int, known: KnownRate) -> dict[str, Any]:
    case = EventCase("event-x", (), "a", "l", "s", "i", 1, 0.1, 0.0,
                          lambda rng: True, "erratum-x", 0, known)
    return core.event_row(core.EventResult(case, trials, failures, 0.0), LEVEL)


def test_a_known_failure_row_fails_a_subject_worse_than_the_printed_rate() -> None:
    """Measured 400 of 1000: the upper limit (confidence 1 - 1e-3) lies near 0.45; 20 of 20
    breaks have probability 0.45^20 ~ 1e-7 < LEVEL there (FAIL), 10 of 20 are consistent."""
    known = KnownRate(400, 1000, 0)
    assert 0.4 < known.upper() < 0.46
    assert verdict.binomial_tail(401, 1000, known.upper()) == pytest.approx(1 - 1e-3, abs=1e-9)
    assert _known_row(20, 20, known)["verdict"] == core.FAIL
    assert _known_row(10, 20, known)["verdict"] == core.KNOWN
    assert _known_row(0, 20, known)["verdict"] == core.NOTE
    assert _known_row(20, 20, KnownRate(1000, 1000, 0))["verdict"] == core.KNOWN


def test_an_erratum_row_needs_its_measured_rate() -> None:
    with pytest.raises(ValueError, match="known: the known-failure row event-x"):
        EventCase("event-x", (), "a", "l", "s", "i", 1, 0.1, 0.0, lambda rng: True,
                       "erratum-x")


class CachesOnly:
    """An online learner that hides the LCBs of the learner it wraps."""

    def __init__(self, learner: Any) -> None:
        self.cache, self.observe = learner.cache, learner.observe


def _subject(bound_id: str, name: str) -> str:
    """The spec of an in-process test subject of ``bound_id``: ``narrow`` is the reference
    with its radius x0.1 (CMAB-T), its cost UCB the mean (caches), or the reference itself
    (IM, online), returning its statistics; ``action`` returns the reference's action only.
    """
    from dataclasses import replace

    from offcmab.reference.clcb import clcb
    from offcmab.reference.clcb_cascade import clcb_cascade
    from offcmab.reference.clcb_llm import clcb_llm
    from offcmab.reference.im.clcb_im_node import clcb_im_node

    printed = find(THEOREMS, "thm-llm-online").reference_algorithm()

    def narrowed(low: Any) -> Any:
        return replace(low, lcb=low.lcb + 0.9 * (low.means - low.lcb))

    def online(m: int, k: int, delta: float) -> Any:
        learner = printed(m, k, delta)
        return CachesOnly(learner) if name == "action" else learner

    def cache(log: Any, k: int, delta: float) -> Any:
        result = clcb_llm(log, k, delta)
        return result.cache if name == "action" else replace(result, c_ucb=result.c_hat)

    def node(graph: Any, cascades: Any, oracle: Any, delta: float) -> Any:
        result = clcb_im_node(graph, cascades, oracle, delta)
        return result.seeds if name == "action" else result

    def cascade(dataset: Any, k: int, delta: float) -> Any:
        result = clcb_cascade(dataset, k, delta)
        return result.action if name == "action" else narrowed(result)

    def general(dataset: Any, oracle: Any, delta: float) -> Any:
        result = clcb(dataset, oracle, delta)
        return result.action if name == "action" else narrowed(result)

    functions = {"thm-llm-online": online, "lem-llm-std": cache, "thm3-llm": cache,
                 "thm4-im": node, "cor1-cascade": cascade}
    return object_spec(functions.get(bound_id, general))


def test_a_subject_exposing_its_statistics_is_checked() -> None:
    """``narrow`` (radius x0.1, cost UCB = mean) fails the arm and cost rows; its node-level
    statistics are the reference's and pass."""
    cases = [case for theorem in THEOREMS
             for case in collect.theorem_cases(theorem, "quick", _subject(theorem.id, "narrow"))
             if case.id.startswith(("event-arm", "event-llm-cost", "event-im-edge"))]
    rows = {(c.id, c.instance): v for c, v in zip(cases, verdicts(cases), strict=True)}
    assert {v for (i, _), v in rows.items() if i.startswith(("event-arm", "event-llm"))} \
        == {core.FAIL}
    assert rows[("event-im-edge-lcb", "star-and-chain")] == core.PASS


def test_a_subject_returning_only_its_action_gets_na_event_rows() -> None:
    rows = {}
    for bound_id in ("thm1-inf", "thm-llm-online"):
        spec = _subject(bound_id, "action")
        results = collect.run([find(THEOREMS, bound_id)], "quick", SEED, spec)
        rows |= {row["id"]: row | {"spec": spec} for row in collect.rows(results, LEVEL)}
    assert rows["event-arm-clcb"]["verdict"] == core.NA
    assert "expose their confidence bounds" in rows["event-arm-clcb"]["reason"]
    # The corrected lemma's row runs the erratum's fixed-log learner, never the subject: a
    # subject-free row, held by reference runs only.
    assert "event-stream-oracle" not in rows
    assert rows["event-online-cost"]["verdict"] == core.PASS  # hits come from its caches
    assert rows["event-online-cost"]["algorithm"] == rows["event-online-cost"]["spec"]
    assert rows["event-online-lcb"]["verdict"] == core.NA  # caches only: no LCBs to check
    assert "returns no lcbs" in rows["event-online-lcb"]["reason"]


def test_printed_online_lcb_leaves_the_sandwich_at_round_one() -> None:
    """Round 1 has log t = 0: the printed LCB is the first cost itself (1 > c = 0.5);
    costs equal to the means keep every LCB in [c - 2 r_E, c] for T = 4."""
    queries, hits = np.array([0, 1, 0, 1]), np.zeros(4, dtype=bool)
    c = np.array([0.5, 0.3])
    assert llm.printed_lcb_sandwich_fails(queries, np.array([1.0, 0.3, 0.5, 0.3]), hits, c, 0.05)
    assert not llm.printed_lcb_sandwich_fails(queries, c[queries], hits, c, 0.05)


def test_printed_online_radius_is_a_known_failure() -> None:
    case = next(c for c in online_cases("quick") if c.id == "event-online-lcb-printed")
    assert case.erratum == "alg:CUCB-LLM_stream/radius-vs-proof"
    assert core.event_row(core.run_case(case, 10, SEED), LEVEL)["verdict"] == core.KNOWN


# -- the online LCB row (corrected steps (c), (f)) on the stream controls -----------------


def test_online_lcb_row_reads_the_lcbs_after_each_miss() -> None:
    """m = 2, T = 4, delta = 1e-3: log(3mT/delta) = log 24000 ~ 10.09, so 12 log t reaches
    it at t = 3 (t0 = 24000^(1/12) ~ 2.32).  An LCB above c counts from round 3 on only; an LCB
    0 counts once c exceeds r_E + sqrt(6 log t/N)."""
    delta = 1e-3
    queries, hits = np.array([0, 1, 0, 1]), np.zeros(4, dtype=bool)
    c = np.array([0.5, 0.3])
    fine = np.array([[0.5, 0.0], [0.5, 0.3], [0.2, 0.3], [0.2, 0.0]])
    assert not llm.online_lcb_fails(queries, hits, fine, c, delta)
    early = fine.copy()
    early[1, 0] = 0.9  # above c in round 2 < t0: the printed radius is below r_E there
    assert not llm.online_lcb_fails(queries, hits, early, c, delta)
    late = fine.copy()
    late[2, 0] = 0.6  # above c in round 3 >= t0
    assert llm.online_lcb_fails(queries, hits, late, c, delta)
    skipped = late.copy()
    hit = np.array([False, False, True, False])  # round 3 a hit: its LCBs are not recomputed
    assert not llm.online_lcb_fails(queries, hit, skipped, c, delta)
    long_queries = np.zeros(4000, dtype=np.int64)
    zero = np.zeros((4000, 2))  # c = 0.5 but lcb = 0 after 4000 feedbacks: below c - r_E - rho
    assert llm.online_lcb_fails(long_queries, np.zeros(4000, dtype=bool), zero, c, delta)


@pytest.mark.parametrize("name", ["no-pessimism", "optimism", "radius-0.1", "ignores-data"])
def test_online_lcb_row_flags_every_stream_control(name: str) -> None:
    """Each control of thm-llm-online fails event-online-lcb on the fixed seed, with its own
    LCBs (its StreamRun's ``lcbs``); the printed reference passes it.  The row's promised
    failure is 2 delta/3 per trial, so the reference fails it with probability at most
    LEVEL = 1e-6 (exact binomial); at 10 trials a control needs 6 event failures."""
    online = find(THEOREMS, "thm-llm-online")

    def row(spec: str) -> dict[str, Any]:
        [case] = [c for c in collect.theorem_cases(online, "quick", spec)
                  if c.id == "event-online-lcb" and c.instance == "stream-lcb"]
        return core.event_row(core.run_case(case, TRIALS, SEED), LEVEL)

    assert row(f"control:{name}")["verdict"] == core.FAIL
    reference = row("reference")
    assert reference["verdict"] == core.PASS and reference["failure_probability"] == 0.05 * 2 / 3


def test_frequency_lcb_gets_the_standard_frequency_row_only() -> None:
    """Built for lem-llm-std alone, the control frequency-lcb (a standard-variant control,
    unknown to thm3-llm) gets the frequency row, which its LCB in place of p_bar fails
    (p <= p_bar breaks wherever p_hat is within its radius of p); false alarm of the
    reference at most LEVEL = 1e-6 per row, exact binomial at the promised delta/2."""
    cases = collect.theorem_cases(find(THEOREMS, "lem-llm-std"), "quick",
                                  "control:frequency-lcb")
    assert {c.bound_ids for c in cases} == {("lem-llm-std",)}
    rows = {c.id: v for c, v in zip(cases, verdicts(cases), strict=True)}
    # the certificate holds for whatever cache is returned, so its row cannot flag this
    # control and is not run for it (n/a, with the reason)
    assert rows == {"event-llm-cost-standard": core.PASS,
                    "event-llm-frequency-standard": core.FAIL,
                    "event-certificate-llm-standard": core.NA}
