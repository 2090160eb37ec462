"""A theorem of one's own (docs/examples/own_theorem.py) through every command, and its API.

The example bounds the gap of the LCB rule on K arms in its own symbols (K, nu_star) with
failure probability 2 delta.  Statistical content, all at fixed seeds (the outcomes are
deterministic; the figures say how unlikely an unlucky seed is):

* the reference passes: a correct bound is flagged with probability at most the run's
  false-alarm budget, 1e-3 (exact binomial tails over the rows with power);
* the greedy rule fails on ``rare-lucky`` (48 arms of mean 0.3 logged about 4 times each
  beside a best arm of mean 0.6): some rare arm's empirical mean beats the best arm's in a
  trial with probability above 0.99, a gap of 0.3 against a bound of 0.247, so 10 or more of
  the row's 36 trials exceed it (the row's allowed count) except with probability below
  1e-30;
* with ``--bound-scale 0.05`` the bound of ``near-tie`` (two arms 0.02 apart, 1000 draws
  each) falls to 0.012 < 0.02: the reference picks the worse arm with probability about
  0.18 (normal approximation), nine times the row's failure probability 2 delta = 0.02,
  which its trials (sized to flag 4 times that rate with probability 0.9) flag.
"""

from __future__ import annotations

import json
import pickle
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sympy as sp

from offcmab.validation import check
from offcmab.validation.cli import main
from offcmab.validation.extend import Domain, define_bound

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "own_theorem.py"
THEOREM = f"{EXAMPLE}:THEOREM"
ID = "k-armed-lcb"


def run_cli(argv: list[str]) -> int:
    """Exit code of the CLI whether it returns it or argparse raises SystemExit."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def report(out: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((out / "report.json").read_text())
    return loaded


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference checked on its own theorem (``--quick``, serial)."""
    out = tmp_path_factory.mktemp("own") / "run"
    assert run_cli(["validate", "--theorem", THEOREM, "--quick", "--out", str(out),
                    "--no-figures"]) == 0
    return out


# -- the bound constructor ----------------------------------------------------------------

K, NU, N, DELTA = sp.symbols("K nu_star n delta", positive=True)
DOMAINS = {K: Domain(2, np.inf, integer=True), NU: Domain(0, 1, low_open=True),
           N: Domain(1, np.inf), DELTA: Domain(0, 1, low_open=True, high_open=True)}


def k_armed() -> Any:
    return define_bound("k-armed", 2 * sp.sqrt(sp.log(2 * K * N / DELTA) / (N * NU)),
                        domains=DOMAINS, failure=2 * DELTA)


def test_a_bound_in_its_own_symbols_evaluates_and_pickles_after_evaluation() -> None:
    bound = k_armed()
    value = bound.evaluate(K=50, nu_star=0.5, n=2000, delta=0.05)
    assert value == pytest.approx(2 * np.sqrt(np.log(2 * 50 * 2000 / 0.05) / 1000))
    assert bound.evaluate("proved", K=50, nu_star=0.5, n=2000, delta=0.05) == value
    assert bound.failure("proved", K=3, nu_star=0.5, n=10, delta=0.05) == pytest.approx(0.1)
    copy = pickle.loads(pickle.dumps(bound))  # its compiled functions stay behind
    assert copy.evaluate(K=50, nu_star=0.5, n=2000, delta=0.05) == value
    assert set(bound.domains) == {"K", "nu_star", "n", "delta"}


@pytest.mark.parametrize(("params", "message"), [
    ({"K": 2.5, "nu_star": 0.5, "n": 10, "delta": 0.1}, "K: must be an integer in"),
    ({"K": 2, "nu_star": 1.5, "n": 10, "delta": 0.1}, r"nu_star: must be a number in \(0, 1\]"),
    ({"K": 2, "nu_star": 0.5, "n": 10}, "delta: missing"),
    ({"K": 2, "nu_star": 0.5, "n": 10, "delta": 0.1, "m": 3}, "m: is not a parameter"),
])
def test_a_bound_in_its_own_symbols_names_the_bad_symbol(params: dict[str, float],
                                                          message: str) -> None:
    with pytest.raises(ValueError, match=message):
        k_armed().evaluate(**params)


def test_define_bound_refuses_an_undeclared_symbol_and_text() -> None:
    with pytest.raises(ValueError, match="failure: symbol 'eps' has no domain"):
        define_bound("x", K * N, domains=DOMAINS, failure=sp.Symbol("eps"))
    with pytest.raises(ValueError, match="failure: must be a sympy expression or a number"):
        define_bound("x", K * N, domains=DOMAINS, failure="2*delta")  # type: ignore[arg-type]


# -- validate ----------------------------------------------------------------------------

def test_the_reference_passes_and_the_report_shows_the_theorem(quick: Path) -> None:
    result = report(quick)
    bound_rows = [row for row in result["rows"] if row["id"] == ID]
    assert {row["instance"] for row in bound_rows} == {"rare-lucky", "near-tie"}
    assert result["summary"]["FAIL"] == 0 and result["summary"]["power"] >= 1
    assert all(set(row["parameters"]) == {"K", "nu_star", "n", "delta"} for row in bound_rows)
    assert all(row["failure_probability"] == pytest.approx(2 * row["delta"])
               for row in bound_rows)
    [theorem] = result["provenance"]["theorems"]
    assert theorem["path"] == str(EXAMPLE)
    assert theorem["sha256"] == __import__("hashlib").sha256(EXAMPLE.read_bytes()).hexdigest()
    markdown = (quick / "report.md").read_text()
    assert "K=50, nu_star=0.5" in markdown and str(EXAMPLE) in markdown
    assert "| 0.05 | 0.1 |" in markdown  # delta, and the failure probability 2 delta tested


def test_a_bound_scaled_down_and_a_greedy_rule_fail(tmp_path: Path) -> None:
    assert run_cli(["validate", "--theorem", THEOREM, "--quick", "--out",
                    str(tmp_path / "scaled"), "--no-figures", "--bound-scale", "0.05"]) == 1
    failing = {row["instance"] for row in report(tmp_path / "scaled")["rows"]
               if row["verdict"] == "FAIL"}
    assert "near-tie" in failing
    assert run_cli(["validate", "--theorem", THEOREM, "--quick", "--out",
                    str(tmp_path / "greedy"), "--no-figures", "--algorithm",
                    f"{EXAMPLE}:greedy"]) == 1
    assert {row["instance"] for row in report(tmp_path / "greedy")["rows"]
            if row["verdict"] == "FAIL"} == {"rare-lucky"}


def test_the_record_runs_on_worker_processes(quick: Path, tmp_path: Path) -> None:
    out = tmp_path / "jobs"
    assert run_cli(["validate", "--theorem", THEOREM, "--quick", "--out", str(out),
                    "--no-figures", "--jobs", "2"]) == 0
    assert report(out)["rows"] == report(quick)["rows"]
    assert run_cli(["compare", str(quick), str(out), "--theorem", THEOREM]) == 0


def test_the_record_runs_on_dask_workers(quick: Path, tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    out = tmp_path / "dask"
    assert run_cli(["validate", "--theorem", THEOREM, "--quick", "--out", str(out),
                    "--no-figures", "--jobs", "2", "--backend", "dask"]) == 0
    assert report(out)["rows"] == report(quick)["rows"]


def test_the_record_travels_pickled_once_evaluated(tmp_path: Path) -> None:
    """A record handed over as an object (not loaded from a file) goes to workers pickled,
    its bound evaluated (compiled) first."""
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import own_theorem  # the example as an importable module

        record = own_theorem.THEOREM
        record.bound.evaluate(K=3, nu_star=0.5, n=10, delta=0.1)
        result = check(own_theorem.lcb_rule, ID, profile="quick", jobs=2, theorem=record,
                       out=tmp_path / "pickled")
    finally:
        sys.path.remove(str(EXAMPLE.parent))
        sys.modules.pop("own_theorem", None)
    assert result.passed


def test_check_takes_the_target(tmp_path: Path) -> None:
    greedy = check(f"{EXAMPLE}:greedy", ID, profile="quick", theorem=THEOREM)
    assert not greedy.passed


# -- the other commands ------------------------------------------------------------------

def test_tightness_saves_an_instance_validate_replays(tmp_path: Path) -> None:
    saved = tmp_path / "tight.json"
    assert run_cli(["tightness", ID, "--theorem", THEOREM, "--budget", "4", "--out",
                    str(saved)]) == 0
    assert json.loads(saved.read_text())["bound_id"] == ID
    assert run_cli(["validate", "--theorem", THEOREM, "--instances", str(saved), "--quick",
                    "--out", str(tmp_path / "replay"), "--no-figures"]) == 0


def test_calibrate_counts_no_false_alarm(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["calibrate", "--theorem", THEOREM, "--runs", "2", "--profile", "quick",
                    "--jobs", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [entry["name"] for entry in result["theorems"]] == [ID]


def test_mutation_runs_the_records_controls(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["mutation", "--theorem", THEOREM, "--profile", "quick", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [(entry["mutant"], entry["status"]) for entry in result["entries"]] == \
        [("greedy", "KILLED")]


def test_mutation_without_controls_is_not_checked(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(EXAMPLE, tmp_path / "own_theorem.py")
    (tmp_path / "bare.py").write_text(textwrap.dedent(f'''
        import dataclasses
        import importlib.util

        spec = importlib.util.spec_from_file_location("own", {str(EXAMPLE)!r})
        own = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(own)
        THEOREM = dataclasses.replace(own.THEOREM, controls={{}})
    '''))
    assert run_cli(["mutation", "--theorem", f"{tmp_path / 'bare.py'}:THEOREM",
                    "--profile", "quick"]) == 3
    assert "not checked" in capsys.readouterr().out


def test_falsify_confirms_the_greedy_rule_breaks_the_bound(tmp_path: Path) -> None:
    out = tmp_path / "falsify"
    assert run_cli(["falsify", f"{EXAMPLE}:greedy", "--theorem", THEOREM, "--budget", "5",
                    "--out", str(out), "--no-database", "--json"]) == 1
    summary = json.loads((out / f"summary-{ID}.json").read_text())
    assert "--theorem" in summary["replay"]["command"]


@pytest.mark.parametrize(("target", "message"), [
    ("nothing-here.py:THEOREM", "theorem nothing-here.py:THEOREM: no such file"),
    (f"{EXAMPLE}:greedy", "greedy is not a Theorem"),
    (f"{EXAMPLE}:MISSING", "no 'MISSING' in"),
    (str(EXAMPLE), "theorem: expected FILE.py:NAME or package.module:NAME"),
])
@pytest.mark.parametrize("command", [["validate", "--quick"], ["tightness", ID],
                                     ["calibrate"], ["mutation"], ["falsify", "reference"],
                                     ["compare", ".", "."]])
def test_a_bad_target_exits_2_naming_the_field(command: list[str], target: str, message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli([*command, "--theorem", target]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_compare_refuses_runs_of_another_version_of_the_file(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    copy = tmp_path / "mine.py"
    shutil.copy(EXAMPLE, copy)
    for name in ("base", "new"):
        assert run_cli(["validate", "--theorem", f"{copy}:THEOREM", "--quick", "--out",
                        str(tmp_path / name), "--no-figures"]) == 0
    copy.write_text(copy.read_text() + "\n# edited\n")
    capsys.readouterr()
    assert run_cli(["compare", str(tmp_path / "base"), str(tmp_path / "new"), "--theorem",
                    f"{copy}:THEOREM"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("offcmab compare: error: theorem:")


def test_the_fixture_takes_the_target(offcmab_check: Any) -> None:
    assert offcmab_check(f"{EXAMPLE}:lcb_rule", ID, profile="quick", theorem=THEOREM).passed
