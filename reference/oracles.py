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

from offcmab.reference.dataset import IntArray
from offcmab.reference.errors import InputError, check_cardinality


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

    def __post_init__(self) -> None:
        if isinstance(self.k, bool) or int(self.k) != self.k or self.k < 1:
            raise InputError("k", f"must be a positive integer, got {self.k!r}")

    def __call__(self, weights: npt.NDArray[np.float64]) -> IntArray:
        return top_k(weights, self.k)


class RewardFunction(Protocol):
    """An expected reward ``r(S; w)`` evaluated on an action and a weight vector."""

    def __call__(self, action: IntArray, weights: npt.NDArray[np.float64]) -> float: ...


@dataclass(frozen=True)
class BruteForceOracle:
    r"""Exact oracle by enumeration of an explicit list of feasible actions (for tests).

    Evaluates ``reward(S, weights)`` for every listed action and returns a
    maximizer.  Ties are broken deterministically: among the maximizers, the
    action whose sorted arm ids are lexicographically smallest, then (for
    ordered actions on the same arms) the lexicographically smallest order.

    Cost: one reward evaluation per feasible action, so only for small instances.
    """

    actions: tuple[tuple[int, ...], ...]
    reward: RewardFunction
    alpha: float = 1.0

    def __post_init__(self) -> None:
        if not self.actions:
            raise InputError("actions", "must list at least one feasible action")

    def __call__(self, weights: npt.NDArray[np.float64]) -> IntArray:
        w = check_weights(weights)
        best: tuple[float, tuple[int, ...], tuple[int, ...]] | None = None
        for action in self.actions:
            value = float(self.reward(np.asarray(action, dtype=np.int64), w))
            key = (-value, tuple(sorted(action)), action)
            if best is None or key < best:
                best = key
        assert best is not None  # actions is non-empty (checked in __post_init__)
        return np.asarray(best[2], dtype=np.int64)


def path_totals(weights: npt.ArrayLike, k: int) -> npt.NDArray[np.float64]:
    r"""Total weight of each of the ``m/k`` paths of a k-path instance.

    Path ``j`` (0-based) holds arms ``j*k, ..., j*k + k - 1``.  Infinite weights
    follow the extended reals; a path holding both :math:`+\infty` and
    :math:`-\infty` has no defined total and counts as :math:`-\infty` (nothing
    certifies it is good).
    """
    w = check_weights(weights)
    k = check_cardinality(k, w.size)
    if w.size % k:
        raise InputError("k", f"must divide the number of arms m={w.size}, got {k}")
    blocks = w.reshape(-1, k)
    mixed = np.asarray(np.isposinf(blocks).any(axis=1) & np.isneginf(blocks).any(axis=1))
    totals = np.where(mixed[:, None], 0.0, blocks).sum(axis=1)
    totals[mixed] = -np.inf
    return totals


@dataclass(frozen=True)
class KPathOracle:
    r"""Exact oracle of the k-path problem: the path of largest total weight (``alpha = 1``).

    The feasible actions are the ``m/k`` disjoint paths of ``k`` consecutive arms
    (``thm:lower_bound``); the reward :math:`\sum_{i \in S} w_i` is linear, so
    the best path maximizes the total weight.  Ties go to the smaller path index.
    """

    m: int
    k: int
    alpha: float = 1.0

    def __post_init__(self) -> None:
        if isinstance(self.m, bool) or int(self.m) != self.m or self.m < 1:
            raise InputError("m", f"must be a positive integer, got {self.m!r}")
        k = check_cardinality(self.k, int(self.m))
        if self.m % k:
            raise InputError("k", f"must divide the number of arms m={self.m}, got {k}")

    def best_path(self, weights: npt.NDArray[np.float64]) -> int:
        """Index of the best path (0-based)."""
        w = check_weights(weights)
        if w.size != self.m:
            raise InputError("weights", f"must have length m={self.m}, got {w.size}")
        return int(np.argmax(path_totals(w, self.k)))

    def __call__(self, weights: npt.NDArray[np.float64]) -> IntArray:
        j = self.best_path(weights)
        return np.arange(j * self.k, (j + 1) * self.k, dtype=np.int64)
