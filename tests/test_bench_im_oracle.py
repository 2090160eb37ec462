"""The im-oracle benchmark (OPIM-C against pynetim's IMM): its numbers, never its timings."""

from __future__ import annotations

import math
import sys

import pytest

from offcmab.validation.benchmarks import im_oracle
from offcmab.validation.cli import main
from offcmab.validation.commands.bench import summary

#: Two-sided normal quantile of 1e-6, the Monte-Carlo false-alarm probability of the check below.
Z_1E6 = 4.8916


@pytest.mark.slow
def test_quick_benchmark_against_pynetim() -> None:
    """OPIM-C and pynetim's IMM both promise (1 - 1/e - eps) OPT, so the ratio of their spreads
    lies in [alpha, 1/alpha] unless a guarantee fails (ours: delta = 1/V; pynetim's nominal 2/V)
    or the Monte-Carlo estimates are off by more than Z_1E6 standard errors (1e-6), at each of
    the two sizes.  Fixed seeds."""
    pytest.importorskip("pynetim", reason="pynetim (bench extra) is not installed")
    result = im_oracle.run(quick=True)
    sizes = [result[f"{nodes} nodes"] for nodes, _ in im_oracle.QUICK_SIZES]
    assert [(size["nodes"], size["edges"], size["k"]) for size in sizes] == [
        (nodes, edges, 50) for nodes, edges in im_oracle.QUICK_SIZES]
    assert result["goal_met"] == all(size["goal_met"] for size in sizes)
    assert [row["ratio"] for row in result["figures"]] == [size["ratio"] for size in sizes]
    alpha = 1.0 - 1.0 / math.e - im_oracle.EPS
    for size in sizes:
        assert size["reference"].startswith("pynetim ")
        assert size["ratio"] == size["pynetim_s"] / size["ours_s"]
        assert size["cpu_ratio"] == size["pynetim_cpu_s"] / size["ours_cpu_s"]
        assert size["goal_met"] == (size["ratio"] >= im_oracle.GOAL_RATIO
                                    and size["spread_ratio_inside"])
        assert 0.0 <= size["agreement_p_value"] <= 1.0
        assert size["spread_difference"] == size["ours_spread"] - size["pynetim_spread"]
        # their log was read: the selection phase tops up the sampling phase's sets
        assert 0 < size["pynetim_sampling_rr_sets"] <= size["pynetim_rr_sets"]
        assert size["ours_lower_bound"] <= size["ours_opt_upper_bound"]
        ours, theirs = size["ours_spread"], size["pynetim_spread"]
        slack = Z_1E6 * math.hypot(size["ours_stderr"], size["pynetim_stderr"])
        assert ours + slack >= alpha * theirs and theirs + slack >= alpha * ours


@pytest.mark.parametrize(("only", "package"), [("im-oracle", "pynetim"),
                                               ("ic-simulation", "cynetdiff")])
def test_a_missing_reference_names_the_bench_extra(
        only: str, package: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Without its reference package a benchmark times nothing: ``offcmab bench`` exits 2
    at once (before the other benchmarks asked for), naming the package and the extra."""
    for name in (package, f"{package}.algorithms", f"{package}.models"):
        monkeypatch.setitem(sys.modules, name, None)  # import -> ImportError
    assert main(["bench", "--quick", "--only", "bounds-eval", only]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # bounds-eval, asked for first, did not run either
    assert captured.err == (f"offcmab bench: error: {only} needs {package}, which is not "
                            "installed (pip install 'offcmab[bench]')\n")


def test_summary_without_figures_meets_no_goal() -> None:
    overall = summary({"bounds-eval": {"title": "t", "points": 10}})
    assert overall["figures"] == [] and overall["all_met"] is None  # nothing compared, no goal met
    assert overall["not_compared"] == ["bounds-eval"]


def test_rr_counts_read_from_a_log_and_absent_from_another() -> None:
    log = ("[IMM] phase 1\n[IMM]   round 1: 10 more (total: 10)...\n"
           "[IMM]   round 2: 20 more (total: 30)...\n[IMM] phase 2\n[IMM]   total: 75\n")
    assert im_oracle.rr_counts(log) == {"pynetim_sampling_rr_sets": 30, "pynetim_rr_sets": 75}
    assert im_oracle.rr_counts("no counts here\n") == {"pynetim_sampling_rr_sets": None,
                                                       "pynetim_rr_sets": None}


@pytest.mark.parametrize("isolated_last", [False, True])
def test_pynetim_graph_keeps_nodes_edges_and_probabilities(isolated_last: bool) -> None:
    pynetim = pytest.importorskip("pynetim", reason="pynetim (bench extra) is not installed")
    import numpy as np

    from offcmab.reference.im.graph import ICGraph

    nodes = 6 if isolated_last else 5  # node 5 of the 6-node graph is on no edge
    sources, targets = np.array([0, 1, 1, 3, 4]), np.array([1, 2, 0, 4, 0])
    graph = ICGraph.from_edges(nodes, sources, targets, 0.0).with_probabilities(
        np.array([0.1, 0.2, 0.3, 0.4, 0.5]))
    theirs = im_oracle.pynetim_graph(pynetim, graph)
    assert theirs.num_nodes == nodes
    pairs = zip(graph.sources.tolist(), graph.targets.tolist(), strict=True)
    expected = dict(zip(pairs, graph.p.tolist(), strict=True))
    if isolated_last:
        expected[(5, 5)] = 0.0
    assert theirs.edges == pytest.approx(expected)
