"""Every scenario's largest gap equals the tests' own brute force, for every bound id.

The largest gap decides which rows are ``vacuous`` (a bound at least that large cannot be
exceeded) and, for the lower bound, the range of Hoeffding's inequality; too large a
value would count rows that cannot fail as rows with power.  The expected values come
from :mod:`tests.brute_force` (plain loops over every feasible action, networkx for
spreads), never from the package.
"""

from __future__ import annotations

from typing import Any

import brute_force as bf
import pytest

from offcmab.reference.problems.kpath import lower_bound_gap_parameter
from offcmab.validation.parts.spec import PROFILES, Instance
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.scenarios import cmabt
from offcmab.validation.scenarios.im import IMScenario, build, instance_oracle
from offcmab.validation.scenarios.llm import CacheScenario
from offcmab.validation.scenarios.llm_online import StreamScenario
from offcmab.validation.scenarios.thm2_lower import LowerBoundScenario, family
from offcmab.validation.theorems import THEOREMS

SEED = 2025


def brute_force(theorem: Theorem, instance: Instance, n: int) -> float | None:
    """The largest gap by brute force, or ``None`` when the instance is too large for it."""
    scenario: Any = theorem.scenario
    params = instance.params
    if isinstance(scenario, LowerBoundScenario):
        pair = family(instance, n)
        return bf.pair_largest_gap(pair.first.problem.path_means.tolist(),
                                   pair.second.problem.path_means.tolist(), params["k"])
    if isinstance(scenario, CacheScenario | StreamScenario):
        if not bf.affordable(len(params["p"]), params["k"]):
            return None
        if isinstance(scenario, StreamScenario):
            return bf.online_largest_regret(params["p"], params["c"], params["k"], n)
        return bf.cache_largest_gap(params["p"], params["c"], params["k"])
    if isinstance(scenario, IMScenario):
        alpha = instance_oracle(params, build(params)).alpha  # the ratio the trial's gap uses
        return bf.spread_largest_gap(params, params["k"], alpha)
    assert cmabt.build(params).oracle.alpha == 1.0  # every CMAB-T instance has an exact oracle
    if params["family"] == "kpath":
        return bf.kpath_largest_gap(params["path_means"], params["k"])
    if params["family"] == "im-edge":
        return bf.spread_largest_gap(params["graph"], params["k"], 1.0)
    if not bf.affordable(len(params["mu"]), params["k"]):
        return None
    return bf.cascade_largest_gap(params["mu"], params["k"])


WITH_MAX_GAP = [t for t in THEOREMS if hasattr(t.scenario, "max_gap")]


def cases() -> list[tuple[Theorem, Instance, int, float]]:
    """Every (theorem, instance, n, brute-forced largest gap) of the quick and default
    profiles, leaving out instances too large to brute-force (Figure 1(a)'s and 3(a)'s)."""
    found = []
    for theorem in WITH_MAX_GAP:
        for profile in ("quick", "default"):
            for instance in theorem.scenario.instances(PROFILES[profile], SEED):
                for n in instance.n_grid:
                    expected = brute_force(theorem, instance, n)
                    if expected is not None:
                        found.append((theorem, instance, n, expected))
    return found


CASES = cases()


def test_every_bound_id_has_brute_forced_instances() -> None:
    """No bound id with a largest gap escapes the comparison."""
    assert {t.id for t, _, _, _ in CASES} == {t.id for t in WITH_MAX_GAP}


@pytest.mark.parametrize(("theorem", "instance", "n", "expected"), CASES,
                         ids=[f"{t.id}-{i.name}-{n}" for t, i, n, _ in CASES])
def test_max_gap_is_the_brute_forced_largest_gap(theorem: Theorem, instance: Instance,
                                                 n: int, expected: float) -> None:
    found = theorem.scenario.max_gap(instance, n)
    assert found.exact
    assert found.value == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(("m", "k", "c_inf", "variant"),
                         [(4, 2, 4.0, "proved"), (4, 2, 4.0, "printed"),
                          (12, 3, 10.0, "proved")])
@pytest.mark.parametrize("n", [100, 1000, 30000])
def test_lower_bound_pair_largest_gap_in_closed_form(m: int, k: int, c_inf: float,
                                                     variant: str, n: int) -> None:
    """The pair's largest averaged gap: k Delta with two paths, k(1 + Delta)/2 with a mean-0 path.

    With two paths each instance's worse path has gap k Delta, and the two runs may pick
    different paths, so the average reaches k Delta (not k Delta / 2, the average of one
    path's gaps on both).  With more paths a mean-0 path has gaps k/2 and k(1/2 + Delta).
    """
    instance = Instance("pair", {"m": m, "k": k, "C_inf": c_inf, "variant": variant}, 0.05,
                        (n,))
    delta_gap = lower_bound_gap_parameter(c_inf, n)
    expected = k * delta_gap if m // k == 2 else k * (1.0 + delta_gap) / 2.0
    scenario = next(t.scenario for t in THEOREMS if isinstance(t.scenario, LowerBoundScenario))
    assert scenario.max_gap(instance, n).value == pytest.approx(expected, abs=1e-12)
    assert scenario.gap_range(instance, n) == pytest.approx((0.0, expected), abs=1e-12)
