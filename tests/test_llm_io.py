"""LLM cache logs on disk and ``offcmab solve llm-cache``: round trips and every bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli_solve import run_cli

from offcmab.reference.errors import InputError
from offcmab.reference.problems.llm_cache import CacheLog, cache_hits
from offcmab.reference.problems.llm_cache_io import read_cache_log, write_cache_log
from offcmab.validation.cli import main
from offcmab.validation.solvers.summary import CERTIFICATE_FIELDS, RADIUS_FIELDS, SUMMARY


@st.composite
def cache_logs(draw: st.DrawFn) -> CacheLog:
    m = draw(st.integers(1, 5))
    n = draw(st.integers(1, 12))
    caches = [sorted(draw(st.sets(st.integers(0, m - 1), max_size=m))) for _ in range(n)]
    queries = np.array([draw(st.integers(0, m - 1)) for _ in range(n)], dtype=np.int64)
    costs = np.array([draw(st.floats(0, 1)) for _ in range(n)])
    lengths = [len(c) for c in caches]
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    flat = np.array([q for c in caches for q in c], dtype=np.int64)
    costs[cache_hits(offsets, flat, queries)] = np.nan
    return CacheLog(m, offsets, flat, queries, costs)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cache_logs(), st.sampled_from(["log.jsonl", "log.npz"]))
def test_round_trip(tmp_path: Path, log: CacheLog, name: str) -> None:
    path = tmp_path / name
    write_cache_log(log, path)
    back = read_cache_log(path)
    assert back.m == log.m
    for field in ("cache_offsets", "caches", "queries"):
        assert np.array_equal(getattr(back, field), getattr(log, field))
    assert np.array_equal(back.costs, log.costs, equal_nan=True)


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


HEADER = '{"queries": 3}'


@pytest.mark.parametrize(("lines", "message"), [
    ([], "line 1: header: file is empty"),
    (['{"m": 3}'], 'line 1: queries: header must hold a positive integer "queries"'),
    ([HEADER], "data: no rounds after the header"),
    ([HEADER, "{oops"], "line 2: json: malformed JSON"),
    ([HEADER, "[1]"], "line 2: json: each line must be a JSON object"),
    ([HEADER, '{"query": 0, "cost": 1}'], "line 2: cache: missing or not a list of integers"),
    ([HEADER, '{"cache": [5], "query": 0, "cost": 1}'], "line 2: cache: query id outside"),
    ([HEADER, '{"cache": [-1], "query": 0, "cost": 1}'], "line 2: cache: query id outside"),
    ([HEADER, '{"cache": [1, 1], "query": 0, "cost": 1}'], "line 2: cache: lists a query more"),
    ([HEADER, '{"cache": [], "query": 3, "cost": 1}'], "line 2: query: id 3 is outside"),
    ([HEADER, '{"cache": [], "query": true, "cost": 1}'], "line 2: query: missing or not an"),
    ([HEADER, '{"cache": [], "query": 0}'], "line 2: cost: missing"),
    ([HEADER, '{"cache": [0], "query": 0, "cost": 0.5}'], "line 2: cost: must be null"),
    ([HEADER, '{"cache": [], "query": 0, "cost": null}'], "line 2: cost: is null but"),
    ([HEADER, '{"cache": [], "query": 0, "cost": 1.5}'], "line 2: cost: must lie in [0, 1]"),
    ([HEADER, '{"cache": [], "query": 0, "cost": NaN}'], "line 2: cost: must be a finite"),
    ([HEADER, '{"cache": [], "query": 0, "cost": "1"}'], "line 2: cost: must be a finite"),
])
def test_bad_jsonl(tmp_path: Path, lines: list[str], message: str) -> None:
    path = write_lines(tmp_path / "bad.jsonl", lines)
    with pytest.raises(InputError) as error:
        read_cache_log(path)
    assert message in str(error.value)


def test_unbounded_costs_accepted_when_asked(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "g.jsonl", [HEADER, '{"cache": [], "query": 0, "cost": -2.5}'])
    assert read_cache_log(path, bounded=False).costs.tolist() == [-2.5]


def test_bad_npz(tmp_path: Path) -> None:
    path = tmp_path / "x.npz"
    np.savez(path, queries_m=np.int64(2), cache_offsets=np.array([0, 0]),
             caches=np.array([], dtype=np.int64), queries=np.array([0]),
             costs=np.array([np.nan]))
    with pytest.raises(InputError, match="cost: round 0: must be null exactly"):
        read_cache_log(path)
    np.savez(path, queries_m=np.int64(2), cache_offsets=np.array([0, 0]))
    with pytest.raises(InputError, match="caches: array missing"):
        read_cache_log(path)
    np.savez(path, queries_m=np.int64(2), cache_offsets=np.array([0, 0]),
             caches=np.array([], dtype=np.int64), queries=np.array([0]),
             costs=np.array([None], dtype=object))
    with pytest.raises(InputError, match="pickled objects"):
        read_cache_log(path)
    with pytest.raises(InputError, match="file not found"):
        read_cache_log(tmp_path / "missing.npz")


@pytest.fixture
def small_log(tmp_path: Path) -> Path:
    return write_lines(tmp_path / "log.jsonl", [
        HEADER,
        '{"cache": [], "query": 0, "cost": 0.5}',
        '{"cache": [0], "query": 0, "cost": null}',
        '{"cache": [1], "query": 2, "cost": 1}',
    ])


def test_solve_llm_cache_json(small_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "llm-cache", "--data", str(small_log), "--k", "1", "--delta", "0.1",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == ({"cache", "p_hat", "c_hat", "c_ucb", "counts", "cost_counts"} | SUMMARY
                        | RADIUS_FIELDS | CERTIFICATE_FIELDS)
    assert out["counts"] == [2, 0, 1] and out["cost_counts"] == [1, 0, 1]
    assert out["c_hat"][1] == "nan" and out["c_ucb"][1] == "inf"  # words, never null
    # Both UCBs exceed 1 and are clipped; p_hat(0) = 2/3 > p_hat(2) = 1/3.
    assert out["cache"] == [0]


@pytest.mark.parametrize(("extra", "message"), [
    (["--k", "4", "--delta", "0.1"], "k: must not exceed the number of arms m=3"),
    (["--k", "1", "--delta", "0"], "argument --delta: must lie strictly between 0 and 1"),
    (["--k", "1", "--delta", "0.1", "--variant", "x"], "argument --variant: invalid choice"),
])
def test_solve_llm_cache_bad_arguments(small_log: Path, extra: list[str], message: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["solve", "llm-cache", "--data", str(small_log), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) <= 3


def test_solve_llm_cache_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_lines(tmp_path / "b.jsonl", [HEADER, '{"cache": [0], "query": 0, "cost": 1}'])
    assert run_cli(["solve", "llm-cache", "--data", str(path), "--k", "1",
                    "--delta", "0.1"]) == 2
    err = capsys.readouterr().err
    assert "line 2: cost: must be null" in err and "Traceback" not in err
