"""IC simulation and exact one-step probabilities against exact enumeration on tiny graphs.

Monte-Carlo checks use exact binomial tests (scipy.stats.binomtest) or a normal z-test with
the false-alarm probability stated at each assertion; all generators are seeded.
"""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from offcmab.reference.im.data import sample_edge_feedback, sample_node_cascades
from offcmab.reference.im.diffusion import cascade_sizes, estimate_spread
from offcmab.reference.im.exact import activation_probabilities, exact_spread, reachable_nodes
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.one_step import (
    assumption_parameters,
    edge_probability_identity,
    one_step_probabilities,
    printed_estimand,
)

#: Per-assertion false-alarm probability of the Monte-Carlo tests below.
ALPHA = 1e-6


def tiny_graph() -> ICGraph:
    """Five nodes, six edges, with a path of length 3 and two routes into node 4."""
    return ICGraph.from_edges(5, [0, 0, 1, 2, 3, 1], [1, 2, 2, 3, 4, 4],
                              [0.5, 0.3, 0.7, 0.4, 0.9, 0.2])


def random_graph(seed: int, nodes: int = 6, edges: int = 9) -> ICGraph:
    rng = np.random.default_rng(seed)
    pairs = [(u, v) for u in range(nodes) for v in range(nodes) if u != v]
    chosen = rng.choice(len(pairs), size=edges, replace=False)
    src, dst = zip(*(pairs[i] for i in chosen), strict=True)
    return ICGraph.from_edges(nodes, src, dst, rng.uniform(0.05, 0.95, size=edges))


def test_exact_spread_by_hand() -> None:
    # chain 0 -> 1 -> 2: sigma({0}) = 1 + p01 + p01 p12
    graph = ICGraph.from_edges(3, [0, 1], [1, 2], [0.5, 0.4])
    assert exact_spread(graph, [0]) == pytest.approx(1 + 0.5 + 0.2, abs=1e-12)
    assert reachable_nodes(graph, [1]).tolist() == [False, True, True]


@pytest.mark.parametrize("seeds", [[0], [1, 3], [0, 2]])
def test_node_activation_frequencies_match_exact(seeds: list[int]) -> None:
    graph = tiny_graph()
    exact = activation_probabilities(graph, seeds)
    runs = 20000
    outcome = cascade_sizes(graph, seeds, runs, np.random.default_rng(7))
    assert outcome.mean() == pytest.approx(exact.sum(), abs=5 * np.sqrt(graph.nodes**2 / runs))
    # each node's activation count is Binomial(runs, exact_v): exact two-sided binomial test
    from offcmab.reference.im.diffusion import Diffusion, diffuse  # the raw per-node outcome

    keys = (np.arange(runs)[:, None] * graph.nodes + np.asarray(seeds)[None, :]).ravel()
    raw: Diffusion = diffuse(graph, keys, runs, np.random.default_rng(8))
    counts = np.bincount(raw.active_keys % graph.nodes, minlength=graph.nodes)
    for v in range(graph.nodes):
        if exact[v] in (0.0, 1.0):
            assert counts[v] == exact[v] * runs
        else:  # false alarm <= ALPHA per node
            assert stats.binomtest(int(counts[v]), runs, exact[v]).pvalue > ALPHA


def test_spread_estimate_within_its_standard_error() -> None:
    graph = random_graph(3)
    est = estimate_spread(graph, [0, 1], 20000, np.random.default_rng(11))
    truth = exact_spread(graph, [0, 1])
    # CLT z-test: |z| > 4.89 has two-sided probability 1e-6
    assert abs(est.spread - truth) <= 4.89 * est.stderr


def seed_sets(nodes: int) -> list[tuple[np.ndarray, float]]:
    """Every seed set of the product law with q_u = (u+1)/(V+2), with its probability."""
    q = (np.arange(nodes) + 1.0) / (nodes + 2.0)
    out = []
    for bits in itertools.product([0, 1], repeat=nodes):
        mask = np.array(bits, dtype=bool)
        out.append((mask, float(np.prod(np.where(mask, q, 1 - q)))))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_step_probabilities_by_enumerating_seed_sets(seed: int) -> None:
    """p(v̄), p(v̄|ū) with cumulative S_1, and the identity eq:puv, checked exactly."""
    graph = random_graph(seed)
    V = graph.nodes
    q = (np.arange(V) + 1.0) / (V + 2.0)
    p_not = np.zeros(V)
    joint = np.zeros(graph.edges)  # Pr[u not in S_0, v not in S_1]
    for mask, weight in seed_sets(V):
        # v not in S_1 (cumulative): v not a seed and no seed in-neighbour fires
        fail = np.where(mask[graph.sources], 1 - graph.p, 1.0)
        stay_out = (~mask) * np.exp(np.bincount(graph.targets, np.log(fail), minlength=V))
        p_not += weight * stay_out
        joint += weight * (~mask[graph.sources]) * stay_out[graph.targets]
    exact = one_step_probabilities(graph, q)
    np.testing.assert_allclose(exact.p_not, p_not, atol=1e-12)
    np.testing.assert_allclose(exact.p_not_given_not, joint / (1 - q[graph.sources]), atol=1e-12)
    np.testing.assert_allclose(edge_probability_identity(exact, graph), graph.p, atol=1e-12)
    # the printed estimator's limit is Pr[u not in S_0 | v not in S_1] (Bayes)
    np.testing.assert_allclose(printed_estimand(graph, q), joint / p_not[graph.targets],
                               atol=1e-12)


def test_identity_fails_if_s1_were_only_the_newly_activated() -> None:
    """Why S_1 must be read as cumulative: with S_1 = newly activated nodes the identity breaks."""
    graph = ICGraph.from_edges(2, [0], [1], [0.6])
    q = np.array([0.3, 0.5])
    # newly activated reading: v not in S_1 unless (v not seed and activated by u)
    p_not_new = 1 - (1 - q[1]) * q[0] * 0.6
    p_not_given_not_new = 1.0
    wrong = (1 - p_not_new / p_not_given_not_new) / q[0]
    assert wrong == pytest.approx(0.6 * (1 - q[1]))
    assert wrong != pytest.approx(0.6)
    exact = one_step_probabilities(graph, q)
    assert edge_probability_identity(exact, graph)[0] == pytest.approx(0.6, abs=1e-12)


def test_cascades_are_cumulative_and_match_one_step_law() -> None:
    graph = tiny_graph()
    q = np.array([0.3, 0.4, 0.5, 0.2, 0.3])
    n = 20000
    cascades = sample_node_cascades(graph, q, n, np.random.default_rng(5))
    s0, s1 = cascades.membership(0), cascades.membership(1)
    assert np.all(s1 | ~s0)  # S_0 subset of S_1
    exact = one_step_probabilities(graph, q)
    for v in range(graph.nodes):  # false alarm <= ALPHA each
        assert stats.binomtest(int(s0[:, v].sum()), n, q[v]).pvalue > ALPHA
        assert stats.binomtest(int((~s1[:, v]).sum()), n, exact.p_not[v]).pvalue > ALPHA
    sets = cascades.head(3).as_sets()
    for record in sets:
        assert all(set(a) <= set(b) for a, b in itertools.pairwise(record))


def test_edge_feedback_outcomes_are_bernoulli_p() -> None:
    graph = tiny_graph()
    feedback = sample_edge_feedback(graph, 0.3, 20000, np.random.default_rng(9))
    data = feedback.dataset
    counts = np.bincount(data.triggered, minlength=graph.edges)
    fired = np.bincount(data.triggered, weights=data.outcomes, minlength=graph.edges)
    for e in range(graph.edges):  # given N_e, fired ~ Binomial(N_e, p_e); false alarm <= ALPHA
        assert stats.binomtest(int(fired[e]), int(counts[e]), graph.p[e]).pvalue > ALPHA
    # an edge is triggered exactly when its source is active: sources never active => no entry
    seeds_per_record = np.diff(feedback.seed_offsets)
    assert seeds_per_record.sum() == feedback.seeds.size


def test_assumption_parameters() -> None:
    graph = tiny_graph()
    q = np.array([0.3, 0.4, 0.5, 0.2, 0.3])
    params = assumption_parameters(graph, q, [3])
    # S* = {3} triggers only edge (3, 4): gamma = min(q_3, 1 - q_3), eta = p(4̄)
    assert params.triggerable.sum() == 1
    assert params.gamma == pytest.approx(0.2)
    assert params.eta == pytest.approx(one_step_probabilities(graph, q).p_not[4])
    assert graph.d_max == 2


def test_reference_import_stays_light() -> None:
    import subprocess

    code = ("import sys, reference, reference.im.oracles, reference.im.clcb_im_node, "
            "offcmab.reference.im.graph_io; "
            "print(any(m in sys.modules for m in ('scipy', 'sympy', 'networkx')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_edge_level_problem_and_data_law() -> None:
    from offcmab.reference.im.problem import EdgeLevelIM, NodeLevelIM, ProductSeedLaw
    from offcmab.reference.problems.base import CMABTProblem, DataLaw

    graph = tiny_graph()
    q = np.array([0.3, 0.4, 0.5, 0.2, 1.0])
    problem, law = EdgeLevelIM(graph, 2), ProductSeedLaw(graph, q)
    assert isinstance(problem, CMABTProblem) and isinstance(law, DataLaw)
    n = 20000
    data = law.sample(n, np.random.default_rng(12))
    counts = np.bincount(data.triggered, minlength=graph.edges)
    for e, p_e in enumerate(law.data_trigger_probabilities()):  # false alarm <= ALPHA each
        if p_e < 1.0:
            assert stats.binomtest(int(counts[e]), n, p_e).pvalue > ALPHA
        else:
            assert counts[e] == n
    star = problem.optimal_action()
    assert problem.reward(star) == pytest.approx(exact_spread(graph, star))
    assert problem.trigger_probabilities(star)[graph.sources == star[0]].min() == 1.0
    instance = NodeLevelIM(graph, q, 2)
    params = instance.theorem_parameters(100, 0.1)
    assert params["sigma_star"] == problem.reward(star)
    # q_4 = 1 makes node 4 always active, so p(4̄) = 0 and the assumption fails (eta = 0)
    assert star.tolist() == [0, 3]
    assert params["gamma"] == pytest.approx(0.2) and params["eta"] == 0.0
    assert not instance.assumption().holds


@given(seed=st.integers(0, 10**6), q_low=st.floats(0.01, 0.5), q_high=st.floats(0.5, 0.99))
def test_identity_eq_puv_holds_for_random_instances(seed: int, q_low: float,
                                                    q_high: float) -> None:
    """eq:puv with cumulative S_1, exactly (closed form), for random graphs and seed laws."""
    graph = random_graph(seed % 1000, nodes=7, edges=15)
    q = np.random.default_rng(seed).uniform(q_low, q_high, size=graph.nodes)
    exact = one_step_probabilities(graph, q)
    assert np.all(exact.p_not[graph.targets] <= exact.p_not_given_not + 1e-15)  # steps (d), (g)
    np.testing.assert_allclose(edge_probability_identity(exact, graph), graph.p, atol=1e-9)
