"""The certificate of CLCB-IM-N: derived in bounds/, computed in reference/, kept on
simulated cascades.

Every Monte-Carlo assertion is an exact binomial test at false-alarm probability
``FALSE_ALARM`` (1e-3) with a fixed seed.
"""

from __future__ import annotations

import json
import math

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
from offcmab.reference.im.graph_io import write_graph_csv, write_node_cascades
from offcmab.reference.im.oracles import IMMOracle
from offcmab.reference.im.problem import NodeLevelIM
from offcmab.validation.cli import main
from offcmab.validation.events import certificates as certificate_rows
from offcmab.validation.events.core import run_case
from offcmab.validation.scenarios.im import build, exact_oracle, star_and_chain
from offcmab.validation.subjects import control_spec

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


def test_exact_certificate_holds_on_simulated_cascades() -> None:
    # the count of gaps above the certificate is stochastically below Binomial(T, d) with
    # d = (n+2) delta/(6n) when the certificate holds with probability 1 - d; the gap is
    # sigma(S*) - sigma(S_hat) (alpha = 1), exact on this six-node graph
    problem = build(star_and_chain())
    oracle = exact_oracle(problem.graph, 2)
    rng = np.random.default_rng(17)
    trials, n, delta = 100, 20000, 0.05
    violations = 0
    for _ in range(trials):
        result = clcb_im_node(_hidden(problem), problem.sample(n, rng), oracle, delta)
        certificate = result.certificate
        assert certificate is not None and math.isfinite(certificate.bound)
        gap = problem.sigma_star - problem.spread(result.seeds).spread
        violations += gap > certificate.bound + 1e-12
    failure = certificate_of("thm4-im").failure_value(delta, n)
    assert certificate.failure_probability == pytest.approx(failure)
    assert violations <= allowed(trials, failure)


def _ten_nodes() -> NodeLevelIM:
    """Ten nodes, sixteen edges: exact spreads, but too many seed sets for the exact
    certificate at k = 3, so the estimated one (IMM, Monte-Carlo spreads) is used."""
    rng = np.random.default_rng(4)
    pairs = [(u, v) for u in range(10) for v in range(10) if u != v]
    chosen = rng.choice(len(pairs), 16, replace=False)
    sources = np.array([pairs[i][0] for i in chosen])
    targets = np.array([pairs[i][1] for i in chosen])
    graph = ICGraph.from_edges(10, sources, targets, rng.uniform(0.2, 0.8, 16))
    return NodeLevelIM(graph, np.full(10, 0.4), 3)


def test_estimated_certificate_holds_for_the_alpha_gap() -> None:
    problem = _ten_nodes()
    assert not exact_certifiable(problem.graph, 3)
    oracle = IMMOracle(problem.graph, 3)
    rng = np.random.default_rng(23)
    trials, n, delta = 20, 10000, 0.05
    alpha = 1.0 - 1.0 / math.e - ORACLE_EPS
    violations = 0
    for _ in range(trials):
        result = clcb_im_node(_hidden(problem), problem.sample(n, rng), oracle, delta)
        certificate = result.certificate
        assert certificate is not None and "alpha" in certificate.event
        gap = alpha * problem.sigma_star - problem.spread(result.seeds).spread
        violations += gap > certificate.bound + 1e-12
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
        assert result.trials == 30 and not result.reason
        assert result.failures <= allowed(30, case.failure)


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
    # arm event's failure (from the record: 2 delta / 4)
    problem = build(star_and_chain())
    oracle = exact_oracle(problem.graph, 2)
    rng = np.random.default_rng(29)
    trials, n, delta = 100, 2000, 0.05
    violations = 0
    for _ in range(trials):
        feedback = sample_edge_feedback(problem.graph, problem.q, n, rng)
        result = clcb_im_edge(feedback, oracle, delta, structure=problem.graph)
        certificate = result.certificate
        assert certificate is not None
        violations += (problem.sigma_star - problem.spread(result.action).spread
                       > certificate.bound + 1e-12)
    failure = IM_EDGE_CERTIFICATE.failure_value(delta)
    assert certificate.failure_probability == pytest.approx(failure)
    assert violations <= allowed(trials, failure)
    assert clcb_im_edge(feedback, oracle, delta).certificate is None  # no structure, none
