"""Dataset files: round trips and every bad-input case with its exact message."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offcmab.reference.dataset import OfflineDataset, _first_repeat
from offcmab.reference.dataset_io import read_dataset, write_dataset
from offcmab.reference.errors import InputError


def small_dataset() -> OfflineDataset:
    return OfflineDataset.from_records(
        4, [[2, 0], [1], []], [[0.0, 1.0], [0.5], []], actions=[[2, 0, 3], [1, 3, 0], [0, 1, 2]]
    )


@pytest.mark.parametrize("suffix", [".jsonl", ".npz"])
def test_round_trip(tmp_path: Path, suffix: str) -> None:
    data = small_dataset()
    path = tmp_path / f"log{suffix}"
    write_dataset(data, path)
    back = read_dataset(path)
    assert back.m == data.m and back.n == data.n == 3
    for name in ("triggered_offsets", "triggered", "outcomes", "action_offsets", "actions"):
        np.testing.assert_array_equal(getattr(back, name), getattr(data, name))


def write_lines(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = json.dumps({"triggered": [0, 1], "outcomes": [0, 1]})

BAD_JSONL = [
    ([], "line 1: header: file is empty"),
    (['{"n": 3}', GOOD], 'line 1: m: header must hold a positive integer "m"'),
    (['{"m": 3}', "{oops"], "line 2: json: malformed JSON"),
    (["round,arm,outcome", "0,1,0.5"], "line 1: json: not JSON: it looks like a CSV row"),
    (['{"m": 3}', GOOD, '{"triggered": [0, 1], "outcomes": [1]}'],
     "line 3: outcomes: has 1 entries but triggered has 2"),
    (['{"m": 3}', '{"triggered": [0, 3], "outcomes": [1, 0]}'],
     "line 2: triggered: arm id 3 is outside \\[0, 3\\)"),
    (['{"m": 3}', GOOD, '{"triggered": [-1], "outcomes": [1]}'],
     "line 3: triggered: arm id -1 is outside"),
    (['{"m": 3}', GOOD, '{"triggered": [2], "outcomes": [1.5]}'],
     "line 3: outcomes: must lie in \\[0, 1\\]"),
    (['{"m": 3}', '{"triggered": [2], "outcomes": [NaN]}'],
     "line 2: outcomes: must be finite"),
    (['{"m": 3}', '{"triggered": [2, 2], "outcomes": [1, 1]}'],
     "line 2: triggered: lists an arm more than once"),
    (['{"m": 3}', '{"triggered": [2]}'], "line 2: outcomes: missing or not a list"),
    (['{"m": 3}'], "data: no samples after the header"),
    (['{"m": 3}', '{"action": [0], "triggered": [], "outcomes": []}', GOOD],
     "line 3: action: present in some samples but not in others"),
]


@pytest.mark.parametrize(("lines", "message"), BAD_JSONL)
def test_bad_jsonl(tmp_path: Path, lines: list[str], message: str) -> None:
    with pytest.raises(InputError, match=message):
        read_dataset(write_lines(tmp_path, lines))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="data: file not found"):
        read_dataset(tmp_path / "nope.jsonl")


def test_pickled_npz_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "evil.npz"
    objects = np.array([{"a": 1}], dtype=object)
    np.savez(path, m=np.int64(3), triggered_offsets=np.array([0, 1]), triggered=np.array([0]),
             outcomes=objects)
    with pytest.raises(InputError, match="pickled objects"):
        read_dataset(path)


def test_npz_missing_array(tmp_path: Path) -> None:
    path = tmp_path / "partial.npz"
    np.savez(path, m=np.int64(3), triggered=np.array([0]))
    with pytest.raises(InputError, match="triggered_offsets: array missing"):
        read_dataset(path)


def test_ragged_records() -> None:
    with pytest.raises(InputError, match="outcomes: sample 0 has 1 outcomes for 2"):
        OfflineDataset.from_records(3, [[0, 1]], [[1.0]])


@pytest.mark.parametrize(
    ("lists", "bad_sample"),
    [
        ([[0, 1], [1, 0], [0, 2]], None),  # equal neighbours across a sample boundary: fine
        ([[0, 1, 2], [3, 4, 3]], 1),
        ([[0, 1], [2, 1, 2], [0, 0]], 1),  # the first offending sample is named
        ([[5], [5], [1, 2, 3, 4, 5, 6, 7, 8, 1]], 2),
    ],
)
def test_repeated_arm_named_by_sample(lists: list[list[int]], bad_sample: int | None) -> None:
    outcomes = [[0.0] * len(ids) for ids in lists]
    if bad_sample is None:
        assert OfflineDataset.from_records(9, lists, outcomes).n == len(lists)
        return
    with pytest.raises(InputError, match=f"sample {bad_sample} lists an arm more than once"):
        OfflineDataset.from_records(9, lists, outcomes)


@settings(max_examples=200)
@given(lists=st.lists(st.lists(st.integers(0, 4), max_size=6), min_size=1, max_size=12),
       block=st.integers(1, 9))
def test_first_repeat_in_blocks_matches_a_scan(lists: list[list[int]], block: int) -> None:
    """Blocks of any size find the first entry that repeats its own sample, as a scan does."""
    ids = np.array([arm for arms in lists for arm in arms], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum([len(arms) for arms in lists])]).astype(np.int64)
    expected = next((int(offsets[t]) + j for t, arms in enumerate(lists)
                     for j, arm in enumerate(arms) if arm in arms[:j]), None)
    longest = max(len(arms) for arms in lists)
    assert _first_repeat(ids, offsets, longest, block) == expected
