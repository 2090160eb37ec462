"""The many-arm event rows: every interval must cover at once, as the proofs' events say.

A radius half as wide as the proof needs, or the radius of one Hoeffding interval without
the union bound over arms and counts, still covers on a few arms or on means near 0 or 1;
on hundreds of arms with means near 1/2 (``im-edge-wide``, ``cascade-wide``,
``cache-wide``, ``stream-wide``) some interval misses in a large share of the datasets,
and the rows flag it.

Every verdict is the exact binomial test at ``LEVEL``, the row level of a default run of
every bound id (budget 1e-3 over about 400 rows): a correct algorithm fails a row with
probability at most ``LEVEL`` = 2.5e-6 (its event fails with probability at most the
promised ``p`` per trial, so its failure count is stochastically below Binomial(T, p)).
The miss probabilities of the broken variants are exact binomial tails at a lower limit
of their per-trial failure rate, measured once on another seed (:data:`FLAGGED`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from offcmab.reference.confidence import arm_statistics
from offcmab.reference.im.clcb_im_node import bernstein_radius, edge_lcbs
from offcmab.reference.problems.llm_cache import sample_log
from offcmab.validation.controls import cmab, im, llm, stream
from offcmab.validation.events import collect, core
from offcmab.validation.parts import verdict
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET
from offcmab.validation.parts.theorem import find
from offcmab.validation.scenarios import cmabt, llm_instances
from offcmab.validation.scenarios import im as im_scenario
from offcmab.validation.scenarios.llm_online import draw_stream, feed
from offcmab.validation.theorems import THEOREMS

LEVEL = FALSE_ALARM_BUDGET / 400
SEED = 7
WIDE = ("im-edge-wide", "cascade-wide", "cache-wide", "stream-wide")


def wide_case(bound_id: str, subject: str) -> EventCase:
    """The one many-arm row of ``bound_id``, checking ``subject`` (a spec)."""
    [case] = [case for case in collect.theorem_cases(find(THEOREMS, bound_id), "default",
                                                     subject) if case.instance in WIDE]
    return case


def row(case: EventCase, trials: int) -> dict[str, Any]:
    return core.event_row(core.run_case(replace(case, trials=trials), trials, SEED), LEVEL)


@pytest.mark.parametrize(("bound_id", "trials"), [
    ("thm1-inf", 40), ("cor1-cascade", 40), ("thm3-llm", 40), ("lem-llm-std", 40),
    ("thm-llm-online", 10)])
def test_the_reference_passes_the_wide_rows(bound_id: str, trials: int) -> None:
    """False alarm at most LEVEL = 2.5e-6 per row (the exact test at the promised p)."""
    found = row(wide_case(bound_id, "reference"), trials)
    assert found["verdict"] == core.PASS, found


#: (bound id, control, trials, promised p, lower limit of the control's per-trial failure
#: rate): rates measured once (run seed 99, 300 trials; cor1-cascade radius-0.5: 1000;
#: thm-llm-online: 200) as failures of trials, lower limits one-sided at 1e-3:
#: im-edge-wide radius-0.5 238/300 (0.713), no-union-bound 227/300 (0.673); cascade-wide
#: radius-0.5 343/1000 (0.297), no-union-bound 245/300 (0.739); cache-wide no-union-bound
#: improved 272/300 (0.844), standard 262/300 (0.804) (the same counts on the rows that
#: check the registry's cost events at their shares of delta); stream-wide no-union-bound 86/200
#: (0.323).  :func:`test_stated_miss_probabilities` turns each into the probability that
#: the row misses the control.
FLAGGED = [("thm1-inf", "radius-0.5", 40, 0.025, 0.713),
           ("thm1-inf", "no-union-bound", 40, 0.025, 0.673),
           ("cor1-cascade", "radius-0.5", 300, 0.05, 0.297),
           ("cor1-cascade", "no-union-bound", 60, 0.05, 0.739),
           # the cost event's share of delta = 0.05: delta/3 (thm3-llm), delta/4 (lem-llm-std)
           ("thm3-llm", "no-union-bound", 40, 0.05 / 3, 0.844),
           ("lem-llm-std", "no-union-bound", 40, 0.05 / 4, 0.804)]


def miss(trials: int, promised: float, rate: float) -> float:
    """P(the row does not flag a subject failing each trial with probability ``rate``)."""
    allowed = verdict.allowed_violations(trials, promised, LEVEL)
    return 1.0 - verdict.binomial_tail(allowed + 1, trials, rate)


@pytest.mark.parametrize(("bound_id", "name", "trials", "promised", "rate"), FLAGGED)
def test_half_radius_and_no_union_bound_fail_the_wide_rows(bound_id: str, name: str,
                                                           trials: int, promised: float,
                                                           rate: float) -> None:
    """Miss probability below 2e-9 each (:func:`test_stated_miss_probabilities`)."""
    found = row(wide_case(bound_id, f"control:{name}"), trials)
    assert found["failure_probability"] == promised
    assert found["verdict"] == core.FAIL, found


def test_no_union_bound_fails_the_online_lcb_row() -> None:
    """stream-wide, no-union-bound: 86 of 200 trials broke the event (rate 0.43, lower limit
    0.32 at 1e-3); the row flags above 9 failures of 40, so it misses the control with
    probability 5.7e-3 at the measured rate (0.12 at the lower limit; a trial costs ~0.1 s,
    so the test stays at 40).  The seed is fixed: the outcome is the same on every run."""
    found = row(wide_case("thm-llm-online", "control:no-union-bound"), 40)
    assert found["verdict"] == core.FAIL, found


def test_stated_miss_probabilities() -> None:
    """The miss probabilities quoted above, from the exact binomial tails at LEVEL."""
    for _bound_id, _name, trials, promised, rate in FLAGGED:
        assert miss(trials, promised, rate) < 2e-9
    assert miss(40, 0.05 * 2 / 3, 0.43) < 6e-3


# -- what each family's no_union_bound computes ----------------------------------------------

DELTA = 0.05


def lone(counts: np.ndarray) -> np.ndarray:
    """The radius of one two-sided Hoeffding interval at DELTA."""
    return np.sqrt(np.log(2.0 / DELTA) / (2.0 * counts))


def test_cmab_no_union_bound_is_a_lone_hoeffding_interval() -> None:
    setup = cmabt.build(cmabt.wide_cascade(40))
    dataset = setup.law.sample(2000, np.random.default_rng(1))
    stats = arm_statistics(dataset)
    seen = stats.counts > 0
    for control, rule in ((cmab.no_union_bound, "alg1"),
                          (cmab.CASCADE_CONTROLS["no-union-bound"], "cascade")):
        second = setup.oracle if rule == "alg1" else 2
        result = control(dataset, second, DELTA)
        assert np.allclose(result.lcb[seen], stats.means[seen] - lone(stats.counts[seen]),
                           rtol=0, atol=1e-12)
        half = cmab.CLCB_CONTROLS["radius-0.5"](dataset, setup.oracle, DELTA)
        rho = np.sqrt(np.log(4.0 * 40 * 2000 / DELTA) / (2.0 * stats.counts[seen]))
        assert np.allclose(half.lcb[seen], stats.means[seen] - rho / 2, rtol=0, atol=1e-12)


@pytest.mark.parametrize("variant", ["improved", "standard"])
def test_cache_no_union_bound_is_a_lone_hoeffding_interval(variant: str) -> None:
    setup = llm_instances.build(llm_instances.wide_cache(40))
    log = sample_log(setup.problem, setup.law, 2000, np.random.default_rng(2), "bernoulli")
    result = llm.no_union_bound(log, 4, DELTA, variant)  # type: ignore[arg-type]
    seen = result.cost_counts > 0
    assert np.allclose(result.c_ucb[seen] - result.c_hat[seen], lone(result.cost_counts[seen]),
                       rtol=0, atol=1e-12)
    if variant == "standard":
        assert np.allclose(result.p_ucb - result.p_hat, lone(np.full(40, 2000)), rtol=0,
                           atol=1e-12)


def test_stream_no_union_bound_is_a_lone_hoeffding_interval() -> None:
    problem = llm_instances.build(llm_instances.wide_stream(10)).problem
    queries, costs = draw_stream(problem, 300, np.random.default_rng(3), "bernoulli")
    run = feed(stream.no_union_bound(10, 1, DELTA), queries, costs, 10, 1)
    last = np.flatnonzero(~run.hits)[-1]
    observed = np.zeros((300, 10))
    misses = np.flatnonzero(~run.hits)
    observed[misses, queries[misses]] = 1.0
    counts = observed[: last + 1].sum(axis=0)
    means = (observed[: last + 1] * costs[: last + 1, None]).sum(axis=0) / counts
    want = np.maximum(means - lone(counts), 0.0)
    assert run.lcbs is not None
    assert np.allclose(run.lcbs[last], want, rtol=0, atol=1e-12)


def test_im_no_union_bound_uses_the_lemma_at_delta() -> None:
    problem = im_scenario.build(im_scenario.star_and_chain())
    cascades = problem.sample(2000, np.random.default_rng(4))
    oracle = im_scenario.exact_oracle(problem.graph, 2)
    ref = edge_lcbs(problem.graph, cascades, DELTA)
    mine = im.no_union_bound(problem.graph, cascades, oracle, DELTA)
    n = np.full(problem.graph.nodes, ref.counters.n)
    want = np.clip(ref.estimates.q + bernstein_radius(ref.estimates.q, n, np.log(1 / DELTA)),
                   0.0, 1.0)
    assert np.allclose(mine.q_ucb, want, rtol=0, atol=1e-12)
    assert ref.log_term > np.log(1 / DELTA)


def test_every_family_exposes_no_union_bound() -> None:
    """One module-level ``no_union_bound`` per family, and the two new controls on every
    theorem whose algorithm has a confidence radius (the lower bound's pair included)."""
    for module in (cmab, llm, stream, im):
        assert callable(module.no_union_bound)
    for theorem in THEOREMS:
        assert {"radius-0.5", "no-union-bound"} <= set(theorem.controls), theorem.id

