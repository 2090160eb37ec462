"""Stated-versus-proved relations: proved symbolically where possible, else checked exactly.

Each test is evidence for a finding of the report (or for a stated bound being valid).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from offcmab.bounds.registry import BOUNDS
from offcmab.bounds.symbols import T, delta, m, n, p_star

x = sp.Symbol("x", positive=True)  # stands for m n / delta (> 1 on the domain)


def expand(expr: sp.Expr) -> sp.Expr:
    return sp.expand(sp.expand_log(expr, force=True))


def test_thm1_proved_is_below_stated_symbolically() -> None:
    for bound_id in ("thm1-inf", "thm1-one"):
        bound = BOUNDS[bound_id]
        ratio = sp.simplify(bound.expression("proved") ** 2 / bound.expression("stated") ** 2)
        assert sp.simplify(ratio - sp.log(4 * m * n / delta) / (2 * sp.log(2 * m * n / delta))) == 0
    # 2 log(2x) - log(4x) = log x > 0 for x = m n / delta > 1 (m, n >= 1 > delta)
    assert expand(2 * sp.log(2 * x) - sp.log(4 * x)) == sp.log(x)


def test_thm1_printed_precondition_is_too_weak() -> None:
    bound = BOUNDS["thm1-inf"]
    stated, proved = bound.precondition("stated"), bound.precondition("proved")
    assert expand(proved.rhs - stated.rhs) == expand(8 * sp.log(2) / p_star)
    # At the printed boundary the counter union bound m exp(-n p*/8) equals delta, not delta/2.
    counter = m * sp.exp(-n * p_star / 8)
    assert sp.simplify(counter.subs(n, stated.rhs)) == delta
    assert sp.simplify(counter.subs(n, proved.rhs)) == delta / 2


def test_cor1_proved_ratio_and_failure_probability() -> None:
    bound = BOUNDS["cor1-cascade"]
    ratio = sp.simplify(bound.expression("proved") / bound.expression("stated"))
    assert ratio == 1 / sp.sqrt(2)
    # E_arm at the printed cascade radius log(2mn/delta) already costs 2mn e^{-log(2mn/delta)}
    assert sp.simplify(2 * m * n * sp.exp(-sp.log(2 * m * n / delta))) == delta
    counter = m * sp.exp(-n * p_star / 8)
    boundary = bound.precondition("stated").rhs
    assert sp.simplify(counter.subs(n, boundary)) == delta / (2 * n)
    assert sp.simplify(bound.failure_probability["proved"] - delta) == delta / (2 * n)


def test_lem_llm_std_proved_exceeds_stated_everywhere() -> None:
    bound = BOUNDS["lem-llm-std"]
    # proved/stated = (2 sqrt(L4) + sqrt(L8)) / (2 sqrt 2 sqrt(L4)) with L8 - L4 = log 2 > 0,
    # so the ratio exceeds 3/(2 sqrt 2) > 1.
    assert expand(sp.log(8 * x) - sp.log(4 * x)) == sp.log(2)
    assert sp.Rational(9, 8) > 1  # (3 / (2 sqrt 2))**2 = 9/8
    ratio = sp.simplify(bound.expression("proved") / bound.expression("stated"))
    L4, L8 = sp.log(4 * m * n / delta), sp.log(8 * m * n / delta)
    expected = (2 * sp.sqrt(L4) + sp.sqrt(L8)) / (2 * sp.sqrt(2) * sp.sqrt(L4))
    assert sp.simplify(ratio - expected) == 0


@given(st.integers(1, 10**4), st.integers(1, 10**9), st.floats(1e-12, 0.999),
       st.floats(1e-3, 1e4))
def test_llm_std_and_thm3_numeric_relations(m_: int, n_: int, d: float, nu: float) -> None:
    params = {"m": m_, "n": n_, "delta": d, "nu_inv_sum": nu}
    std = BOUNDS["lem-llm-std"]
    assert std.evaluate("proved", **params) > std.evaluate("stated", **params)
    # thm3: the arrival term alone is larger in the proof (log(6/delta) > log(3/delta))
    arrival_stated = 2 * np.sqrt(2 * m_ * np.log(3 / d) / n_)
    arrival_proved = 2 * np.sqrt(2 * m_ * np.log(6 / d) / n_)
    assert arrival_proved > arrival_stated


def test_thm3_example_numbers() -> None:
    bound = BOUNDS["thm3-llm"]
    params = {"m": 10, "n": 1000, "delta": 0.1, "nu_inv_sum": 8.0}
    stated, proved = bound.evaluate("stated", **params), bound.evaluate("proved", **params)
    assert proved > stated
    assert proved / stated == pytest.approx(1.0669, abs=1e-4)  # 1.541 vs 1.444
    # printed precondition 8 log(1/delta)/p* versus the proof's 8 log(3m/delta)/p*
    assert bound.precondition_holds("stated", **params, p_star=0.02) is True  # n >= 921
    assert bound.precondition_holds("proved", **params, p_star=0.02) is False  # n >= 2272


def test_online_proved_below_stated_but_fails_more_often() -> None:
    bound = BOUNDS["thm-llm-online"]
    assert expand(sp.log(3 * m * T / delta) - sp.log(2 * T / delta)) == expand(sp.log(3 * m / 2))
    assert sp.log(sp.Rational(3, 2)) > 0  # so log(2T/delta) < log(3mT/delta) for m >= 1
    assert bound.failure_probability["proved"] == 5 * delta / 3


@given(st.integers(1, 10**4), st.integers(1, 10**4), st.floats(1.0, 1e4),
       st.floats(1e-6, 1.0), st.floats(1e-6, 0.5), st.integers(1, 10**6),
       st.integers(1, 10**9), st.floats(1e-12, 0.999))
def test_thm4_proved_below_stated(V: int, d: int, s: float, eta: float, gamma: float,
                                  E: int, n_: int, dl: float) -> None:
    bound = BOUNDS["thm4-im"]
    params = {"V": V, "d_max": d, "sigma_star": min(s, V), "eta": eta, "gamma": gamma,
              "E": E, "n": n_, "delta": dl}
    assert bound.evaluate("proved", **params) <= bound.evaluate("stated", **params)


def test_thm4_precondition_constant() -> None:
    p, L, n0 = sp.symbols("p L n0", positive=True)
    # step (c) of apdx_eq:lower_bound_of_ubar_p: 8 sqrt3 sqrt(p L / n0) <= p / 2
    boundary = sp.solve(sp.Eq(8 * sp.sqrt(3) * sp.sqrt(p * L / n0), p / 2), n0)
    assert boundary == [768 * L / p]
    # the proof's n0 > 196 L/p leaves 8 sqrt3 / 14 ~ 0.99 > 1/2
    assert (8 * sp.sqrt(3) / 14) > sp.Rational(1, 2)
    # with n0 >= n gamma / 2 and p >= eta: n >= 1536 L / (eta gamma), not 392
    bound = BOUNDS["thm4-im"]
    assert sp.simplify(bound.precondition("proved").rhs / bound.precondition("stated").rhs) \
        == sp.Rational(1536, 392)


@given(st.integers(1, 100), st.floats(2.0, 1e6), st.floats(1.0, 1e12))
def test_thm2_proved_is_at_most_stated_over_32e(k: int, C: float, n_: float) -> None:
    bound = BOUNDS["thm2-lower"]
    stated = bound.evaluate("stated", k=k, C_inf=C, n=n_)
    proved = bound.evaluate("proved", k=k, C_inf=C, n=n_)
    assert proved <= stated / (32 * np.e) * (1 + 1e-12)


def test_thm2_stated_constant_is_false() -> None:
    """A data-blind uniformly random path has expected gap k(max mu - mean mu) <= k(1 - 1/P).

    With P = 2 paths, k = 1, C_inf = 2, n = 1 the stated bound claims every algorithm has
    worst-case expected gap >= 1, but this algorithm's worst case is 1/2 (exact fractions:
    the maximum of max(mu) - mean(mu) over mu in [0,1]^2 is attained at a vertex).
    """
    worst = max(max(a, b) - (a + b) / 2
                for a in (Fraction(0), Fraction(1)) for b in (Fraction(0), Fraction(1)))
    assert worst == Fraction(1, 2)
    assert BOUNDS["thm2-lower"].evaluate("stated", k=1, C_inf=2, n=1) == 1.0


def test_thm2_kl_step_constant() -> None:
    d = sp.Symbol("Delta", positive=True)
    chi2 = (2 * d) ** 2 / (sp.Rational(1, 4) - d**2)
    assert sp.simplify(chi2.subs(d, sp.Rational(1, 4)) / sp.Rational(1, 16)) == sp.Rational(64, 3)
    assert sp.solve(sp.Eq(chi2, 20 * d**2), d) == [1 / sp.sqrt(20)]


def test_thm2_kl_of_the_printed_construction_exceeds_the_proofs_bound() -> None:
    """Exact KL of the printed pair (reference.problems.kpath) against 20 n Delta^2 / C."""
    from offcmab.reference.problems.kpath import lower_bound_family, lower_bound_gap_parameter

    C, n_samples = 10.0, 1000
    gap = lower_bound_gap_parameter(C, n_samples)
    printed = lower_bound_family(4, 2, C, gap, "printed")
    repaired = lower_bound_family(4, 2, C, gap, "proved")
    assert printed.proof_kl_bound(n_samples) == pytest.approx(1.0)
    assert printed.kl_divergence(n_samples) > 3.5  # n (1 - 1/C) kl(1/2 - D, 1/2 + D)
    assert repaired.kl_divergence(n_samples) <= repaired.proof_kl_bound(n_samples)
