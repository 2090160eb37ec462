"""Two CLCB-Cascade variants for ``offcmab validate --algorithm ... --only cor1-cascade``.

Call signature ``f(dataset, k, delta)``: ``dataset`` is an
``offcmab.reference.dataset.OfflineDataset``
(flat arrays ``triggered`` and ``outcomes``: every observed item and its click), ``k`` the
list length, ``delta`` the failure probability.  Return the ranked list of ``k`` item ids.
"""

import numpy as np


def _statistics(dataset):
    counts = np.bincount(dataset.triggered, minlength=dataset.m)
    sums = np.bincount(dataset.triggered, weights=dataset.outcomes, minlength=dataset.m)
    means = np.divide(sums, counts, out=np.zeros(dataset.m), where=counts > 0)
    return counts, means


def pessimistic_list(dataset, k, delta):
    """Correct: rank items by a lower confidence bound (Hoeffding, log(2mn/delta))."""
    counts, means = _statistics(dataset)
    log_term = np.log(2 * dataset.m * dataset.n / delta)
    with np.errstate(divide="ignore"):
        radius = np.sqrt(log_term / (2 * counts))
    lcb = np.where(counts > 0, means - radius, -np.inf)
    return np.argsort(-lcb, kind="stable")[:k]


def greedy_list(dataset, k, delta):
    """Broken: rank items by their empirical click rate (no pessimism)."""
    counts, means = _statistics(dataset)
    return np.argsort(-np.where(counts > 0, means, -np.inf), kind="stable")[:k]


def most_examined(dataset, k, delta):
    """Broken: rank items by how often the log showed them, ignoring every click."""
    counts = np.bincount(dataset.triggered, minlength=dataset.m)
    return np.argsort(-counts, kind="stable")[:k]
