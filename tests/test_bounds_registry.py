"""The bound registry: sympy expressions against hand-written numpy formulas, and the API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from offcmab.bounds.registry import BOUNDS, get_bound
from offcmab.bounds.symbols import DOMAINS
from offcmab.reference.errors import InputError

log, sqrt = np.log, np.sqrt

# Hand-written numpy transcriptions of every formula (from the paper and the derivations).
HAND: dict[tuple[str, str], Callable[..., Any]] = {
    ("thm1-inf", "stated"): lambda alpha, B1, K2bar, C_inf, m, n, delta:
        2 * alpha * B1 * K2bar * sqrt(2 * C_inf * log(2 * m * n / delta) / n),
    ("thm1-inf", "proved"): lambda alpha, B1, K2bar, C_inf, m, n, delta:
        2 * alpha * B1 * K2bar * sqrt(C_inf * log(4 * m * n / delta) / n),
    ("thm1-one", "stated"): lambda alpha, B1, Kbar, C_one, m, n, delta:
        2 * alpha * B1 * sqrt(2 * Kbar * C_one * log(2 * m * n / delta) / n),
    ("thm1-one", "proved"): lambda alpha, B1, Kbar, C_one, m, n, delta:
        2 * alpha * B1 * sqrt(Kbar * C_one * log(4 * m * n / delta) / n),
    ("thm2-lower", "stated"): lambda k, C_inf, n: k * np.minimum(1, sqrt(C_inf / n)),
    ("thm2-lower", "proved"): lambda k, C_inf, n:
        k / (8 * np.e) * np.minimum(0.25, sqrt(C_inf / (20 * n))),
    ("cor1-cascade", "stated"): lambda k, C_one, m, n, delta:
        2 * sqrt(2 * k * log(2 * m * n / delta) / n * C_one),
    ("cor1-cascade", "proved"): lambda k, C_one, m, n, delta:
        2 * sqrt(k * C_one * log(2 * m * n / delta) / n),
    ("lem-llm-std", "stated"): lambda m, n, delta, nu_inv_sum:
        2 * sqrt(2 * (m + 1) * (nu_inv_sum + m) * log(4 * m * n / delta) / n),
    ("lem-llm-std", "proved"): lambda m, n, delta, nu_inv_sum:
        (2 * sqrt(log(4 * m * n / delta)) + sqrt(log(8 * m * n / delta)))
        * sqrt((m + 1) * (nu_inv_sum + m) / n),
    ("thm3-llm", "stated"): lambda m, n, delta, nu_inv_sum:
        2 * sqrt(2 * nu_inv_sum * log(6 * m * n / delta) / n)
        + 2 * sqrt(2 * m * log(3 / delta) / n),
    ("thm3-llm", "proved"): lambda m, n, delta, nu_inv_sum:
        (2 * sqrt(log(4 * m * n / delta)) + sqrt(log(6 * m * n / delta))) * sqrt(nu_inv_sum / n)
        + 2 * sqrt(2 * m * log(6 / delta) / n),
    ("thm-llm-online", "stated"): lambda m, T, delta:
        18 * sqrt(2 * m * T * log(3 * m * T / delta)) + 2 * m,
    ("thm-llm-online", "proved"): lambda m, T, delta:
        14 * sqrt(2 * m * T * log(3 * m * T / delta)) + 2 * m
        + 4 * sqrt(2 * m * T * log(2 * T / delta)),
    ("thm4-im", "stated"): lambda V, d_max, sigma_star, eta, gamma, E, n, delta:
        48 * sqrt(6) * sqrt(V**2 * d_max**2 * sigma_star**2 * log(12 * n * E / delta)
                            / (eta * gamma**3 * n)),
    ("thm4-im", "proved"): lambda V, d_max, sigma_star, eta, gamma, E, n, delta:
        V * d_max * sigma_star * sqrt(log(12 * n * E / delta) / n) * (
            8 * sqrt(3) / sqrt(gamma) + 8 * sqrt(3) / sqrt(eta * gamma**2)
            + 32 * sqrt(6) / sqrt(eta * gamma**3)),
}


def draw_value(draw: st.DrawFn, name: str) -> float:
    """A value inside the domain of ``name`` (integers where the domain says so)."""
    domain = DOMAINS[name]
    if name == "n":
        return float(draw(st.integers(1, 10**9)))
    if name == "delta":
        return draw(st.floats(1e-12, 1.0, exclude_max=True))
    if domain.integer:
        return float(draw(st.integers(int(domain.low), 10**4)))
    high = min(domain.high, 1e4)
    low = 1e-6 if domain.low_open and domain.low == 0 else domain.low  # no denormals
    value = draw(st.floats(low, high, exclude_min=False,
                           exclude_max=domain.high_open and high == domain.high))
    if name == "sigma_star":
        return max(value, 1.0)
    return value


@st.composite
def parameter_sets(draw: st.DrawFn, bound_id: str) -> dict[str, float]:
    params = {name: draw_value(draw, name) for name in BOUNDS[bound_id].parameters}
    if "sigma_star" in params:  # sigma(S*) <= V
        params["sigma_star"] = min(params["sigma_star"], params["V"])
    return params


def test_registry_has_the_contract_ids_and_parameters() -> None:
    expected = {
        "thm1-inf": ("alpha", "B1", "K2bar", "C_inf", "m", "n", "delta"),
        "thm1-one": ("alpha", "B1", "Kbar", "C_one", "m", "n", "delta"),
        "thm2-lower": ("k", "C_inf", "n"),
        "cor1-cascade": ("k", "C_one", "m", "n", "delta"),
        "lem-llm-std": ("m", "n", "delta", "nu_inv_sum"),
        "thm3-llm": ("m", "n", "delta", "nu_inv_sum"),
        "thm-llm-online": ("m", "T", "delta"),
        "thm4-im": ("V", "d_max", "sigma_star", "eta", "gamma", "E", "n", "delta"),
    }
    assert {key: bound.parameters for key, bound in BOUNDS.items()} == expected
    assert set(HAND) == {(key, v) for key in BOUNDS for v in ("stated", "proved")}


@pytest.mark.parametrize(("bound_id", "variant"), sorted(HAND))
@given(data=st.data())
def test_sympy_matches_hand_formula(bound_id: str, variant: str, data: st.DataObject) -> None:
    params = data.draw(parameter_sets(bound_id))
    expected = HAND[(bound_id, variant)](**params)
    assert BOUNDS[bound_id].evaluate(variant, **params) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("bound_id", sorted(BOUNDS))
def test_free_symbols_are_the_parameters(bound_id: str) -> None:
    bound = BOUNDS[bound_id]
    for variant in ("stated", "proved"):
        names = {str(s) for s in bound.expression(variant).free_symbols}
        assert names == set(bound.parameters)
        condition = bound.precondition(variant)
        if condition is not None:
            assert isinstance(condition, sp.core.relational.Relational)
            assert {str(s) for s in condition.free_symbols} <= set(bound.all_parameters)
        assert bound.latex(variant).strip()


@pytest.mark.parametrize("bound_id", sorted(BOUNDS))
def test_vectorized_equals_scalar(bound_id: str) -> None:
    bound = BOUNDS[bound_id]
    rng = np.random.default_rng(7)
    size = 50
    base = dict.fromkeys(bound.parameters, 3.0)
    overrides = {"delta": 0.05, "alpha": 0.9, "eta": 0.5, "gamma": 0.25}
    base.update({key: value for key, value in overrides.items() if key in base})
    grid = dict(base)
    if "n" in bound.parameters:
        grid["n"] = np.floor(rng.uniform(1, 1e6, size))
    else:
        grid["T"] = np.floor(rng.uniform(1, 1e6, size))
    if "delta" in bound.parameters:
        grid["delta"] = rng.uniform(1e-6, 0.999, size)
    for variant in ("stated", "proved"):
        vector = bound.evaluate(variant, **grid)
        assert isinstance(vector, np.ndarray)
        assert vector.shape == (size,)
        for i in range(size):
            point = {key: (value[i] if isinstance(value, np.ndarray) else value)
                     for key, value in grid.items()}
            assert vector[i] == pytest.approx(bound.evaluate(variant, **point), rel=1e-12)


def test_million_points_shape_and_consistency() -> None:
    """Shape/consistency on 1e6 (n, delta) points; speed is a benchmark, not a test."""
    bound = BOUNDS["thm1-inf"]
    n = np.geomspace(1, 1e12, 10**6)
    delta = np.linspace(1e-9, 0.999, 10**6)
    params = {"alpha": 1.0, "B1": 1.0, "K2bar": 2.0, "C_inf": 3.0, "m": 10.0}
    values = bound.evaluate("stated", n=n, delta=delta, **params)
    assert values.shape == (10**6,)
    assert np.all(np.isfinite(values))
    picks = np.array([0, 123_456, 999_999])
    expected = HAND[("thm1-inf", "stated")](n=n[picks], delta=delta[picks], **params)
    np.testing.assert_allclose(values[picks], expected, rtol=1e-12)
    holds = bound.precondition_holds("stated", n=n, delta=delta, p_star=0.1, **params)
    assert isinstance(holds, np.ndarray)
    assert holds.shape == (10**6,)
    assert holds.dtype == bool


def test_precondition_holds_reports_missing_p_star_as_none() -> None:
    bound = BOUNDS["thm1-one"]
    params = {"alpha": 1, "B1": 1, "Kbar": 2, "C_one": 4, "m": 10, "n": 1000, "delta": 0.1}
    assert bound.precondition_holds(**params) is None
    # stated: 8 log(m/delta)/p* = 8 log(100)/0.1 = 368.4; proved: 8 log(200)/0.1 = 423.9
    assert bound.precondition_holds("stated", **{**params, "n": 369}, p_star=0.1) is True
    assert bound.precondition_holds("proved", **{**params, "n": 369}, p_star=0.1) is False
    assert bound.precondition_holds("proved", **{**params, "n": 424}, p_star=0.1) is True
    assert BOUNDS["thm-llm-online"].precondition_holds(m=3, T=10, delta=0.1) is True


def test_uniform_form_of_corollary_1() -> None:
    bound = BOUNDS["cor1-cascade"]
    direct = bound.evaluate("stated", k=4, m=10, n=1000, delta=0.1, C_one=10 * 0.7 / 0.5)
    uniform = bound.evaluate("stated", k=4, m=10, n=1000, delta=0.1, mu1=0.7, muk=0.5)
    assert uniform == pytest.approx(direct, rel=1e-12)
    p_lb = (1 - 0.3**4) / (10 * 0.7)
    n_min = 8 * np.log(2 * 10 * 1000 / 0.1) / p_lb
    assert n_min < 1000
    assert bound.precondition_holds(k=4, m=10, n=1000, delta=0.1, mu1=0.7, muk=0.5) is True
    assert bound.precondition_holds(k=4, m=10, n=100, delta=0.1, mu1=0.7, muk=0.5) is False


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"delta": 1.0}, "delta"),
        ({"delta": 0.0}, "delta"),
        ({"delta": float("nan")}, "delta"),
        ({"alpha": 1.5}, "alpha"),
        ({"alpha": 0.0}, "alpha"),
        ({"n": 0.5}, "n"),
        ({"m": 2.5}, "m"),
        ({"C_inf": -1.0}, "C_inf"),
        ({"K2bar": float("inf")}, "K2bar"),
        ({"bogus": 1.0}, "bogus"),
    ],
)
def test_bad_parameters_name_the_field(params: dict[str, float], field: str) -> None:
    good = {"alpha": 1, "B1": 1, "K2bar": 2, "C_inf": 3, "m": 10, "n": 1000, "delta": 0.1}
    with pytest.raises(InputError) as error:
        BOUNDS["thm1-inf"].evaluate("stated", **{**good, **params})
    assert error.value.field == field


def test_missing_parameter_and_bad_variant_and_id() -> None:
    with pytest.raises(InputError, match="B1"):
        BOUNDS["thm1-inf"].evaluate("stated", alpha=1.0)
    with pytest.raises(InputError, match="variant"):
        BOUNDS["thm1-inf"].expression("printed")
    with pytest.raises(InputError, match="unknown bound"):
        get_bound("thm9")


def test_compare_reports_both_variants() -> None:
    result = BOUNDS["cor1-cascade"].compare(k=4, C_one=14, m=10, n=1000, delta=0.1, p_star=0.05)
    assert result["ratio"] == pytest.approx(2**-0.5)
    assert result["failure_proved"] == pytest.approx(0.1 + 0.1 / 2000)
    assert result["precondition_stated"] is result["precondition_proved"] is False  # n < 1953
