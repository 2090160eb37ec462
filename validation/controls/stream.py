r"""Controls of CUCB-LLM-S (``thm-llm-online``).

The printed algorithm ranks queries by :math:`\hat p_t(q)\,\underline c_t(q)` with
:math:`\underline c_t(q) = \max\{\hat c_t(q) - \sqrt{6\log t/N_{c,t}(q)}, 0\}`.  Each
control passes a different ``radius_scale`` :math:`s` to
:func:`reference.cucb_llm_stream.cucb_llm_stream`, which then uses
:math:`\max\{\hat c_t(q) - s\sqrt{6\log t/N_{c,t}(q)}, 0\}`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from reference.cucb_llm_stream import StreamRun, StreamVariant, cucb_llm_stream
from reference.problems.llm_cache import CostNoise, LLMCacheProblem

#: A radius scale that turns every LCB into 0 once t >= 2 (radii exceed 1e-12 for T < 1e23).
HUGE = 1e12


def no_pessimism(problem: LLMCacheProblem, T: int, rng: np.random.Generator,
                 variant: StreamVariant = "printed",
                 noise: CostNoise = "bernoulli") -> StreamRun:
    """Streaming radius 0: the scores use the empirical cost instead of its LCB."""
    return cucb_llm_stream(problem, T, rng, variant, noise, radius_scale=0.0)


def optimism(problem: LLMCacheProblem, T: int, rng: np.random.Generator,
             variant: StreamVariant = "printed", noise: CostNoise = "bernoulli") -> StreamRun:
    """Optimism: the scores use the cost UCB (mean plus radius) instead of the LCB."""
    return cucb_llm_stream(problem, T, rng, variant, noise, radius_scale=-1.0)


def radius_tenth(problem: LLMCacheProblem, T: int, rng: np.random.Generator,
                 variant: StreamVariant = "printed",
                 noise: CostNoise = "bernoulli") -> StreamRun:
    """Radius times 0.1: the cost LCB subtracts a tenth of the printed radius."""
    return cucb_llm_stream(problem, T, rng, variant, noise, radius_scale=0.1)


def ignores_data(problem: LLMCacheProblem, T: int, rng: np.random.Generator,
                 variant: StreamVariant = "printed",
                 noise: CostNoise = "bernoulli") -> StreamRun:
    """Ignores its data: a huge radius makes every score 0, so each miss replaces.

    The cache then holds the most recent misses, whatever their costs and frequencies.
    The scale is finite (``HUGE``) because the radius is exactly 0 at ``t = 1``.
    """
    return cucb_llm_stream(problem, T, rng, variant, noise, radius_scale=HUGE)


STREAM_CONTROLS: dict[str, Callable[..., StreamRun]] = {
    "no-pessimism": no_pessimism, "optimism": optimism, "radius-0.1": radius_tenth,
    "ignores-data": ignores_data}
