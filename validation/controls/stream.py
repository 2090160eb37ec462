r"""Controls of CUCB-LLM-S (``thm-llm-online``).

The printed algorithm ranks queries by :math:`\hat p_t(q)\,\underline c_t(q)` with
:math:`\underline c_t(q) = \max\{\hat c_t(q) - \sqrt{6\log t/N_{c,t}(q)}, 0\}`.  Each
control runs :func:`reference.cucb_llm_stream.cucb_llm_stream` on the given stream with
a different ``radius_scale`` :math:`s`, so that it uses
:math:`\max\{\hat c_t(q) - s\sqrt{6\log t/N_{c,t}(q)}, 0\}`, and returns the cache held
in every round (the subject signature of :mod:`validation.subjects`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from reference.dataset import FloatArray, IntArray

#: A radius scale that turns every LCB into 0 once t >= 2 (radii exceed 1e-12 for T < 1e23).
HUGE = 1e12

Caches = npt.NDArray[np.bool_]


def scaled_stream(queries: IntArray, costs: FloatArray, m: int, k: int,
                  radius_scale: float) -> Caches:
    """The printed CUCB-LLM-S on a fixed stream with its radius times ``radius_scale``.

    The true means enter the reference only through its regret accounting, so a
    placeholder problem stands in for them (as in
    :func:`validation.subjects.printed_stream`).
    """
    from reference.cucb_llm_stream import cucb_llm_stream
    from reference.problems.llm_cache import LLMCacheProblem

    placeholder = LLMCacheProblem(np.full(m, 1.0 / m), np.ones(m), k)
    run = cucb_llm_stream(placeholder, int(np.size(queries)), np.random.default_rng(0),
                          "printed", queries=queries, costs=costs, radius_scale=radius_scale)
    assert run.caches is not None  # always recorded by cucb_llm_stream
    return run.caches


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
