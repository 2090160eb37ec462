"""Property-based companions of registry claims: hypothesis searches the claim's stated domain
for a violation, against the helpers' own code where the claim is about it."""

from __future__ import annotations

import math

import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from offcmab.bounds.claims.lower_bound import data_law_kl, kl_bernoulli
from offcmab.reference.problems.cascade import CascadeProblem

unit = st.floats(0.0, 1.0, allow_nan=False)


@given(st.lists(st.tuples(unit, unit), min_size=1, max_size=6))
def test_cascade_tpm_smoothness_with_b1_one(pairs: list[tuple[float, float]]) -> None:
    # thm:app_ranking/smoothness on the h/cascade reward and triggering probabilities
    mu = np.array([a for a, _ in pairs])
    other = np.array([b for _, b in pairs])
    problem = CascadeProblem(mu, mu.size)
    action = np.arange(mu.size)
    change = abs(problem.reward(action, other) - problem.reward(action))
    weight = problem.trigger_probabilities(action)
    assert change <= float(np.sum(weight * np.abs(other - mu))) + 1e-12
    if np.all(other >= mu):  # monotonicity
        assert problem.reward(action, other) >= problem.reward(action) - 1e-12


@given(st.floats(2.0, 50.0), st.floats(0.001, 0.25), st.integers(1, 50))
def test_printed_lower_bound_kl_exceeds_the_claimed_bound(c: float, delta: float,
                                                          n: int) -> None:
    # apdx_sec:lower_bound/kl-step: exact KL = n (1 - 1/C) KL_B >= n KL_B / C
    half = sp.Rational(1, 2)
    c_, d_ = sp.Float(c, 30), sp.Float(delta, 30)
    exact = float(data_law_kl((1 / c_, 1 - 1 / c_), d_, n))
    kl_b = float(kl_bernoulli(half - d_, half + d_))
    assert math.isclose(exact, n * (1 - 1 / c) * kl_b, rel_tol=1e-9)
    assert exact >= n * kl_b / c - 1e-12
    swapped = float(data_law_kl((1 - 1 / c_, 1 / c_), d_, n))
    assert math.isclose(swapped, n * kl_b / c, rel_tol=1e-9)


@given(st.lists(st.tuples(unit, unit, unit, unit), min_size=1, max_size=6),
       st.lists(st.booleans(), min_size=6, max_size=6))
def test_llm_cache_tpm_smoothness(rows: list[tuple[float, float, float, float]],
                                  outside: list[bool]) -> None:
    # apdx_eq:LLM_cache_TPM_smooth for c, c', p, p' in [0,1]^m
    p, pp, c, cc = (np.array(col) for col in zip(*rows, strict=True))
    s = np.array(outside[: p.size])
    change = abs(np.sum(p[s] * c[s]) - np.sum(pp[s] * cc[s]))
    assert change <= np.sum(p[s] * np.abs(c[s] - cc[s])) + np.sum(np.abs(p - pp)) + 1e-12


@given(st.lists(st.floats(0.01, 1.0), min_size=2, max_size=4),
       st.lists(st.floats(0.01, 1.0), min_size=2, max_size=4))
def test_bretagnolle_huber(a: list[float], b: list[float]) -> None:
    # apdx_lem:hard_test: min over events of P(A) + Q(A^c) is sum min(P, Q)
    size = min(len(a), len(b))
    P = np.array(a[:size]) / sum(a[:size])
    Q = np.array(b[:size]) / sum(b[:size])
    kl = float(np.sum(P * np.log(P / Q)))
    assert np.minimum(P, Q).sum() >= 0.5 * math.exp(-kl) - 1e-12
