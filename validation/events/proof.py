r"""The proofs' events as numbers at a row's sizes, from :mod:`offcmab.bounds.events`.

An event row checks an event of a proof at the radius that event needs and promises the
failure probability the proof gives it.  Both come from the registry, evaluated at the
row's :math:`m, n` (or :math:`T`, :math:`E`) and :math:`\delta`; no row types a
logarithm's constant or a share of :math:`\delta`.

For a Hoeffding event the radius is :math:`\sqrt{\log(c/\delta)/(2N)}`
(:func:`offcmab.bounds.events.radius_factor` gives :math:`c`); a row computes
:func:`log_term` once and :func:`radius` at the counts of each trial.  Where a row checks
part of an event's union (the cost half of the standard LLM event, over :math:`m` of its
:math:`2m` arms), :func:`failure` takes the arms the row covers and derives that part's
failure from the same radius.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from functools import cache

import numpy as np
import sympy as sp

from offcmab.bounds.events import (
    IM_DELTA_PRIME,
    HoeffdingEvent,
    event,
    log_text,
    radius_factor,
    radius_text,
)
from offcmab.bounds.symbols import E, T, delta, m, n

#: The sizes a row names, by the registry's symbols.
SYMBOLS: Mapping[str, sp.Symbol] = {"m": m, "n": n, "T": T, "E": E}


def _at(expression: sp.Expr, sizes: Mapping[str, int], delta_value: float) -> float:
    values: dict[sp.Symbol, float] = {SYMBOLS[key]: value for key, value in sizes.items()}
    values[delta] = delta_value
    return float(expression.subs(values))


@cache
def _factor(bound_id: str, name: str) -> sp.Expr:
    return radius_factor(bound_id, name)


@cache
def _failure(bound_id: str, name: str, arms: sp.Expr | None) -> sp.Expr:
    found = event(bound_id, name)
    if arms is not None:
        if not isinstance(found, HoeffdingEvent):
            raise ValueError(f"arms: {bound_id}'s event {name!r} is not a union over arms")
        found = replace(found, arms=arms)
    return found.failure


def log_term(bound_id: str, name: str, sizes: Mapping[str, int], delta_value: float) -> float:
    r""":math:`\log(c/\delta)` of the event's radius :math:`\sqrt{\log(c/\delta)/(2N)}`.

    Computed as :math:`\log c - \log\delta`, finite for every positive ``delta_value``.
    """
    return math.log(_at(_factor(bound_id, name), sizes, 1.0)) - math.log(delta_value)


def radius(log_value: float, counts: np.ndarray) -> np.ndarray:
    r""":math:`\sqrt{L/(2N)}` at each count :math:`N` (positive counts only)."""
    return np.sqrt(log_value / (2.0 * np.asarray(counts, dtype=float)))


def failure(bound_id: str, name: str, sizes: Mapping[str, int], delta_value: float,
            arms: sp.Expr | None = None) -> float:
    """The event's failure probability at these sizes (at most 1); with ``arms``, that of
    the part of its union over ``arms`` base arms."""
    return min(_at(_failure(bound_id, name, arms), sizes, delta_value), 1.0)


def threshold(bound_id: str, name: str, sizes: Mapping[str, int], delta_value: float) -> float:
    """The distance a stated event bounds (its ``threshold``) at these sizes."""
    found = event(bound_id, name)
    if isinstance(found, HoeffdingEvent) or found.threshold is None:
        raise ValueError(f"{bound_id}'s event {name!r} records no threshold")
    return _at(found.threshold, sizes, delta_value)


def threshold_text(bound_id: str, name: str) -> str:
    """The distance a stated event bounds, in plain text."""
    found = event(bound_id, name)
    if isinstance(found, HoeffdingEvent) or found.threshold is None:
        raise ValueError(f"{bound_id}'s event {name!r} records no threshold")
    return sp.sstr(found.threshold)


def im_delta_prime(sizes: Mapping[str, int], delta_value: float) -> float:
    r""":math:`\delta'` at which Theorem 4's proof runs each interval of ``apdx_lem:aux_IM``."""
    return _at(IM_DELTA_PRIME, sizes, delta_value)


def im_log_term(sizes: Mapping[str, int], delta_value: float) -> float:
    r""":math:`L = \log(1/\delta')`, the log term of the node-level intervals."""
    return -math.log(im_delta_prime(sizes, delta_value))


__all__ = ["SYMBOLS", "failure", "im_delta_prime", "im_log_term", "log_term", "log_text",
           "radius", "radius_text", "threshold",
           "threshold_text"]
