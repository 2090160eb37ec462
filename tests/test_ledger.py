"""The slack ledger: each column recomputed independently on small instances, and the CLI.

No Monte-Carlo assertion here has a false-alarm probability: the independent computation
redraws the ledger's own seeded logs, so both sides see identical data and agree exactly (up
to float rounding in sums taken in another order).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_cli_solve import run_cli

from offcmab.bounds.certificates import CERTIFICATES
from offcmab.bounds.registry import BOUNDS
from offcmab.reference.clcb import clcb
from offcmab.reference.clcb_llm import clcb_llm
from offcmab.reference.problems.kpath import KPathProblem, PathLaw
from offcmab.reference.problems.llm_cache import LLMCacheProblem, sample_log
from offcmab.validation.parts.spec import Instance, TrialKey
from offcmab.validation.parts.theorem import find
from offcmab.validation.runner.seeding import trial_generator
from offcmab.validation.scenarios import cmabt, llm_instances
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.tightness.ledger import (
    COLUMNS,
    HELD_OUT,
    ONLINE_REASON,
    absent_reason,
    ledger,
    quantile_ratio,
)

TRIALS = 40
#: Three paths of two arms; the best one logged least, so CLCB errs in some logs.
KPATH = {"family": "kpath", "path_means": [0.7, 0.6, 0.2], "k": 2,
         "law": {"kind": "paths", "weights": [0.08, 0.62, 0.30]}}
#: Four queries, a cache of two, empty logged caches.
CACHE = {"p": [0.4, 0.3, 0.2, 0.1], "c": [0.3, 0.5, 0.9, 0.6], "k": 2,
         "noise": "bernoulli", "law": {"kind": "empty"}}


def upper_quantile(ratios: list[float], delta: float) -> float:
    """The ``higher`` (1-delta)-quantile by sorting: the value at index ceil((1-delta)(T-1))."""
    ordered = sorted(ratios)
    return ordered[math.ceil((1 - delta) * (len(ordered) - 1) - 1e-12)]


def ratio(gap: float, denominator: float) -> float:
    if gap == 0:
        return 0.0
    return gap / denominator if denominator > 0 else math.inf


def rng_of(bound_id: str, instance: Instance, t: int) -> np.random.Generator:
    return trial_generator(7, TrialKey(bound_id, instance.name + HELD_OUT,
                                       instance.n_grid[0], t))


def kpath_by_hand(instance: Instance, bound_id: str) -> dict[str, list[float]]:
    """Gap, certificate and proof sum of every held-out log, computed by enumerating paths."""
    means = np.array(KPATH["path_means"])
    k, paths = KPATH["k"], len(KPATH["path_means"])
    problem = KPathProblem(means, k)
    law = PathLaw(problem, np.array(KPATH["law"]["weights"]))
    best = int(np.argmax(means))
    found: dict[str, list[float]] = {"gap": [], "certificate": [], "proof_sum": []}
    for t in range(TRIALS):
        data = law.sample(instance.n_grid[0], rng_of(bound_id, instance, t))
        result = clcb(data, problem.oracle(), instance.delta)
        chosen = int(result.action[0]) // k
        lcb = np.clip(result.lcb, 0.0, 1.0)
        radius = np.sqrt(np.log(4 * paths * k * instance.n_grid[0] / instance.delta)
                         / (2 * np.maximum(result.counts, 1)))
        ucb = np.where(result.counts > 0, np.clip(result.means + radius, 0.0, 1.0), 1.0)
        arm_sums = [sum(ucb[j * k + i] for i in range(k)) for j in range(paths)]
        found["gap"].append(k * (means[best] - means[chosen]))
        found["certificate"].append(max(0.0, max(arm_sums)
                                        - sum(lcb[chosen * k + i] for i in range(k))))
        found["proof_sum"].append(sum(means[best] - result.lcb[best * k + i]
                                      for i in range(k)))
    return found


@pytest.mark.parametrize("bound_id", ["thm1-inf", "thm1-one"])
def test_kpath_ledger_agrees_with_an_enumeration(bound_id: str) -> None:
    instance = Instance("small", KPATH, 0.1, (1000,), "test")
    found = ledger(find(THEOREMS, bound_id), instance, seed=7, trials=TRIALS)
    hand = kpath_by_hand(instance, bound_id)
    assert any(gap > 0 for gap in hand["gap"])  # the instance makes CLCB err: ratios say so
    for column in ("certificate", "proof_sum"):
        expected = upper_quantile([ratio(g, d) for g, d in
                                   zip(hand["gap"], hand[column], strict=True)], 0.1)
        assert found.entries[column].ratio == pytest.approx(expected, rel=1e-12), column
    coverage = cmabt.coverage(KPATH)
    names = {"thm1-inf": ("K2bar", "C_inf"), "thm1-one": ("Kbar", "C_one")}[bound_id]
    for variant in ("stated", "proved"):
        bound = BOUNDS[bound_id].evaluate(
            variant, alpha=1.0, B1=1.0, m=6, n=1000, delta=0.1, p_star=coverage["p_star"],
            **{name: coverage[name] for name in names})
        expected = upper_quantile(hand["gap"], 0.1) / float(bound)
        assert found.entries[variant].ratio == pytest.approx(expected, rel=1e-12), variant
    assert found.gap_quantile == upper_quantile(hand["gap"], 0.1)


@pytest.mark.parametrize(("bound_id", "variant", "arrival"),
                         [("lem-llm-std", "standard", 1.0), ("thm3-llm", "improved", 2.0)])
def test_cache_ledger_agrees_with_a_loop_over_queries(bound_id: str, variant: str,
                                                       arrival: float) -> None:
    instance = Instance("small", CACHE, 0.1, (300,), "test")
    found = ledger(find(THEOREMS, bound_id), instance, seed=7, trials=TRIALS)
    problem = LLMCacheProblem(np.array(CACHE["p"]), np.array(CACHE["c"]), CACHE["k"])
    law = llm_instances.build(CACHE).law
    p, c = CACHE["p"], CACHE["c"]
    best = min(itertools.combinations(range(4), 2),
               key=lambda cache: sum(p[q] * c[q] for q in range(4) if q not in cache))
    gaps, sums, certificates = [], [], []
    for t in range(TRIALS):
        log = sample_log(problem, law, 300, rng_of(bound_id, instance, t), "bernoulli")
        result = clcb_llm(log, 2, 0.1, variant)
        cost = [sum(p[q] * c[q] for q in range(4) if q not in cache)
                for cache in (result.cache.tolist(), best)]
        gaps.append(cost[0] - cost[1])
        total = 0.0
        for q in range(4):
            p_bar = min(float(result.p_ucb[q]), 1.0)
            total += arrival * abs(p_bar - p[q])
            if q not in best:
                total += p[q] * abs(min(float(result.c_ucb[q]), 1.0) - c[q])
        sums.append(total)
        certificates.append(result.certificate.bound)
    assert any(gap > 0 for gap in gaps)  # the cache errs in some logs: the ratios are not 0
    for column, values in (("proof_sum", sums), ("certificate", certificates)):
        expected = upper_quantile([ratio(g, d) for g, d in zip(gaps, values, strict=True)],
                                  0.1)
        assert found.entries[column].ratio == pytest.approx(expected, rel=1e-12), column


def test_quantile_ratio_of_zero_gaps_and_zero_denominators() -> None:
    assert quantile_ratio(np.zeros(5), np.zeros(5), 0.1) == 0.0
    assert quantile_ratio(np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0]), 0.01) \
        == math.inf
    assert quantile_ratio(np.array([0.5, 1.0]), 2.0, 0.5) == 0.5


def test_columns_without_a_derivation_are_absent_with_a_reason() -> None:
    online = find(THEOREMS, "thm-llm-online")
    assert absent_reason(online) == ONLINE_REASON
    assert "lower bound" in absent_reason(find(THEOREMS, "thm2-lower"))
    for bound_id in ("thm1-inf", "thm1-one", "cor1-cascade", "lem-llm-std", "thm3-llm"):
        assert absent_reason(find(THEOREMS, bound_id)) == ""
    im = find(THEOREMS, "thm4-im")  # an offline algorithm: not the online learner's reason
    assert absent_reason(im) == ("" if im.id in CERTIFICATES else
                                 "no certificate is derived for this algorithm yet")


def test_a_bound_that_does_not_apply_is_absent_not_a_number() -> None:
    # n far below the precondition's 8 log(m/delta)/p*: the stated and proved columns are
    # absent, the certificate (no precondition) is still measured
    instance = Instance("small", KPATH, 0.1, (20,), "test")
    found = ledger(find(THEOREMS, "thm1-inf"), instance, seed=7, trials=5)
    for variant in ("stated", "proved"):
        assert found.entries[variant].ratio is None
        assert "precondition" in found.entries[variant].reason
    assert found.entries["certificate"].ratio is not None


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one command."""
    code = run_cli(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_tightness_json_has_the_ledger(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tight.json"
    code, stdout, stderr = cli(capsys, "tightness", "thm1-inf", "--budget", "3", "--seed", "1",
                               "--ledger-trials", "10", "--out", str(out), "--json")
    assert code == 0, stderr
    payload: dict[str, Any] = json.loads(stdout)
    assert set(payload["ledger"]) == set(COLUMNS)
    assert payload["ledger_run"]["trials"] == 10
    assert json.loads(out.read_text())["objective"] == "stated"


def test_certificate_objective_and_ledger_of_a_saved_instance(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cert.json"
    code, stdout, stderr = cli(capsys, "tightness", "cor1-cascade", "--budget", "3", "--seed",
                               "1", "--objective", "certificate", "--ledger-trials", "10",
                               "--out", str(out), "--json")
    assert code == 0, stderr
    searched = json.loads(stdout)
    assert searched["objective"] == "certificate" and searched["trials"] == 100
    code, stdout, stderr = cli(capsys, "tightness", "cor1-cascade", "--seed", "1",
                               "--ledger-of", str(out), "--ledger-trials", "10", "--json")
    assert code == 0, stderr
    assert json.loads(stdout)["ledger"] == searched["ledger"]  # the same held-out logs


def test_certificate_objective_is_refused_where_no_certificate_is_derived(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, stderr = cli(capsys, "tightness", "thm-llm-online", "--objective", "certificate")
    assert code == 2 and stderr.count("\n") == 1 and "objective" in stderr


def test_an_uncertified_problem_leaves_the_certificate_absent() -> None:
    # Theorem 1's CLCB certifies k-path actions only; on a cascade instance it returns none
    cascade = {"family": "cascade", "mu": [0.6, 0.5, 0.2], "k": 1, "law": {"kind": "uniform"}}
    found = ledger(find(THEOREMS, "thm1-inf"), Instance("c", cascade, 0.1, (500,), "test"),
                   seed=7, trials=3)
    assert found.entries["certificate"].ratio is None
    assert "no certificate" in found.entries["certificate"].reason
    assert found.entries["proof_sum"].ratio is not None
