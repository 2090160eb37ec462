r"""Controls of CUCB-LLM-S (the online regret bound).

The printed algorithm ranks queries by :math:`\hat p_t(q)\,\underline c_t(q)` with
:math:`\underline c_t(q) = \max\{\hat c_t(q) - \sqrt{6\log t/N_{c,t}(q)}, 0\}`.  Each
control runs :func:`offcmab.reference.cucb_llm_stream.cucb_llm_stream` on the given stream with
a different ``radius_scale`` :math:`s`, so that it uses
:math:`\max\{\hat c_t(q) - s\sqrt{6\log t/N_{c,t}(q)}, 0\}`, and returns the reference's
``StreamRun``: the caches held in every round (the subject signature of
:mod:`offcmab.validation.subjects`) and, as ``lcbs``, its own broken LCBs, which the online event
rows inspect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.validation.scenarios.llm_online import stream_run

#: A radius scale that turns every LCB into 0 once t >= 2 (radii exceed 1e-12 for T < 1e23).
HUGE = 1e12

#: What a control returns: the reference's ``StreamRun`` (its ``caches`` and its own ``lcbs``).
Caches = Any


def scaled_stream(queries: IntArray, costs: FloatArray, m: int, k: int,
                  radius_scale: float) -> Caches:
    """The printed CUCB-LLM-S on a fixed stream with its radius times ``radius_scale``."""
    return stream_run(queries, costs, m, k, radius_scale)


def no_pessimism(queries: IntArray, costs: FloatArray, m: int, k: int, delta: float) -> Caches:
    """Streaming radius 0: the scores use the empirical cost instead of its LCB."""
    return scaled_stream(queries, costs, m, k, 0.0)


def optimism(queries: IntArray, costs: FloatArray, m: int, k: int, delta: float) -> Caches:
    """Optimism: the scores use the cost UCB (mean plus radius) instead of the LCB."""
    return scaled_stream(queries, costs, m, k, -1.0)


def radius_tenth(queries: IntArray, costs: FloatArray, m: int, k: int, delta: float) -> Caches:
    """Radius times 0.1: the cost LCB subtracts a tenth of the printed radius."""
    return scaled_stream(queries, costs, m, k, 0.1)


def ignores_data(queries: IntArray, costs: FloatArray, m: int, k: int, delta: float) -> Caches:
    """Ignores its data: a huge radius makes every score 0, so each miss replaces.

    The cache then holds the most recent misses, whatever their costs and frequencies.
    The scale is finite (``HUGE``) because the radius is exactly 0 at ``t = 1``.
    """
    return scaled_stream(queries, costs, m, k, HUGE)


STREAM_CONTROLS: dict[str, Callable[..., Caches]] = {
    "no-pessimism": no_pessimism, "optimism": optimism, "radius-0.1": radius_tenth,
    "ignores-data": ignores_data}
