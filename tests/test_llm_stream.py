"""CUCB-LLM-S as printed, its corrected variant, and the stream-oracle lemma."""

from __future__ import annotations

import numpy as np
import pytest

from offcmab.reference.cucb_llm_stream import THEORY, StreamingCache, cucb_llm_stream
from offcmab.reference.errors import InputError
from offcmab.reference.problems.llm_cache import LLMCacheProblem, zipf_probabilities

#: Counterexample to apdx_lem:stream_oracle for the printed algorithm (found by search over
#: seeds): m = 3 queries, k = 1, all mean costs 1, p = Dirichlet(1,1,1) draw of seed 529,
#: stream drawn with default_rng(529).  In round 119 query 0 misses; the printed algorithm
#: recomputes every LCB with log(119) > log(118), the cached and the uncached query of
#: {1, 2} swap order, and only q_t = 0 is compared with the cache.
COUNTEREXAMPLE_SEED, COUNTEREXAMPLE_ROUND = 529, 119


def counterexample() -> LLMCacheProblem:
    p = np.random.default_rng(COUNTEREXAMPLE_SEED).dirichlet(np.ones(3))
    return LLMCacheProblem(p, np.ones(3), 1)


def test_printed_algorithm_runs_and_first_rounds_follow_the_pseudo_code() -> None:
    problem = LLMCacheProblem(np.array([0.5, 0.3, 0.2]), np.array([1.0, 1.0, 0.0]), 1)
    run = cucb_llm_stream(problem, 4, np.random.default_rng(0), queries=[1, 1, 0, 0],
                          costs=[1.0, 1.0, 1.0, 1.0])
    # t=1: miss, cache empty -> add q=1 (apdx_line:stream_proc_start); t=2: hit.
    # t=3: q=0 misses; LCBs are max(1 - sqrt(6 log 3 / 1), 0) = 0 for both observed
    # queries, so 0 <= 0 and q=0 replaces q=1 (apdx_line:replace); t=4: hit.
    assert run.hits.tolist() == [False, True, False, True]
    assert run.final_cache.tolist() == [0]
    # Regret of the empty cache in round 1: c(empty) - c(M*) = 0.5.
    assert run.regret[0] == pytest.approx(0.5)
    assert run.regret[1] == pytest.approx(0.5 - 0.3)
    assert np.all(run.equals_reference)


def test_printed_algorithm_violates_the_stream_oracle_lemma() -> None:
    run = cucb_llm_stream(counterexample(), COUNTEREXAMPLE_ROUND,
                          np.random.default_rng(COUNTEREXAMPLE_SEED), "printed")
    assert run.first_violation == COUNTEREXAMPLE_ROUND
    assert run.cache_value_gap[-1] > 1e-5
    assert not run.same_set_as_topk[-1]


def test_fixed_log_variant_keeps_the_lemma_on_the_same_stream() -> None:
    printed = cucb_llm_stream(counterexample(), COUNTEREXAMPLE_ROUND,
                              np.random.default_rng(COUNTEREXAMPLE_SEED), "printed")
    fixed = cucb_llm_stream(counterexample(), COUNTEREXAMPLE_ROUND, np.random.default_rng(0),
                            "fixed-log", queries=printed.queries, costs=printed.costs)
    assert fixed.first_violation is None


@pytest.mark.slow
def test_fixed_log_and_global_topk_never_violate_on_random_instances() -> None:
    for seed in range(40):
        rng = np.random.default_rng(seed)
        problem = LLMCacheProblem(rng.dirichlet(np.ones(4)), rng.uniform(0.5, 1, 4), 2)
        for variant in ("fixed-log", "global-topk"):
            run = cucb_llm_stream(problem, 300, np.random.default_rng(seed), variant,
                                  noise="uniform")
            assert run.first_violation is None, (seed, variant)


def test_regret_accounting_matches_expected_costs() -> None:
    problem = LLMCacheProblem(zipf_probabilities(6, 1.0), np.linspace(0.1, 1, 6), 2)
    run = cucb_llm_stream(problem, 50, np.random.default_rng(3))
    assert np.all(run.regret >= -1e-12)
    assert run.cumulative_regret[-1] == pytest.approx(run.regret.sum())
    assert THEORY == ("thm-llm-online",)


def test_bad_stream_input() -> None:
    problem = LLMCacheProblem(np.array([0.5, 0.5]), np.array([1.0, 1.0]), 1)
    with pytest.raises(InputError, match="variant"):
        cucb_llm_stream(problem, 5, np.random.default_rng(0), "other")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="T: must be a positive integer"):
        cucb_llm_stream(problem, 0, np.random.default_rng(0))
    with pytest.raises(InputError, match="queries"):
        cucb_llm_stream(problem, 2, np.random.default_rng(0), queries=[0, 2], costs=[1, 1])


#: The shortest violating stream found by random search (m = 3, k = 1, every cost 1, so
#: the algorithm is deterministic): apdx_lem:stream_oracle fails in its last round, 116.
#: Far shorter streams cannot fail: an LCB is positive only once N_c > 6 log t.
SHORTEST_STREAM = (
    "10011100110000111001110101020110111102111111010110111101110110111011110010101000"
    "110011011202111111101001120101010102"
)


def test_explicit_shortest_counterexample() -> None:
    queries = np.array([int(x) for x in SHORTEST_STREAM])
    problem = LLMCacheProblem(np.full(3, 1 / 3), np.ones(3), 1)
    rng = np.random.default_rng(0)  # unused: the stream and its costs are given
    printed = cucb_llm_stream(problem, queries.size, rng, queries=queries,
                              costs=np.ones(queries.size))
    assert printed.first_violation == queries.size == 116
    fixed = cucb_llm_stream(problem, queries.size, rng, "fixed-log", queries=queries,
                            costs=np.ones(queries.size))
    assert fixed.first_violation is None


def test_diagnostics_off_keeps_the_caches() -> None:
    problem = LLMCacheProblem(np.array([0.4, 0.3, 0.2, 0.1]), np.array([0.9, 0.2, 0.6, 0.5]), 2)
    on = cucb_llm_stream(problem, 300, np.random.default_rng(4))
    off = cucb_llm_stream(problem, 300, np.random.default_rng(4), diagnostics=False)
    assert on.caches is not None and off.caches is not None
    assert np.array_equal(on.caches, off.caches) and np.array_equal(on.regret, off.regret)
    assert np.isnan(off.cache_value_gap).all() and not off.equals_reference.any()
    assert on.caches.sum(axis=1).max() <= 2
    weights = problem.p * problem.c  # the per-round caches explain the regret
    best = weights[problem.optimal_cache()].sum()
    assert np.allclose(on.regret, best - on.caches @ weights, atol=1e-12)


@pytest.mark.parametrize("variant", ["printed", "fixed-log", "global-topk"])
def test_learner_fed_by_hand_holds_the_runners_caches(variant: str) -> None:
    for seed in range(5):
        rng = np.random.default_rng(seed)
        problem = LLMCacheProblem(rng.dirichlet(np.ones(5)), rng.uniform(0.2, 1, 5), 2)
        run = cucb_llm_stream(problem, 200, rng, variant)  # type: ignore[arg-type]
        learner = StreamingCache(5, 2, variant, T=200)  # type: ignore[arg-type]
        for t, (query, cost) in enumerate(zip(run.queries, run.costs, strict=True)):
            cache = learner.cache()
            assert run.caches is not None and np.array_equal(cache, run.caches[t])
            learner.observe(int(query), None if cache[query] else float(cost))
            assert run.lcbs is not None and np.array_equal(learner.lcb, run.lcbs[t])
        assert np.flatnonzero(learner.cache()).tolist() == run.final_cache.tolist()


def test_learner_takes_a_cost_on_a_miss_only() -> None:
    learner = StreamingCache(3, 1)
    assert learner.scores().tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(InputError, match="cost: must be given on a miss"):
        learner.observe(0, None)
    learner.observe(0, 1.0)
    with pytest.raises(InputError, match="cost: must be given on a miss"):
        learner.observe(0, 1.0)
    with pytest.raises(InputError, match=r"query: ids must lie in \[0, 3\)"):
        learner.observe(3, 1.0)
    with pytest.raises(InputError, match="T: the fixed-log variant needs the horizon T"):
        StreamingCache(3, 1, "fixed-log")
