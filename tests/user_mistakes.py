"""Broken offline algorithms, written the way a user might write them.

Each function reads a plausible but wrong statistic off the data and has the call
``offcmab validate --algorithm`` expects for some bound ids (``--signatures``).  None
of them is pessimistic, and each stands for one class of mistakes that the misleading
traps of :mod:`offcmab.validation.scenarios.traps` are built to catch:

* copying the logger: :func:`behaviour_cloning`, :func:`most_shown`,
  :func:`copy_logged_cache`;
* counts instead of means: :func:`total_reward`, :func:`total_clicks`,
  :func:`total_cost_cache`;
* frequency-only caching: :func:`lfu_cache`;
* cost-only caching: :func:`cost_only_cache`;
* outcome-blind ranking in cascades: :func:`most_examined`;
* ignoring the data: :func:`guessed_edges` (influence maximization with every edge
  probability guessed at 0.5) and :func:`never_cache` (an online cache left empty).

Everything is array operations on the flat dataset layouts, as a user's code would be.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _top(scores: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` ids with the largest scores, best first (ties to the smaller id)."""
    return np.argsort(-scores, kind="stable")[:k].astype(np.int64)


# --- f(dataset, oracle, delta): CMAB-T ----------------------------------------------------

def behaviour_cloning(dataset: Any, oracle: Any, delta: float) -> Any:
    """Play the action the logger played most often.

    When the log has no actions, or they differ in length (so no row is "the" action),
    hand the oracle how often each arm was triggered: the arms the logger used most.
    """
    offsets = dataset.action_offsets
    if dataset.actions is not None and np.unique(np.diff(offsets)).size == 1:
        rows = dataset.actions.reshape(dataset.n, -1)
        played, counts = np.unique(rows, axis=0, return_counts=True)
        return played[int(np.argmax(counts))]
    return oracle(np.bincount(dataset.triggered, minlength=dataset.m).astype(float))


def total_reward(dataset: Any, oracle: Any, delta: float) -> Any:
    """Hand the oracle each arm's total outcome instead of its mean outcome."""
    totals = np.bincount(dataset.triggered, weights=dataset.outcomes, minlength=dataset.m)
    return oracle(totals)


# --- f(dataset, k, delta): cascades -------------------------------------------------------

def most_shown(dataset: Any, k: int, delta: float) -> np.ndarray:
    """Show the ``k`` items the logger showed most often (most shown first)."""
    return _top(np.bincount(dataset.actions, minlength=dataset.m).astype(float), k)


def total_clicks(dataset: Any, k: int, delta: float) -> np.ndarray:
    """Show the ``k`` items with the most clicks in the log, not the best click rates."""
    return _top(np.bincount(dataset.triggered, weights=dataset.outcomes,
                            minlength=dataset.m), k)


def most_examined(dataset: Any, k: int, delta: float) -> np.ndarray:
    """Show the ``k`` items users examined most often, whether they clicked or not."""
    return _top(np.bincount(dataset.triggered, minlength=dataset.m).astype(float), k)


# --- f(log, k, delta): offline LLM caching ------------------------------------------------

def lfu_cache(log: Any, k: int, delta: float) -> np.ndarray:
    """Least-frequently-used eviction, offline: cache the ``k`` most requested queries."""
    return _top(np.bincount(log.queries, minlength=log.m).astype(float), k)


def cost_only_cache(log: Any, k: int, delta: float) -> np.ndarray:
    """Cache the ``k`` queries with the largest mean observed cost (never observed: 0)."""
    observed = ~np.isnan(log.costs)
    seen = np.bincount(log.queries[observed], minlength=log.m)
    sums = np.bincount(log.queries[observed], weights=log.costs[observed], minlength=log.m)
    return _top(np.divide(sums, seen, out=np.zeros(log.m), where=seen > 0), k)


def total_cost_cache(log: Any, k: int, delta: float) -> np.ndarray:
    """Cache the ``k`` queries whose observed costs add up to the most."""
    observed = ~np.isnan(log.costs)
    return _top(np.bincount(log.queries[observed], weights=log.costs[observed],
                            minlength=log.m), k)


def copy_logged_cache(log: Any, k: int, delta: float) -> np.ndarray:
    """Cache the ``k`` queries the logged caches held most often.

    Queries never cached by the logger follow in order of arrival counts, so the
    cache is full even when the logged caches were small or empty.
    """
    held = np.bincount(log.caches, minlength=log.m).astype(float)
    arrivals = np.bincount(log.queries, minlength=log.m)
    return _top(held + arrivals / (arrivals.sum() + 1.0), k)


# --- f(graph, cascades, oracle, delta): influence maximization ------------------------------

def guessed_edges(graph: Any, cascades: Any, oracle: Any, delta: float) -> Any:
    """Seed for a graph whose every edge is guessed to fire with probability 1/2."""
    return oracle(np.full(graph.edges, 0.5))


# --- f(m, k, delta) -> learner: the online cache ------------------------------------------

class _EmptyCache:
    """A learner that never fills its cache (so it never learns anything)."""

    def cache(self) -> np.ndarray:
        return np.zeros(0, dtype=np.int64)

    def observe(self, query: int, cost: float | None) -> None:
        """Ignore the feedback."""


def never_cache(m: int, k: int, delta: float) -> _EmptyCache:
    """The learner that keeps its cache empty: every query misses."""
    return _EmptyCache()
