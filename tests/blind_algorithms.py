"""Algorithms that ignore their data, for the tests of the rate rows (loadable as ``file:``).

:func:`cascade_blind` solves influence maximization on the graph with every edge
probability 0.5, whatever the cascades say: its gap does not shrink with ``n``.
:func:`smallest_ids` returns the ``k`` smallest node ids: right only where the id order
happens to mark the best seeds.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def cascade_blind(graph: Any, cascades: Any, oracle: Any, delta: float) -> Any:
    """The oracle's seeds for edge probabilities all 0.5; the cascades are never read."""
    return oracle(np.full(graph.edges, 0.5))


def smallest_ids(graph: Any, cascades: Any, oracle: Any, delta: float) -> Any:
    """The ``k`` smallest node ids, whatever the cascades (``k``: the oracle's output size)."""
    k = np.asarray(oracle(np.zeros(graph.edges))).size
    return np.arange(k, dtype=np.int64)
