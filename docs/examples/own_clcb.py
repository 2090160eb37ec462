"""Two CLCB variants for ``offcmab validate --algorithm ... --only thm1-inf`` (or thm1-one).

Call signature ``f(dataset, oracle, delta)``: ``oracle`` maps a vector of per-arm scores to
the action it chooses (an array of arm ids).  Return that action.
"""

import numpy as np


def _statistics(dataset):
    counts = np.bincount(dataset.triggered, minlength=dataset.m)
    sums = np.bincount(dataset.triggered, weights=dataset.outcomes, minlength=dataset.m)
    means = np.divide(sums, counts, out=np.zeros(dataset.m), where=counts > 0)
    return counts, means


def pessimistic(dataset, oracle, delta):
    """Correct: hand the oracle lower confidence bounds (Algorithm 1's radius)."""
    counts, means = _statistics(dataset)
    log_term = np.log(4 * dataset.m * dataset.n / delta)
    with np.errstate(divide="ignore"):
        radius = np.sqrt(log_term / (2 * counts))
    return oracle(np.where(counts > 0, means - radius, -np.inf))


def greedy(dataset, oracle, delta):
    """Broken: hand the oracle the empirical means (no pessimism)."""
    counts, means = _statistics(dataset)
    return oracle(np.where(counts > 0, means, -np.inf))
