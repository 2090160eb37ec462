"""CLCB-LLM-C (both variants) and the LFU/LEC baselines against naive per-round references."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_llm_io import cache_logs

from offcmab.reference.clcb_llm import THEORY, THEORY_BY_VARIANT, cache_statistics, clcb_llm
from offcmab.reference.errors import InputError
from offcmab.reference.llm_baselines import lec, lfu
from offcmab.reference.problems.llm_cache import (
    CacheLog,
    EmptyCaches,
    LLMCacheProblem,
    UniformRandomCaches,
    sample_log,
)


def naive(log: CacheLog, k: int, delta: float, variant: str) -> dict[str, list[float]]:
    """Algorithm boxes alg:CLCB-LLM / alg:CLCB-LLM_std, one round at a time, in plain Python."""
    m, n = log.m, log.n
    counts, cost_counts, sums = [0] * m, [0] * m, [0.0] * m
    for t in range(n):
        cache = set(log.caches[log.cache_offsets[t]:log.cache_offsets[t + 1]].tolist())
        q = int(log.queries[t])
        counts[q] += 1
        if q not in cache:
            cost_counts[q] += 1
            sums[q] += float(log.costs[t])
    scores = []
    for q in range(m):
        p_hat = counts[q] / n
        radius = math.sqrt(2 * math.log(4 * m * n / delta) / cost_counts[q]) \
            if cost_counts[q] else math.inf
        c_ucb = min(sums[q] / cost_counts[q] + radius, 1.0) if cost_counts[q] else 1.0
        p_score = p_hat if variant == "improved" else \
            min(p_hat + math.sqrt(2 * math.log(4 * m * n / delta) / n), 1.0)
        scores.append(p_score * c_ucb)
    order = sorted(range(m), key=lambda q: (-scores[q], q))
    return {"counts": counts, "cost_counts": cost_counts, "scores": scores,
            "cache": order[:k]}


@given(cache_logs(), st.sampled_from(["improved", "standard"]), st.data())
def test_clcb_llm_equals_naive_reference(log: CacheLog, variant: str,
                                         data: st.DataObject) -> None:
    k = data.draw(st.integers(1, log.m))
    result = clcb_llm(log, k, 0.1, variant)  # type: ignore[arg-type]
    expected = naive(log, k, 0.1, variant)
    assert result.counts.tolist() == expected["counts"]
    assert result.cost_counts.tolist() == expected["cost_counts"]
    assert result.scores == pytest.approx(expected["scores"], rel=1e-12, abs=1e-15)
    assert sorted(result.cache.tolist()) == sorted(expected["cache"])
    unobserved = result.cost_counts == 0
    assert np.all(np.isnan(result.c_hat[unobserved]))
    assert np.all(np.isinf(result.c_ucb[unobserved]))


@given(cache_logs(), st.data())
def test_baselines_equal_naive_reference(log: CacheLog, data: st.DataObject) -> None:
    k = data.draw(st.integers(1, log.m))
    stats = cache_statistics(log)
    freq_order = sorted(range(log.m), key=lambda q: (-stats.counts[q], q))
    assert sorted(lfu(log, k).tolist()) == sorted(freq_order[:k])
    means = [stats.cost_sums[q] / stats.cost_counts[q] if stats.cost_counts[q] else 0.0
             for q in range(log.m)]
    lec_scores = [stats.counts[q] / log.n * means[q] for q in range(log.m)]
    lec_order = sorted(range(log.m), key=lambda q: (-lec_scores[q], q))
    assert sorted(lec(log, k).tolist()) == sorted(lec_order[:k])


def test_unclipped_printed_scores_rank_unobserved_first() -> None:
    log = CacheLog(3, np.array([0, 1, 1, 1]), np.array([1]), np.array([1, 0, 2]),
                   np.array([np.nan, 0.2, 0.9]))
    result = clcb_llm(log, 1, 0.1, clip=False)
    assert result.scores[1] == np.inf and result.cache.tolist() == [1]
    assert clcb_llm(log, 1, 0.1).cache.tolist() == [0]  # clipped: all scores p_hat * 1


def test_sigma_scales_the_radius() -> None:
    problem = LLMCacheProblem(np.full(4, 0.25), np.array([0.1, 0.2, 0.3, 0.4]), 2)
    log = sample_log(problem, EmptyCaches(4), 400, np.random.default_rng(1), "gaussian")
    narrow = clcb_llm(log, 2, 0.1, sigma=0.01, clip=False)
    wide = clcb_llm(log, 2, 0.1, clip=False)
    assert np.all(wide.c_ucb - wide.c_hat == pytest.approx(100 * (narrow.c_ucb - narrow.c_hat)))


def test_improved_cache_is_optimal_with_plenty_of_data() -> None:
    problem = LLMCacheProblem(np.array([0.4, 0.3, 0.2, 0.1]), np.array([0.1, 1, 1, 1]), 2)
    log = sample_log(problem, UniformRandomCaches(4, 1), 200_000, np.random.default_rng(4))
    assert sorted(clcb_llm(log, 2, 0.05).cache.tolist()) == [1, 2]


def test_theory_ids_and_bad_input() -> None:
    assert set(THEORY) == {"thm3-llm", "lem-llm-std"}
    assert THEORY_BY_VARIANT["improved"] == ("thm3-llm",)
    log = CacheLog(2, np.array([0, 0]), np.array([], dtype=np.int64), np.array([0]),
                   np.array([0.5]))
    with pytest.raises(InputError, match="variant"):
        clcb_llm(log, 1, 0.1, "other")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="delta"):
        clcb_llm(log, 1, 1.0)
    with pytest.raises(InputError, match="k: must not exceed"):
        clcb_llm(log, 3, 0.1)
    with pytest.raises(InputError, match="sigma"):
        clcb_llm(log, 1, 0.1, sigma=0.0)


@given(cache_logs(), st.data())
def test_clipped_clcb_is_lfu_when_every_cost_ucb_reaches_one(log: CacheLog,
                                                             data: st.DataObject) -> None:
    """Why fig3a's CLCB-LLM-C equals LFU: a UCB clipped to 1 leaves only p_hat to rank."""
    k = data.draw(st.integers(1, log.m))
    result = clcb_llm(log, k, 0.1)
    if np.all(result.c_ucb >= 1):
        assert result.cache.tolist() == lfu(log, k).tolist()
