"""LFU and LEC on a small fixed log, expected caches derived by hand (issue 13, item 3).

The baselines follow Zhu et al. (2023): LFU caches the k queries that arrived most often,
LEC the k largest (arrival frequency) x (mean observed cost), a query with no observed cost
scoring 0.  The log (m = 5 queries, n = 8 rounds; "-" is an empty logged cache):

    t   cache  query  cost
    0   -      4      0.2
    1   -      1      0.9
    2   -      4      0.4
    3   {4}    4      hit (unobserved)
    4   -      2      1.0
    5   -      1      0.7
    6   -      0      0.6
    7   -      4      0.0

By hand:

* arrivals N(q): q0 = 1, q1 = 2, q2 = 1, q3 = 0, q4 = 4 (the hit at t = 3 counts);
* observed costs: q0 {0.6}, q1 {0.9, 0.7}, q2 {1.0}, q3 none, q4 {0.2, 0.4, 0.0} (not the
  hit), so c_hat = 0.6, 0.8, 1.0, (0), 0.2;
* LEC scores N(q)/n * c_hat(q): q0 1/8 * 0.6 = 0.075, q1 2/8 * 0.8 = 0.2,
  q2 1/8 * 1.0 = 0.125, q3 0, q4 4/8 * 0.2 = 0.1.

LFU order: q4 (4), q1 (2), then q0 and q2 tie (1), then q3 (0).  Our tie rule takes the
smaller id, q0; Zhu et al.'s ``sorted(P, key=P.get, reverse=True)`` is stable, so it keeps
the first-seen query, q2 (t = 4, before q0 at t = 6).  With k = 5 we fill the cache with the
unseen q3; their code ranks only queries present in the log and caches 4.
LEC order: q1 (0.2), q2 (0.125), q4 (0.1), q0 (0.075), q3 (0): no tie.
"""

from __future__ import annotations

import numpy as np
import pytest

from offcmab.reference.llm_baselines import lec, lfu
from offcmab.reference.problems.llm_cache import CacheLog


def fixed_log() -> CacheLog:
    offsets = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1])  # round 3 logged the cache {4}
    return CacheLog(5, offsets, np.array([4]), np.array([4, 1, 4, 4, 2, 1, 0, 4]),
                    np.array([0.2, 0.9, 0.4, np.nan, 1.0, 0.7, 0.6, 0.0]))


@pytest.mark.parametrize(("k", "expected"), [(1, [4]), (2, [4, 1]), (3, [4, 1, 0]),
                                         (4, [4, 1, 0, 2]), (5, [4, 1, 0, 2, 3])])
def test_lfu_caches_the_most_frequent_queries(k: int, expected: list[int]) -> None:
    assert lfu(fixed_log(), k).tolist() == expected


@pytest.mark.parametrize(("k", "expected"), [(1, [1]), (2, [1, 2]), (3, [1, 2, 4]),
                                         (4, [1, 2, 4, 0]), (5, [1, 2, 4, 0, 3])])
def test_lec_caches_the_largest_frequency_times_mean_cost(k: int, expected: list[int]) -> None:
    assert lec(fixed_log(), k).tolist() == expected


def test_lfu_and_lec_differ_where_frequency_and_cost_disagree() -> None:
    # q4 is the most frequent but cheap: LFU keeps it first, LEC ranks it third.
    assert sorted(lfu(fixed_log(), 2).tolist()) != sorted(lec(fixed_log(), 2).tolist())
