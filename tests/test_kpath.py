"""k-path problem, path data law and the lower-bound family (apdx_sec:lower_bound)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from mc_binomial import binomial_rejects

from offcmab.reference.errors import InputError
from offcmab.reference.problems.base import CMABTProblem, DataLaw
from offcmab.reference.problems.kpath import (
    KPathProblem,
    PathLaw,
    bernoulli_kl,
    lower_bound_family,
    lower_bound_gap_parameter,
)

ALPHA = 1e-6


def test_problem_closed_forms() -> None:
    problem = KPathProblem(np.array([0.2, 0.7, 0.7]), 2)
    assert isinstance(problem, CMABTProblem)
    assert problem.m == 6 and problem.mu.tolist() == [0.2, 0.2, 0.7, 0.7, 0.7, 0.7]
    assert problem.optimal_action().tolist() == [2, 3]  # tie between paths 1 and 2: smaller
    assert problem.reward(np.array([0, 1])) == pytest.approx(0.4)
    assert problem.gap(np.array([0, 1])) == pytest.approx(1.0)
    assert problem.trigger_probabilities(np.array([4, 5])).tolist() == [0, 0, 0, 0, 1, 1]
    with pytest.raises(InputError, match="path_means: must lie in"):
        KPathProblem(np.array([1.5]), 2)
    with pytest.raises(InputError, match="action"):
        problem.reward(np.array([0, 6]))


@pytest.mark.slow
def test_path_law_sample_and_probabilities_match_simulation() -> None:
    """False-alarm probability <= 6 * ALPHA (3 path frequencies + 3 click rates)."""
    rng = np.random.default_rng(9)
    problem = KPathProblem(np.array([0.2, 0.5, 0.9]), 3)
    law = PathLaw(problem, np.array([0.5, 0.3, 0.2]))
    assert isinstance(law, DataLaw) and law.exact
    n = 50_000
    data = law.sample(n, rng)
    assert data.n == n and np.array_equal(data.triggered, data.actions)
    counts = np.bincount(data.triggered, minlength=9)
    assert (counts.reshape(3, 3) == counts.reshape(3, 3)[:, :1]).all()  # whole paths observed
    assert not binomial_rejects(counts[::3], n, law.path_probabilities, ALPHA).any()
    ones = np.bincount(data.triggered, weights=data.outcomes, minlength=9)[::3]
    for j in range(3):  # outcomes of the first arm of path j: Binomial(N_j, mu_j)
        assert not binomial_rejects(int(ones[j]), int(counts[3 * j]), problem.path_means[j],
                                    ALPHA)
    # Fully dependent arms within a path.
    x = data.outcomes.reshape(n, 3)
    assert (x == x[:, :1]).all()


def test_kl_divergence_equals_enumeration() -> None:
    first = PathLaw(KPathProblem(np.array([0.3, 0.6]), 2), np.array([0.25, 0.75]))
    second = PathLaw(KPathProblem(np.array([0.4, 0.5]), 2), np.array([0.5, 0.5]))
    total = 0.0
    for j, x in itertools.product(range(2), (0, 1)):
        a = first.path_probabilities[j] * (first.problem.path_means[j] if x else
                                           1 - first.problem.path_means[j])
        b = second.path_probabilities[j] * (second.problem.path_means[j] if x else
                                            1 - second.problem.path_means[j])
        total += a * math.log(a / b)
    assert first.kl_divergence(second, 7) == pytest.approx(7 * total, rel=1e-12)
    assert bernoulli_kl(0.5, 0.0) == math.inf and bernoulli_kl(0.0, 0.0) == 0.0


@pytest.mark.parametrize("C_inf", [2.0, 4.0, 50.0])
@pytest.mark.parametrize("variant", ["printed", "proved"])
def test_lower_bound_family_coverage_and_gaps(C_inf: float, variant: str) -> None:
    family = lower_bound_family(9, 3, C_inf, 0.2, variant)  # type: ignore[arg-type]
    assert max(family.coverages()) == pytest.approx(C_inf)  # both within the class
    assert min(family.coverages()) <= C_inf
    assert family.min_gap_sum() == pytest.approx(3 * 0.2)  # the proof's k * Delta
    assert family.first.problem.optimal_path() != family.second.problem.optimal_path()


def test_kl_step_holds_only_when_the_rare_path_is_perturbed() -> None:
    """Erratum evidence: the printed instances break KL <= n kl / C_inf <= 20 n Delta^2 / C_inf."""
    n, C_inf = 1000, 10.0
    delta = lower_bound_gap_parameter(C_inf, n)
    printed = lower_bound_family(4, 2, C_inf, delta, "printed")
    proved = lower_bound_family(4, 2, C_inf, delta, "proved")
    kl = bernoulli_kl(0.5 - delta, 0.5 + delta)
    assert proved.kl_divergence(n) == pytest.approx(n * kl / C_inf)
    assert printed.kl_divergence(n) == pytest.approx(n * kl * (1 - 1 / C_inf))
    assert proved.kl_divergence(n) <= proved.proof_kl_bound(n)
    assert printed.kl_divergence(n) > 3 * printed.proof_kl_bound(n)  # ~0.4 (C_inf - 1) vs 1
    # The proved variant respects 20 n Delta^2 / C_inf over the whole range Delta in [0, 1/4].
    for d in np.linspace(0, 0.25, 26):
        family = lower_bound_family(4, 2, C_inf, float(d), "proved")
        assert family.kl_divergence(n) <= family.proof_kl_bound(n) + 1e-12


def test_proof_chi_square_step_fails_near_quarter() -> None:
    """4 Delta^2 / (1/4 - Delta^2) exceeds 20 Delta^2 when Delta > 1/sqrt(20) (proof step (b))."""
    d = 0.25
    assert 4 * d**2 / (0.25 - d**2) > 20 * d**2
    assert bernoulli_kl(0.5 - d, 0.5 + d) <= 20 * d**2  # the end point still holds exactly


def test_lower_bound_family_rejects_bad_parameters() -> None:
    with pytest.raises(InputError, match="C_inf"):
        lower_bound_family(4, 2, 1.5, 0.1)
    with pytest.raises(InputError, match="gap_parameter"):
        lower_bound_family(4, 2, 2.0, 0.3)
    with pytest.raises(InputError, match="m: must be a multiple of k=2 with at least two"):
        lower_bound_family(2, 2, 2.0, 0.1)


@pytest.mark.parametrize("C_inf", [2.0, 10.0, 100.0])
def test_certified_lower_bound_reaches_the_proof_value_only_when_proved(C_inf: float) -> None:
    n, k = 10_000, 3
    delta = lower_bound_gap_parameter(C_inf, n)
    proof_value = k / (8 * math.e) * min(0.25, math.sqrt(C_inf / (20 * n)))
    proved = lower_bound_family(2 * k, k, C_inf, delta, "proved")
    printed = lower_bound_family(2 * k, k, C_inf, delta, "printed")
    assert proved.certified_lower_bound(n) >= proof_value
    if C_inf >= 10:  # printed: KL ~ 0.4 (C_inf - 1), so exp(-KL) falls far below 1/e
        assert printed.certified_lower_bound(n) < proof_value / 10


def test_path_law_rejects_bad_probabilities() -> None:
    problem = KPathProblem(np.array([0.2, 0.5]), 2)
    with pytest.raises(InputError, match="path_probabilities: must be non-negative"):
        PathLaw(problem, np.array([0.7, 0.7]))
    with pytest.raises(InputError, match="path_probabilities: must be 2 finite"):
        PathLaw(problem, np.array([1.0]))
    with pytest.raises(InputError, match="n: must be a positive integer"):
        PathLaw(problem, np.array([0.5, 0.5])).sample(-1, np.random.default_rng(0))
    uncovered = PathLaw(problem, np.array([1.0, 0.0]))
    assert uncovered.coverage_inf() == math.inf  # the best path (1) is never logged
