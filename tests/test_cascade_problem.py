"""Cascading bandit problem and data laws: exact formulas against brute force and Monte-Carlo.

Monte-Carlo checks use exact binomial tails (tests/mc_binomial.py) with the
per-quantity false-alarm probability ``ALPHA``; each test states its total.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mc_binomial import binomial_rejects

from offcmab.reference.errors import InputError
from offcmab.reference.problems.base import CMABTProblem, DataLaw
from offcmab.reference.problems.cascade import (
    AdaptiveListsLaw,
    CascadeProblem,
    ListMixtureLaw,
    UniformListsLaw,
    cascade_feedback,
    leave_one_out_elementary,
    ranked_lists,
    uniform_ranked_lists,
)

ALPHA = 1e-6


def test_protocols_and_validation() -> None:
    problem = CascadeProblem(np.array([0.2, 0.5, 0.1]), 2)
    assert isinstance(problem, CMABTProblem)
    assert isinstance(UniformListsLaw(problem), DataLaw)
    assert problem.smoothness_B1 == 1.0 and problem.oracle().alpha == 1.0
    assert problem.optimal_action().tolist() == [1, 0]
    for mu, k, message in [
        ([0.1, 1.2], 1, "mu: must lie in"),
        ([0.1, np.nan], 1, "mu: must be finite"),
        ([], 1, "mu: must be a non-empty"),
        ([0.1, 0.2], 3, "k: must not exceed"),
        ([0.1, 0.2], 0, "k: must be at least 1"),
    ]:
        with pytest.raises(InputError, match=message):
            CascadeProblem(np.array(mu), k)
    with pytest.raises(InputError, match="action: lists an arm more than once"):
        problem.reward(np.array([1, 1]))
    with pytest.raises(InputError, match="action: arm ids must lie"):
        problem.trigger_probabilities(np.array([0, 3]))


def test_reward_and_trigger_probabilities_closed_form() -> None:
    problem = CascadeProblem(np.array([0.2, 0.5, 0.1, 0.0]), 3)
    action = np.array([2, 0, 1])
    assert problem.reward(action) == pytest.approx(1 - 0.9 * 0.8 * 0.5)
    assert problem.trigger_probabilities(action).tolist() == pytest.approx(
        [0.9, 0.9 * 0.8, 1.0, 0.0])
    # Oracle weights: infinities and out-of-range values are clipped to [0, 1].
    assert problem.reward(action, np.array([-np.inf, np.inf, 0.5, 0.0])) == 1.0
    assert problem.reward(action, np.array([-np.inf, -1.0, 0.5, 0.0])) == 0.5


@pytest.mark.slow
def test_reward_and_trigger_probabilities_match_simulation() -> None:
    """False-alarm probability <= 5 * ALPHA (reward plus 4 triggering probabilities)."""
    rng = np.random.default_rng(11)
    problem = CascadeProblem(rng.random(6), 4)
    action = np.array([3, 0, 5, 1])
    n = 100_000
    data = cascade_feedback(problem.mu, np.tile(action, (n, 1)), rng)
    counts = np.bincount(data.triggered, minlength=6)
    clicks = int(data.outcomes.sum())  # at most one click per sample
    assert not binomial_rejects(counts[action], n, problem.trigger_probabilities(action)[action],
                                ALPHA).any()
    assert not binomial_rejects(clicks, n, problem.reward(action), ALPHA)


@given(st.integers(2, 6).flatmap(lambda m: st.tuples(
    st.lists(st.floats(0, 1), min_size=m, max_size=m), st.integers(1, m))))
def test_uniform_law_exact_equals_enumeration_of_all_lists(case: tuple[list[float], int]) -> None:
    problem = CascadeProblem(np.array(case[0]), case[1])
    lists = np.array(ranked_lists(problem))
    mixture = ListMixtureLaw(problem, lists, np.full(len(lists), 1 / len(lists)))
    np.testing.assert_allclose(UniformListsLaw(problem).data_trigger_probabilities(),
                               mixture.data_trigger_probabilities(), rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(mixture.position_matrix(),
                               UniformListsLaw(problem).position_matrix(), atol=1e-12)


def test_leave_one_out_elementary_polynomials() -> None:
    x = np.array([0.3, 1.0, 0.0, 0.5, 0.25])
    e = leave_one_out_elementary(x, 3)
    for i in range(x.size):
        others = np.delete(x, i)
        poly = np.poly1d([1.0])
        for value in others:
            poly = poly * np.poly1d([value, 1.0])  # (1 + value * z), coefficients high first
        coefficients = poly.coeffs[::-1]
        np.testing.assert_allclose(e[:, i], coefficients[:4], atol=1e-12)


@pytest.mark.slow
def test_uniform_law_matches_simulation() -> None:
    """False-alarm probability <= 30 * ALPHA (one check per item)."""
    rng = np.random.default_rng(5)
    problem = CascadeProblem(rng.random(30), 5)
    law = UniformListsLaw(problem)
    n = 200_000
    data = law.sample(n, rng)
    counts = np.bincount(data.triggered, minlength=30)
    assert not binomial_rejects(counts, n, law.data_trigger_probabilities(), ALPHA).any()


@pytest.mark.parametrize("method", ["keys", "rejection"])
def test_uniform_lists_are_valid_and_uniform(method: str) -> None:
    """Each of the 24 ordered lists of 2 out of 5 items (and 20 kinds) is checked.

    False-alarm probability <= 20 * ALPHA.
    """
    rng = np.random.default_rng(3)
    n, m, k = 60_000, 5, 2
    lists = uniform_ranked_lists(n, m, k, rng, method)  # type: ignore[arg-type]
    assert lists.shape == (n, k) and lists.dtype == np.int64
    assert (lists[:, 0] != lists[:, 1]).all() and lists.min() >= 0 and lists.max() < m
    counts = np.bincount(lists[:, 0] * m + lists[:, 1], minlength=m * m)
    off_diagonal = counts[np.arange(m * m) % (m + 1) != 0]
    assert not binomial_rejects(off_diagonal, n, 1 / (m * (m - 1)), ALPHA).any()


def test_sampled_log_is_valid_cascade_feedback() -> None:
    rng = np.random.default_rng(8)
    problem = CascadeProblem(rng.random(12), 4)
    data = UniformListsLaw(problem).sample(500, rng)
    assert data.n == 500 and data.actions is not None and data.action_offsets is not None
    for t in range(data.n):  # small log: a readable per-sample check is fine in a test
        listed = data.actions[data.action_offsets[t]:data.action_offsets[t + 1]]
        seen = data.triggered[data.triggered_offsets[t]:data.triggered_offsets[t + 1]]
        x = data.outcomes[data.triggered_offsets[t]:data.triggered_offsets[t + 1]]
        assert seen.tolist() == listed[: seen.size].tolist()  # a prefix of the list
        assert x[:-1].sum() == 0  # no click before the last observed item
        assert x[-1] == 1 or seen.size == 4  # stops at the click, or at the end


@pytest.mark.slow
def test_mixture_law_matches_simulation() -> None:
    """False-alarm probability <= 8 * ALPHA."""
    rng = np.random.default_rng(2)
    problem = CascadeProblem(rng.random(8), 3)
    lists = np.array([[0, 1, 2], [7, 6, 5], [3, 0, 4]])
    law = ListMixtureLaw(problem, lists, np.array([0.5, 0.3, 0.2]))
    n = 100_000
    counts = np.bincount(law.sample(n, rng).triggered, minlength=8)
    assert not binomial_rejects(counts, n, law.data_trigger_probabilities(), ALPHA).any()


@given(st.integers(0, 2**32 - 1), st.integers(3, 7), st.integers(1, 3), st.integers(1, 6))
def test_position_matrix_decomposition_is_exact(seed: int, m: int, k: int, size: int) -> None:
    rng = np.random.default_rng(seed)
    problem = CascadeProblem(rng.random(m), k)
    lists = np.array([rng.permutation(m)[:k] for _ in range(size)])
    weights = rng.dirichlet(np.ones(size))
    q = ListMixtureLaw(problem, lists, weights).position_matrix()
    law = ListMixtureLaw.from_position_matrix(problem, q)
    np.testing.assert_allclose(law.position_matrix(), q, atol=1e-9)
    assert law.weights.min() >= 0 and law.weights.sum() == pytest.approx(1.0)


def test_position_matrix_uniform_and_bad_matrices() -> None:
    problem = CascadeProblem(np.linspace(0.1, 0.9, 6), 3)
    q = np.full((6, 3), 1 / 6)
    law = ListMixtureLaw.from_position_matrix(problem, q)
    np.testing.assert_allclose(law.position_matrix(), q, atol=1e-12)
    # q does not determine p (the mixture found differs from the uniform law), but
    # every law with position matrix q satisfies the paper's bound apdx_eq:ranking_p_S.
    paper_lower = q @ (1 - problem.mu.max()) ** np.arange(3)
    for p in (law.data_trigger_probabilities(),
              UniformListsLaw(problem).data_trigger_probabilities()):
        assert np.all(p >= paper_lower - 1e-12)
    assert not np.allclose(law.data_trigger_probabilities(),
                           UniformListsLaw(problem).data_trigger_probabilities())
    bad_column = np.full((6, 3), 0.1)
    with pytest.raises(InputError, match="q: every column"):
        ListMixtureLaw.from_position_matrix(problem, bad_column)
    heavy_row = np.zeros((6, 3))
    heavy_row[0] = 1.0
    with pytest.raises(InputError, match="q: every row"):
        ListMixtureLaw.from_position_matrix(problem, heavy_row)
    with pytest.raises(InputError, match="q: must have shape"):
        ListMixtureLaw.from_position_matrix(problem, np.ones((3, 3)))


def replay_index(rule: str, counts: list[int], sums: list[float], n: int, m: int,
                 delta: float = 0.05) -> list[float]:
    """The adaptive generator's index recomputed naively from earlier rounds."""
    index = []
    for c, total in zip(counts, sums, strict=True):
        if c == 0:
            index.append({"ucb": math.inf, "lcb": -math.inf, "mean": 0.0}[rule])
            continue
        radius = math.sqrt(math.log(2 * m * n / delta) / (2 * c))
        index.append(total / c + {"ucb": radius, "lcb": -radius, "mean": 0.0}[rule])
    return index


@pytest.mark.parametrize("rule", ["ucb", "lcb", "mean"])
def test_adaptive_laws_follow_their_rules(rule: str) -> None:
    rng = np.random.default_rng(4)
    m, k, n = 12, 3, 40
    problem = CascadeProblem(rng.random(m), k)
    data = AdaptiveListsLaw(problem, rule).sample(n, rng)  # type: ignore[arg-type]
    assert data.n == n and data.actions is not None
    counts, sums = [0] * m, [0.0] * m
    for t in range(n):  # replay round by round (a test on a 40-round log)
        index = replay_index(rule, counts, sums, n, m)
        expected = sorted(range(m), key=lambda i: (-index[i], i))[:k]
        assert data.actions[3 * t: 3 * t + 3].tolist() == expected
        lo, hi = data.triggered_offsets[t], data.triggered_offsets[t + 1]
        for arm, x in zip(data.triggered[lo:hi], data.outcomes[lo:hi], strict=True):
            counts[arm] += 1
            sums[arm] += x


def test_adaptive_law_monte_carlo_frequency() -> None:
    problem = CascadeProblem(np.random.default_rng(4).random(20), 3)
    law = AdaptiveListsLaw(problem, "lcb", horizon=20, replications=30)
    assert law.exact is False
    mean, error = law.observation_frequency(20, 30, np.random.default_rng(0))
    assert mean.shape == error.shape == (20,)
    assert np.all((mean >= 0) & (mean <= 1)) and np.all(error >= 0)
    assert mean.sum() <= 3  # at most k observations per round
    np.testing.assert_array_equal(law.data_trigger_probabilities(),
                                  law.data_trigger_probabilities())  # seeded: reproducible
    with pytest.raises(InputError, match="rule"):
        AdaptiveListsLaw(problem, "greedy")  # type: ignore[arg-type]


def test_uniform_exact_probability_for_large_m_is_finite() -> None:
    problem = CascadeProblem(np.random.default_rng(0).random(5000), 5)
    p = UniformListsLaw(problem).data_trigger_probabilities()
    assert np.all(np.isfinite(p)) and p.sum() <= problem.k
    mu1 = problem.mu.max()
    assert p.min() >= (1 - (1 - mu1) ** 5) / (mu1 * 5000) * (1 - 1e-12)  # paper's bound


def test_uniform_exact_probability_overflow_is_a_clear_error() -> None:
    problem = CascadeProblem(np.full(3000, 0.001), 200)
    with pytest.raises(InputError, match="k: k=200 is too large"):
        UniformListsLaw(problem).data_trigger_probabilities()


def test_mixture_law_rejects_bad_lists_and_weights() -> None:
    problem = CascadeProblem(np.array([0.1, 0.2, 0.3]), 2)
    good = np.array([[0, 1], [2, 0]])
    for lists, weights, message in [
        (good, np.array([0.5, 0.6]), "weights: must be non-negative and sum to 1"),
        (good, np.array([1.0]), "weights: must be 2 finite numbers"),
        (np.array([[0, 0], [1, 2]]), np.array([0.5, 0.5]), "lists: lists an arm more than once"),
        (np.array([[0, 1, 2]]), np.array([1.0]), "lists: must be a non-empty"),
        (np.array([[0, 3]]), np.array([1.0]), "lists: arm ids must lie"),
    ]:
        with pytest.raises(InputError, match=message):
            ListMixtureLaw(problem, lists, weights)
    with pytest.raises(InputError, match="n: must be a positive integer"):
        UniformListsLaw(problem).sample(0, np.random.default_rng(0))
