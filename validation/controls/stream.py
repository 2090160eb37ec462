r"""Controls of CUCB-LLM-S (the online regret bound): learner factories with a broken radius.

The printed algorithm ranks queries by :math:`\hat p_t(q)\,\underline c_t(q)` with
:math:`\underline c_t(q) = \max\{\hat c_t(q) - \sqrt{6\log t/N_{c,t}(q)}, 0\}`.  Each
control is a factory ``f(m, k, delta)`` (the subject call of
:mod:`offcmab.validation.scenarios.llm_online`) of the reference
:class:`offcmab.reference.cucb_llm_stream.StreamingCache` with a different ``radius_scale``
:math:`s`, so that it uses :math:`\max\{\hat c_t(q) - s\sqrt{6\log t/N_{c,t}(q)}, 0\}`;
its ``lcb`` attribute holds those broken LCBs, which the online event rows inspect.
``no-union-bound`` (:func:`no_union_bound`) uses a radius that does not grow with ``t``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from offcmab.reference.cucb_llm_stream import StreamingCache

#: A radius scale that turns every LCB into 0 once t >= 2 (radii exceed 1e-12 for T < 1e23).
HUGE = 1e12


def scaled_cache(m: int, k: int, radius_scale: float) -> StreamingCache:
    """The printed CUCB-LLM-S learner with its radius times ``radius_scale``."""
    return StreamingCache(m, k, "printed", radius_scale=radius_scale)


def no_pessimism(m: int, k: int, delta: float) -> StreamingCache:
    """Streaming radius 0: the scores use the empirical cost instead of its LCB."""
    return scaled_cache(m, k, 0.0)


def optimism(m: int, k: int, delta: float) -> StreamingCache:
    """Optimism: the scores use the cost UCB (mean plus radius) instead of the LCB."""
    return scaled_cache(m, k, -1.0)


def radius_tenth(m: int, k: int, delta: float) -> StreamingCache:
    """Radius times 0.1: the cost LCB subtracts a tenth of the printed radius."""
    return scaled_cache(m, k, 0.1)


def radius_half(m: int, k: int, delta: float) -> StreamingCache:
    """Radius times 0.5: the cost LCB subtracts half the printed radius."""
    return scaled_cache(m, k, 0.5)


def no_union_bound(m: int, k: int, delta: float) -> StreamingCache:
    r"""No union bound: the cost LCB is a lone Hoeffding interval at the stated delta.

    :math:`\underline c_t(q) = \max\{\hat c_t(q) - \sqrt{\log(2/\delta)/(2N_{c,t}(q))}, 0\}`:
    the regret proof's cost event has the numbers of queries :math:`m` and of rounds
    :math:`T` under the root (its union bound over both, :mod:`offcmab.bounds.events`; the
    printed radius :math:`\sqrt{6\log t/N}` grows with ``t`` to pay for it); here they
    are dropped.
    Built as the ``fixed-log`` learner with :math:`T = 2`, whose radius
    :math:`s\sqrt{6\log 2/N}` equals that interval for
    :math:`s = \sqrt{\log(2/\delta)/(12\log 2)}` (the two variants differ in the log term
    only).
    """
    return StreamingCache(m, k, "fixed-log", T=2,
                          radius_scale=float(np.sqrt(np.log(2.0 / delta) / (12.0 * np.log(2.0)))))


def ignores_data(m: int, k: int, delta: float) -> StreamingCache:
    """Ignores its data: a huge radius makes every score 0, so each miss replaces.

    The cache then holds the most recent misses, whatever their costs and frequencies.
    The scale is finite (``HUGE``) because the radius is exactly 0 at ``t = 1``.
    """
    return scaled_cache(m, k, HUGE)


STREAM_CONTROLS: dict[str, Callable[[int, int, float], StreamingCache]] = {
    "no-pessimism": no_pessimism, "optimism": optimism, "radius-0.1": radius_tenth,
    "radius-0.5": radius_half, "no-union-bound": no_union_bound, "ignores-data": ignores_data}
