"""Coverage coefficients: hand computations, the paper's relations and closed forms, Monte-Carlo."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from offcmab.bounds.coefficients import (
    cascade_c_one_sum_formula,
    cascade_coefficients,
    cascade_uniform_closed_forms,
    coverage,
    kpath_coefficients,
    llm_coefficients,
)
from offcmab.reference.errors import InputError
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw


def test_small_instance_by_hand() -> None:
    result = coverage([1.0, 0.5, 0.25, 0.0], [0.5, 0.5, 0.25, 0.1])
    # ratios 2, 1, 1 (arm 3 not triggered by S*)
    assert result.C_inf == 2.0
    assert result.C_one == 4.0
    assert result.Kbar == 1.75
    assert result.K2bar == pytest.approx(1 + math.sqrt(0.5) + 0.5, rel=1e-15)
    assert result.K_star == 3
    assert result.p_star == 0.25
    assert result.uncovered == ()


def test_uncovered_arm_gives_infinity() -> None:
    result = coverage([1.0, 0.5, 0.0], [0.5, 0.0, 0.0])
    assert result.C_inf == math.inf
    assert result.C_one == math.inf
    assert result.p_star == 0.0
    assert result.uncovered == (1,)


@pytest.mark.parametrize(
    ("p_opt", "p_data", "field"),
    [
        ([1.0, 0.5], [0.5], "p_data"),
        ([1.2, 0.5], [0.5, 0.5], "p_opt"),
        ([float("nan"), 0.5], [0.5, 0.5], "p_opt"),
        ([], [], "p_opt"),
        ([0.0, 0.0], [0.5, 0.5], "p_opt"),
        ([[1.0], [0.5]], [0.5, 0.5], "p_opt"),
        ([1.0, 0.5], [0.5, -0.1], "p_data"),
    ],
)
def test_bad_vectors_name_the_field(p_opt: list[float], p_data: list[float], field: str) -> None:
    with pytest.raises(InputError) as error:
        coverage(p_opt, p_data)
    assert error.value.field == field


vectors = st.integers(1, 12).flatmap(lambda size: st.tuples(
    st.lists(st.floats(0.0, 1.0), min_size=size, max_size=size),
    st.lists(st.floats(1e-3, 1.0), min_size=size, max_size=size)))


@given(vectors)
def test_remark_relations(pair: tuple[list[float], list[float]]) -> None:
    p_opt, p_data = pair
    if not any(value > 0 for value in p_opt):
        p_opt = [1.0, *p_opt[1:]]
    result = coverage(p_opt, p_data)
    slack = 1 + 1e-12
    assert result.C_one <= result.K_star * result.C_inf * slack  # C_1* <= K* C_inf*
    assert result.Kbar * result.K_star * slack >= result.K2bar**2  # Kbar* >= K2bar*^2 / K*
    assert result.C_inf <= result.C_one * slack


def brute_force_uniform_data_probabilities(mu: list[float], k: int) -> np.ndarray:
    """Average over every ordered k-list of P(item examined), by enumeration."""
    m = len(mu)
    total = np.zeros(m)
    lists = list(itertools.permutations(range(m), k))
    for ranked in lists:
        survive = 1.0
        for item in ranked:
            total[item] += survive
            survive *= 1.0 - mu[item]
    return total / len(lists)


def test_cascade_exact_against_enumeration() -> None:
    mu, k = [0.5, 0.4, 0.2, 0.1], 2
    p_data = brute_force_uniform_data_probabilities(mu, k)
    p_opt = np.array([1.0, 0.5, 0.0, 0.0])  # S* = (0, 1): prod_{j<i}(1 - mu_j)
    expected = coverage(p_opt, p_data)
    result = cascade_coefficients(mu, k)
    for name in ("C_inf", "C_one", "Kbar", "K2bar", "p_star"):
        assert result[name] == pytest.approx(getattr(expected, name), rel=1e-12)
    assert result["B1"] == 1.0
    assert result["C_one_upper"] == pytest.approx(4 * 0.5 / 0.4)
    # apdx_eq:ranking_C*: 1/((1 + 0.5)/4) + 0.5/((1 + 0.5)/4)
    assert result["C_one_sum_formula"] == pytest.approx(4 / 1.5 + 0.5 * 4 / 1.5)


@given(st.lists(st.floats(0.01, 1.0), min_size=1, max_size=8), st.data())
def test_cascade_closed_forms_are_upper_bounds(mu: list[float], data: st.DataObject) -> None:
    k = data.draw(st.integers(1, len(mu)))
    result = cascade_coefficients(mu, k)
    slack = 1 + 1e-9
    assert result["C_one"] <= result["C_one_sum_formula"] * slack
    assert result["C_one_sum_formula"] <= result["C_one_upper"] * slack
    assert result["p_star_lower"] <= result["p_star"] * slack
    assert result["Kbar"] <= k * slack


def test_sum_formula_rejects_bad_position_matrix() -> None:
    with pytest.raises(InputError, match="q"):
        cascade_c_one_sum_formula([0.5, 0.4], 1, np.ones((3, 1)))
    with pytest.raises(InputError, match="k"):
        cascade_uniform_closed_forms([0.5, 0.4], 3)


@pytest.mark.slow
def test_cascade_data_probabilities_match_monte_carlo() -> None:
    """Observation frequencies of each item against the exact p^{D_S}.

    Per item, a two-sided exact binomial acceptance region with tail 1e-5 on each side;
    Bonferroni over the m = 6 items gives a false-alarm probability below 1.2e-4.
    """
    problem = CascadeProblem(np.array([0.6, 0.45, 0.3, 0.2, 0.1, 0.05]), 3)
    law = UniformListsLaw(problem)
    n = 40_000
    dataset = law.sample(n, np.random.default_rng(4))
    counts = np.bincount(dataset.triggered, minlength=problem.m)
    exact = cascade_coefficients(problem.mu, problem.k)
    p_data = law.data_trigger_probabilities()
    low = stats.binom.ppf(1e-5, n, p_data)
    high = stats.binom.isf(1e-5, n, p_data)
    assert np.all((counts >= low) & (counts <= high)), (counts, n * p_data)
    # On the acceptance event the plug-in C_1* lies between the values at the region's ends
    # (no extra false-alarm probability); the exact value must lie there too.
    p_opt = problem.trigger_probabilities(problem.optimal_action())
    empirical = coverage(p_opt, counts / n).C_one
    assert coverage(p_opt, high / n).C_one <= empirical <= coverage(p_opt, low / n).C_one
    assert coverage(p_opt, high / n).C_one <= exact["C_one"] <= coverage(p_opt, low / n).C_one


def test_kpath_coefficients() -> None:
    result = kpath_coefficients([0.5, 0.25], 2, [0.25, 0.75])
    assert result["C_inf"] == 4.0
    assert result["C_inf_closed_form"] == 4.0
    assert result["C_one"] == 8.0
    assert result["Kbar"] == result["K2bar"] == 2.0
    assert result["K_star"] == 2


def test_llm_coefficients_empty_and_random_caches() -> None:
    p, c = [0.4, 0.3, 0.2, 0.1], [1.0, 0.5, 0.5, 1.0]
    empty = llm_coefficients(p, c, 2, "empty")
    # optimal cache: top-2 of p c = (0.4, 0.15, 0.1, 0.1) -> {0, 1}; outside {2, 3}
    assert empty["nu_inv_sum"] == 2.0  # = m - k
    assert empty["p_star"] == pytest.approx(0.1)
    assert empty["standard"]["C_one"] == pytest.approx(2.0 + 4)
    assert empty["standard"]["C_one_formula"] == pytest.approx(6.0)
    assert empty["standard"]["Kbar"] == pytest.approx(0.3 + 4)
    assert empty["standard"]["Kbar"] <= empty["standard"]["Kbar_upper"]
    assert empty["improved"]["C_one"] == pytest.approx(empty["nu_inv_sum"])
    random = llm_coefficients(p, c, 2, "random")
    assert random["nu_inv_sum"] == pytest.approx(4.0)  # nu = 1 - 2/4
    assert random["p_star"] == pytest.approx(0.05)
    with pytest.raises(InputError, match="cache"):
        llm_coefficients(p, c, 2, "lru")


@pytest.mark.slow
def test_llm_data_probabilities_match_monte_carlo() -> None:
    """Cost observations N_c(q)/n against p(q) nu(q) under uniformly random caches.

    Per query, a two-sided exact binomial acceptance region with tail 1e-5 on each side;
    Bonferroni over the m = 5 queries gives a false-alarm probability below 1e-4.
    """
    from offcmab.reference.problems.llm_cache import (
        LLMCacheProblem,
        UniformRandomCaches,
        sample_log,
    )

    problem = LLMCacheProblem(np.array([0.35, 0.25, 0.2, 0.12, 0.08]),
                              np.array([0.9, 0.4, 0.7, 0.5, 1.0]), 2)
    law = UniformRandomCaches(problem.m, 2)
    n = 40_000
    log = sample_log(problem, law, n, np.random.default_rng(11))
    observed = np.bincount(log.queries[~log.hits], minlength=problem.m)
    rate = problem.p * law.nu()
    low = stats.binom.ppf(1e-5, n, rate)
    high = stats.binom.isf(1e-5, n, rate)
    assert np.all((observed >= low) & (observed <= high)), (observed, n * rate)
    exact = llm_coefficients(problem.p, problem.c, problem.k, "random")
    p_opt = problem.trigger_probabilities(problem.optimal_cache())[: problem.m]
    empirical = coverage(p_opt, observed / n).C_one
    assert coverage(p_opt, high / n).C_one <= empirical <= coverage(p_opt, low / n).C_one
    exact_c_one = exact["improved"]["C_one"]
    assert coverage(p_opt, high / n).C_one <= exact_c_one <= coverage(p_opt, low / n).C_one
