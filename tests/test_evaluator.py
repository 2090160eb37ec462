"""The independent evaluator: its closed forms against its brute force, its spreads by hand.

The closed forms (top-k / bottom-k) serve instances too large to enumerate, so they are
compared with brute force where both run; spreads are compared with values derived by
hand on graphs small enough to reason about.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from offcmab.validation.evaluator import cache, cmab, feasible, spread
from offcmab.validation.evaluator.extremes import tabulated

probability = st.integers(0, 100).map(lambda x: x / 100)


@st.composite
def means_and_k(draw: st.DrawFn) -> tuple[list[float], int]:
    m = draw(st.integers(2, 9))
    return draw(st.lists(probability, min_size=m, max_size=m)), draw(st.integers(1, m))


@given(means_and_k(), st.sampled_from([1.0, 0.5]))
def test_sorted_cascade_matches_brute_force(case: tuple[list[float], int], alpha: float) -> None:
    mu, k = case
    table = feasible.subsets(len(mu), k)
    brute = tabulated(table, cmab.cascade_rewards(mu, table), alpha, "")
    closed = cmab.sorted_cascade(mu, k, alpha)
    assert closed.best == pytest.approx(brute.best, abs=1e-12)
    assert closed.worst == pytest.approx(brute.worst, abs=1e-12)
    assert closed.gap_range() == pytest.approx(((alpha - 1) * brute.best,
                                                alpha * brute.best - brute.worst), abs=1e-12)


@given(means_and_k(), st.data())
def test_cache_closed_form_matches_brute_force(case: tuple[list[float], int],
                                               data: st.DataObject) -> None:
    c, k = case
    p = data.draw(st.lists(st.integers(1, 10), min_size=len(c), max_size=len(c)))
    params = {"p": [w / sum(p) for w in p], "c": c, "k": k}
    table = feasible.subsets(len(c), k)
    costs = cache.costs(params, table)
    weights = np.asarray(params["p"]) * np.asarray(c)
    order = np.argsort(weights, kind="stable")
    ends = np.stack([order[-k:], order[:k]])
    assert cache.costs(params, ends) == pytest.approx([costs.min(), costs.max()], abs=1e-12)


def test_subsets_refuses_too_many() -> None:
    with pytest.raises(ValueError, match=r"k: .* too many"):
        feasible.subsets(100, 5)


def test_spread_of_a_chain_by_hand() -> None:
    """Chain 0 -> 1 -> 2 with probabilities a, b: sigma({0}) = 1 + a + a b."""
    a, b = 0.3, 0.6
    seeds = np.array([[0], [1], [2]])
    values = spread.spreads(3, [0, 1], [1, 2], [a, b], seeds)
    assert values == pytest.approx([1 + a + a * b, 1 + b, 1.0], abs=1e-12)


def test_spread_of_two_paths_into_one_node_by_hand() -> None:
    """0 -> 2 (a) and 1 -> 2 (b), seeds {0, 1}: 2 + P(some edge live) = 2 + 1 - (1-a)(1-b)."""
    a, b = 0.3, 0.6
    values = spread.spreads(3, [0, 1], [2, 2], [a, b], np.array([[0, 1]]))
    assert values == pytest.approx([2 + 1 - (1 - a) * (1 - b)], abs=1e-12)


def test_spread_with_a_cycle_by_hand() -> None:
    """0 <-> 1 (a each way), 1 -> 2 (b): sigma({0}) = 1 + a + a b; sigma({2}) = 1."""
    a, b = 0.5, 0.4
    values = spread.spreads(3, [0, 1, 1], [1, 0, 2], [a, a, b], np.array([[0], [2]]))
    assert values == pytest.approx([1 + a + a * b, 1.0], abs=1e-12)
