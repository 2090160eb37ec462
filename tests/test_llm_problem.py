"""LLM cache problem: exact cost and optimum, exact nu, samplers, CMAB-T views, bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from offcmab.reference.errors import InputError
from offcmab.reference.problems.llm_cache import (
    EmptyCaches,
    ExplicitCacheLaw,
    LLMCacheProblem,
    UniformRandomCaches,
    power_probabilities,
    sample_costs,
    sample_log,
    sample_power_queries,
    sample_queries,
    zipf_probabilities,
)

#: Every Monte-Carlo check below fails by chance with probability at most this.
FALSE_ALARM = 1e-6


@st.composite
def problems(draw: st.DrawFn) -> LLMCacheProblem:
    m = draw(st.integers(1, 6))
    weights = np.array(draw(st.lists(st.integers(0, 4), min_size=m, max_size=m))) + 0.0
    if weights.sum() == 0:
        weights[0] = 1.0
    costs = np.array(draw(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]),
                                   min_size=m, max_size=m)))
    return LLMCacheProblem(weights / weights.sum(), costs, draw(st.integers(1, m)))


def brute_force_cost(problem: LLMCacheProblem, cache: tuple[int, ...]) -> float:
    return sum(problem.p[q] * problem.c[q] for q in range(problem.m) if q not in cache)


@given(problems())
def test_expected_cost_and_optimal_cache_match_brute_force(problem: LLMCacheProblem) -> None:
    caches = list(itertools.combinations(range(problem.m), problem.k))
    best = min(brute_force_cost(problem, cache) for cache in caches)
    for cache in caches:
        assert problem.expected_cost(np.array(cache)) == pytest.approx(
            brute_force_cost(problem, cache), abs=1e-12)
    assert problem.optimal_cost() == pytest.approx(best, abs=1e-12)
    optimal = problem.optimal_cache()
    assert optimal.size == problem.k and np.unique(optimal).size == problem.k
    assert problem.gap(optimal) == pytest.approx(0.0, abs=1e-12)


def test_optimal_cache_ties_go_to_smaller_ids() -> None:
    problem = LLMCacheProblem(np.full(4, 0.25), np.ones(4), 2)
    assert problem.optimal_cache().tolist() == [0, 1]


def test_power_law_probabilities_are_exact_and_nearly_uniform() -> None:
    p = power_probabilities(100, 0.9)
    assert p.sum() == pytest.approx(1.0)
    assert p[0] == pytest.approx(0.01**0.9)
    assert p[-1] == pytest.approx(1 - 0.99**0.9)
    assert p.max() / p.min() == pytest.approx(1.76, abs=0.005)
    assert np.all(np.diff(p) < 0)


@pytest.mark.parametrize("sampler", ["power", "zipf"])
def test_query_samplers_follow_their_exact_laws(sampler: str) -> None:
    m, n, alpha = 12, 60_000, 0.9
    rng = np.random.default_rng(11)
    if sampler == "power":
        p, queries = power_probabilities(m, alpha), sample_power_queries(m, alpha, n, rng)
    else:
        p = zipf_probabilities(m, alpha)
        queries = sample_queries(p, n, rng)
    counts = np.bincount(queries, minlength=m)
    # Pearson chi-square with m - 1 degrees of freedom; rejecting at p < FALSE_ALARM
    # fails by chance with probability FALSE_ALARM (asymptotic; n p_min > 3000).
    assert stats.chisquare(counts, n * p).pvalue > FALSE_ALARM


@pytest.mark.parametrize("law", [
    UniformRandomCaches(6, 2),
    ExplicitCacheLaw(6, ((0, 1), (2,), ()), np.array([0.5, 0.3, 0.2])),
    EmptyCaches(6),
])
def test_exact_nu_matches_monte_carlo(law: object) -> None:
    n = 20_000
    offsets, caches = law.sample(n, np.random.default_rng(5))  # type: ignore[attr-defined]
    nu = law.nu()  # type: ignore[attr-defined]
    inside = np.bincount(caches, minlength=6)
    # Two-sided exact binomial acceptance region per query at level FALSE_ALARM / 6.
    level = FALSE_ALARM / 6
    for q in range(6):
        low = stats.binom.ppf(level / 2, n, 1 - nu[q])
        high = stats.binom.isf(level / 2, n, 1 - nu[q])
        assert low <= inside[q] <= high, (q, inside[q], low, high)
    assert np.all(np.diff(offsets) >= 0)


def test_explicit_law_nu_exact_values() -> None:
    law = ExplicitCacheLaw(4, ((0, 1), (1, 2)), np.array([0.25, 0.75]))
    assert law.nu().tolist() == [0.75, 0.0, 0.25, 1.0]


def test_cost_noise_means() -> None:
    means = np.full(40_000, 0.3)
    rng = np.random.default_rng(3)
    for noise in ("bernoulli", "uniform"):
        draws = sample_costs(means, rng, noise)  # type: ignore[arg-type]
        assert draws.min() >= 0 and draws.max() <= 1
        # Hoeffding for [0,1] draws: P(|mean - 0.3| > eps) <= 2 exp(-2 n eps^2) <= 1e-6.
        eps = np.sqrt(np.log(2 / FALSE_ALARM) / (2 * means.size))
        assert abs(draws.mean() - 0.3) <= eps
    gaussian = sample_costs(means, rng, "gaussian", sigma=2.0)
    assert gaussian.min() < 0 or gaussian.max() > 1
    assert sample_costs(means[:3], rng, "none").tolist() == [0.3, 0.3, 0.3]


def test_trigger_probability_views() -> None:
    p = np.array([0.5, 0.3, 0.2])
    problem = LLMCacheProblem(p, np.array([1.0, 0.5, 0.2]), 1)
    law = UniformRandomCaches(3, 1)
    standard = problem.trigger_probabilities(np.array([0]))
    assert standard.tolist() == [0.0, 0.3, 0.2, 1.0, 1.0, 1.0]
    assert problem.trigger_probabilities(np.array([0]), "improved").tolist() == \
        [0.0, 0.3, 0.2, 1.0]
    data = problem.data_trigger_probabilities(law)
    assert data[:3] == pytest.approx(p * 2 / 3) and data[3:].tolist() == [1.0] * 3
    assert problem.data_trigger_probabilities(law, "improved").size == 4
    assert problem.optimal_cache().tolist() == [0]
    assert problem.nu_inv_sum(law) == pytest.approx(2 * 1.5)
    assert problem.min_data_probability(law) == pytest.approx(0.2 * 2 / 3)
    assert problem.nu_inv_sum(ExplicitCacheLaw(3, ((1,),), np.array([1.0]))) == np.inf


def test_sampled_log_marks_hits_with_nan() -> None:
    problem = LLMCacheProblem(np.full(5, 0.2), np.full(5, 0.5), 2)
    log = sample_log(problem, UniformRandomCaches(5, 3), 500, np.random.default_rng(2))
    assert np.array_equal(np.isnan(log.costs), log.hits)
    assert 0 < log.hits.sum() < log.n


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"p": [0.5, 0.6], "c": [0, 0], "k": 1}, "p: must sum to 1"),
    ({"p": [0.5, np.nan], "c": [0, 0], "k": 1}, "p: must be finite"),
    ({"p": [1.5, -0.5], "c": [0, 0], "k": 1}, "p: entries must lie in [0, 1]"),
    ({"p": [0.5, 0.5], "c": [0, 1.2], "k": 1}, "c: entries must lie in [0, 1]"),
    ({"p": [0.5, 0.5], "c": [0], "k": 1}, "c: must have 2 entries"),
    ({"p": [0.5, 0.5], "c": [0, 1], "k": 3}, "k: must not exceed"),
    ({"p": [], "c": [], "k": 1}, "p: must be a non-empty flat array"),
])
def test_bad_problem_input(kwargs: dict, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        LLMCacheProblem(np.asarray(kwargs["p"], dtype=float),
                        np.asarray(kwargs["c"], dtype=float), kwargs["k"])


def test_bad_cache_law_input() -> None:
    with pytest.raises(InputError, match="size"):
        UniformRandomCaches(3, 4)
    with pytest.raises(InputError, match="probabilities: must sum to 1"):
        ExplicitCacheLaw(3, ((0,),), np.array([0.5]))
    with pytest.raises(InputError, match="cache: lists a query more than once"):
        ExplicitCacheLaw(3, ((0, 0),), np.array([1.0]))
    with pytest.raises(InputError, match="cache: arm id 3"):
        ExplicitCacheLaw(3, ((3,),), np.array([1.0]))
