"""Vacuity, detectability, the budget split and trial sizing of ``offcmab validate``.

Monte-Carlo assertions here state their false-alarm probability (exact binomial
tails) and use fixed seeds.
"""

from __future__ import annotations

from itertools import combinations, permutations
from pathlib import Path

import numpy as np
import pytest
import validate_fake
from scipy import stats

from offcmab.validation.parts import verdict
from offcmab.validation.parts.scenario import BoundValue, MaxGap
from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET, PROFILES, Instance
from offcmab.validation.runner import analysis
from offcmab.validation.runner.sweep import RunConfig, run_validation
from offcmab.validation.scenarios import cmabt
from offcmab.validation.scenarios import llm_instances as cases

INSTANCE = Instance("planted", {}, 0.05, (100,))


def cell(gaps: np.ndarray) -> analysis.Cell:
    return analysis.Cell("x", INSTANCE, 100, gaps, np.zeros_like(gaps), {})


def plan(bound: float, largest: float) -> analysis.RowPlan:
    return analysis.RowPlan("stated", BoundValue(bound), MaxGap(largest, True, "test"))


def test_a_bound_at_least_the_largest_gap_is_vacuous_not_pass() -> None:
    gaps = np.full(50, 0.3)
    vacuous = analysis.upper_row(cell(gaps), plan(0.5, 0.5), 1e-4, 4.0)
    assert vacuous["verdict"] == "vacuous" and vacuous["row_level"] == 0.0
    assert vacuous["detectable_rate"] is None and "largest gap" in vacuous["reason"]
    powered = analysis.upper_row(cell(gaps), plan(0.5, 0.50001), 1e-4, 4.0)
    assert powered["verdict"] == "pass" and powered["row_level"] == 1e-4
    failing = analysis.upper_row(cell(np.full(50, 0.6)), plan(0.5, 0.7), 1e-4, 4.0)
    assert failing["verdict"] == "FAIL"


def test_summary_counts_power_apart_from_vacuous() -> None:
    from offcmab.validation.runner.sweep import summarize

    rows = [{"verdict": v} for v in ("pass", "pass", "FAIL", "vacuous", "n/a", "note",
                                     "advisory", "known-failure")]
    assert summarize(rows) == {"pass": 2, "FAIL": 1, "vacuous": 1, "n/a": 1, "note": 1,
                               "advisory": 1, "error": 0, "known-failure": 1, "power": 3}


def _all_gaps_cascade(params: dict) -> list[float]:
    setup = cmabt.build(params)
    k = setup.problem.k  # type: ignore[attr-defined]
    return [cmabt.gap(setup, np.array(s))
            for s in permutations(range(setup.problem.m), k)]


@pytest.mark.parametrize("params", [
    {"family": "cascade", "mu": [0.9, 0.1, 0.5, 0.0, 0.7], "k": 2, "law": {"kind": "uniform"}},
    {"family": "kpath", "path_means": [0.2, 0.9, 0.4], "k": 2,
     "law": {"kind": "paths", "weights": [0.5, 0.25, 0.25]}},
])
def test_largest_gap_is_the_worst_feasible_action(params: dict) -> None:
    setup = cmabt.build(params)
    if params["family"] == "cascade":
        gaps = _all_gaps_cascade(params)
    else:
        problem = setup.problem
        gaps = [cmabt.gap(setup, problem.path_arms(j))  # type: ignore[attr-defined]
                for j in range(problem.paths)]  # type: ignore[attr-defined]
    assert cmabt.max_gap(params).value == pytest.approx(max(gaps), abs=1e-12)


def test_llm_largest_gap_is_the_worst_cache() -> None:
    params = cases.small_ood()
    problem = cases.build(params).problem
    worst = max(problem.gap(np.array(c)) for c in combinations(range(problem.m), problem.k))
    assert cases.max_gap(params).value == pytest.approx(worst, abs=1e-12)


def test_detectable_rate_is_flagged_with_probability_exactly_point_nine() -> None:
    for trials, delta, level in [(20, 0.05, 3.9e-9), (132, 0.05, 1e-5), (400, 0.01, 1e-4)]:
        rate = verdict.detectable_rate(trials, delta, level)
        assert rate is not None
        needed = verdict.allowed_violations(trials, delta, level) + 1
        assert stats.binom.sf(needed - 1, trials, rate) == pytest.approx(0.9, abs=1e-9)
        assert stats.binom.sf(needed - 1, trials, rate * 0.99) < 0.9
        # and the row really flags at `needed` and not below
        assert verdict.binomial_tail(needed, trials, delta) < level
        assert verdict.binomial_tail(needed - 1, trials, delta) >= level


def test_trials_are_sized_for_four_delta() -> None:
    for delta in (0.01, 0.05, 0.1, 0.2):
        trials = verdict.trials_to_detect(delta, 1e-5, 4 * delta, 20, 20000)
        assert trials is not None
        rate = verdict.detectable_rate(trials, delta, 1e-5)
        assert rate is not None and rate <= 4 * delta
        fewer = verdict.detectable_rate(trials - 1, delta, 1e-5) if trials > 20 else 0.0
        assert trials == 20 or fewer is None or fewer > 4 * delta


def test_a_planted_exceedance_rate_of_four_delta_is_flagged() -> None:
    """Replicated rows whose gaps exceed the bound with probability 4 delta.

    Each is flagged with probability >= 0.9 (by the sizing); the test requires at least
    ``floor`` of 400 replicates flagged, which fails by chance with probability below
    1e-6 when the true flag probability is 0.9 (exact binomial tail, seed fixed).
    """
    delta, level = 0.05, 1e-5
    trials = verdict.trials_to_detect(delta, level, 4 * delta, 20, 5000)
    assert trials is not None
    instance = Instance("planted", {}, delta, (100,))
    rng = np.random.default_rng(20251123)
    replicates = 400
    flagged = 0
    for _ in range(replicates):
        gaps = np.where(rng.random(trials) < 4 * delta, 2.0, 0.0)
        row = analysis.upper_row(analysis.Cell("x", instance, 100, gaps, np.zeros(trials), {}),
                                 plan(1.0, 3.0), level, 4.0)
        flagged += row["verdict"] == "FAIL"
    floor = int(stats.binom.ppf(1e-6, replicates, 0.9))
    assert stats.binom.cdf(floor - 1, replicates, 0.9) < 1e-6
    assert flagged >= floor


@pytest.fixture(scope="module")
def fake_report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    config = RunConfig(profile=PROFILES["quick"], seed=7, out=tmp_path_factory.mktemp("fake"))
    return run_validation(config, validate_fake.THEOREMS)


def test_budget_shares_sum_to_the_run_level(fake_report: dict) -> None:
    rows = fake_report["rows"]
    assert sum(row["row_level"] for row in rows) == pytest.approx(FALSE_ALARM_BUDGET,
                                                                  rel=1e-12)
    powered = [row for row in rows if row["verdict"] in ("pass", "FAIL")]
    assert len(powered) == fake_report["tested_rows"] >= 1
    assert all(row["row_level"] == 0.0 for row in rows if row["verdict"] == "vacuous")


def test_rows_with_power_reach_their_detection_target(fake_report: dict) -> None:
    for row in fake_report["rows"]:
        if row["verdict"] in ("pass", "FAIL"):
            assert row["detectable_rate"] <= row["detect_target"] or "cap" in row["reason"]
            assert row["trials"] > PROFILES["quick"].trials  # sized up from the minimum


def test_vacuity_uses_the_scaled_bound(tmp_path: Path) -> None:
    config = RunConfig(profile=PROFILES["quick"], seed=7, out=tmp_path, bound_scale=1e-3)
    rows = run_validation(config, validate_fake.THEOREMS)["rows"]
    assert not any(row["verdict"] == "vacuous" for row in rows)
