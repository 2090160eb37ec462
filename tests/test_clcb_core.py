"""CLCB (Algorithm 1) against a naive per-sample reference, and the top-k oracle."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from offcmab.reference.clcb import clcb
from offcmab.reference.confidence import clip_bound
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.oracles import TopK, top_k


@st.composite
def datasets(draw: st.DrawFn) -> OfflineDataset:
    m = draw(st.integers(1, 8))
    n = draw(st.integers(1, 25))
    triggered, outcomes = [], []
    for _ in range(n):
        arms = draw(st.lists(st.integers(0, m - 1), unique=True, max_size=m))
        triggered.append(arms)
        outcomes.append([draw(st.floats(0, 1)) for _ in arms])
    return OfflineDataset.from_records(m, triggered, outcomes)


def naive_clcb(data: OfflineDataset, delta: float, c: float) -> tuple[list, list, list]:
    counts = [0] * data.m
    sums = [0.0] * data.m
    for t in range(data.n):
        lo, hi = data.triggered_offsets[t], data.triggered_offsets[t + 1]
        for i, x in zip(data.triggered[lo:hi], data.outcomes[lo:hi], strict=True):
            counts[i] += 1
            sums[i] += x
    means = [s / c_ if c_ else math.nan for s, c_ in zip(sums, counts, strict=True)]
    lcb = [
        mu - math.sqrt(math.log(c * data.m * data.n / delta) / (2 * c_)) if c_ else -math.inf
        for mu, c_ in zip(means, counts, strict=True)
    ]
    return counts, means, lcb


@given(datasets(), st.floats(1e-6, 0.99), st.sampled_from(["alg1", "cascade"]))
def test_clcb_matches_naive_reference(data: OfflineDataset, delta: float, rule: str) -> None:
    result = clcb(data, TopK(1), delta, radius=rule)  # type: ignore[arg-type]
    counts, means, lcb = naive_clcb(data, delta, 4.0 if rule == "alg1" else 2.0)
    np.testing.assert_array_equal(result.counts, counts)
    np.testing.assert_allclose(result.means, means, rtol=1e-12, atol=1e-12, equal_nan=True)
    np.testing.assert_allclose(result.lcb, lcb, rtol=1e-12, atol=1e-12)


@given(st.lists(st.sampled_from([-math.inf, -1.0, 0.0, 0.25, 0.5, 1.0, math.inf]),
                min_size=1, max_size=7), st.data())
def test_top_k_equals_brute_force_with_ties(weights: list[float], data: st.DataObject) -> None:
    k = data.draw(st.integers(1, len(weights)))
    chosen = top_k(weights, k)
    # brute force: the lexicographically smallest index set with maximal sorted weights
    best = max(
        itertools.combinations(range(len(weights)), k),
        key=lambda s: (sorted((weights[i] for i in s), reverse=True), [-i for i in s]),
    )
    assert sorted(chosen.tolist()) == list(best)
    assert list(np.asarray(weights)[chosen]) == sorted(np.asarray(weights)[chosen], reverse=True)


@pytest.mark.parametrize(
    ("weights", "k", "message"),
    [
        ([0.1, math.nan], 1, "weights: must not contain NaN"),
        ([0.1, 0.2], 3, "k: must not exceed the number of arms m=2, got 3"),
        ([0.1, 0.2], 0, "k: must be at least 1, got 0"),
    ],
)
def test_top_k_bad_input(weights: list[float], k: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        top_k(weights, k)


def test_unobserved_arm_gets_minus_infinity_and_action_stays_feasible() -> None:
    data = OfflineDataset.from_records(3, [[0], [0, 1]], [[1.0], [0.0, 1.0]])
    result = clcb(data, TopK(3), 0.1)
    assert result.counts.tolist() == [2, 1, 0]
    assert math.isnan(result.means[2]) and result.lcb[2] == -math.inf
    assert sorted(result.action.tolist()) == [0, 1, 2]


BOUNDS = np.array([-np.inf, -1.0, -0.0, 0.0, 0.25, 1.0, 2.0, np.inf, np.nan])


def test_clip_bound_clips_each_side_it_is_given_and_keeps_nan_unless_told() -> None:
    lower = clip_bound(BOUNDS, low=0.0)
    upper = clip_bound(BOUNDS, high=1.0)
    both = clip_bound(BOUNDS, 0.0, 1.0)
    assert lower.tolist()[:-1] == [0.0, 0.0, 0.0, 0.0, 0.25, 1.0, 2.0, np.inf]
    assert upper.tolist()[:-1] == [-np.inf, -1.0, -0.0, 0.0, 0.25, 1.0, 1.0, 1.0]
    assert both.tolist()[:-1] == [0.0, 0.0, 0.0, 0.0, 0.25, 1.0, 1.0, 1.0]
    assert np.isnan(lower[-1]) and np.isnan(upper[-1]) and np.isnan(both[-1])
    assert clip_bound(BOUNDS, 0.0, 1.0, undefined=0.0)[-1] == 0.0
    assert clip_bound(BOUNDS).tobytes() == BOUNDS.tobytes()
