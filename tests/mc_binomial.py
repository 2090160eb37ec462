"""Exact binomial acceptance regions for Monte-Carlo checks of probabilities.

A count ``c`` of successes in ``n`` independent trials with success probability
``p`` is rejected when it falls in the two-sided tail of mass at most ``alpha``:
``P(X <= c) < alpha/2`` or ``P(X >= c) < alpha/2`` under ``Binomial(n, p)``.
Under the null hypothesis the false-alarm probability of one check is at most
``alpha`` (exact tails, scipy.stats.binom); a test checking ``J`` quantities at
once has false-alarm probability at most ``J * alpha`` (union bound).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from scipy.stats import binom


def binomial_rejects(
    counts: npt.ArrayLike, n: int, p: npt.ArrayLike, alpha: float
) -> npt.NDArray[np.bool_]:
    """Elementwise: does the count fall in a two-sided tail of mass <= alpha?"""
    c = np.asarray(counts)
    q = np.clip(np.asarray(p, dtype=np.float64), 0.0, 1.0)
    lower = binom.cdf(c, n, q)
    upper = binom.sf(c - 1, n, q)
    return np.asarray(np.minimum(lower, upper) < alpha / 2)
