"""User algorithms built on a broken oracle, for ``offcmab validate --algorithm`` in tests.

:func:`first_k_im` is CLCB-IM-N whose oracle returns the seeds ``0..k-1`` whatever the
edge LCBs (it exposes every statistic, so the event rows apply to it).
"""

from __future__ import annotations

from typing import Any

from offcmab.reference.im.clcb_im_node import clcb_im_node
from offcmab.validation.controls.oracles import BrokenOracle


def first_k_im(graph: Any, cascades: Any, oracle: Any, delta: float) -> Any:
    """CLCB-IM-N with a first-k oracle."""
    return clcb_im_node(graph, cascades, BrokenOracle(oracle, "first"), delta)
