"""Inputs refused early: strict JSON, costs estimated before long work, fields named right.

Every refusal runs the real command line in this process (``offcmab.validation.cli.main``)
and checks exit code 2, one line on stderr naming the field, and no traceback.  That the
refusal comes before the work is checked by replacing the heavy function with one that
fails the test if called (no timing).  The cost models are checked against the memory
:mod:`tracemalloc` sees on small inputs, within a stated factor.  No test here is random
beyond fixed seeds, so none has a false-alarm probability.
"""

from __future__ import annotations

import json
import os
import stat
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_cli_solve import run_cli

from offcmab.bounds import coefficients
from offcmab.reference import jsonsafe
from offcmab.reference.clcb import clcb
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.dataset_io import read_dataset, write_dataset
from offcmab.reference.errors import InputError
from offcmab.reference.im.diffusion import estimate_spread
from offcmab.reference.im.graph_io import read_graph_csv
from offcmab.reference.im.oracles import imm
from offcmab.reference.oracles import KPathOracle
from offcmab.reference.problems import cascade as cascade_problem
from offcmab.reference.problems.kpath import KPathProblem, PathLaw
from offcmab.validation import costs, limits, reading_cost
from offcmab.validation.commands import im_oracle as im_oracle_command
from offcmab.validation.commands import spread as spread_command
from offcmab.validation.commands import validate_run
from offcmab.validation.parts.theorem import find
from offcmab.validation.runner import trial_cost
from offcmab.validation.solvers import cascade as cascade_solver
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.tightness.files import read_instance

CORPUS = Path(__file__).resolve().parents[1] / "validation" / "corpus"
BIG = "9" * 400


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one stderr line of a command that must exit 2."""
    assert run_cli(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err
    return err


def forbid(monkeypatch: pytest.MonkeyPatch, target: Any, name: str) -> None:
    """Replace ``target.name`` by a function that fails the test when called."""
    def called(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"{name} ran before the refusal")
    monkeypatch.setattr(target, name, called)


def saved_instance(tmp_path: Path, edit: Callable[[str], str], name: str = "i.json") -> Path:
    """A copy of the shipped thm1-inf instance, its text changed by ``edit``."""
    path = tmp_path / name
    path.write_text(edit((CORPUS / "thm1-inf.json").read_text()))
    return path


@pytest.fixture
def graph(tmp_path: Path) -> Path:
    """A 60-node graph of 240 distinct edges with probability 0.05 (fixed seed)."""
    rng = np.random.default_rng(3)
    pairs: set[tuple[int, int]] = set()
    while len(pairs) < 240:
        a, b = rng.choice(60, size=2, replace=False)
        pairs.add((int(a), int(b)))
    path = tmp_path / "graph.csv"
    path.write_text("source,target,p\n" + "".join(f"{a},{b},0.05\n" for a, b in sorted(pairs)))
    return path


# -- the JSON reader --------------------------------------------------------------------------

def test_json_refusals_name_the_key() -> None:
    cases = {'{"a": 1, "a": 2}': "a: given twice",
             f'{{"x": {{"mu": [0.5, {BIG}]}}}}': "mu: holds a number too large",
             '{"mu": [1e999]}': "mu: holds a number too large",
             f"[{BIG}]": "doc: holds a number too large",
             "[" * 100_000 + "]" * 100_000: "doc: nested too deeply"}
    for text, message in cases.items():
        with pytest.raises(InputError) as caught:
            jsonsafe.loads(text, "doc")
        assert message in str(caught.value)
    depth = jsonsafe.MAX_DEPTH
    assert jsonsafe.loads("[" * depth + "]" * depth, "doc") is not None
    assert jsonsafe.loads('{"s": "' + "[" * 500 + '"}', "doc") == {"s": "[" * 500}
    assert jsonsafe.loads(f'[{"9" * 300}, -1.5e300]', "doc") == [int("9" * 300), -1.5e300]


def test_json_lines_split_at_newlines_only(tmp_path: Path) -> None:
    """U+2028 inside a string of the header is not a line break (``str.splitlines`` says it
    is, which cut the header in two)."""
    path = tmp_path / "log.jsonl"
    path.write_text('{"m": 4, "note": "a\u2028b\u0085c"}\n{"triggered": [0], "outcomes": [1]}\n'
                    '{"triggered": [1, 2], "outcomes": [0, 1]}\n', encoding="utf-8")
    dataset = read_dataset(path)
    assert (dataset.n, dataset.m) == (2, 4)


def test_duplicate_key_in_a_log_is_exit_2(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text('{"m": 4}\n{"triggered": [0], "triggered": [1], "outcomes": [1]}\n')
    err = refused(["solve", "cascade", "--data", str(path), "--k", "1", "--delta", "0.1"],
                  capsys)
    assert "line 2: triggered: given twice in one object" in err


# -- saved instances (validate --instances) ---------------------------------------------------

def test_deep_instance_file_is_refused_without_recursion(tmp_path: Path) -> None:
    path = saved_instance(tmp_path, lambda t: t.rstrip()[:-1] + ', "x": ' + "[" * 50_000
                          + "]" * 50_000 + "}")
    with pytest.raises(InputError, match=r"^instances: .*i\.json: line \d+: nested too deep"):
        read_instance(path, "file", THEOREMS)


def test_400_digit_mean_names_its_key(tmp_path: Path) -> None:
    path = saved_instance(tmp_path, lambda t: t.replace("0.6879", BIG, 1))
    with pytest.raises(InputError, match=r"^instances: .*: path_means: holds a number too large"):
        read_instance(path, "file", THEOREMS)


def test_duplicate_key_in_an_instance_is_refused(tmp_path: Path) -> None:
    path = saved_instance(tmp_path, lambda t: t.rstrip()[:-1] + ', "n": 5}')
    with pytest.raises(InputError, match=r"^instances: .*: n: given twice in one object"):
        read_instance(path, "file", THEOREMS)


def test_huge_n_is_refused_after_small_probe_trials_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    document = json.loads((CORPUS / "thm1-inf.json").read_text())
    document["n"] = 10**9
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(document))
    scenario = type(find(THEOREMS, document["bound_id"]).scenario)
    sizes: list[int] = []
    original = scenario.trial

    def recorded(self: Any, instance: Any, n: int, *args: Any) -> Any:
        sizes.append(n)
        return original(self, instance, n, *args)

    monkeypatch.setattr(scenario, "trial", recorded)
    with pytest.raises(InputError, match=r"^instances: .*huge\.json: n: would need about "
                                         r"[\d.]+ GB of memory"):
        read_instance(path, "file", THEOREMS)
    assert sizes and max(sizes) <= 2 * trial_cost.PROBE_N


def test_trial_estimate_matches_a_measured_trial() -> None:
    """Extrapolated from probes at 1000 and 2000 samples to 20000: within a factor 2 of the
    peak tracemalloc sees in a real trial at 20000 (measured ratios 1.0 to 1.1)."""
    for name in ("thm1-inf.json", "cor1-cascade.json", "thm3-llm.json"):
        bound_id, instance, _ = read_instance(CORPUS / name, "corpus", THEOREMS)
        theorem = find(THEOREMS, bound_id)
        estimate = trial_cost.trial_cost(theorem, instance, 20_000).bytes
        actual = trial_cost.trial_peak_bytes(theorem, instance, 20_000)
        assert actual / 2 <= estimate <= 2 * actual, (name, estimate, actual)


# -- commands: refused before the work, with the estimate ---------------------------------------

def test_coefficients_k_5000_is_refused_before_computing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    forbid(monkeypatch, cascade_problem, "leave_one_out_elementary")
    mu = ",".join(["0.5"] * 5000)
    err = refused(["coefficients", "cascade", f"mu={mu}", "k=5000"], capsys)
    assert err.startswith("offcmab coefficients: error: k: would take about ")
    assert "multiply-adds" in err and "--force" in err


def test_cascade_coefficients_memory_model() -> None:
    """Model 32*m*k bytes against the traced peak at m=400, k=200: within a factor 2."""
    mu = np.linspace(0.9, 0.1, 400)
    actual = traced_peak(lambda: coefficients.cascade_coefficients(mu, 200))
    estimate = costs.cascade_coefficients_cost(400, 200).bytes
    assert actual / 2 <= estimate <= 2 * actual, (estimate, actual)


def test_im_oracle_small_eps_is_refused_before_sampling(
        graph: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    forbid(monkeypatch, im_oracle_command, "imm")
    err = refused(["im-oracle", "--graph", str(graph), "--k", "3", "--eps", "2e-3", "--method",
                   "imm"], capsys)
    assert err.startswith("offcmab im-oracle: error: eps: would take about ")
    assert "RR sets" in err


def test_imm_model_is_a_floor_with_the_measured_bytes_per_set(tmp_path: Path) -> None:
    """The floor never exceeds the RR sets IMM draws (at eps 0.1 and 0.025 on a sparse graph),
    and the traced peak grows by 24 to 96 bytes per extra RR set (the model says 48)."""
    rng = np.random.default_rng(5)
    pairs = {tuple(int(v) for v in rng.choice(100, size=2, replace=False)) for _ in range(300)}
    path = tmp_path / "sparse.csv"
    path.write_text("source,target,p\n" + "".join(f"{a},{b},0.05\n" for a, b in sorted(pairs)))
    graph = read_graph_csv(path, need_p=True)
    measured: list[tuple[int, int]] = []  # (RR sets drawn, traced peak) per eps
    for eps in (0.1, 0.025):
        results: list[Any] = []
        peak = traced_peak(lambda eps=eps, results=results: results.append(
            imm(graph, 3, eps, 0.01, np.random.default_rng(0))))
        floor = costs.imm_cost(graph.nodes, float(graph.p.sum()), 3, eps, 0.01)
        assert floor.bytes / costs.BYTES_PER_RR_SET <= results[0].rr_sets
        measured.append((results[0].rr_sets, peak))
    (sets_low, peak_low), (sets_high, peak_high) = measured
    per_set = (peak_high - peak_low) / (sets_high - sets_low)
    assert costs.BYTES_PER_RR_SET / 2 <= per_set <= 2 * costs.BYTES_PER_RR_SET, per_set


def test_spread_huge_samples_is_refused_before_simulating(
        graph: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    forbid(monkeypatch, spread_command, "estimate_spread")
    forbid(monkeypatch, spread_command, "read_graph_option")
    err = refused(["spread", "--graph", str(graph), "--seeds", "0,1,2", "--samples",
                   "1000000000"], capsys)
    assert err.startswith("offcmab spread: error: samples: would ")


def test_spread_memory_model(graph: Path) -> None:
    """16 bytes per cascade plus one batch, against the traced peak at 2e6 cascades: within
    a factor 2."""
    loaded = read_graph_csv(graph, need_p=True)
    actual = traced_peak(lambda: estimate_spread(loaded, np.array([0, 1, 2]), 2_000_000,
                                                 np.random.default_rng(0)))
    estimate = costs.spread_cost(2_000_000, 3).bytes
    assert actual / 2 <= estimate <= 2 * actual, (estimate, actual)


def test_solve_dataset_over_the_limit_is_refused_before_reading(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text('{"m": 4}\n' + '{"triggered": [0], "outcomes": [1]}\n' * 100)
    monkeypatch.setattr(limits, "physical_memory", lambda: 1000)  # a 1 kB machine
    forbid(monkeypatch, cascade_solver, "read_log")
    err = refused(["solve", "cascade", "--data", str(path), "--k", "1", "--delta", "0.1"],
                  capsys)
    assert err.startswith("offcmab solve: error: data: would need about ")


@pytest.mark.parametrize("suffix", ["jsonl", "npz"])
def test_dataset_memory_model(tmp_path: Path, suffix: str) -> None:
    """Bytes per file byte times the file size, against the traced peak of reading a k-path
    log of 20000 samples and running CLCB on it: within a factor 2."""
    problem = KPathProblem(np.linspace(0.2, 0.8, 10), 3)
    dataset = PathLaw(problem, np.full(10, 0.1)).sample(20_000, np.random.default_rng(1))
    path = tmp_path / f"log.{suffix}"
    write_dataset(dataset, path)
    actual = traced_peak(lambda: clcb(read_dataset(path), KPathOracle(30, 3), 0.1))
    estimate = reading_cost.dataset_cost(path).bytes
    assert actual / 2 <= estimate <= 2 * actual, (estimate, actual)


def test_force_runs_what_the_estimate_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InputError, match=r"^k: would take"):
        limits.check_cost(costs.cascade_coefficients_cost(5000, 5000))
    assert limits.check_cost(costs.cascade_coefficients_cost(5000, 5000), force=True)


# -- fields named right -----------------------------------------------------------------------

THM1 = ["bound", "thm1-inf", "B1=1", "K2bar=2", "C_inf=2", "m=10", "delta=0.1"]


def test_bound_overflow_names_the_tiny_alpha(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused([*THM1, "alpha=1e-320", "n=1000"], capsys)
    assert err.startswith("offcmab bound: error: alpha: the bound overflows")


def test_solve_n_refuses_another_name(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused([*THM1, "alpha=1", "--solve-n", "delta=0.3"], capsys)
    assert "argument --solve-n" in err and "'delta'" in err
    assert run_cli([*THM1, "alpha=1", "--solve-n", "eps=0.3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["solve_n"]["eps"] == 0.3


@pytest.mark.parametrize("argv", [["reproduce", "fig1a", "--out", ""],
                                  ["tightness", "thm1-inf", "--out", " "]])
def test_empty_out_is_refused(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                              tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    err = refused(argv, capsys)
    assert "argument --out: must name a file or folder" in err
    assert not any(tmp_path.iterdir())


def test_kpath_logged_actions_are_checked(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    problem = KPathProblem(np.array([0.3, 0.6, 0.5]), 2)
    data = PathLaw(problem, np.array([0.3, 0.3, 0.4])).sample(50, np.random.default_rng(0))
    assert data.actions is not None and data.action_offsets is not None
    good, bad, none = (tmp_path / name for name in ("good.jsonl", "bad.jsonl", "none.jsonl"))
    write_dataset(data, good)
    actions = data.actions.copy()
    actions[2:4] = [1, 2]  # sample 1 (file line 3): arms of two paths
    write_dataset(OfflineDataset(data.m, data.triggered_offsets, data.triggered, data.outcomes,
                                 data.action_offsets, actions), bad)
    write_dataset(OfflineDataset(data.m, data.triggered_offsets, data.triggered,
                                 data.outcomes), none)
    base = ["solve", "kpath", "--k", "2", "--delta", "0.1", "--check-logged-actions", "--data"]
    assert run_cli([*base, str(good)]) == 0
    capsys.readouterr()
    assert "line 3: actions: [1, 2] is not a path" in refused([*base, str(bad)], capsys)
    assert "actions: the log records no actions" in refused([*base, str(none)], capsys)
    assert run_cli([*base[:-2], "--data", str(bad)]) == 0  # not asked: not read


# -- helpers ----------------------------------------------------------------------------------

def traced_peak(work: Callable[[], object]) -> int:
    """Peak bytes :mod:`tracemalloc` sees while ``work`` runs."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()



@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_solve_output_follows_the_umask(tmp_path: Path, mask: int,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text('{"m": 4}\n{"triggered": [0], "outcomes": [1]}\n')
    out = tmp_path / "stats.csv"
    previous = os.umask(mask)
    try:
        assert run_cli(["solve", "cascade", "--data", str(log), "--k", "1", "--delta", "0.1",
                        "--out", str(out)]) == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask


@pytest.mark.parametrize(("edit", "message"), [
    (lambda t: t.rstrip()[:-1] + ', "x": ' + "[" * 5000 + "]" * 5000 + "}",
     "line 51: nested too deeply"),
    (lambda t: t.replace("0.6879", BIG, 1), "path_means: holds a number too large"),
    (lambda t: t.rstrip()[:-1] + ', "delta": 0.2}', "delta: given twice"),
    (lambda t: t.replace('"n": 3000', '"n": 1000000000', 1), "n: would need about "),
])
def test_validate_refuses_bad_instance_files(tmp_path: Path, edit: Callable[[str], str],
                                             message: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = saved_instance(tmp_path, edit)
    err = refused(["validate", "--quick", "--no-figures", "--instances", str(path), "--out",
                   str(tmp_path / "run")], capsys)
    assert err.startswith(f"offcmab validate: error: instances: {path}: ")
    assert message in err


def test_validate_force_runs_an_instance_over_the_estimate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --force the saved instance whose n is over the estimate reaches the run (the
    run itself is replaced here: it would need tens of GB)."""
    path = saved_instance(tmp_path, lambda t: t.replace('"n": 3000', '"n": 1000000000', 1))
    reached: list[Any] = []

    def run(request: Any, theorems: Any) -> dict[str, Any]:
        reached.append(request)
        raise KeyboardInterrupt  # stops the command at the door with exit 130

    monkeypatch.setattr(validate_run.door, "run", run)
    assert run_cli(["validate", "--quick", "--no-figures", "--force", "--instances", str(path),
                    "--out", str(tmp_path / "run")]) == 130
    (saved,) = reached[0].saved
    assert saved[1].n_grid == (1_000_000_000,)
