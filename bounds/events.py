r"""The events each proof rests on: their radii and their failure probabilities, as sympy.

Every upper bound of the paper is proved on a "good" event: every confidence interval the
algorithm builds covers its mean (:math:`\mathcal E_{\text{arm}}`), every arm is observed
often enough (:math:`\mathcal E_{\text{counter}}`), the empirical query distribution is
close to the true one (:math:`\mathcal E_{\text{arv}}`).  The union of the failures of these
events is the bound's failure probability.  This module holds each event once: its radius
(for a Hoeffding event, the half-width an interval needs), the number of intervals the
union bound runs over, and its failure probability.  Pages, docstrings, mutation labels and
event rows render or compare these values; none restates them.

For a Hoeffding event the failure probability is not typed but derived: an interval of
half-width :math:`r` around the mean of :math:`N` outcomes in :math:`[0, 1]` misses with
probability at most :math:`2e^{-2Nr^2}`, and the union over ``arms`` base arms and
``counts`` possible values of :math:`N` gives

.. math::

    \Pr[\neg\mathcal E] \le \text{arms}\cdot\text{counts}\cdot 2e^{-2Nr^2}.

References
----------
``apdx_lem:arm_concen``, ``apdx_lem:arm_counter_concen``, ``apdx_lem:vec_concen``,
``apdx_lem:aux_IM``; the derivations in :mod:`offcmab.bounds.theorems`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp

from offcmab.bounds.symbols import E, T, delta, m, n, p_star
from offcmab.bounds.theorems.cascade import COR1_CASCADE
from offcmab.bounds.theorems.im import THM4_IM
from offcmab.bounds.theorems.llm import LEM_LLM_STD, THM3_LLM, THM_LLM_ONLINE
from offcmab.bounds.theorems.upper import THM1_INF, THM1_ONE
from offcmab.reference.errors import InputError

#: How often the data shows one base arm (the count :math:`N_i` inside a radius).
N = sp.Symbol("N", positive=True)


@dataclass(frozen=True)
class HoeffdingEvent:
    r"""Every interval :math:`[\hat\mu - r, \hat\mu + r]` covers its mean, at once.

    Attributes
    ----------
    name
        ``arm`` for the base arms' means, ``cost`` for the LLM cache's costs.
    symbol
        The event's LaTeX name, e.g. ``\mathcal E_{\text{arm}}``.
    arms
        The number of base arms the union bound runs over.
    counts
        The number of values the count :math:`N` can take per arm (``n`` offline, ``T``
        online).
    radius
        The half-width each interval needs, in :data:`N` and the bound's symbols.
    paper_ref
        Where the paper states the event.
    """

    name: str
    symbol: str
    arms: sp.Expr
    counts: sp.Expr
    radius: sp.Expr
    paper_ref: str

    @property
    def failure(self) -> sp.Expr:
        r"""The union bound :math:`\text{arms}\cdot\text{counts}\cdot 2e^{-2Nr^2}`, simplified."""
        tail = 2 * sp.exp(-2 * N * self.radius**2)
        return sp.simplify(sp.expand_log(self.arms * self.counts * tail, force=True))


@dataclass(frozen=True)
class StatedEvent:
    r"""An event whose failure probability the proof bounds by another argument.

    Attributes
    ----------
    name
        ``counter`` (every arm observed at least half as often as expected), ``arv`` (the
        empirical query distribution close to the true one), ``arm1``-``arm3``, ``emp1``,
        ``emp2`` (influence maximization's node-level intervals and empirical means).
    symbol
        The event's LaTeX name.
    failure
        Its failure probability under ``condition``.
    condition
        What the failure probability needs (``None``: nothing).
    paper_ref
        Where the paper states the event.
    threshold
        The distance the event bounds, where a row checks it (``None``: not recorded), e.g.
        :math:`\|\hat p - p\|_1 \le \sqrt{2m\log(2/\delta')/n}` at the event's share
        :math:`\delta'` for ``arv``.
    """

    name: str
    symbol: str
    failure: sp.Expr
    condition: sp.Basic | None
    paper_ref: str
    threshold: sp.Expr | None = None


Event = HoeffdingEvent | StatedEvent

_ARM = r"\mathcal E_{\text{arm}}"
_COUNTER = r"\mathcal E_{\text{counter}}"
_ARV = r"\mathcal E_{\text{arv}}"


def _hoeffding_radius(factor: sp.Expr) -> sp.Expr:
    r""":math:`\sqrt{\log(\text{factor}/\delta)/(2N)}`."""
    return sp.sqrt(sp.log(factor / delta) / (2 * N))


def _l1_threshold(share: sp.Expr) -> sp.Expr:
    r""":math:`\sqrt{2m\log(2/\delta')/n}`, the :math:`\ell_1` distance of
    ``apdx_lem:vec_concen`` at failure probability :math:`\delta'` = ``share``."""
    return sp.sqrt(2 * m * sp.log(2 / share) / n)


#: The failure probability :math:`\delta' = \delta/(12nE)` at which Theorem 4's proof runs
#: each interval of ``apdx_lem:aux_IM`` (a two-sided interval misses with probability at
#: most :math:`2\delta'`); the intervals' log term is :math:`L = \log(1/\delta')`.
IM_DELTA_PRIME = delta / (12 * n * E)

#: Theorem 1: the arm event at :math:`\delta/2` over :math:`m` arms and :math:`n` counts,
#: the counter event at :math:`\delta/2`.
_THM1 = (
    HoeffdingEvent("arm", _ARM, m, n, _hoeffding_radius(4 * m * n), "apdx_lem:arm_concen"),
    StatedEvent("counter", _COUNTER, delta / 2,
                sp.GreaterThan(n, 8 * sp.log(2 * m / delta) / p_star),
                "apdx_lem:arm_counter_concen"),
)

#: Theorem 4's interval events: every interval of every edge (the counter and empirical-mean
#: events are the others).
IM_INTERVAL_EVENTS = ("arm1", "arm2", "arm3")


def _im_events(delta_prime: sp.Expr) -> tuple[StatedEvent, ...]:
    r"""The six events of ``apdx_lem:aux_IM`` for every edge, each at :math:`\delta'`.

    The three interval events bound :math:`q_u`, :math:`p(\bar v)` (count :math:`n`) and
    :math:`p(\bar v\mid\bar u)` (a union over the :math:`n` values of :math:`n_{0,\bar u}`)
    from both sides: the radius :math:`\sqrt{6\hat x(1-\hat x)L/N} + 9L/N` is the empirical
    Bernstein interval of Audibert, Munos and Szepesvari (2009, Theorem 1) at
    :math:`x = 3L`, whose two-sided failure :math:`3e^{-3L} = 3\delta'^3` is below the
    lemma's :math:`2\delta'`.  The union runs over the :math:`E` edges.
    """
    return (
        StatedEvent("arm1", r"\mathcal E_{\text{arm},1}", 2 * E * delta_prime, None,
                    "apdx_lem:aux_IM"),
        StatedEvent("arm2", r"\mathcal E_{\text{arm},2}", 2 * E * delta_prime, None,
                    "apdx_lem:aux_IM"),
        StatedEvent("arm3", r"\mathcal E_{\text{arm},3}", 2 * n * E * delta_prime, None,
                    "apdx_lem:aux_IM"),
        StatedEvent("counter", _COUNTER, E * delta_prime, None, "apdx_lem:aux_IM"),
        StatedEvent("emp1", r"\mathcal E_{\text{emp},1}", E * delta_prime, None,
                    "apdx_lem:aux_IM"),
        StatedEvent("emp2", r"\mathcal E_{\text{emp},2}", E * delta_prime, None,
                    "apdx_lem:aux_IM"),
    )


#: The bound id -> the events its proof rests on.
EVENTS: Mapping[str, tuple[Event, ...]] = {
    THM1_INF.id: _THM1,
    THM1_ONE.id: _THM1,
    # CLCB-Cascade's printed radius is the event's: its union bound costs the whole delta,
    # and the counter event under the printed precondition adds delta/(2n)
    COR1_CASCADE.id: (
        HoeffdingEvent("arm", _ARM, m, n, _hoeffding_radius(2 * m * n), "apdx_lem:arm_concen"),
        StatedEvent("counter", _COUNTER, delta / (2 * n),
                    sp.GreaterThan(n, 8 * sp.log(2 * m * n / delta) / p_star),
                    "apdx_lem:arm_counter_concen"),
    ),
    # 2m base arms (a cost and a query per query), the arm event at delta/2
    LEM_LLM_STD.id: (
        HoeffdingEvent("arm", _ARM, 2 * m, n, _hoeffding_radius(8 * m * n),
                       "apdx_lem:arm_concen"),
        StatedEvent("counter", _COUNTER, delta / 2,
                    sp.GreaterThan(n, 8 * sp.log(4 * m / delta) / p_star),
                    "apdx_lem:arm_counter_concen"),
    ),
    # three events at delta/3 each
    THM3_LLM.id: (
        StatedEvent("arv", _ARV, delta / 3, None, "apdx_lem:vec_concen",
                    _l1_threshold(delta / 3)),
        HoeffdingEvent("cost", _ARM, m, n, _hoeffding_radius(6 * m * n),
                       "apdx_lem:arm_concen"),
        StatedEvent("counter", _COUNTER, delta / 3,
                    sp.GreaterThan(n, 8 * sp.log(3 * m / delta) / p_star),
                    "apdx_lem:arm_counter_concen"),
    ),
    # the arv event over T rounds at delta, the cost event over m T pairs at 2 delta/3
    THM_LLM_ONLINE.id: (
        StatedEvent("arv", _ARV, delta, None, "apdx_lem:vec_concen"),
        HoeffdingEvent("cost", _ARM, m, T, _hoeffding_radius(3 * m * T),
                       "apdx_sec:app_LLM_cache_online"),
    ),
    # per edge (2 + 2 + 2n + 1 + 1 + 1) failures at delta' = delta/(12 n E), over E edges
    THM4_IM.id: _im_events(IM_DELTA_PRIME),
}


def events_of(bound_id: str) -> tuple[Event, ...]:
    """The events the proof of ``bound_id`` rests on (``InputError`` for an unknown id)."""
    try:
        return EVENTS[bound_id]
    except KeyError:
        raise InputError("bound id", f"no proof events are recorded for {bound_id!r}; "
                         f"known: {', '.join(EVENTS)}") from None


def event(bound_id: str, name: str) -> Event:
    """The event ``name`` of the proof of ``bound_id``."""
    for candidate in events_of(bound_id):
        if candidate.name == name:
            return candidate
    names = ", ".join(candidate.name for candidate in events_of(bound_id))
    raise InputError("event", f"the proof of {bound_id} has no event {name!r}; it has {names}")


def hoeffding_event(bound_id: str, name: str) -> HoeffdingEvent:
    """The Hoeffding event ``name`` of the proof of ``bound_id`` (its radius is needed)."""
    found = event(bound_id, name)
    if not isinstance(found, HoeffdingEvent):
        raise InputError("event", f"{bound_id}'s event {name!r} has no Hoeffding radius")
    return found


def union_failure(bound_id: str, names: tuple[str, ...]) -> sp.Expr:
    """The union of the failures of the named events of the proof of ``bound_id``."""
    return sp.simplify(sum((event(bound_id, name).failure for name in names), sp.Integer(0)))


def total_failure(bound_id: str) -> sp.Expr:
    """The union of the failures of every event of the proof of ``bound_id``."""
    return sp.simplify(sum((candidate.failure for candidate in events_of(bound_id)),
                           sp.Integer(0)))


def radius_factor(bound_id: str, name: str) -> sp.Expr:
    r"""The constant :math:`c` of a radius :math:`\sqrt{\log(c/\delta)/(2N)}`, e.g. ``4 m n``.

    What a reader compares when two texts disagree on a logarithm's constant; ``ValueError``
    when the event's radius does not have this form.
    """
    radius = hoeffding_event(bound_id, name).radius
    factor = sp.simplify(sp.exp(2 * N * radius**2) * delta)
    if _hoeffding_radius(factor).equals(radius) is not True:
        raise ValueError(f"radius of {bound_id}'s {name} event is not a Hoeffding radius")
    return factor


def log_text(bound_id: str, name: str) -> str:
    """The log term of the event's radius in plain text, e.g. ``log(4*m*n/delta)``."""
    return f"log({sp.sstr(radius_factor(bound_id, name))}/delta)"


def radius_text(bound_id: str, name: str, count: str = "N") -> str:
    """The event's radius in plain text, e.g. ``sqrt(log(4*m*n/delta)/(2 N))``."""
    return f"sqrt({log_text(bound_id, name)}/(2 {count}))"


def covers(bound_id: str, name: str, radius: sp.Expr) -> bool:
    r"""Whether ``radius`` is at least the event's radius for every count :math:`N`, every
    :math:`m, n, T, E \ge 1` and every :math:`\delta \in (0, 1)`.

    Both radii have the form :math:`\sqrt{g/N}` with :math:`g` a linear combination of
    :math:`\log m, \log n, \log T, \log E, \log\delta` and a constant, so the difference of
    :math:`N r^2` is nonnegative on that domain exactly when the coefficients of the counts'
    logarithms are nonnegative, the coefficient of :math:`\log\delta` (negative on the
    domain) is nonpositive, and the constant (the value at :math:`m=n=T=E=1`,
    :math:`\delta\to 1`) is nonnegative.  A radius of another form is not decided: ``False``.

    A confidence radius that covers the event's keeps the proof's event, so an algorithm
    with it keeps the theorem: a mutant with such a radius is equivalent.
    """
    needed = hoeffding_event(bound_id, name).radius
    difference = sp.expand(sp.expand_log(N * (radius**2 - needed**2), force=True))
    counts = (m, n, T, E)
    logs = {symbol: sp.Dummy(f"log_{symbol}") for symbol in (*counts, delta)}
    linear = difference.subs({sp.log(symbol): dummy for symbol, dummy in logs.items()})
    if linear.free_symbols - set(logs.values()):
        return False  # not a linear combination of these logarithms
    poly = sp.Poly(linear, *logs.values())
    if poly.total_degree() > 1:
        return False
    coefficient = {symbol: poly.coeff_monomial(dummy) for symbol, dummy in logs.items()}
    constant = poly.coeff_monomial(1)
    return (all(coefficient[symbol] >= 0 for symbol in counts)
            and coefficient[delta] <= 0 and constant >= 0)
