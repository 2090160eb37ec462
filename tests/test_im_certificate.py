"""The certificate of CLCB-IM-N: derived in bounds/, computed in reference/, kept on
simulated cascades.

Every Monte-Carlo assertion is an exact binomial test at false-alarm probability
``FALSE_ALARM`` (1e-3) with a fixed seed.
"""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import numpy as np
import pytest
from scipy import stats

from offcmab.bounds.certificates import (
    IM_EDGE_CERTIFICATE,
    certificate_of,
    edge_formula_monotone,
)
from offcmab.reference.im.certificate import (
    ORACLE_EPS,
    exact_certifiable,
    interval_failure,
)
from offcmab.reference.im.clcb_im_edge import clcb_im_edge
from offcmab.reference.im.clcb_im_node import certifier_of, clcb_im_node
from offcmab.reference.im.data import sample_edge_feedback
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.graph_io import (
    write_edge_feedback,
    write_graph_csv,
    write_node_cascades,
)
from offcmab.reference.im.oracles import IMMOracle
from offcmab.reference.im.problem import NodeLevelIM
from offcmab.validation.cli import main
from offcmab.validation.events import certificates as certificate_rows
from offcmab.validation.events import collect
from offcmab.validation.events.core import run_case
from offcmab.validation.parts.theorem import find
from offcmab.validation.scenarios.im import build, exact_oracle, star_and_chain
from offcmab.validation.subjects import control_spec
from offcmab.validation.theorems import THEOREMS

FALSE_ALARM = 1e-3


def allowed(trials: int, failure: float) -> int:
    """The largest violation count with P(Binomial(trials, failure) >= count) >= 1e-3."""
    return int(stats.binom.isf(FALSE_ALARM, trials, failure))


def test_the_record_takes_the_interval_events_only_and_the_reference_matches_it() -> None:
    record = certificate_of("thm4-im")
    assert [one.name for one in record.events] == ["arm1", "arm2", "arm3"]
    for n, edges, delta in ((5000, 6, 0.05), (123, 40, 0.2)):
        assert interval_failure(n, edges, delta) == pytest.approx(
            record.failure_value(delta, n), rel=1e-12)
    assert edge_formula_monotone()


def _hidden(problem: NodeLevelIM) -> ICGraph:
    return problem.graph.with_probabilities(np.zeros(problem.graph.edges))


def test_the_certifier_rebuilds_the_algorithms_lcb_and_brackets_the_truth() -> None:
    problem = build(star_and_chain())
    result = clcb_im_node(_hidden(problem), problem.sample(200000, np.random.default_rng(3)),
                          exact_oracle(problem.graph, 2), 0.05)
    certifier = result.certifier
    assert certifier is not None
    assert np.array_equal(certifier.lcb, result.lcb)
    assert np.all(certifier.ucb >= problem.graph.p) and np.all(certifier.lcb <= problem.graph.p)
    assert result.certificate is not None and result.certificate.bound < problem.graph.nodes - 2


def _every_seed_set(nodes: int, k: int) -> list[np.ndarray]:
    return [np.array(chosen) for chosen in itertools.combinations(range(nodes), k)]


def _six_node_pairs() -> tuple[Any, Any, list[np.ndarray], list[float]]:
    """The six-node graph, its exact oracle for pairs, every seed pair and its gap."""
    problem = build(star_and_chain())
    sets = _every_seed_set(problem.graph.nodes, 2)
    gaps = [problem.sigma_star - problem.spread(chosen).spread for chosen in sets]
    return problem, exact_oracle(problem.graph, 2), sets, gaps


def test_exact_certificate_holds_on_simulated_cascades() -> None:
    # On the interval events every seed set's certificate holds at once, so the count of
    # logs where some seed set's gap sigma(S*) - sigma(S) exceeds its certificate is
    # stochastically below Binomial(T, d), d = (n+2) delta/(6n) (exact spreads, alpha = 1).
    # At this n the algorithm's own certificate is below the largest gap (checked), so the
    # test can see a certificate that is too small.
    problem, oracle, sets, gaps = _six_node_pairs()
    rng = np.random.default_rng(17)
    trials, n, delta = 40, 100000, 0.05
    violations = 0
    for _ in range(trials):
        result = clcb_im_node(_hidden(problem), problem.sample(n, rng), oracle, delta)
        certificate = result.certificate
        assert certificate is not None and certificate.bound < max(gaps)
        violations += any(gap > result.certifier(chosen).bound + 1e-12
                           for gap, chosen in zip(gaps, sets, strict=True))
    failure = certificate_of("thm4-im").failure_value(delta, n)
    assert certificate.failure_probability == pytest.approx(failure)
    assert violations <= allowed(trials, failure)


def _star() -> NodeLevelIM:
    """A hub with fifteen leaves (edge probability 0.9) and one more edge, k = 1: sixteen
    edges, exact spreads, but too many seed sets for the exact certificate, so the
    estimated one (IMM, Monte-Carlo spreads) is used.  A leaf's alpha-gap is positive."""
    sources = np.array([0] * 15 + [1])
    targets = np.array([*range(2, 17), 2])
    graph = ICGraph.from_edges(17, sources, targets, np.full(16, 0.9))
    return NodeLevelIM(graph, np.full(17, 0.4), 1)


def test_estimated_certificate_holds_for_the_alpha_gap() -> None:
    # the alpha-gap alpha sigma(S*) - sigma(S) of the algorithm's seed and of a leaf (whose
    # alpha-gap is positive) against their certificates; violations stochastically below
    # Binomial(T, d) with d the events' failure plus IMM's and the two estimates' (3 delta/4)
    problem = _star()
    assert not exact_certifiable(problem.graph, 1)
    oracle = IMMOracle(problem.graph, 1)
    rng = np.random.default_rng(23)
    trials, n, delta = 12, 100000, 0.05
    alpha = 1.0 - 1.0 / math.e - ORACLE_EPS
    leaf = np.array([5])
    assert alpha * problem.sigma_star - problem.spread(leaf).spread > 0
    violations = 0
    for _ in range(trials):
        result = clcb_im_node(_hidden(problem), problem.sample(n, rng), oracle, delta)
        certificate = result.certificate
        assert certificate is not None and "alpha" in certificate.event
        violations += any(
            alpha * problem.sigma_star - problem.spread(chosen).spread
            > result.certifier(chosen).bound + 1e-12 for chosen in (result.seeds, leaf))
    failure = certificate_of("thm4-im").failure_value(delta, n) + 3 * delta / 4
    assert certificate.failure_probability == pytest.approx(failure)
    assert violations <= allowed(trials, failure)


class _Bounds:
    """A user's IM result: seeds and per-edge LCBs and UCBs, no certificate."""

    def __init__(self, seeds: np.ndarray, lcb: np.ndarray, ucb: np.ndarray) -> None:
        self.seeds, self.lcb, self.ucb = seeds, lcb, ucb


def _exposing_bounds(graph, cascades, oracle, delta: float) -> _Bounds:
    result = clcb_im_node(graph, cascades, oracle, delta)
    certifier = certifier_of(graph, result, delta)
    return _Bounds(result.seeds, certifier.lcb, certifier.ucb)


def test_certificate_rows_run_for_the_reference_and_a_user_exposing_bounds() -> None:
    for subject, spec in ((clcb_im_node, "reference"), (_exposing_bounds, "mine")):
        case, = certificate_rows.im_cases("thm4-im", "quick", subject, spec, ())
        result = run_case(case, 0, 1)
        assert result.trials == 10 and not result.reason
        assert result.failures <= allowed(10, case.failure)


def test_certificate_rows_skip_controls_that_keep_the_reference_certifier() -> None:
    case, = certificate_rows.im_cases("thm4-im", "quick", clcb_im_node,
                                      control_spec("oracle-random"), ("printed-estimator",))
    result = run_case(case, 0, 1)
    assert result.trials == 0 and "cannot flag" in result.reason
    case, = certificate_rows.im_cases("thm4-im", "quick", clcb_im_node,
                                      control_spec("printed-estimator"), ("printed-estimator",))
    assert not case.skip


def test_solve_im_node_prints_the_certificate(tmp_path, capsys: pytest.CaptureFixture[str]
                                              ) -> None:
    problem = build(star_and_chain())
    write_graph_csv(problem.graph, tmp_path / "graph.csv", with_p=False)
    write_node_cascades(problem.sample(20000, np.random.default_rng(0)), tmp_path / "c.jsonl")
    base = ["solve", "im-node", "--graph", str(tmp_path / "graph.csv"), "--data",
            str(tmp_path / "c.jsonl"), "--k", "2", "--delta", "0.1"]
    assert main([*base, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["certificate"]
    assert math.isfinite(found["bound"]) and found["bound"] >= 0
    assert found["failure_probability"] == pytest.approx(
        certificate_of("thm4-im").failure_value(0.1, 20000))
    assert "E_arm,1-3" in found["event"]
    assert main(base) == 0
    assert "the gap is at most" in capsys.readouterr().out


def test_edge_level_certificate_holds_on_simulated_feedback() -> None:
    # CLCB on edge-level feedback of the six-node graph, exact oracle: violations of
    # sigma(S*) - sigma(S_hat) <= certificate stochastically below Binomial(T, d), d the
    # arm event's failure (from the record: 2 delta / 4), every seed set at once
    problem, oracle, sets, gaps = _six_node_pairs()
    rng = np.random.default_rng(29)
    trials, n, delta = 100, 2000, 0.05
    violations = 0
    for _ in range(trials):
        feedback = sample_edge_feedback(problem.graph, problem.q, n, rng)
        result = clcb_im_edge(feedback, oracle, delta, structure=problem.graph)
        certificate = result.certificate
        assert certificate is not None and certificate.bound < max(gaps)
        violations += any(gap > result.certifier(chosen).bound + 1e-12
                          for gap, chosen in zip(gaps, sets, strict=True))
    failure = IM_EDGE_CERTIFICATE.failure_value(delta)
    assert certificate.failure_probability == pytest.approx(failure)
    assert violations <= allowed(trials, failure)
    assert clcb_im_edge(feedback, oracle, delta).certificate is None  # no structure, none


@pytest.mark.parametrize("bound_id", ["thm1-inf", "thm1-one", "cor1-cascade", "lem-llm-std",
                                      "thm3-llm", "thm4-im"])
def test_every_offline_id_has_certificate_rows_with_the_records_failure(bound_id: str) -> None:
    cases = [case for case in collect.theorem_cases(find(THEOREMS, bound_id), "quick")
             if case.id.startswith("event-certificate-")]
    assert cases and not any(case.skip for case in cases)
    record = certificate_of(bound_id)
    for case in cases:
        assert case.failure == pytest.approx(record.failure_value(case.delta, case.n))


def test_solve_im_edge_prints_the_certificate(tmp_path, capsys: pytest.CaptureFixture[str]
                                              ) -> None:
    problem = build(star_and_chain())
    write_graph_csv(problem.graph, tmp_path / "graph.csv", with_p=False)
    feedback = sample_edge_feedback(problem.graph, problem.q, 5000, np.random.default_rng(0))
    write_edge_feedback(feedback, problem.graph, tmp_path / "e.jsonl")
    assert main(["solve", "im-edge", "--graph", str(tmp_path / "graph.csv"), "--data",
                 str(tmp_path / "e.jsonl"), "--k", "2", "--delta", "0.1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["certificate"]
    assert math.isfinite(found["bound"]) and found["bound"] >= 0
    assert found["failure_probability"] == pytest.approx(IM_EDGE_CERTIFICATE.failure_value(0.1))
