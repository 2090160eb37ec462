"""IM commands as a user runs them: happy paths, bad inputs (exit 2, one line naming the field)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_cli_solve import run_cli
from test_im_diffusion import tiny_graph

from offcmab.reference.im.data import sample_edge_feedback, sample_node_cascades
from offcmab.reference.im.graph_io import (
    read_edge_feedback,
    read_graph_csv,
    read_node_cascades,
    write_edge_feedback,
    write_graph_csv,
    write_node_cascades,
)
from offcmab.reference.im.social import SOCIAL_GRAPHS, social_graph
from offcmab.validation.cli import main


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    graph = tiny_graph()
    paths = {"graph": tmp_path / "g.csv", "structure": tmp_path / "s.csv",
             "cascades": tmp_path / "c.jsonl", "edges": tmp_path / "e.jsonl"}
    write_graph_csv(graph, paths["graph"])
    write_graph_csv(graph, paths["structure"], with_p=False)
    write_node_cascades(sample_node_cascades(graph, 0.3, 300, np.random.default_rng(0)),
                        paths["cascades"])
    write_edge_feedback(sample_edge_feedback(graph, 0.3, 300, np.random.default_rng(1)), graph,
                        paths["edges"])
    return paths


def test_files_round_trip(files: dict[str, Path]) -> None:
    graph = read_graph_csv(files["graph"])
    assert np.array_equal(graph.p, tiny_graph().p)
    cascades = read_node_cascades(files["cascades"], graph.nodes)
    assert cascades.n == 300
    write_node_cascades(cascades, files["cascades"].with_suffix(".2"))
    assert files["cascades"].read_text() == files["cascades"].with_suffix(".2").read_text()
    feedback = read_edge_feedback(files["edges"], graph)
    assert feedback.n == 300


def test_spread_and_oracle_json(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spread", "--graph", str(files["graph"]), "--seeds", "0,3", "--samples", "500",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"spread", "stderr"} and 2 <= out["spread"] <= 5
    assert main(["im-oracle", "--graph", str(files["graph"]), "--k", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["seeds"]) == 2 and out["spread"] > 2


@pytest.mark.parametrize(("problem", "data", "extra"), [
    ("im-node", "cascades", ["--estimator", "printed"]),
    ("im-node", "cascades", []),
    ("im-node", "cascades", ["--algorithm", "plug-in"]),
    ("im-edge", "edges", []),
])
def test_solvers_json(files: dict[str, Path], capsys: pytest.CaptureFixture[str],
                      problem: str, data: str, extra: list[str]) -> None:
    assert main(["solve", problem, "--graph", str(files["structure"]), "--data", str(files[data]),
                 "--k", "2", "--delta", "0.1", "--json", *extra]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["seeds"]) == 2
    assert len(out["edges"]) == 6
    assert set(out["edges"][0]) == {"u", "v", "p_hat", "lcb", "counts"}


BAD_GRAPHS = [
    ("", "line 1: header"),
    ("from,to\n0,1\n", "line 1: header"),
    ("source,target,p\n0,x,0.5\n", "line 2: target"),
    ("source,target,p\n0,1,1.5\n", "line 2: p"),
    ("source,target,p\n0,1,nan\n", "line 2: p"),
    ("source,target,p\n0,1,0.5\n1,1,0.5\n", "line 3: target: self-loop"),
    ("source,target,p\n0,1,0.5\n0,1,0.2\n", "line 3: target: edge listed twice"),
    ("source,target,p\n0,1\n", "line 2: row"),
    ("source,target,p\n-1,1,0.5\n", "line 2: source"),
    ("source,target,p\n", "graph: has no edges"),
    ("source,target,p\n0,99999999999,0.5\n",
     "line 2: target: node id 99999999999 is too large"),
    ("source,target\n0,1\n", "line 1: header: needs the edge probabilities: 'source,target,p' "
     "(a structure-only graph is for solve im-node/im-edge)"),
]


@pytest.mark.parametrize(("text", "message"), BAD_GRAPHS)
def test_bad_graph_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                         message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text)
    assert run_cli(["spread", "--graph", str(path), "--seeds", "0"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


BAD_CASCADES = [
    ('{"nodes": 5}\n', "data: no cascades"),
    ('{"nodes": 4}\n{"active": [[0]]}\n', "line 1: nodes"),
    ('{"nodes": 10000000000}\n{"active": [[0]]}\n', "line 1: nodes: at most"),
    ('{"nodes": 6}\n{"active": [[6]]}\n', "line 2: active: node id 6"),
    ('{"nodes": 5}\n{"active": [[0], [1]]}\n', "line 2: active: sets must be cumulative"),
    ('{"nodes": 5}\n{"active": [[7]]}\n', "line 2: active: node id 7"),
    ('{"nodes": 5}\n{"active": []}\n', "line 2: active"),
    ('{"nodes": 5}\n{"active": [[0, 0]]}\n', "line 2: active: lists a node more than once"),
    ('{"nodes": 5}\n{"active": [["a"]]}\n', "line 2: active"),
    ('{"nodes": 5}\n{"active": [[0]]\n', "line 2"),
    ('{"nodes": 5}\n{"active": [[0]]}\n\n{"active": [[0], [0, 3]]}\n',
     "line 4: active: cascade 1: node 3 joins S_1 but no edge reaches it from a node that "
     "joined S_0"),
    ('{"nodes": 5}\n{"active": [[0], [0, 1], [0, 1, 2], [0, 1, 2, 4]]}\n',
     "line 2: active: cascade 0: node 4 joins S_3 but no edge reaches it from a node that "
     "joined S_2"),
]


BAD_EDGE_DATA = [
    ('{"nodes": 5}\n{"seeds": [0], "edges": [[0, 4, 1]]}\n',
     "line 2: edges: (0, 4) is not an edge"),
    ('{"nodes": 5}\n{"seeds": [0], "edges": [[0, 1, 2]]}\n', "line 2: edges: fired"),
    ('{"nodes": 5}\n{"seeds": [9], "edges": []}\n', "line 2: seeds"),
    ('{"nodes": 5}\n{"seeds": [0], "edges": [[0, 1]]}\n', "line 2: edges: entry 0"),
    ('{"nodes": 5}\n{"seeds": [0], "edges": [[0, 1, 1], [0, 1, 0]]}\n', "more than once"),
    ('{"nodes": 5}\n{"seeds": [0], "edges": [[0, 99999999999999999999999, 1]]}\n',
     "line 2: edges: entry 0 must be [u, v, fired]: three integers, node ids below 50000000"),
    ('{"nodes": 5}\n{"seeds": [0], "edges": [[0, 1, 1], [0, 2, 0], [2, 3, 1]]}\n',
     "line 2: edges: (2, 3) is listed but its source is neither a seed nor the target of a "
     "fired edge"),
    ('{"nodes": 5}\n\n{"seeds": [0], "edges": [[0, 1, 1], [0, 2, 0], [1, 2, 0]]}\n',
     "line 3: edges: (1, 4) is missing: its source is active, so IC tried it"),
]


BAD_DATA = [("im-node", "cascades", *case) for case in BAD_CASCADES] + [
    ("im-edge", "edges", *case) for case in BAD_EDGE_DATA]


@pytest.mark.parametrize(("problem", "key", "text", "message"), BAD_DATA)
def test_bad_data_files(files: dict[str, Path], capsys: pytest.CaptureFixture[str],
                        problem: str, key: str, text: str, message: str) -> None:
    files[key].write_text(text)
    assert run_cli(["solve", problem, "--graph", str(files["structure"]), "--data",
                    str(files[key]), "--k", "2", "--delta", "0.1"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(("argv", "message"), [
    (["spread", "--seeds", "0,9"], "seeds: node id 9"),
    (["spread", "--seeds", "0,0"], "seeds: lists a node more than once"),
    (["spread", "--seeds", "a"], "--seeds"),
    (["im-oracle", "--k", "9"], "k: must not exceed"),
    (["im-oracle", "--k", "2", "--eps", "0.9"], "eps"),
])
def test_bad_arguments(files: dict[str, Path], capsys: pytest.CaptureFixture[str],
                       argv: list[str], message: str) -> None:
    assert run_cli([*argv, "--graph", str(files["graph"])]) == 2
    assert message in capsys.readouterr().err


def test_solve_bad_delta_and_k(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    base = ["solve", "im-node", "--graph", str(files["structure"]), "--data",
            str(files["cascades"])]
    assert run_cli([*base, "--k", "2", "--delta", "1.5"]) == 2
    assert run_cli([*base, "--k", "6", "--delta", "0.1"]) == 2
    assert "k: must not exceed" in capsys.readouterr().err


def test_social_graphs_are_symmetric_and_weighted() -> None:
    for name in SOCIAL_GRAPHS:
        graph = social_graph(name, "weighted-cascade")
        assert graph.edges % 2 == 0
        assert np.allclose(np.bincount(graph.targets, graph.p, minlength=graph.nodes)[
            graph.in_degree() > 0], 1.0)
    karate = social_graph("karate", "trivalency", seed=1)
    assert set(np.unique(karate.p).tolist()) <= {0.1, 0.01, 0.001}
    assert (karate.nodes, karate.edges) == (34, 156)
    with pytest.raises(ValueError, match="graph"):
        social_graph("nope")


def test_im_real_quick_writes_figure_and_table(tmp_path: Path) -> None:
    from offcmab.validation.reproduce import im_real

    summary = im_real.run(tmp_path, seed=1, quick=True)
    for suffix in ("png", "pdf", "csv"):
        assert (tmp_path / f"im-real.{suffix}").stat().st_size > 0
    rows = (tmp_path / "im-real.csv").read_text().splitlines()
    assert rows[0].startswith("graph,n,method,seeds,spread,stderr")
    assert len(rows) == 1 + 2 * 2 * 2  # graphs x n x methods (one trial each)
    assert set(summary) >= {"mean_gap_CLCB-IM-N", "mean_gap_plug-in"}


@pytest.mark.slow
def test_simulation_benchmark_agrees_with_cynetdiff() -> None:
    """Numbers only, no timing assertion; each spread agreement is a z-test whose two-sided
    false-alarm probability is 1e-6 (6 cases: 6e-6 in total)."""
    from offcmab.validation.benchmarks import ic_simulation

    result = ic_simulation.run(quick=True)
    assert len(result["cases"]) == 6
    assert result["worst_ratio"] == min(c["ratio"] for c in result["cases"].values())
    for name, case in result["cases"].items():
        assert case["agreement_p_value"] > 1e-6, name
        assert case["mean_cascade"] >= int(name.split("seeds=")[1].split()[0])


def test_isolated_nodes_come_from_the_data_header(files: dict[str, Path],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    files["cascades"].write_text('{"nodes": 6}\n{"active": [[5]]}\n{"active": [[0], [0, 1]]}\n')
    assert main(["solve", "im-node", "--graph", str(files["structure"]), "--data",
                 str(files["cascades"]), "--k", "6", "--delta", "0.1", "--json"]) == 0
    assert sorted(json.loads(capsys.readouterr().out)["seeds"]) == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("seed", range(5))
def test_sampled_cascades_follow_their_graph(seed: int) -> None:
    from test_im_diffusion import random_graph

    from offcmab.reference.im.data import check_cascades_follow_graph, check_feedback_follows_graph

    graph = random_graph(seed, nodes=8, edges=20)
    cascades = sample_node_cascades(graph, 0.3, 200, np.random.default_rng(seed))
    assert check_cascades_follow_graph(graph, cascades) is cascades
    feedback = sample_edge_feedback(graph, 0.3, 200, np.random.default_rng(seed))
    assert check_feedback_follows_graph(graph, feedback) is feedback
