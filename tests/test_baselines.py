"""CLCB-Cascade, CUCB-Offline and EMP against a naive per-sample reference."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_clcb_core import datasets, naive_clcb

from offcmab.reference import clcb_cascade as clcb_cascade_module
from offcmab.reference.baselines import BaselineResult, cucb_offline, emp
from offcmab.reference.clcb import CLCBResult, clcb
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.errors import InputError
from offcmab.reference.oracles import KPathOracle, TopK


def naive_top(index: list[float], k: int) -> list[int]:
    return sorted(range(len(index)), key=lambda i: (-index[i], i))[:k]


@given(datasets(), st.sampled_from(["alg1", "cascade"]))
def test_baselines_equal_naive_reference(data: OfflineDataset, radius: str) -> None:
    delta, k = 0.1, min(2, data.m)
    counts, mean_list, lcb = naive_clcb(data, delta, 4.0 if radius == "alg1" else 2.0)
    means = [mu if c else -math.inf for mu, c in zip(mean_list, counts, strict=True)]
    ucb = [2 * mu - low if c else math.inf
           for mu, low, c in zip(mean_list, lcb, counts, strict=True)]
    cucb = cucb_offline(data, TopK(k), delta, radius)  # type: ignore[arg-type]
    assert isinstance(cucb, BaselineResult) and isinstance(cucb, CLCBResult)
    np.testing.assert_allclose(cucb.index, ucb)
    np.testing.assert_allclose(cucb.lcb, lcb)
    assert cucb.action.tolist() == naive_top(ucb, k)
    greedy = emp(data, TopK(k))
    np.testing.assert_allclose(greedy.index, means)
    assert greedy.action.tolist() == naive_top(means, k)
    assert greedy.counts.tolist() == counts
    ours = clcb_cascade(data, k, delta, radius)  # type: ignore[arg-type]
    assert ours.action.tolist() == naive_top(lcb, k)


def test_clcb_cascade_is_clcb_with_top_k_and_cascade_radius() -> None:
    data = OfflineDataset.from_records(4, [[0, 1], [1, 2], [3]], [[0.0, 1.0], [1.0, 0.0], [1.0]])
    ours = clcb_cascade(data, 2, 0.05)
    reference = clcb(data, TopK(2), 0.05, "cascade")
    assert ours.action.tolist() == reference.action.tolist()
    np.testing.assert_array_equal(ours.lcb, reference.lcb)
    assert ours.lcb[0] == pytest.approx(0.0 - math.sqrt(math.log(2 * 4 * 3 / 0.05) / 2))
    assert clcb_cascade_module.THEORY == ("cor1-cascade", "thm1-one", "thm1-inf")
    with pytest.raises(InputError, match="k: must not exceed"):
        clcb_cascade(data, 5, 0.05)
    with pytest.raises(InputError, match="delta"):
        clcb_cascade(data, 2, 1.0)


def test_unobserved_arms_conventions() -> None:
    data = OfflineDataset.from_records(4, [[0, 1]], [[0.0, 1.0]])
    assert cucb_offline(data, TopK(2), 0.1).action.tolist() == [2, 3]  # optimism: +inf first
    assert emp(data, TopK(3)).action.tolist() == [1, 0, 2]  # unobserved ranked last
    assert emp(data, TopK(2), unobserved=np.inf).action.tolist() == [2, 3]
    path = cucb_offline(data, KPathOracle(4, 2), 0.1)
    assert path.action.tolist() == [2, 3]  # generic over oracles
