r"""Hypothesis strategies for the points of a theorem's instance space.

A theorem's :class:`~offcmab.validation.parts.space.Space` is a box of coordinates
(sizes, arm means, logging weights, a logging-law choice, ``n`` and ``delta`` indices)
and a decoder into instance parameters.  Each coordinate becomes one hypothesis
strategy: an integral coordinate an integer range, a real coordinate a multiple of
:data:`STEP` inside its range.

When the space's first coordinate is the number of items (paths, cascade items,
queries) and its per-item coordinates (``mu[j]``, ``path_weight[j]``, ...) come in
arrays of the largest size, the items are drawn as one hypothesis list of tuples (an
item's mean with its logging weight or cost), so the shrinker deletes whole items.
Hypothesis shrinks integers towards the lower end of their range, so a failing instance
shrinks to fewer items, a smaller ``k``, the first logging law (uniform, or an empty
logged cache), equal logging weights (all at their lowest value), means nearer 0 and the
smallest ``n`` and ``delta`` of the grid; the grid keeps every mean a round number.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from offcmab.validation.parts.space import Space

#: Spacing of a real coordinate's values: means and weights are multiples of it.
STEP = 0.05


def coordinate(low: float, high: float, integral: bool) -> st.SearchStrategy[float]:
    """The values of one coordinate (an integer range, or multiples of ``STEP`` in range)."""
    if integral:
        return st.integers(math.ceil(low), math.floor(high)).map(float)
    first, last = math.ceil(low / STEP - 1e-9), math.floor(high / STEP + 1e-9)
    return st.integers(first, last).map(lambda j: round(j * STEP, 10))


def _arrays(space: Space) -> dict[str, list[int]]:
    """The coordinates of each array (``mu[0]``, ``mu[1]``, ...) by base name, in order."""
    arrays: dict[str, list[int]] = {}
    for index, name in enumerate(space.names):
        base, bracket, _ = name.partition("[")
        if bracket:
            arrays.setdefault(base, []).append(index)
    return arrays


def points(space: Space) -> st.SearchStrategy[np.ndarray]:
    """Points of ``space``: its items as one list when it has a size, then the rest."""
    parts = [coordinate(low, high, integral) for low, high, integral
             in zip(space.lower, space.upper, space.integral, strict=True)]
    arrays = _arrays(space)
    largest = int(space.upper[0])
    if not (space.integral[0] and arrays
            and all(len(indices) == largest for indices in arrays.values())):
        return st.tuples(*parts).map(lambda values: np.array(values, dtype=float))
    columns = list(arrays.values())
    in_arrays = {index for indices in columns for index in indices}
    rest = [index for index in range(1, len(parts)) if index not in in_arrays]
    items = st.lists(st.tuples(*[parts[indices[0]] for indices in columns]),
                     min_size=int(space.lower[0]), max_size=largest)

    def assemble(drawn: tuple[list[tuple[float, ...]], tuple[float, ...]]) -> np.ndarray:
        rows, values = drawn
        point = np.array(space.lower, dtype=float)
        point[0] = len(rows)
        for column, indices in enumerate(columns):
            point[indices[:len(rows)]] = [row[column] for row in rows]
        point[rest] = values
        return point

    return st.tuples(items, st.tuples(*[parts[index] for index in rest])).map(assemble)
