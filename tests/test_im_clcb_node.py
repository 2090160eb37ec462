"""CLCB-IM-N: counters, estimator consistency, LCB validity, the estimator finding."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from scipy import stats
from test_im_diffusion import tiny_graph

from offcmab.reference.im.clcb_im_edge import clcb_im_edge, empirical_mean_edge
from offcmab.reference.im.clcb_im_node import clcb_im_node, edge_lcbs, node_counters, plug_in_node
from offcmab.reference.im.data import sample_edge_feedback, sample_node_cascades
from offcmab.reference.im.oracles import IMMOracle

Q = np.array([0.3, 0.4, 0.5, 0.2, 0.3])


def test_counters_match_dense_counting() -> None:
    graph = tiny_graph()
    cascades = sample_node_cascades(graph, Q, 500, np.random.default_rng(1))
    s0, s1 = cascades.membership(0), cascades.membership(1)
    counters = node_counters(graph, cascades)
    assert counters.seeded.tolist() == s0.sum(axis=0).tolist()
    assert counters.not_active_1.tolist() == (~s1).sum(axis=0).tolist()
    neither = (~s0[:, graph.sources] & ~s1[:, graph.targets]).sum(axis=0)
    assert counters.neither.tolist() == neither.tolist()


def test_plug_in_estimate_is_consistent() -> None:
    """The mean absolute error of p̂_uv shrinks as n grows (fixed graph, fixed seeds)."""
    graph = tiny_graph()
    errors = []
    for n in (1000, 10000, 100000):
        cascades = sample_node_cascades(graph, Q, n, np.random.default_rng(n))
        p_hat = edge_lcbs(graph, cascades, 0.1).estimates.p_hat
        errors.append(float(np.mean(np.abs(p_hat - graph.p))))
    assert errors[0] > errors[1] > errors[2]
    assert errors[2] < 0.02


def assert_lcb_failure_rate(lcb_of: Callable[[np.random.Generator], np.ndarray],
                            truth: np.ndarray, delta: float, trials: int) -> None:
    """Pr[some edge has LCB > p_uv] <= delta: over ``trials`` independent datasets the number of
    violating datasets is stochastically below Binomial(trials, delta); we fail only if it
    exceeds c with P[Binomial(trials, delta) > c] < 1e-6 (the false-alarm probability)."""
    c = int(stats.binom.isf(1e-6, trials, delta)) + 1
    assert stats.binom.sf(c, trials, delta) < 1e-6
    violations = sum(bool(np.any(lcb_of(np.random.default_rng(seq)) > truth + 1e-12))
                     for seq in np.random.SeedSequence(42).spawn(trials))
    assert violations <= c


@pytest.mark.slow
def test_node_lcbs_below_truth_at_the_promised_rate() -> None:
    """Events E_arm of apdx_lem:aux_IM make every p̲_uv <= p_uv with probability >= 1 - delta."""
    graph = tiny_graph()
    assert_lcb_failure_rate(
        lambda rng: edge_lcbs(graph, sample_node_cascades(graph, Q, 2000, rng), 0.2).lcb,
        graph.p, delta=0.2, trials=200)


@pytest.mark.slow
def test_edge_lcbs_below_truth_at_the_promised_rate() -> None:
    """Edge-level CLCB: Hoeffding LCBs (event E_arm, apdx_lem:arm_concen) at level delta."""
    graph = tiny_graph()
    oracle = IMMOracle(graph, 1, eps=0.3)
    assert_lcb_failure_rate(
        lambda rng: clcb_im_edge(sample_edge_feedback(graph, Q, 300, rng), oracle, 0.2).lcb,
        graph.p, delta=0.2, trials=200)


def test_lcb_is_never_above_plug_in_and_in_unit_interval() -> None:
    graph = tiny_graph()
    result = edge_lcbs(graph, sample_node_cascades(graph, Q, 5000, np.random.default_rng(3)), 0.1)
    assert np.all((result.lcb >= 0) & (result.lcb <= 1))
    assert np.all(result.lcb <= np.nan_to_num(result.estimates.p_hat, nan=1.0) + 1e-12)
    assert np.all(result.q_ucb >= result.estimates.q)


def test_printed_estimator_is_biased_and_breaks_the_lcb() -> None:
    """Finding (claim im-conditional-estimator): with n_{1,v̄} as denominator the 'LCB' exceeds
    the true p_uv on a fixed-seed run; the proof's estimator does not."""
    graph = tiny_graph()
    cascades = sample_node_cascades(graph, Q, 200000, np.random.default_rng(0))
    printed = edge_lcbs(graph, cascades, 0.05, "printed")
    correct = edge_lcbs(graph, cascades, 0.05, "correct")
    assert np.all(correct.lcb <= graph.p)
    assert np.any(printed.lcb > graph.p + 0.2)


def test_algorithms_return_k_seeds() -> None:
    graph = tiny_graph()
    oracle = IMMOracle(graph, 2, eps=0.2)
    cascades = sample_node_cascades(graph, Q, 3000, np.random.default_rng(4))
    assert clcb_im_node(graph, cascades, oracle, 0.1).seeds.size == 2
    assert plug_in_node(graph, cascades, oracle).size == 2
    feedback = sample_edge_feedback(graph, Q, 3000, np.random.default_rng(5))
    result = clcb_im_edge(feedback, oracle, 0.1)
    assert result.action.size == 2 and np.all(result.lcb <= result.means + 1e-12)
    assert empirical_mean_edge(feedback, oracle).size == 2


def test_bad_estimator_and_delta() -> None:
    graph = tiny_graph()
    cascades = sample_node_cascades(graph, Q, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="estimator"):
        edge_lcbs(graph, cascades, 0.1, "other")
    with pytest.raises(ValueError, match="delta"):
        edge_lcbs(graph, cascades, 1.0)


@pytest.mark.parametrize("n", [10, 100, 1000, 10000])
def test_variance_adaptive_events_of_aux_lemma_exactly(n: int) -> None:
    """Events E_arm,1/2 (UCB side) and E_arm,3 (LCB side) of apdx_lem:aux_IM, for a mean of n
    Bernoulli(x) draws, fail with probability <= 2 delta'; computed exactly from the binomial
    pmf (no sampling, so no false alarm)."""
    from offcmab.reference.im.clcb_im_node import bernstein_radius

    k = np.arange(n + 1)
    for x in (0.001, 0.05, 0.3, 0.5, 0.9, 0.99):
        pmf = stats.binom.pmf(k, n, x)
        for delta_prime in (1e-2, 1e-6):
            log_term = float(np.log(1 / delta_prime))
            mean = k / n
            radius = bernstein_radius(mean, np.full(k.size, n), log_term)
            ucb, lcb = np.minimum(mean + radius, 1), np.maximum(mean - radius, 0)
            width = 4 * np.sqrt(3) * np.sqrt(x * (1 - x) * log_term / n) + 28 * log_term / n
            fail_ucb = pmf[(ucb < x) | (ucb > min(x + width, 1) + 1e-12)].sum()
            fail_lcb = pmf[(lcb > x) | (lcb < max(x - width, 0) - 1e-12)].sum()
            assert max(fail_ucb, fail_lcb) <= 2 * delta_prime
