"""CSV logs (``offcmab.reference.csv_io``): the same arrays as the JSON Lines reader on the
same data, and every bad cell refused with exit 2 naming the line, the column, what was
expected and what was found.  No randomness beyond fixed seeds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_cli_solve import run_cli

from offcmab.reference.csv_io import read_csv_dataset, read_log, write_csv_dataset
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.dataset_io import read_jsonl, write_jsonl
from offcmab.reference.errors import InputError
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
from offcmab.reference.problems.llm_cache import (
    LLMCacheProblem,
    UniformRandomCaches,
    sample_log,
)
from offcmab.reference.problems.llm_cache_csv import read_cache_csv, write_cache_csv
from offcmab.reference.problems.llm_cache_io import read_cache_jsonl, write_cache_jsonl

ROOT = Path(__file__).resolve().parents[1]
ARRAYS = ("triggered_offsets", "triggered", "outcomes", "action_offsets", "actions")


def same_arrays(first: OfflineDataset, second: OfflineDataset) -> None:
    assert first.m == second.m
    for name in ARRAYS:
        a, b = getattr(first, name), getattr(second, name)
        assert (a is None) == (b is None), name
        if a is not None:
            assert a.dtype == b.dtype and np.array_equal(a, b), name


@pytest.mark.parametrize("with_actions", [True, False])
def test_csv_and_json_lines_give_identical_arrays(tmp_path: Path, with_actions: bool) -> None:
    rng = np.random.default_rng(11)
    data = UniformListsLaw(CascadeProblem(rng.random(9), 4)).sample(500, rng)
    if not with_actions:
        data = OfflineDataset(data.m, data.triggered_offsets, data.triggered, data.outcomes)
    write_jsonl(data, tmp_path / "log.jsonl")
    write_csv_dataset(data, tmp_path / "log.csv")
    same_arrays(read_jsonl(tmp_path / "log.jsonl"), read_csv_dataset(tmp_path / "log.csv"))
    same_arrays(data, read_log(tmp_path / "log.csv"))


def test_fractional_outcomes_survive_the_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    m, k = 8, 2  # k-path: 4 paths of 2 arms, outcomes in [0, 1] with every float digit
    paths = rng.integers(0, m // k, 300)
    triggered = (k * paths[:, None] + np.arange(k)).ravel()
    data = OfflineDataset(m, np.arange(0, 2 * 300 + 1, 2), triggered, rng.random(600))
    write_csv_dataset(data, tmp_path / "paths.csv")
    same_arrays(data, read_csv_dataset(tmp_path / "paths.csv"))


def test_the_docs_example_is_the_json_lines_log() -> None:
    examples = ROOT / "docs" / "examples"
    same_arrays(read_jsonl(examples / "cascade-log.jsonl"),
                read_csv_dataset(examples / "cascade-log.csv"))


def solved(capsys: pytest.CaptureFixture[str], problem: str, paths: list[Path],
           *options: str) -> list[Any]:
    """``offcmab solve PROBLEM --json`` on each file, in order: the printed answers."""
    outputs = []
    for path in paths:
        assert run_cli(["solve", problem, "--data", str(path), *options, "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    return outputs


def test_solve_reads_csv_like_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    examples = ROOT / "docs" / "examples"
    both = [examples / "cascade-log.jsonl", examples / "cascade-log.csv"]
    first, second = solved(capsys, "cascade", both, "--k", "3", "--delta", "0.05")
    assert first == second
    first, second = solved(capsys, "kpath", both, "--k", "2", "--delta", "0.05")
    assert first == second


HEADER = "triggered_1,triggered_2,outcome_1,outcome_2"

#: (file text, the line, the column, words the message must hold)
BAD = [
    (f"# m=4\n{HEADER}\n0,1,0,1\n2,,1.5,\n", 4, "outcome_1", ["[0, 1]", "1.5"]),
    (f"# m=4\n{HEADER}\n0,1,0,nan\n", 3, "outcome_2", ["[0, 1]", "nan"]),
    (f"# m=4\n{HEADER}\n0,1,0,inf\n", 3, "outcome_2", ["[0, 1]", "inf"]),
    (f"# m=4\n{HEADER}\n0,1,0,x\n", 3, "outcome_2", ["number", "'x'"]),
    (f"# m=4\n{HEADER}\n0,1,0\n", 3, "row", ["expected 4 cells", "found 3"]),
    (f"# m=4\n{HEADER}\n0,1,0,1,1\n", 3, "row", ["expected 4 cells", "found 5"]),
    (f"# m=4\n{HEADER}\n0,1,0,1\n0,7,0,1\n", 4, "triggered_2", ["unknown arm id 7", "0 to 3"]),
    (f"# m=4\n{HEADER}\n0,-1,0,1\n", 3, "triggered_2", ["arm id", "'-1'"]),
    (f"# m=4\n{HEADER}\n0,٢,0,1\n", 3, "triggered_2", ["ASCII", "'٢'"]),
    (f"# m=4\n{HEADER}\n1,1,0,1\n", 3, "triggered", ["arm 1 more than once"]),
    (f"# m=4\n{HEADER}\n0,1,0,\n", 3, "outcome_2", ["outcome of triggered_2", "empty"]),
    (f"# m=4\n{HEADER}\n0,,0,1\n", 3, "outcome_2", ["empty cell", "'1'"]),
    (f"# m=4\n{HEADER}\n,1,,1\n", 3, "triggered_2", ["after an empty triggered_1"]),
    (f"# m=4\n{HEADER}\n", None, "data", ["no rounds", "found none"]),
    ("", 1, "m", ["file is empty", "# m=M"]),
    (f"{HEADER}\n0,1,0,1\n", 1, "m", ["'# m=M'", "found"]),
    ("# m=4\ntriggered_1,outcome_1,clicks\n0,1,1\n", 2, "clicks", ["unknown column"]),
    ("# m=4\ntriggered_1,triggered_2,outcome_1\n0,1,1\n", 2, "outcome",
     ["expected 2 outcome columns", "found 1"]),
]


def test_a_cascade_check_names_the_csv_line(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # a click (outcome 1) before the last examined item: not a cascade, line 4 of the file
    path = tmp_path / "log.csv"
    path.write_text(f"# m=4\n{HEADER}\n0,1,0,1\n\n2,3,1,0\n", encoding="utf-8")
    assert run_cli(["solve", "cascade", "--data", str(path), "--k", "1",
                    "--delta", "0.1"]) == 2
    assert "line 5" in capsys.readouterr().err


# --- LLM cache logs ------------------------------------------------------------------------

CACHE_ARRAYS = ("cache_offsets", "caches", "queries")


@pytest.mark.parametrize("noise", ["bernoulli", "gaussian"])
def test_cache_csv_and_json_lines_give_identical_arrays(tmp_path: Path, noise: str) -> None:
    rng = np.random.default_rng(5)
    problem = LLMCacheProblem(rng.dirichlet(np.ones(12)), rng.uniform(0.2, 1.0, 12), 3)
    log = sample_log(problem, UniformRandomCaches(12, 3), 400, rng, noise=noise)
    bounded = noise == "bernoulli"
    write_cache_jsonl(log, tmp_path / "log.jsonl")
    write_cache_csv(log, tmp_path / "log.csv")
    first = read_cache_jsonl(tmp_path / "log.jsonl", bounded)
    second = read_cache_csv(tmp_path / "log.csv", bounded)
    assert first.m == second.m and first.bounded == second.bounded
    for name in CACHE_ARRAYS:
        a, b = getattr(first, name), getattr(second, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert np.array_equal(first.costs, second.costs, equal_nan=True)
    assert np.isnan(second.costs).any() and not np.isnan(second.costs).all()  # hits and misses


def test_solve_llm_cache_reads_csv_like_json_lines(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(9)
    problem = LLMCacheProblem(rng.dirichlet(np.ones(10)), rng.uniform(0.2, 1.0, 10), 2)
    log = sample_log(problem, UniformRandomCaches(10, 2), 300, rng)
    write_cache_jsonl(log, tmp_path / "log.jsonl")
    write_cache_csv(log, tmp_path / "log.csv")
    first, second = solved(capsys, "llm-cache", [tmp_path / "log.jsonl", tmp_path / "log.csv"],
                           "--k", "2", "--delta", "0.1")
    assert first == second


CACHE_HEADER = "query,cost,cache_1,cache_2"
CACHE_BAD = [
    (f"# queries=5\n{CACHE_HEADER}\n4,0.7,3,1\n1,0.2,3,1\n", 4, "cost",
     ["expected an empty cell", "hit", "'0.2'"]),
    (f"# queries=5\n{CACHE_HEADER}\n4,,3,1\n", 3, "cost", ["expected the cost", "miss"]),
    (f"# queries=5\n{CACHE_HEADER}\n4,1.5,3,1\n", 3, "cost", ["[0, 1]", "1.5"]),
    (f"# queries=5\n{CACHE_HEADER}\n4,nan,3,1\n", 3, "cost", ["[0, 1]", "nan"]),
    (f"# queries=5\n{CACHE_HEADER}\n9,0.5,3,1\n", 3, "query", ["unknown query id 9", "0 to 4"]),
    (f"# queries=5\n{CACHE_HEADER}\n,0.5,3,1\n", 3, "query", ["found an empty cell"]),
    (f"# queries=5\n{CACHE_HEADER}\n4,0.5,3,3\n", 3, "cache", ["query 3 more than once"]),
    (f"# queries=5\n{CACHE_HEADER}\n4,0.5,3\n", 3, "row", ["expected 4 cells", "found 3"]),
    (f"# queries=5\n{CACHE_HEADER}\n", None, "data", ["no rounds"]),
    (f"# m=5\n{CACHE_HEADER}\n4,0.5,3,1\n", 1, "queries", ["'# queries=M'"]),
    ("# queries=5\nquery,cache_1\n4,3\n", 2, "cost", ["missing from the header"]),
]


#: (reader, the ``solve`` problem that reads such a file, text, line, column, words)
REFUSED = [(read_csv_dataset, "cascade", *case) for case in BAD] + \
    [(read_cache_csv, "llm-cache", *case) for case in CACHE_BAD]


@pytest.mark.parametrize(("reader", "problem", "text", "line", "column", "words"), REFUSED)
def test_bad_csv_is_refused_naming_line_and_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], reader: Any, problem: str,
        text: str, line: int | None, column: str, words: list[str]) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as raised:
        reader(path)
    assert raised.value.field == column and raised.value.line == line
    for word in words:
        assert word in raised.value.message
    assert run_cli(["solve", problem, "--data", str(path), "--k", "1", "--delta", "0.1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and column in err and "Traceback" not in err
