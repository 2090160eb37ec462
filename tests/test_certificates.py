"""Certificates: derived in bounds/, computed in reference/, kept on simulated data.

Every Monte-Carlo assertion is an exact binomial test at false-alarm probability
``FALSE_ALARM`` (1e-3) with a fixed seed.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from offcmab.bounds.certificates import CERTIFICATES, certificate_of, monotone_step_holds
from offcmab.reference.certificates import (
    cache_certificate,
    cascade_bound,
    cascade_certificate,
    cascade_reward,
    clcb_event,
    kpath_certificate,
)
from offcmab.reference.clcb import clcb
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.clcb_llm import clcb_llm
from offcmab.reference.confidence import LOG_CONSTANT
from offcmab.reference.problems.llm_cache import sample_log
from offcmab.validation.controls.cmab import cascade_narrowed_certificate
from offcmab.validation.events import certificates as certificate_rows
from offcmab.validation.events.arms import CLOSE, OOD
from offcmab.validation.events.certificates import MANY_N, bound_of, many_params
from offcmab.validation.events.core import run_case
from offcmab.validation.scenarios import cmabt, llm_instances

FALSE_ALARM = 1e-3
ROOT = Path(__file__).resolve().parents[1]


def allowed(trials: int, failure: float) -> int:
    """The largest violation count with P(Binomial(trials, failure) >= count) >= 1e-3."""
    return int(stats.binom.isf(FALSE_ALARM, trials, failure))


def test_failure_probabilities_match_the_recorded_events() -> None:
    # the reference's numbers against the sympy records (radius constant, failure)
    for bound_id, constant in (("thm1-inf", "alg1"), ("thm1-one", "alg1"),
                               ("cor1-cascade", "cascade")):
        record = certificate_of(bound_id)
        assert record.radius_constant() == LOG_CONSTANT[constant]
        event = clcb_event(500, 7, 0.1, LOG_CONSTANT[constant])
        assert event.failure == pytest.approx(record.failure_value(0.1), rel=1e-12)
    for bound_id in ("lem-llm-std", "thm3-llm"):
        record = CERTIFICATES[bound_id]
        log = sample_log(llm_instances.build(llm_instances.small_ood()).problem,
                         llm_instances.build(llm_instances.small_ood()).law, 300,
                         np.random.default_rng(0), "bernoulli")
        result = clcb_llm(log, 3, 0.1)
        assert result.certificate is not None
        assert result.certificate.failure_probability == pytest.approx(
            record.failure_value(0.1), rel=1e-12)
        assert record.radius_constant() == 8.0
    assert monotone_step_holds()


def test_unobserved_arms_give_a_finite_certificate() -> None:
    counts = np.array([0, 0, 50, 0])
    means = np.array([np.nan, np.nan, 0.4, np.nan])
    certificate = cascade_certificate(np.array([2, 0]), counts, means, 50, 2, 0.1, 2.0)
    assert np.isfinite(certificate.bound) and 0.0 <= certificate.bound <= 1.0
    certificate = kpath_certificate(np.array([2, 3]), counts, means, 50, 2, 0.1, 4.0)
    assert np.isfinite(certificate.bound)
    cache = cache_certificate(np.array([1]), np.array([0, 5, 5]), np.array([0, 0, 3]),
                              np.array([np.nan, np.nan, 0.5]), 10, 1, 0.1)
    assert np.isfinite(cache.bound)


def test_top_k_is_the_exact_maximum_of_the_cascade_reward() -> None:
    rng = np.random.default_rng(3)
    for _ in range(50):
        lcb = np.sort(rng.uniform(size=6))[rng.permutation(6)]
        ucb = np.minimum(1.0, lcb + rng.uniform(0.0, 0.3, size=6))
        best = max(cascade_reward(np.array(s), ucb) for s in itertools.combinations(range(6), 3))
        action = np.array([0, 1, 2])
        assert cascade_bound(action, lcb, ucb, 3) == pytest.approx(
            best - cascade_reward(action, lcb), abs=1e-12)


def _cascade_violations(params: dict, n: int, trials: int, run, seed: int) -> tuple[int, float]:
    setup = cmabt.build(params)
    rng = np.random.default_rng(seed)
    violations = 0
    for _ in range(trials):
        result = run(setup.law.sample(n, rng), int(params["k"]), 0.05)
        violations += cmabt.gap(setup, result.action) > result.certificate.bound + 1e-12
    return violations, result.certificate.failure_probability


def test_cascade_certificate_holds_on_simulated_logs() -> None:
    # P(false alarm) <= 1e-3 on each instance: the count is stochastically below
    # Binomial(trials, d) when the certificate holds with probability 1 - d.
    for params, n in ((OOD, 400), (many_params("cascade"), MANY_N)):
        violations, failure = _cascade_violations(params, n, 200, clcb_cascade, seed=11)
        assert failure == pytest.approx(certificate_of("cor1-cascade").failure_value(0.05))
        assert violations <= allowed(200, failure)


def test_the_same_test_catches_a_narrowed_certificate() -> None:
    # the narrowed control is flagged: its violation rate on cert-many is far above 0.05
    violations, failure = _cascade_violations(many_params("cascade"), MANY_N, 200,
                                              cascade_narrowed_certificate, seed=11)
    assert violations > allowed(200, failure)


def test_kpath_and_cache_certificates_hold_on_simulated_logs() -> None:
    setup = cmabt.build(CLOSE)
    rng = np.random.default_rng(5)
    violations = 0
    for _ in range(200):
        result = clcb(setup.law.sample(300, rng), setup.oracle, 0.05)
        violations += cmabt.gap(setup, result.action) > result.certificate.bound + 1e-12
    assert violations <= allowed(200, certificate_of("thm1-inf").failure_value(0.05))
    params = llm_instances.small_ood()
    cache_setup = llm_instances.build(params)
    violations = 0
    for _ in range(200):
        log = sample_log(cache_setup.problem, cache_setup.law, 300, rng, params["noise"])
        result = clcb_llm(log, 3, 0.05, variant="improved")
        violations += cache_setup.problem.gap(result.cache) > result.certificate.bound + 1e-12
    assert violations <= allowed(200, certificate_of("thm3-llm").failure_value(0.05))


def test_solve_prints_a_finite_certificate() -> None:
    command = [sys.executable, "-m", "offcmab", "solve", "cascade", "--data",
               str(ROOT / "docs/examples/cascade-log.csv"), "--k", "3", "--delta", "0.1"]
    found = json.loads(subprocess.run([*command, "--json"], capture_output=True, text=True,
                                      check=True, cwd=ROOT.parent).stdout)["certificate"]
    assert np.isfinite(found["bound"]) and found["failure_probability"] == pytest.approx(0.1)
    assert "E_arm" in found["event"]
    text = subprocess.run(command, capture_output=True, text=True, check=True,
                          cwd=ROOT.parent).stdout
    assert "with probability at least 1 - 0.1 the gap is at most" in text


class _Bounds:
    """A user's result: the action and clipped LCBs and UCBs, no certificate."""

    def __init__(self, action: np.ndarray, lcb: np.ndarray, ucb: np.ndarray) -> None:
        self.action, self.lcb, self.ucb = action, lcb, ucb


def _exposing_bounds(dataset, k: int, delta: float) -> _Bounds:
    """CLCB-Cascade's action with the intervals of its certificate's event, exposed."""
    result = clcb_cascade(dataset, k, delta)
    event = clcb_event(dataset.n, dataset.m, delta, LOG_CONSTANT["cascade"])
    lcb, ucb = event.interval(result.counts, result.means)
    return _Bounds(result.action, lcb, ucb)


def test_a_subject_exposing_lcb_and_ucb_gets_the_reference_certificate() -> None:
    setup = cmabt.build(OOD)
    rng = np.random.default_rng(2)
    for _ in range(20):
        dataset = setup.law.sample(300, rng)
        mine = _exposing_bounds(dataset, 3, 0.05)
        reference = clcb_cascade(dataset, 3, 0.05).certificate
        assert bound_of(mine, "mine", mine.action, cascade_bound, 3) == pytest.approx(
            reference.bound, abs=1e-12)
    cases = certificate_rows.cascade_cases("cor1-cascade", "quick", _exposing_bounds, "mine", ())
    assert all(run_case(case, 40, 1).trials == 40 for case in cases)  # rows, not n/a


def test_a_subject_exposing_neither_gets_na_rows() -> None:
    def action_only(dataset, k: int, delta: float) -> object:
        class Bare:
            action = clcb_cascade(dataset, k, delta).action
        return Bare()

    cases = certificate_rows.cascade_cases("cor1-cascade", "quick", action_only, "bare", ())
    assert all(run_case(case, 5, 1).reason for case in cases)
