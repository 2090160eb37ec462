"""IM logs as ``.npz``: round trips with JSON Lines, the checks, runs of records."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_cli_solve import run_cli
from test_im_diffusion import random_graph, tiny_graph

from offcmab.reference.errors import InputError
from offcmab.reference.im import data
from offcmab.reference.im.clcb_im_node import node_counters
from offcmab.reference.im.data import (
    check_cascades_follow_graph,
    sample_edge_feedback,
    sample_node_cascades,
)
from offcmab.reference.im.graph_io import (
    read_edge_feedback,
    read_node_cascades,
    write_edge_feedback,
    write_graph_csv,
    write_node_cascades,
)
from offcmab.reference.im.npz_io import node_cascades_from_arrays
from offcmab.validation.cli import main

CI = settings.get_profile("ci")


def _same(a: data.NodeCascades, b: data.NodeCascades) -> bool:
    return a.nodes == b.nodes and all(np.array_equal(getattr(a, key), getattr(b, key))
                                      for key in ("offsets", "active", "steps"))


@pytest.fixture
def structure(tmp_path: Path) -> Path:
    path = tmp_path / "s.csv"
    write_graph_csv(tiny_graph(), path, with_p=False)
    return path


@pytest.mark.parametrize("seed", range(3))
def test_json_and_npz_hold_the_same_cascades_and_give_the_same_answer(
        tmp_path: Path, structure: Path, capsys: pytest.CaptureFixture[str], seed: int) -> None:
    cascades = sample_node_cascades(tiny_graph(), 0.3, 400, np.random.default_rng(seed))
    outputs = []
    for suffix in (".jsonl", ".npz"):
        path = tmp_path / f"c{suffix}"
        write_node_cascades(cascades, path)
        assert _same(read_node_cascades(path, 5), cascades)
        assert main(["solve", "im-node", "--graph", str(structure), "--data", str(path),
                     "--k", "2", "--delta", "0.1", "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    # and back: the npz read, written as JSON Lines, is the same file
    write_node_cascades(read_node_cascades(tmp_path / "c.npz"), tmp_path / "back.jsonl")
    assert (tmp_path / "back.jsonl").read_text() == (tmp_path / "c.jsonl").read_text()


def _good() -> dict[str, np.ndarray]:
    """Two cascades on the tiny graph: {0} -> {1} -> {2}, and {3} -> {4}."""
    return {"nodes": np.int64(5), "offsets": np.array([0, 3, 5]),
            "active": np.array([0, 1, 2, 3, 4]), "steps": np.array([0, 1, 2, 0, 1])}


BAD_ARCHIVES = [
    ({"nodes": np.array([5, 5])}, "nodes: must be a scalar integer"),
    ({"nodes": np.float64(5)}, "nodes: must be a scalar integer"),
    ({"nodes": np.int64(0)}, "nodes: must be a positive integer"),
    ({"nodes": np.int64(4)}, "nodes: archive says 4 but the graph has 5 nodes"),
    ({"nodes": np.int64(10**10)}, "nodes: at most"),
    ({"offsets": np.array([1, 3, 5])}, "offsets: must start with 0"),
    ({"offsets": np.array([0, 3, 4])}, "offsets: must end with the number of entries (5)"),
    ({"offsets": np.array([0, 4, 3, 5])}, "offsets: must be non-decreasing"),
    ({"offsets": np.array([0]), "active": np.array([], dtype=np.int64),
      "steps": np.array([], dtype=np.int64)}, "data: no cascades"),
    ({"offsets": np.array([[0, 3, 5]])}, "offsets: must be a flat array"),
    ({"active": np.array([0, 1, 2, 3, 5])}, "active: cascade 1: node id 5 is outside [0, 5)"),
    ({"active": np.array([-1, 1, 2, 3, 4])}, "active: cascade 0: node id -1 is outside"),
    ({"active": np.array([0.0, 1.5, 2, 3, 4])}, "active: must contain integers only"),
    ({"active": np.array(["0", "1", "2", "3", "4"])}, "active: must contain integers"),
    ({"active": np.array([0, 1, 1, 3, 4])}, "active: cascade 0 lists node 1 more than once"),
    ({"active": np.array([0, 2, 1, 3, 4])}, "active: cascade 0: node ids must increase"),
    ({"active": np.array([0, 1, 2, 3, 4], dtype=np.uint64) + np.uint64(2**63)},
     "active: id 9223372036854775808 is too large"),
    ({"steps": np.array([0, 1, 2, 0])}, "steps: must align with active (5 entries), got 4"),
    ({"steps": np.array([0, 1, -2, 0, 1])}, "steps: cascade 0: activation step -2 is outside"),
    ({"steps": np.array([0, 1, 5, 0, 1])}, "steps: cascade 0: activation step 5 is outside"),
    ({"steps": np.array([0, 1, 3, 0, 1])},
     "active: cascade 0: node 2 joins S_3 but no edge reaches it from a node that joined S_2"),
    ({"steps": np.array([0, 1, 2, 1, 1])},
     "active: cascade 1: node 3 joins S_1 but no edge reaches it from a node that joined S_0"),
    ({"steps": None}, "steps: array missing from bad.npz"),
]


@pytest.mark.parametrize(("change", "message"), BAD_ARCHIVES)
def test_bad_archives_exit_2_naming_the_field(tmp_path: Path, structure: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              change: dict[str, np.ndarray | None],
                                              message: str) -> None:
    arrays = {key: value for key, value in {**_good(), **change}.items() if value is not None}
    np.savez(tmp_path / "bad.npz", **arrays)
    assert run_cli(["solve", "im-node", "--graph", str(structure), "--data",
                    str(tmp_path / "bad.npz"), "--k", "2", "--delta", "0.1"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_good_archive_passes(tmp_path: Path, structure: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The base of the bad cases is itself accepted (each bad case differs only by its change)."""
    np.savez(tmp_path / "good.npz", **_good())
    assert main(["solve", "im-node", "--graph", str(structure), "--data",
                 str(tmp_path / "good.npz"), "--k", "2", "--delta", "0.1"]) == 0


def test_pickled_members_are_never_loaded(tmp_path: Path, structure: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    arrays = {**_good(), "active": np.array([0, 1, 2, 3, 4], dtype=object)}
    np.savez(tmp_path / "bad.npz", **arrays)
    assert run_cli(["solve", "im-node", "--graph", str(structure), "--data",
                    str(tmp_path / "bad.npz"), "--k", "2", "--delta", "0.1"]) == 2
    assert "pickled objects, which are never loaded" in capsys.readouterr().err


def test_python_api_raises_value_error_naming_the_field() -> None:
    with pytest.raises(ValueError, match="active: cascade 0 lists node 1 more than once"):
        node_cascades_from_arrays(5, [0, 2], [1, 1], [0, 0])


@pytest.mark.parametrize("seed", range(3))
def test_runs_of_records_count_and_check_as_one_run(monkeypatch: pytest.MonkeyPatch,
                                                    seed: int) -> None:
    """Runs of one or two records give the counters of one run, and the check still names the
    first bad cascade when it sits in a late run."""
    graph = random_graph(seed, nodes=8, edges=20)
    cascades = sample_node_cascades(graph, 0.3, 300, np.random.default_rng(seed))
    whole = node_counters(graph, cascades)
    monkeypatch.setattr(data, "BLOCK", 1)  # runs of about V = 8 entries
    assert len(list(cascades.blocks())) > 50
    small = node_counters(graph, cascades, check_graph=True)
    for key in ("seeded", "not_active_1", "neither"):
        assert np.array_equal(getattr(small, key), getattr(whole, key))
    # mutate the last cascade that has a step-1 node: that node now joins at step 2 or later
    late = np.flatnonzero(cascades.steps == 1)[-1]
    steps = cascades.steps.copy()
    steps[late] = steps.max() + 1
    bad = data.NodeCascades(cascades.nodes, cascades.offsets, cascades.active, steps)
    t = int(np.searchsorted(cascades.offsets, late, side="right") - 1)
    with pytest.raises(InputError, match=f"active: cascade {t}: node .* joins") as error:
        check_cascades_follow_graph(graph, bad)
    assert error.value.sample == t


# -- edge-level feedback -------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(3))
def test_edge_feedback_json_and_npz_agree(tmp_path: Path, structure: Path,
                                          capsys: pytest.CaptureFixture[str], seed: int) -> None:
    graph = tiny_graph()
    feedback = sample_edge_feedback(graph, 0.3, 400, np.random.default_rng(seed))
    outputs = []
    for suffix in (".jsonl", ".npz"):
        path = tmp_path / f"e{suffix}"
        write_edge_feedback(feedback, graph, path)
        back = read_edge_feedback(path, graph)
        assert back.nodes == feedback.nodes
        for key in ("seed_offsets", "seeds"):
            assert np.array_equal(getattr(back, key), getattr(feedback, key))
        for key in ("triggered_offsets", "triggered", "outcomes"):
            assert np.array_equal(getattr(back.dataset, key), getattr(feedback.dataset, key))
        assert main(["solve", "im-edge", "--graph", str(structure), "--data", str(path),
                     "--k", "2", "--delta", "0.1", "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1]


def _good_feedback() -> dict[str, np.ndarray]:
    """Two records on the tiny graph: seed 0 fires (0, 1) only; seed 3 fires (3, 4)."""
    return {"nodes": np.int64(5), "seed_offsets": np.array([0, 1, 2]), "seeds": np.array([0, 3]),
            "edge_offsets": np.array([0, 4, 5]), "sources": np.array([0, 0, 1, 1, 3]),
            "targets": np.array([1, 2, 2, 4, 4]), "fired": np.array([1, 0, 0, 0, 1])}


BAD_FEEDBACK = [
    ({}, None),  # the base case passes
    ({"nodes": np.int64(3)}, "nodes: archive says 3 but the graph has 5 nodes"),
    ({"seeds": np.array([0, 5])}, "seeds: cascade 1: node id 5 is outside [0, 5)"),
    ({"seed_offsets": np.array([0, 2, 2]), "seeds": np.array([3, 0])},
     "seeds: cascade 0: node ids must increase"),
    ({"seed_offsets": np.array([0, 2, 2]), "seeds": np.array([0, 0])},
     "seeds: cascade 0 lists node 0 more than once"),
    ({"seed_offsets": np.array([0, 1])}, "seed_offsets: must end with the number of entries"),
    ({"edge_offsets": np.array([0, 5])}, "edge_offsets: describes 1 cascades but seed_offsets "
     "describes 2"),
    ({"edge_offsets": np.array([0, 6, 5])}, "edge_offsets: must be non-decreasing"),
    ({"targets": np.array([1, 2, 2, 4])}, "targets: must align with sources (5 entries)"),
    ({"targets": np.array([1, 2, 2, 4, 7])}, "edges: cascade 1: (3, 7) is not an edge"),
    ({"sources": np.array([0, 0, 1, 1, 2])}, "edges: cascade 1: (2, 4) is not an edge"),
    ({"fired": np.array([1, 0, 0, 0, 2])}, "fired: must hold 0 or 1"),
    ({"fired": np.array([1, 0, 0, 0, -1])}, "fired: must hold 0 or 1"),
    ({"fired": np.array([1.0, 0, 0, 0, 1])}, "fired: must hold 0 or 1"),
    ({"targets": np.array([1, 1, 2, 4, 4])}, "edges: cascade 0 lists an edge more than once"),
    ({"fired": np.array([0, 0, 0, 0, 1])}, "edges: (1, 2) is listed but its source is neither"),
    ({"edge_offsets": np.array([0, 3, 4]), "sources": np.array([0, 0, 1, 3]),
      "targets": np.array([1, 2, 2, 4]), "fired": np.array([1, 0, 0, 1])},
     "edges: (1, 4) is missing: its source is active"),
    ({"fired": None}, "fired: array missing from bad.npz"),
]


@pytest.mark.parametrize(("change", "message"), BAD_FEEDBACK)
def test_bad_feedback_archives_exit_2_naming_the_field(
        tmp_path: Path, structure: Path, capsys: pytest.CaptureFixture[str],
        change: dict[str, np.ndarray | None], message: str | None) -> None:
    arrays = {key: value for key, value in {**_good_feedback(), **change}.items()
              if value is not None}
    np.savez(tmp_path / "bad.npz", **arrays)
    code = run_cli(["solve", "im-edge", "--graph", str(structure), "--data",
                    str(tmp_path / "bad.npz"), "--k", "2", "--delta", "0.1"])
    err = capsys.readouterr().err
    assert (code, err) == (0, "") if message is None else \
        (code == 2 and message in err and err.count("\n") == 1)


def test_a_node_beyond_the_graph_is_never_read_as_another_edge(
        tmp_path: Path, structure: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """(0, 7) on 5 nodes has the key 0 * 5 + 7 of the edge (1, 2): it must be refused as
    not an edge, not counted as (1, 2)."""
    path = tmp_path / "e.jsonl"
    path.write_text('{"nodes": 8}\n{"seeds": [0], "edges": [[0, 7, 0], [0, 1, 0], [0, 2, 0]]}\n')
    assert run_cli(["solve", "im-edge", "--graph", str(structure), "--data", str(path),
                    "--k", "2", "--delta", "0.1"]) == 2
    assert "line 2: edges: (0, 7) is not an edge of the graph" in capsys.readouterr().err


def test_the_bench_floor_counts_what_clcb_im_n_counts(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The im-node floor script of ``offcmab bench`` does the algorithm's work, not less: its
    counters, LCBs and seeds equal CLCB-IM-N's on the quick benchmark log."""
    from offcmab.reference.im.clcb_im_node import edge_lcbs
    from offcmab.reference.im.graph_io import read_graph_csv
    from offcmab.validation.benchmarks.clcb_statistics import FLOORS, write_log
    from offcmab.validation.solvers.im_node import seed_oracle

    path = tmp_path / "log.npz"
    write_log("im-node", True, path)
    monkeypatch.setattr("sys.argv", ["floor", str(path), str(path.with_suffix(".csv"))])
    floor: dict[str, object] = {}
    exec(FLOORS["im-node"], floor)  # our own benchmark script, not user input
    graph = read_graph_csv(path.with_suffix(".csv"))
    cascades = read_node_cascades(path, graph.nodes)
    result = edge_lcbs(graph, cascades, 0.05)
    counters = result.counters
    assert np.array_equal(floor["n0"], counters.seeded)
    assert np.array_equal(cascades.n - floor["n1"], counters.not_active_1)
    both = np.asarray(floor["both"])
    assert both.sum() > 0  # the joint count is not trivially empty on this log
    assert np.array_equal(cascades.n - floor["n0"][graph.sources] - floor["n1"][graph.targets]
                          + both, counters.neither)
    assert np.allclose(floor["lcb"], result.lcb)
    args = type("Args", (), {"k": 5, "eps": 0.5, "seed": 0})()
    assert np.array_equal(floor["seeds"], seed_oracle(graph, args)(result.lcb))


def test_an_in_neighbour_active_at_another_step_explains_nothing() -> None:
    """Node 4's only in-neighbour, 3, is a seed, yet 4 joins at step 2: refused.  The level
    before 4 ({1, 2}) is larger than 4's in-degree, so the check goes through 4's in-edges
    and must compare 3's step with 1 (the pair test would never see 3)."""
    from offcmab.reference.im.graph import ICGraph

    graph = ICGraph.from_edges(5, [0, 0, 3], [1, 2, 4], 0.5)
    cascades = node_cascades_from_arrays(5, [0, 5], [0, 1, 2, 3, 4], [0, 1, 1, 0, 2])
    with pytest.raises(InputError, match="cascade 0: node 4 joins S_2"):
        check_cascades_follow_graph(graph, cascades)
    fine = node_cascades_from_arrays(5, [0, 5], [0, 1, 2, 3, 4], [0, 1, 1, 0, 1])
    assert check_cascades_follow_graph(graph, fine) is fine


# -- graph CSV: the whole-array path reads what the line-by-line reader reads ----------------

def _both_ways(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """``read_graph_csv`` as it runs, and with its whole-array path switched off."""
    from offcmab.reference.im import graph_io

    def outcome() -> object:
        try:
            graph = graph_io.read_graph_csv(path)
        except InputError as error:
            return str(error)
        return (graph.nodes, graph.sources.tolist(), graph.targets.tolist(), graph.p.tolist())

    fast = outcome()
    with monkeypatch.context() as patch:
        patch.setattr(graph_io, "_plain_rows", lambda lines, has_p: None)
        slow = outcome()
    return fast, slow


@CI
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12),
                          st.sampled_from(["0.5", "1", "0", "1e-05", ".25", "2", "1.5", "7e-1",
                                           "1.", " 0.5", "nan"])), min_size=0, max_size=12),
       st.booleans(), st.booleans())
@example([(0, 1, "0.5"), (1, 2, "1.5")], True, False)  # p out of range
@example([(0, 1, "0.5"), (2, 2, "0.5")], True, True)  # self-loop
@example([(0, 1, "0.5"), (0, 1, "0.25")], True, False)  # repeated edge
@example([(0, 1, "0.5"), (1, 2, " 0.5")], True, False)  # a form only the line reader takes
@example([(0, 1, "0.5"), (1, 2, "1e-05"), (2, 3, ".25"), (3, 0, "1")], True, True)
@example([(0, 1, "0"), (1, 2, "0")], False, True)
@example([], True, False)  # no edges
def test_graph_csv_whole_array_path_agrees_with_the_line_reader(
        rows: list[tuple[int, int, str]], with_p: bool, blank: bool) -> None:
    """Same graph, or the same error (with its line), whichever path reads the file; rows
    hold self-loops, repeated edges, p out of range and forms only the line reader takes."""
    import tempfile

    header = "source,target,p" if with_p else "source,target"
    body = [f"{u},{v},{p}" if with_p else f"{u},{v}" for u, v, p in rows]
    if blank and body:
        body.insert(len(body) // 2, "")
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        path = Path(folder) / "g.csv"
        path.write_text("\n".join([header, *body]) + "\n")
        fast, slow = _both_ways(path, patch)
    assert fast == slow


def test_plain_graph_files_take_the_whole_array_path(tmp_path: Path) -> None:
    """The writer's output is parsed without the line loop (the agreement test above would
    pass trivially if the whole-array path never ran)."""
    from offcmab.reference.im import graph_io

    lines = ["source,target,p", "0,1,0.5", "", "1,2,1e-05"]
    graph = graph_io._plain_rows(lines, True)
    assert graph is not None and graph.p.tolist() == [0.5, 1e-05]
    assert graph_io._plain_rows(["source,target,p", "0, 1,0.5"], True) is None


def test_cascades_on_another_node_count_are_refused() -> None:
    graph = tiny_graph()
    cascades = node_cascades_from_arrays(6, [0, 1], [5], [0])
    with pytest.raises(InputError, match="nodes: cascades have 6 nodes, graph has 5"):
        check_cascades_follow_graph(graph, cascades)
    with pytest.raises(InputError, match="nodes: cascades have 6 nodes, graph has 5"):
        node_counters(graph, cascades)
