r"""Sentences and scales of confidence radii, from the proofs' events.

The events live in :mod:`offcmab.bounds.events`.

A control or mutant whose radius differs from the printed one is either equivalent (its
radius still covers the proof's event, so the theorem holds for it) or a narrowed radius (a
real mistake that a run may lack the power to show).  Which one is decided by sympy
(:func:`offcmab.bounds.events.covers`), never typed into a label, so a no-power reason or a
mutant's equivalence cannot contradict the registry.
"""

from __future__ import annotations

import math
from functools import cache

import sympy as sp

from offcmab.bounds.events import N, covers, hoeffding_event, radius_factor, radius_text
from offcmab.bounds.symbols import delta, m, n

#: The cost radius the LLM cache algorithms print, :math:`\sqrt{2\log(4mn/\delta)/N}`.
PRINTED_COST_RADIUS = sp.sqrt(2 * sp.log(4 * m * n / delta) / N)


@cache
def event_share_of_printed_cost_radius(bound_id: str, name: str) -> sp.Expr:
    r"""The event's radius over the printed cost radius, a function of :math:`m, n, \delta`."""
    return sp.simplify(hoeffding_event(bound_id, name).radius / PRINTED_COST_RADIUS)


def share_value(bound_id: str, name: str, m_value: int, n_value: int,
                delta_value: float) -> float:
    """:func:`event_share_of_printed_cost_radius` at numbers: the cost scale that turns the
    printed radius into exactly the radius the event needs."""
    share = event_share_of_printed_cost_radius(bound_id, name)
    logs = {sp.log(4 * m * n / delta): math.log(4 * m_value * n_value / delta_value)}
    factor = radius_factor(bound_id, name)
    logs[sp.log(factor / delta)] = math.log(float(factor.subs({m: m_value, n: n_value}))
                                            / delta_value)
    return float(share.subs(logs).subs({m: m_value, n: n_value, delta: delta_value}))


#: The smallest runnable cache instance a no-power reason speaks of (queries, samples, delta).
RUNNABLE = {m: 8, n: 2000, delta: sp.Rational(1, 20)}


@cache
def half_radius_in_deviations() -> sp.Expr:
    r"""Half the printed cost radius in standard deviations of a mean of :math:`N` costs in
    :math:`[0, 1]` (at most :math:`1/(2\sqrt N)`): :math:`\sqrt{2\log(4mn/\delta)}`, free of
    :math:`N`, increasing in :math:`m` and :math:`n`."""
    return sp.simplify(PRINTED_COST_RADIUS / 2 / (1 / (2 * sp.sqrt(N))))


def half_printed_cost_radius_reason(bound_id: str, name: str) -> str:
    """Why half the printed cost radius (the ``radius-0.5`` control) escapes every row."""
    keeps = covers(bound_id, name, PRINTED_COST_RADIUS / 2)
    sigmas = float(half_radius_in_deviations().subs(RUNNABLE))
    verdict = ("at least the radius " if keeps else "below the radius ")
    consequence = ("so the proof's event and the bound hold for this control. "
                   if keeps else
                   "so the proof's event is not kept and the control is a real mistake, "
                   "one that no runnable instance has the power to show: ")
    return (f"half the printed cost radius sqrt(2 log(4mn/delta)/N) is "
            f"sqrt(log(4mn/delta)/(2N)), {verdict}{radius_text(bound_id, name)} that the "
            f"proof's {name} event needs (offcmab.bounds.events), {consequence}"
            f"a cost must fall sqrt(2 log(4mn/delta)) >= {sigmas:.1f} "
            f"standard deviations (m >= {RUNNABLE[m]}, n = {RUNNABLE[n]}, delta = "
            f"{float(RUNNABLE[delta]):g}) below its mean to escape half the printed "
            "radius, so each interval misses with a probability far below delta/(mn) and "
            "the union over a runnable instance's costs does not fail visibly")
