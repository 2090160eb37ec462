r"""Every feasible action of the small instances, as rows of an integer array."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import numpy.typing as npt

#: Brute force enumerates at most this many actions; larger instances use closed forms.
BRUTE_FORCE_LIMIT = 50_000


def small(m: int, k: int) -> bool:
    """Whether the ``k``-subsets of ``m`` ids are few enough to enumerate."""
    return math.comb(m, k) <= BRUTE_FORCE_LIMIT


def subsets(m: int, k: int) -> npt.NDArray[np.int64]:
    """Every ``k``-subset of ``range(m)``, one per row (``ValueError`` when too many)."""
    count = math.comb(m, k)
    if count > BRUTE_FORCE_LIMIT:
        raise ValueError(f"k: {count} subsets of size {k} out of {m} are too many to "
                         f"enumerate (limit {BRUTE_FORCE_LIMIT})")
    flat = np.fromiter((i for subset in combinations(range(m), k) for i in subset),
                       dtype=np.int64, count=count * k)
    return flat.reshape(count, k)


def paths(count: int, k: int) -> npt.NDArray[np.int64]:
    """The arms of each of ``count`` paths of ``k`` consecutive arms, one path per row."""
    return np.arange(count * k, dtype=np.int64).reshape(count, k)
