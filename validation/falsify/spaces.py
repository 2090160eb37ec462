r"""Instance spaces of ``offcmab falsify`` where the tightness space spends draws poorly.

A falsification looks for misleading logged data, so its cascade space always logs lists
from a weighted mixture (the cyclic windows of :func:`~offcmab.validation.tightness.spaces.windows`:
every item at every position; equal weights are the plain, uniform case) or from the
scenario's out-of-distribution law.  The tightness space also draws uniformly random
lists, which a mixture of equal weights already stands for, so there a third of the
draws cannot mislead.  Grids and ranges are the tightness space's.
"""

from __future__ import annotations

import numpy as np

from offcmab.validation.scenarios.common import rounded
from offcmab.validation.tightness.spaces import (
    CASCADE_GRID,
    DELTAS,
    MAX_ITEMS,
    Decoded,
    Space,
    windows,
)

#: The logging laws of the falsify cascade space, the simplest (the one shrunk to) first.
LOGGED_CASCADE_LAWS = ("mixture", "ood")


def _probabilities(raw: np.ndarray) -> list[float]:
    """A probability vector from positive weights (rounded; the last entry closes the sum)."""
    weights = rounded(raw / raw.sum(), 12)
    return [*weights[:-1], 1.0 - sum(weights[:-1])]


def logged_cascade_space() -> Space:
    r"""Cascades: 3-10 items, lists of 1-4, means, a window mixture or the ood law."""
    names = ("m", "k", *[f"mu[{j}]" for j in range(MAX_ITEMS)],
             *[f"window_weight[{j}]" for j in range(MAX_ITEMS)], "law", "n_index",
             "delta_index")
    lower = (3, 1, *[0.0] * MAX_ITEMS, *[0.01] * MAX_ITEMS, 0, 0, 0)
    upper = (MAX_ITEMS, 4, *[1.0] * MAX_ITEMS, *[1.0] * MAX_ITEMS,
             len(LOGGED_CASCADE_LAWS) - 1, len(CASCADE_GRID) - 1, len(DELTAS) - 1)
    integral = (True, True, *[False] * (2 * MAX_ITEMS), True, True, True)

    def decode(x: np.ndarray) -> Decoded:
        m, k = int(np.rint(x[0])), int(np.rint(x[1]))
        k = min(k, m - 1)
        mu = rounded(x[2:2 + m])
        raw = np.asarray(x[2 + MAX_ITEMS:2 + MAX_ITEMS + m], dtype=float)
        kind, n_index, delta_index = (int(np.rint(v)) for v in x[2 + 2 * MAX_ITEMS:])
        law = ({"kind": "mixture", "lists": windows(m, k), "weights": _probabilities(raw)}
               if LOGGED_CASCADE_LAWS[kind] == "mixture" else {"kind": "ood"})
        params = {"family": "cascade", "mu": mu, "k": k, "law": law}
        return params, DELTAS[delta_index], CASCADE_GRID[n_index]

    start = (4, 1, 0.9, *[0.1] * (MAX_ITEMS - 1), *[1.0] * MAX_ITEMS, 0, 3, 1)
    return Space(names, lower, upper, integral, decode, start,
                 "cascade (m, k, means, logging law: window mixture or ood)")
