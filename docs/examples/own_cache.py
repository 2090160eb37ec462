"""Two CLCB-LLM-C variants for ``offcmab validate --algorithm ... --only thm3-llm``.

Call signature ``f(log, k, delta)``: ``log`` is an ``offcmab.reference.problems.llm_cache.CacheLog``
(``queries``: the query of each round; ``costs``: its cost, NaN when the query was a cache
hit and its cost went unobserved).  Return the ``k`` query ids to cache.
"""

import numpy as np


def _statistics(log):
    n = log.queries.size
    frequency = np.bincount(log.queries, minlength=log.m) / n
    seen = ~np.isnan(log.costs)
    cost_counts = np.bincount(log.queries[seen], minlength=log.m)
    cost_sums = np.bincount(log.queries[seen], weights=log.costs[seen], minlength=log.m)
    costs = np.divide(cost_sums, cost_counts, out=np.zeros(log.m), where=cost_counts > 0)
    return n, frequency, cost_counts, costs


def optimistic_cost_cache(log, k, delta):
    """Correct: cache the queries with the largest frequency x cost UCB (clipped to 1)."""
    n, frequency, cost_counts, costs = _statistics(log)
    with np.errstate(divide="ignore"):
        radius = np.sqrt(2 * np.log(4 * log.m * n / delta) / cost_counts)
    cost_ucb = np.minimum(np.where(cost_counts > 0, costs + radius, np.inf), 1.0)
    return np.argsort(-(frequency * cost_ucb), kind="stable")[:k]


def mean_cost_cache(log, k, delta):
    """Broken: use the empirical mean cost (an unobserved cost counts as 0)."""
    _, frequency, _, costs = _statistics(log)
    return np.argsort(-(frequency * costs), kind="stable")[:k]
