r"""Combinatorial oracles: map a weight vector to a feasible action.

An oracle is any callable ``oracle(weights) -> action`` with an attribute
``alpha``, its approximation ratio: it returns :math:`S` with
:math:`r(S; w) \ge \alpha \max_{S'} r(S'; w)` (paper, eq. ``eq:def_oracle``).
Actions are ``int64`` arrays of arm ids, ordered where order matters.

Weights may contain :math:`-\infty` (the LCB of an arm never observed) and
:math:`+\infty` (its UCB); every oracle still returns a feasible action.  Ties
are broken deterministically, toward smaller arm ids.

References
----------
Paper, Section 2.2, ``eq:def_oracle``; ``sec:app_ranking`` (top-k oracle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from reference.dataset import IntArray
from reference.errors import InputError, check_cardinality


class Oracle(Protocol):
    """An alpha-approximate maximization oracle over a problem's feasible actions."""

    @property
    def alpha(self) -> float:
        """Approximation ratio of the oracle (1 for an exact oracle)."""
        ...

    def __call__(self, weights: npt.NDArray[np.float64]) -> IntArray: ...


def check_weights(weights: npt.ArrayLike, field: str = "weights") -> npt.NDArray[np.float64]:
    """Return ``weights`` as a flat float array, rejecting NaN (infinities are allowed)."""
    array = np.asarray(weights, dtype=np.float64)
    if array.ndim != 1:
        raise InputError(field, f"must be a flat vector, got shape {array.shape}")
    if np.any(np.isnan(array)):
        raise InputError(field, "must not contain NaN")
    return array


def top_k(weights: npt.ArrayLike, k: int) -> IntArray:
    r"""Indices of the ``k`` largest weights, largest first, ties toward smaller ids.

    Runs in :math:`O(m + k \log k)`: ``np.partition`` finds the k-th largest
    value, then only the chosen ``k`` entries are sorted.
    """
    w = check_weights(weights)
    k = check_cardinality(k, w.size)
    kth = np.partition(w, w.size - k)[w.size - k]
    above = np.flatnonzero(w > kth)
    ties = np.flatnonzero(w == kth)[: k - above.size]
    chosen = np.concatenate([above, ties])
    return chosen[np.lexsort((chosen, -w[chosen]))].astype(np.int64)


@dataclass(frozen=True)
class TopK:
    r"""Exact oracle returning the top-``k`` arms (``alpha = 1``).

    Exact for every reward that is monotone and symmetric in the chosen arms'
    weights, such as the cascade reward :math:`1-\prod_{i\in S}(1-w_i)` and the
    cache value :math:`\sum_{q \in \mathcal{M}} w_q`.
    """

    k: int
    alpha: float = 1.0

    def __call__(self, weights: npt.NDArray[np.float64]) -> IntArray:
        return top_k(weights, self.k)
