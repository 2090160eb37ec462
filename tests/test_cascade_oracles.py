"""Every oracle equals brute force on small random instances; ties are deterministic."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from offcmab.reference.errors import InputError
from offcmab.reference.oracles import BruteForceOracle, KPathOracle, TopK
from offcmab.reference.problems.cascade import CascadeProblem, ranked_lists
from offcmab.reference.problems.kpath import KPathProblem

# Few distinct values (ties are common), the infinities an LCB/UCB can hold, and
# values outside [0, 1] (LCBs below 0, UCBs above 1).
WEIGHT = st.sampled_from([-np.inf, -0.5, 0.0, 0.1, 0.3, 0.3001, 0.7, 1.0, 1.4, np.inf])


@given(st.integers(1, 6).flatmap(lambda m: st.tuples(
    st.lists(WEIGHT, min_size=m, max_size=m), st.integers(1, min(m, 3)))))
def test_top_k_equals_brute_force_on_cascade_reward(case: tuple[list[float], int]) -> None:
    weights, k = np.array(case[0]), case[1]
    problem = CascadeProblem(np.full(weights.size, 0.5), k)
    brute = BruteForceOracle(tuple(ranked_lists(problem)), problem.reward)
    fast = TopK(k)(weights)
    assert problem.reward(fast, weights) == pytest.approx(
        problem.reward(brute(weights), weights), abs=1e-12)
    naive = sorted(range(weights.size), key=lambda i: (-weights[i], i))[:k]
    assert fast.tolist() == naive  # ties toward smaller ids, largest weight first


@given(st.integers(1, 4).flatmap(lambda paths: st.tuples(
    st.lists(WEIGHT, min_size=paths * 2, max_size=paths * 2), st.just(2))))
def test_kpath_oracle_equals_brute_force(case: tuple[list[float], int]) -> None:
    weights, k = np.array(case[0]), case[1]
    problem = KPathProblem(np.zeros(weights.size // k), k)
    paths = tuple(tuple(problem.path_arms(j).tolist()) for j in range(problem.paths))
    brute = BruteForceOracle(paths, problem.reward)
    fast = problem.oracle()(weights)
    assert fast.tolist() == brute(weights).tolist()
    values = [problem.reward(np.array(path), weights) for path in paths]
    assert int(fast[0]) // k == values.index(max(values))  # first best path


def test_brute_force_tie_break_does_not_depend_on_enumeration_order() -> None:
    problem = CascadeProblem(np.full(4, 0.5), 2)
    lists = ranked_lists(problem)
    weights = np.array([0.2, 0.9, 0.9, 0.9])
    forward = BruteForceOracle(tuple(lists), problem.reward)(weights)
    backward = BruteForceOracle(tuple(reversed(lists)), problem.reward)(weights)
    assert forward.tolist() == backward.tolist() == [1, 2]


def test_kpath_mixed_infinities_rank_last_and_bad_shapes_rejected() -> None:
    oracle = KPathOracle(4, 2)
    assert oracle(np.array([np.inf, -np.inf, 0.0, 0.0])).tolist() == [2, 3]
    with pytest.raises(InputError, match="k: must divide"):
        KPathOracle(5, 2)
    with pytest.raises(InputError, match="weights: must have length"):
        oracle(np.zeros(6))
    with pytest.raises(InputError, match="weights: must not contain NaN"):
        oracle(np.array([np.nan, 0, 0, 0]))
    with pytest.raises(InputError, match="actions"):
        BruteForceOracle((), lambda a, w: 0.0)
