"""Event rows check the radius and promise the failure probability of the registry's events.

For every bound id whose proof rests on a Hoeffding event, the row's own draw is handed a
subject whose confidence bounds sit just inside, then just outside, the radius evaluated
here from :mod:`offcmab.bounds.events` with sympy: the row must pass the first and flag the
second, so its radius is the registry's to a relative 1e-6.  Its promised failure
probability is the registry's, evaluated here independently of the rows' code.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
import sympy as sp

from offcmab.bounds import events
from offcmab.bounds.events import IM_DELTA_PRIME, N
from offcmab.bounds.symbols import E, T, delta, m, n
from offcmab.reference import certificates
from offcmab.reference.clcb_llm import ucb_radius
from offcmab.reference.im.clcb_im_node import clcb_im_node
from offcmab.validation.events import arms, im_node, llm
from offcmab.validation.scenarios import cmabt, llm_instances
from offcmab.validation.scenarios.im import build, exact_oracle, star_and_chain

INSIDE, OUTSIDE = 1.0 - 1e-6, 1.0 + 1e-6


def registry_radius(bound_id: str, name: str, count: float, sizes: dict[sp.Symbol, int],
                    delta_value: float) -> float:
    radius = events.hoeffding_event(bound_id, name).radius
    return float(radius.subs({**sizes, N: count, delta: delta_value}))


def registry_failure(bound_id: str, name: str, sizes: dict[sp.Symbol, int],
                     delta_value: float, share: sp.Expr = sp.S.One) -> float:
    expression = events.event(bound_id, name).failure * share
    return min(float(expression.subs({**sizes, delta: delta_value})), 1.0)


def arm_subject(mu: np.ndarray, bound_id: str, n_value: int, factor: float
                ) -> Callable[[Any, Any, float], tuple[np.ndarray, np.ndarray]]:
    """LCBs at ``mu - 2 factor rho_i`` with every arm counted ``n_value`` times."""
    def run(dataset: Any, oracle: Any, delta_value: float) -> tuple[np.ndarray, np.ndarray]:
        counts = np.full(mu.size, n_value)
        rho = registry_radius(bound_id, "arm", n_value, {m: mu.size, n: n_value}, delta_value)
        return counts, mu - 2.0 * factor * rho
    return run


@pytest.mark.parametrize(("algorithm", "bound_id"), [
    ("offcmab.reference.clcb", "thm1-inf"),
    ("offcmab.reference.im.clcb_im_edge", "thm1-one"),
    ("offcmab.reference.clcb_cascade", "cor1-cascade")])
def test_arm_rows_use_the_registry_radius_and_failure(algorithm: str, bound_id: str) -> None:
    params, n_value = arms.OOD, 300
    mu = np.asarray(cmabt.build(params).problem.mu, dtype=float)
    rng = np.random.default_rng(0)
    for factor, fails in ((INSIDE, False), (OUTSIDE, True)):
        case = arms.arm_case("event-arm-x", algorithm, "ood", params, n_value, 0.05,
                             arm_subject(mu, bound_id, n_value, factor))
        assert case.draw(rng) is fails
    assert case.failure == pytest.approx(registry_failure(bound_id, "arm",
                                                          {m: mu.size, n: n_value}, 0.05))
    assert bound_id in case.bound_ids


def cache_subject(c: np.ndarray, p: np.ndarray, n_value: int, rho_cost: float,
                  rho_freq: float, factor: float) -> Callable[[Any, int, float], Any]:
    """Estimates off by ``factor`` times the event radius, UCBs at the largest value allowed."""
    def run(log: Any, k: int, delta_value: float) -> Any:
        counts = np.full(c.size, n_value)
        printed = ucb_radius(counts, n_value, c.size, delta_value)
        printed_n = float(ucb_radius(np.array([n_value]), n_value, c.size, delta_value)[0])
        c_hat, p_hat = c - factor * rho_cost, p - factor * rho_freq
        return SimpleNamespace(cost_counts=counts, counts=counts, c_hat=c_hat, p_hat=p_hat,
                               c_ucb=c + rho_cost + printed, p_ucb=p + rho_freq + printed_n)
    return run


@pytest.mark.parametrize(("variant", "bound_id", "name", "share"), [
    ("standard", "lem-llm-std", "arm", sp.Rational(1, 2)),  # the costs' half of 2m arms
    ("improved", "thm3-llm", "cost", sp.Integer(1))])
def test_cache_cost_rows_use_the_registry_radius_and_failure(
        variant: str, bound_id: str, name: str, share: sp.Expr) -> None:
    params, n_value, delta_value = llm_instances.small_ood(), 500, 0.05
    problem = llm_instances.build(params).problem
    c, p = np.asarray(problem.c, dtype=float), np.asarray(problem.p, dtype=float)
    sizes = {m: c.size, n: n_value}
    rho = registry_radius(bound_id, name, n_value, sizes, delta_value)
    rng = np.random.default_rng(0)
    for which in ("cost", "frequency") if variant == "standard" else ("cost",):
        for factor, fails in ((INSIDE, False), (OUTSIDE, True)):
            rho_cost = rho if which == "cost" else 0.0
            rho_freq = rho if which == "frequency" else 0.0
            case = llm.cache_case(f"event-llm-{which}-{variant}", variant, which, "ood",
                                  params, n_value, delta_value,
                                  cache_subject(c, p, n_value, rho_cost, rho_freq, factor))
            assert case.draw(rng) is fails, (which, factor)
        assert case.failure == pytest.approx(
            registry_failure(bound_id, name, sizes, delta_value, share))


def test_arrival_row_uses_the_registry_threshold_and_failure() -> None:
    params, n_value, delta_value = llm_instances.small_ood(), 500, 0.05
    problem = llm_instances.build(params).problem
    c, p = np.asarray(problem.c, dtype=float), np.asarray(problem.p, dtype=float)
    sizes = {m: c.size, n: n_value}
    arv = events.event("thm3-llm", "arv")
    assert isinstance(arv, events.StatedEvent) and arv.threshold is not None
    # apdx_lem:vec_concen at the event's own share of delta
    assert sp.simplify(arv.threshold - sp.sqrt(2 * m * sp.log(2 / arv.failure) / n)) == 0
    distance = float(arv.threshold.subs({**sizes, delta: delta_value}))
    rng = np.random.default_rng(0)
    for factor, fails in ((INSIDE, False), (OUTSIDE, True)):
        shifted = p.copy()
        shifted[0] -= factor * distance  # the whole l1 distance on one query
        subject = cache_subject(c, p, n_value, 0.0, 0.0, 0.0)

        def run(log: Any, k: int, delta_value: float, shifted: np.ndarray = shifted,
                subject: Any = subject) -> Any:
            result = subject(log, k, delta_value)
            result.p_hat = shifted
            return result

        case = llm.cache_case("event-llm-frequency-improved", "improved", "frequency", "ood",
                              params, n_value, delta_value, run)
        assert case.draw(rng) is fails
    assert case.failure == pytest.approx(registry_failure("thm3-llm", "arv", sizes,
                                                          delta_value))


@pytest.mark.parametrize(("factor", "fails"), [(INSIDE, False), (OUTSIDE, True)])
def test_online_cost_event_uses_the_registry_radius(factor: float, fails: bool) -> None:
    """Query 0 missed in every one of ``rounds`` rounds at a constant cost: the running mean
    after the last miss is off by ``factor`` times the registry radius at that count."""
    rounds, delta_value = 2000, 0.05
    c = np.array([0.5, 0.5, 0.5, 0.5])
    rho = registry_radius("thm-llm-online", "cost", rounds, {m: c.size, T: rounds},
                          delta_value)
    queries = np.zeros(rounds, dtype=np.int64)
    costs = np.full(rounds, 0.5 + factor * rho)
    hits = np.zeros(rounds, dtype=bool)
    assert llm.online_cost_event_fails(queries, costs, hits, c, delta_value) is fails


def test_online_rows_promise_the_registry_failure() -> None:
    case = llm.online_cost_case(llm.STREAM_INSTANCE, "stream-erratum", 300, 0.05, 2)
    assert case.failure == pytest.approx(registry_failure("thm-llm-online", "cost",
                                                          {m: 4, T: 300}, 0.05))
    assert llm.printed_radius_case().failure == pytest.approx(case.failure)


def test_im_interval_rows_run_at_the_registry_share() -> None:
    """The node-level rows take delta' from the registry, the log term L = log(1/delta')
    too (the reference reports the same L), and promise the union of their intervals."""
    params, n_value, delta_value = star_and_chain(), 200, 0.05
    graph = build(params).graph
    sizes = {n: n_value, E: graph.edges}
    share = float(IM_DELTA_PRIME.subs({**sizes, delta: delta_value}))
    k = int(params["k"])
    hidden = graph.with_probabilities(np.zeros(graph.edges))
    reported = clcb_im_node(hidden, build(params).sample(n_value, np.random.default_rng(0)),
                            exact_oracle(graph, k), delta_value).log_term
    assert float(reported) == pytest.approx(-np.log(share))
    case = im_node.node_case("event-im-intervals", "intervals", "star-and-chain", params,
                             n_value, delta_value, lambda *args: None)
    sources = np.unique(graph.sources).size
    targets = np.unique(graph.targets).size
    assert case.failure == pytest.approx(
        min(share * (2 * (sources + targets) + 2 * n_value * graph.edges), 1.0))
    # the registry's event (every interval of every edge) covers the row's union
    assert case.failure <= float(events.union_failure("thm4-im", events.IM_INTERVAL_EVENTS).subs(
        {**sizes, delta: delta_value}))


@pytest.mark.parametrize(("bound_id", "make"), [
    ("thm1-inf", lambda n_value, m_value, d: certificates.clcb_event(n_value, m_value, d, 4.0)),
    ("cor1-cascade",
     lambda n_value, m_value, d: certificates.clcb_event(n_value, m_value, d, 2.0)),
    ("lem-llm-std", certificates.cache_event)])
def test_the_reference_certificate_events_are_the_registry_events(bound_id: str,
                                                                 make: Any) -> None:
    """The reference's certificates (numpy only) build their own arm events; at every size
    here their radius and failure probability are the registry's."""
    for n_value, m_value, delta_value in ((50, 3, 0.1), (2000, 40, 0.05), (10**6, 7, 1e-6)):
        built = make(n_value, m_value, delta_value)
        sizes = {m: m_value, n: n_value}
        for count in (1, 17, n_value):
            assert float(built.radius(np.array([count]))[0]) == pytest.approx(
                registry_radius(bound_id, "arm", count, sizes, delta_value), rel=1e-12)
        assert built.failure == pytest.approx(
            registry_failure(bound_id, "arm", sizes, delta_value), rel=1e-12)
