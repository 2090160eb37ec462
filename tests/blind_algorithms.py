"""Algorithms that ignore their data, for the tests of the rate rows (loadable as ``file:``).

:func:`cascade_blind` solves influence maximization on the graph with every edge
probability 0.5, whatever the cascades say: its gap does not shrink with ``n``.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def cascade_blind(graph: Any, cascades: Any, oracle: Any, delta: float) -> Any:
    """The oracle's seeds for edge probabilities all 0.5; the cascades are never read."""
    return oracle(np.full(graph.edges, 0.5))
