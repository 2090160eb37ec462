"""Sample-size inversion: the answer meets the target and the precondition, n - 1 does not."""

from __future__ import annotations

import math

import pytest

from offcmab.bounds.registry import BOUNDS
from offcmab.bounds.sample_complexity import solve_n
from offcmab.reference.errors import InputError

CASES = [
    ("thm1-inf", {"alpha": 1, "B1": 1, "K2bar": 2, "C_inf": 3, "m": 10, "delta": 0.1,
                  "p_star": 0.1}, 0.1),
    ("thm1-one", {"alpha": 0.5, "B1": 2, "Kbar": 2, "C_one": 4, "m": 10, "delta": 0.01}, 0.05),
    ("thm2-lower", {"k": 2, "C_inf": 3}, 0.1),
    ("cor1-cascade", {"k": 4, "m": 10, "delta": 0.1, "mu1": 0.7, "muk": 0.5}, 0.1),
    ("lem-llm-std", {"m": 10, "delta": 0.1, "nu_inv_sum": 8, "p_star": 0.001}, 0.5),
    ("thm3-llm", {"m": 10, "delta": 0.1, "nu_inv_sum": 8, "p_star": 0.02}, 0.2),
    ("thm4-im", {"V": 10, "d_max": 3, "sigma_star": 4, "eta": 0.5, "gamma": 0.2, "E": 30,
                 "delta": 0.1}, 5.0),
]


@pytest.mark.parametrize(("bound_id", "params", "eps"), CASES)
@pytest.mark.parametrize("variant", ["stated", "proved"])
def test_solution_is_smallest(bound_id: str, params: dict[str, float], eps: float,
                              variant: str) -> None:
    bound = BOUNDS[bound_id]
    result = solve_n(bound, eps, variant, **params)
    assert bound.evaluate(variant, n=result.n, **params) <= eps
    assert result.value <= eps
    holds = bound.precondition_holds(variant, n=result.n, **params)
    assert holds in (True, None)
    if result.n > 1:
        before = result.n - 1
        worse = bound.evaluate(variant, n=before, **params) > eps
        fails = bound.precondition_holds(variant, n=before, **params) is False
        assert worse or fails


def test_lower_bound_inversion_matches_closed_form() -> None:
    # k min(1, sqrt(C/n)) <= eps  <=>  n >= C k^2 / eps^2
    result = solve_n(BOUNDS["thm2-lower"], 0.1, k=2, C_inf=3)
    assert result.n == math.ceil(3 * 4 / 0.01 - 1e-9)


def test_precondition_can_dominate() -> None:
    params = {"alpha": 1, "B1": 1, "K2bar": 1, "C_inf": 1, "m": 10, "delta": 0.1,
              "p_star": 1e-4}
    result = solve_n(BOUNDS["thm1-inf"], 1.0, "proved", **params)
    assert result.n_precondition is not None
    assert result.n == result.n_precondition > result.n_gap


@pytest.mark.parametrize(
    ("bound_id", "params", "eps", "match"),
    [
        ("thm1-inf", {"alpha": 1, "B1": 1, "K2bar": 2, "C_inf": 3, "m": 10, "delta": 0.1},
         0.0, "eps"),
        ("thm1-inf", {"alpha": 1, "B1": 1, "K2bar": 2, "C_inf": 3, "m": 10, "delta": 0.1},
         1e-12, "not reached"),
        ("thm1-inf", {"alpha": 1, "B1": 1, "K2bar": 2, "C_inf": 3, "m": 10, "delta": 0.1,
                      "n": 5}, 0.1, "unknown"),
        ("thm-llm-online", {"m": 10, "delta": 0.1}, 1.0, "no sample size"),
    ],
)
def test_bad_requests(bound_id: str, params: dict[str, float], eps: float, match: str) -> None:
    with pytest.raises(InputError, match=match):
        solve_n(BOUNDS[bound_id], eps, **params)
