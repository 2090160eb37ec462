"""Checking a user's own algorithm: ``validate --algorithm``, ``offcmab.validation.check``,
bad input.

Statistical content: a correct algorithm is flagged by a validate run with probability
at most the run's false-alarm budget, 1e-6 (exact binomial tails, Bonferroni over rows;
``offcmab.validation.parts.verdict``), so each "correct variant exits 0" assertion fails
spuriously with probability at most 1e-6 at its fixed seed.  Each broken variant
(empirical means instead of confidence bounds) is flagged by a trap instance of its
bound id (``offcmab.validation.scenarios.traps``); the test requires exit 1 and a failing row.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_cli_solve import run_cli

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def validate(target: str, bound_id: str, out: Path, *options: str) -> tuple[int, dict[str, Any]]:
    code = run_cli(["validate", "--quick", "--only", bound_id, "--algorithm", target,
                    "--out", str(out), "--no-figures", *options])
    report = json.loads((out / "report.json").read_text()) if code in (0, 1) else {}
    return code, report


def failing(report: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(r["instance"], r["n"], r["variant"]) for r in report["rows"]
            if r["verdict"] == "FAIL"]


# --- the documented examples ---------------------------------------------------------------

CORRECT = [("own_cascade.py:pessimistic_list", "cor1-cascade"),
           ("own_clcb.py:pessimistic", "thm1-inf"),
           ("own_clcb.py:pessimistic", "thm1-one"),
           ("own_cache.py:optimistic_cost_cache", "thm3-llm")]

BROKEN = [("own_clcb.py:greedy", "thm1-inf"),
          ("own_clcb.py:greedy", "thm1-one"),
          ("own_cascade.py:greedy_list", "cor1-cascade"),
          ("own_cache.py:mean_cost_cache", "thm3-llm")]


@pytest.mark.parametrize(("target", "bound_id"), CORRECT)
def test_correct_example_passes(tmp_path: Path, target: str, bound_id: str) -> None:
    code, report = validate(str(EXAMPLES / target), bound_id, tmp_path)
    assert code == 0, failing(report)
    assert report["summary"]["pass"] > 0


@pytest.mark.parametrize(("target", "bound_id"), BROKEN)
def test_broken_example_is_flagged(tmp_path: Path, target: str, bound_id: str) -> None:
    code, report = validate(str(EXAMPLES / target), bound_id, tmp_path)
    assert code == 1
    assert failing(report)


def test_report_names_the_users_algorithm(tmp_path: Path) -> None:
    path = EXAMPLES / "own_cascade.py"
    code, report = validate(f"{path}:pessimistic_list", "cor1-cascade", tmp_path)
    assert code == 0
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert report["algorithm"] == {"kind": "file", "file": str(path), "sha256": digest,
                                   "function": "pessimistic_list",
                                   "spec": f"file:{path}:pessimistic_list"}
    assert {row["algorithm"] for row in report["rows"]} == \
        {f"file:{path}:pessimistic_list@{digest[:16]}"}
    markdown = (tmp_path / "report.md").read_text()
    assert f"`pessimistic_list` from `{path}`, sha256 `{digest}`" in markdown


def test_module_target_runs_the_reference_algorithm_like_the_default(tmp_path: Path) -> None:
    code, mine = validate("offcmab.reference.clcb_cascade:clcb_cascade", "cor1-cascade",
                          tmp_path / "a")
    assert code == 0
    assert run_cli(["validate", "--quick", "--only", "cor1-cascade", "--out",
                    str(tmp_path / "b"), "--no-figures"]) == 0
    reference = json.loads((tmp_path / "b" / "report.json").read_text())
    def bound_rows(report: dict[str, Any]) -> list[Any]:  # oracle event rows: reference only
        return [r["gap_max"] for r in report["rows"] if r.get("kind") != "event"]

    assert bound_rows(mine) == bound_rows(reference)
    assert mine["algorithm"]["module"] == "offcmab.reference.clcb_cascade"


def comparable(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows without anything that depends on how the run was executed."""
    return [{k: v for k, v in row.items() if k != "seconds"} for row in report["rows"]]


def validate_in_fresh_process(target: str, out: Path, *options: str) -> tuple[int, dict[str, Any]]:
    """``validate`` in a new interpreter, so nothing of this process's state leaks in."""
    command = [sys.executable, "-m", "validation", "validate", "--quick", "--only",
               "cor1-cascade", "--algorithm", target, "--out", str(out), "--no-figures",
               *options]
    done = subprocess.run(command, cwd=EXAMPLES.parent.parent, capture_output=True,
                          text=True, timeout=600, check=False)
    return done.returncode, json.loads((out / "report.json").read_text())


@pytest.mark.slow
def test_workers_import_the_function_from_its_file(tmp_path: Path) -> None:
    # the file lies outside every import path, so workers can only load it by its path
    path = tmp_path / "private_cascade.py"
    path.write_bytes((EXAMPLES / "own_cascade.py").read_bytes())
    target = f"{path}:greedy_list"
    code, serial = validate_in_fresh_process(target, tmp_path / "serial")
    assert code == 1  # flagged by the trap instance
    for backend in ("processes", "dask"):
        parallel_code, parallel = validate_in_fresh_process(
            target, tmp_path / backend, "--jobs", "2", "--backend", backend)
        assert parallel_code == code
        assert comparable(parallel) == comparable(serial)
        assert parallel["backend"] == backend


# --- the signature table --------------------------------------------------------------------

def test_signatures_prints_the_call_of_every_bound_id(capsys: pytest.CaptureFixture[str]) -> None:
    from offcmab.validation.theorems import THEOREMS

    assert run_cli(["validate", "--signatures"]) == 0
    table = capsys.readouterr().out
    for theorem in THEOREMS:
        assert f"| {theorem.id} | `{theorem.signature.call}` |" in table
    assert "`f(dataset, k, delta)`" in table and "`f(log, k, delta)`" in table


# --- bad input: exit 2, one line naming the algorithm ---------------------------------------

def usage_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert run_cli(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_algorithm_needs_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = usage_error(capsys, ["validate", "--algorithm", f"{EXAMPLES}/own_clcb.py:greedy",
                               "--out", str(tmp_path)])
    assert "only: --algorithm needs --only" in err


MINE = """\
import numpy as np


def top(dataset, k, delta):
    return np.arange(k)


def two(dataset, k):
    return np.arange(k)


def helper(values):
    return values[len(values)]


def raises(dataset, k, delta):
    return helper([0, 1])


def short(dataset, k, delta):
    return np.arange(k - 1)


def duplicate(dataset, k, delta):
    return np.zeros(k, dtype=int)


def outside(dataset, k, delta):
    return np.arange(k) + dataset.m


def nan(dataset, k, delta):
    return np.full(k, np.nan)
"""

BAD = [("nofile.py:top", "mine.py:top: no such file"),
       ("mine.py:nothing", "mine.py:nothing: no function 'nothing'"),
       ("mine.py:two", "mine.py:two: signature two(dataset, k) does not fit the call "
                       "f(dataset, k, delta)"),
       ("mine.py:short", "mine.py:short@"),
       ("mine.py:duplicate", "duplicate ids"),
       ("mine.py:outside", "ids out of range"),
       ("mine.py:nan", "contains NaN")]


@pytest.mark.parametrize(("target", "expected"), BAD)
def test_bad_algorithm_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             target: str, expected: str) -> None:
    (tmp_path / "mine.py").write_text(MINE, encoding="utf-8")
    if "nofile" in target:
        target = target.replace("nofile.py", "mine.py").replace("mine.py", str(tmp_path / "x"))
        expected = "x:top: no such file"
    err = usage_error(capsys, ["validate", "--quick", "--only", "cor1-cascade", "--algorithm",
                               f"{tmp_path}/{target}" if "/" not in target else target,
                               "--out", str(tmp_path / "out")])
    assert err.startswith("offcmab validate: error: ")
    assert expected in err
    assert "validation/" not in err.replace(str(tmp_path), "")  # none of our frames
    if target.endswith(":short"):
        assert "wrong length" in err


RAISED = ("mine.py:raises raised IndexError: list index out of range "
          "(at mine.py:13 in helper <- mine.py:17 in raises)")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_exception_is_an_error_row_with_exit_4(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  jobs: str) -> None:
    """Raised in this process or in a worker: one line naming the user's frames, exit 4,
    the report written with the bound id's error row."""
    (tmp_path / "mine.py").write_text(MINE, encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli(["validate", "--quick", "--only", "cor1-cascade", "--algorithm",
                    f"{tmp_path}/mine.py:raises", "--jobs", jobs, "--out", str(out)]) == 4
    err = capsys.readouterr().err
    assert RAISED in err and len(err.strip().splitlines()) == 1
    assert "validation/" not in err.replace(str(tmp_path), "")  # none of our frames
    report = json.loads((out / "report.json").read_text())
    assert RAISED in report["errors"]["cor1-cascade"]


# --- the Python API --------------------------------------------------------------------------

@pytest.fixture
def examples_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    for name in ("own_clcb", "own_cascade"):
        monkeypatch.delitem(sys.modules, name, raising=False)


@pytest.mark.usefixtures("examples_on_path")
def test_check_returns_plain_rows_and_passes_a_correct_function() -> None:
    import own_cascade  # type: ignore[import-not-found]

    from offcmab.validation import check

    report = check(own_cascade.pessimistic_list, "cor1-cascade", profile="quick")
    assert report.passed
    report.raise_for_violation()
    assert report.rows and all(type(row) is dict for row in report.rows)
    assert {"instance", "n", "bound", "violations", "verdict"} <= set(report.rows[0])
    assert report.algorithm["file"] == str(EXAMPLES / "own_cascade.py")


@pytest.mark.usefixtures("examples_on_path")
def test_check_flags_a_broken_function_with_the_violating_rows() -> None:
    import own_clcb  # type: ignore[import-not-found]

    from offcmab.validation import BoundViolation, check

    report = check(own_clcb.greedy, "thm1-inf", profile="quick")
    assert not report.passed
    with pytest.raises(BoundViolation) as caught:
        report.raise_for_violation()
    message = str(caught.value)
    assert message.startswith("greedy (")
    assert "instance=pessimism, n=5000, variant=stated" in message
    # every trial of the pessimism instance exceeds the bound (a lucky poor path wins)
    assert re.search(r"instance=pessimism, n=5000, variant=stated, .*violations=(\d+), "
                     r"allowed_violations=\d+, trials=\1,", message)


@pytest.mark.usefixtures("examples_on_path")
def test_check_by_file_gives_the_same_rows_on_two_workers() -> None:
    import own_cascade

    from offcmab.validation import check

    serial = check(own_cascade.greedy_list, "cor1-cascade", profile="quick")
    parallel = check(own_cascade.greedy_list, "cor1-cascade", profile="quick", jobs=2)
    assert comparable(parallel.report) == comparable(serial.report)


def test_a_lambda_runs_serially_and_is_refused_for_workers() -> None:
    from offcmab.reference.clcb_cascade import clcb_cascade
    from offcmab.validation import check

    report = check(lambda dataset, k, delta: clcb_cascade(dataset, k, delta).action,
                   "cor1-cascade", profile="quick")
    assert report.passed and report.algorithm["kind"] == "object"
    with pytest.raises(ValueError, match=r"function: .*<lambda>.* use jobs=1"):
        check(lambda dataset, k, delta: np.arange(k), "cor1-cascade", jobs=2)


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"bound_id": "thm9"}, "bound_id: must be one of"),
    ({"profile": "huge"}, "profile: must be one of"),
    ({"jobs": 0}, "jobs: must be a positive integer")])
def test_check_names_a_bad_argument(kwargs: dict[str, Any], expected: str) -> None:
    from offcmab.validation import check

    arguments: dict[str, Any] = {"bound_id": "cor1-cascade"} | kwargs
    with pytest.raises(ValueError, match=expected):
        check(lambda dataset, k, delta: np.arange(k), **arguments)


def test_check_rejects_a_wrong_signature_before_running() -> None:
    from offcmab.validation import check
    from offcmab.validation.user_algorithm import AlgorithmError

    def two(dataset, k):  # type: ignore[no-untyped-def]
        return np.arange(k)

    with pytest.raises(AlgorithmError, match=r"two: signature two\(dataset, k\) does not fit"):
        check(two, "cor1-cascade", profile="quick")


def test_docs_page_is_listed_and_names_the_tested_examples() -> None:
    root = EXAMPLES.parent.parent
    assert "Validate your own algorithm: own-algorithm.md" in (root / "mkdocs.yml").read_text()
    page = (root / "docs" / "own-algorithm.md").read_text()
    assert "{{ signature_table() }}" in page
    broken = ["own_cascade.py:greedy_list", "own_cache.py:mean_cost_cache", "own_clcb.py:greedy"]
    for target in [target for target, _ in CORRECT] + broken:
        file, function = target.split(":")
        assert f"docs/examples/{file}" in page and function in page
