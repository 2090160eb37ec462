r"""Data-dependent certificates, derived like the theorems: the steps, the event, its failure.

A certificate bounds the gap of the action an algorithm returned from the log alone.  Its
derivation is the first half of each upper bound's proof, stopped before the coverage
constants enter:

1. **Event.**  On the proof's Hoeffding event :math:`\mathcal E` (taken from
   :mod:`offcmab.bounds.events`, never restated), every mean lies in
   :math:`[\underline\mu_i, \bar\mu_i] = [\hat\mu_i - \rho_i, \hat\mu_i + \rho_i]`.
2. **Range.**  The means lie in [0, 1], so clipping both ends to [0, 1] keeps
   :math:`\underline\mu_i \le \mu_i \le \bar\mu_i`; an arm never observed gets [0, 1].
3. **Monotonicity** (``eq:def_oracle``'s monotone reward).  For every action :math:`S`,
   :math:`r(S; \underline\mu) \le r(S; \mu) \le r(S; \bar\mu)`.
4. **Optimum.**  :math:`\alpha\, r(S^*; \mu) \le \alpha\, r(S^*; \bar\mu) \le
   \alpha \max_S r(S; \bar\mu)`.
5. **Action.**  :math:`r(\hat S; \mu) \ge r(\hat S; \underline\mu)`, whatever chose
   :math:`\hat S`.  Hence on :math:`\mathcal E`

   .. math::

       \alpha\, r(S^*; \mu) - r(\hat S; \mu) \le \alpha \max_S r(S; \bar\mu)
       - r(\hat S; \underline\mu).

   With an :math:`\alpha`-approximate oracle, :math:`r(\text{ORACLE}(\bar\mu); \bar\mu)/\alpha`
   is at least :math:`\max_S r(S; \bar\mu)`, so :math:`\alpha` times it may replace
   :math:`\alpha\max_S r(S;\bar\mu)` only as
   :math:`r(\text{ORACLE}(\bar\mu); \bar\mu)` itself (:math:`\alpha \cdot (\cdot)/\alpha`):
   the substitution keeps the inequality because it replaces the maximum by an upper bound
   on it; :math:`r(\text{ORACLE}(\bar\mu); \bar\mu)` alone, without the division, is below the
   maximum and would not.  The families here have exact maxima (top-k, the best path), so
   :math:`\alpha = 1` and the maximum is computed.
6. **Cost form** (the LLM cache, the gap :math:`c(\hat{\mathcal M}) - c(\mathcal M^*)`):
   the roles of the bounds swap, :math:`c(\hat{\mathcal M}; p, c) \le
   c(\hat{\mathcal M}; \bar p, \bar c)` and :math:`c(\mathcal M^*; p, c) \ge
   \min_{\mathcal M} c(\mathcal M; \underline p, \underline c)` (products of nonnegative
   bounds are monotone in each factor).

The certificate needs nothing else: no counter event (it never divides by a count it was
promised), no coverage constant.  Its failure probability is exactly the event's two-sided
union bound (:attr:`offcmab.bounds.events.HoeffdingEvent.failure`), which for a radius
:math:`\sqrt{\log(F/\delta)/(2N)}` does not depend on :math:`N`.

The numbers are computed by :mod:`offcmab.reference.certificates` (numpy only); validation
compares its failure probability and radius constant with these records.

**Influence maximization** (:class:`SpreadCertificateRecord`, CLCB-IM-N).  The reward is
the spread :math:`\sigma(S; p)`, increasing in every edge probability (a live-edge
coupling), and the edge probability is a function of three node-level quantities,
:math:`p_{uv} = \frac{1}{q_u}\bigl(1 - p(\bar v)/p(\bar v\mid\bar u)\bigr)`
(``eq:puv``).  On the three interval events of ``apdx_lem:aux_IM`` (each interval covers
from both sides), the edge UCB
:math:`\bar p_{uv} = \min\{1, \frac{1}{\underline q_u}(1 - \underline p(\bar v)/
\bar p(\bar v\mid\bar u))\}` is at least :math:`p_{uv}` and CLCB-IM-N's own LCB at most it,
because the formula decreases in :math:`q_u` (its numerator :math:`q_up_{uv}` is
nonnegative), decreases in :math:`p(\bar v)` and increases in :math:`p(\bar v\mid\bar u)`
(:func:`edge_formula_monotone` checks the signs of the derivatives).  Then steps 3-5 hold
with spreads:

* on a small graph (exact spreads, the maximum over every seed set of size :math:`k`),
  :math:`\sigma(S^*) - \sigma(\hat S) \le \max_S\sigma(S;\bar p) -
  \sigma(\hat S;\underline p)`, which also bounds :math:`\alpha\sigma(S^*) -
  \sigma(\hat S)` for every :math:`\alpha \le 1`; its failure is the three interval
  events' (no counter event, no empirical-mean event);
* on a large graph the maximum is replaced by :math:`\sigma(O(\bar p); \bar p)`, the
  spread of an :math:`\alpha`-approximate oracle's answer on the UCB graph.  This keeps
  the inequality only for the :math:`\alpha`-gap
  (:math:`\alpha\max_S\sigma(S;\bar p) \le \sigma(O(\bar p);\bar p)` when the oracle
  keeps its promise), and both spreads are Monte-Carlo means of :math:`R` cascades whose
  sizes lie in :math:`[k, V]`: the upper one is raised and the lower one lowered by
  Hoeffding's :math:`(V-k)\sqrt{\log(1/\delta_s)/(2R)}`.  The failure adds the oracle's
  :math:`\delta_O` and :math:`2\delta_s` (:attr:`SpreadCertificateRecord.estimated_failure`).

References
----------
``apdx_lem:arm_concen``, ``eq:def_oracle``, the first steps of ``apdx_sec:upper_bound``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp

from offcmab.bounds.events import (
    IM_INTERVAL_EVENTS,
    HoeffdingEvent,
    N,
    StatedEvent,
    event,
    hoeffding_event,
    radius_factor,
)
from offcmab.bounds.symbols import V, delta, k, m, n
from offcmab.bounds.theorems.cascade import COR1_CASCADE
from offcmab.bounds.theorems.im import THM4_IM
from offcmab.bounds.theorems.llm import LEM_LLM_STD, THM3_LLM
from offcmab.bounds.theorems.upper import THM1_INF, THM1_ONE
from offcmab.reference.errors import InputError

#: The steps every certificate takes (rendered on the docs pages).
STEPS = (
    "on the event, every mean lies in its interval, clipped to [0, 1]",
    "a reward monotone in the means: r(S; LCB) <= r(S; mu) <= r(S; UCB) for every S",
    "alpha r(S*; mu) <= alpha max_S r(S; UCB) (alpha = 1: top-k and best path are exact)",
    "r(S_hat; mu) >= r(S_hat; LCB), whatever chose S_hat",
    "gap <= max_S r(S; UCB) - r(S_hat; LCB); a cost swaps the roles of LCB and UCB",
)


@dataclass(frozen=True)
class CertificateRecord:
    r"""The certificate of one bound id's algorithm.

    Attributes
    ----------
    bound_id
        The bound id whose algorithm returns the certified action.
    family
        The problem family (``kpath``, ``cascade``, ``llm-cache``, ``im-edge``).
    form
        ``reward`` (:math:`\max_S r(S;\bar\mu) - r(\hat S;\underline\mu)`), ``spread``
        (the same with spreads, :class:`SpreadCertificateRecord`'s two forms) or ``cost``
        (:math:`c(\hat{\mathcal M};\bar p,\bar c) - \min_{\mathcal M}
        c(\mathcal M;\underline p,\underline c)`).
    event_of
        The bound id whose proof records the Hoeffding event the certificate rests on.
    event_name
        That event's name in :mod:`offcmab.bounds.events`.
    """

    bound_id: str
    family: str
    form: str
    event_of: str
    event_name: str = "arm"

    @property
    def event(self) -> HoeffdingEvent:
        """The Hoeffding event, from :mod:`offcmab.bounds.events`."""
        return hoeffding_event(self.event_of, self.event_name)

    @property
    def failure(self) -> sp.Expr:
        r"""The event's failure probability (free of :math:`N`)."""
        value = sp.simplify(self.event.failure)
        if N in value.free_symbols:
            raise ValueError(f"the {self.event_name} event of {self.event_of} has a failure "
                             "that depends on the count")
        return value

    @property
    def radius_factor(self) -> sp.Expr:
        r"""The :math:`F` of the radius :math:`\sqrt{\log(F/\delta)/(2N)}` (e.g. ``4 m n``)."""
        return radius_factor(self.event_of, self.event_name)

    def failure_value(self, delta_value: float, n_value: int | None = None) -> float:
        """The failure probability at a numeric ``delta`` (capped at 1; free of ``n``)."""
        return min(1.0, float(self.failure.subs(delta, delta_value)))

    def radius_constant(self) -> float:
        r"""The constant :math:`c` of :math:`F = c\,m n` (what the reference multiplies in)."""
        return float(sp.simplify(self.radius_factor / (m * n)))


#: Cascades per Monte-Carlo spread estimate, and the one-sided failure of each estimate.
R, delta_s = sp.symbols("R delta_s", positive=True)
#: The failure probability of the approximate oracle's promise on the UCB graph.
delta_O = sp.Symbol("delta_O", positive=True)


@dataclass(frozen=True)
class SpreadCertificateRecord:
    r"""The certificate of CLCB-IM-N: spreads on the UCB and LCB graphs of its node intervals.

    Attributes
    ----------
    bound_id
        The bound id whose algorithm returns the certified seed set (``thm4-im``).
    event_names
        The events of :mod:`offcmab.bounds.events` (of ``bound_id``'s proof) the
        certificate needs: the three interval events, not the counter or empirical-mean
        events.
    """

    bound_id: str
    event_names: tuple[str, ...] = IM_INTERVAL_EVENTS
    family: str = "im-node"
    form: str = "spread"

    @property
    def event_of(self) -> str:
        """The bound id whose proof records the events."""
        return self.bound_id

    @property
    def event_name(self) -> str:
        """The events' names, joined."""
        return " + ".join(self.event_names)

    @property
    def events(self) -> tuple[StatedEvent, ...]:
        """The events, from :mod:`offcmab.bounds.events`."""
        found = []
        for name in self.event_names:
            one = event(self.bound_id, name)
            if not isinstance(one, StatedEvent):
                raise ValueError(f"{self.bound_id}'s event {name} is not a stated event")
            found.append(one)
        return tuple(found)

    @property
    def failure(self) -> sp.Expr:
        r"""The union of the interval events' failures (exact spreads):
        :math:`(n+2)\delta/(6n)` for CLCB-IM-N's :math:`\delta' = \delta/(12nE)`."""
        return sp.simplify(sum((one.failure for one in self.events), sp.Integer(0)))

    @property
    def estimated_failure(self) -> sp.Expr:
        r"""The failure with estimated spreads: the events', the oracle's, two estimates'."""
        return self.failure + delta_O + 2 * delta_s

    @property
    def spread_error(self) -> sp.Expr:
        r"""Hoeffding's one-sided margin of a mean of :math:`R` cascade sizes in
        :math:`[k, V]`: :math:`(V-k)\sqrt{\log(1/\delta_s)/(2R)}`."""
        return (V - k) * sp.sqrt(sp.log(1 / delta_s) / (2 * R))

    def failure_value(self, delta_value: float, n_value: int | None = None) -> float:
        """The exact-spread failure at numeric ``delta`` and ``n`` (capped at 1)."""
        if n_value is None:
            raise ValueError(f"n: the certificate of {self.bound_id} needs the log size")
        return min(1.0, float(self.failure.subs({delta: delta_value, n: n_value})))


def edge_formula_monotone() -> bool:
    r"""``eq:puv``'s :math:`f(q, a, b) = (1 - a/b)/q` decreases in :math:`q` where
    :math:`a \le b`, decreases in :math:`a` and increases in :math:`b` (for
    :math:`q, a, b > 0`): the signs of its derivatives, with :math:`a = b(1 - t)`,
    :math:`t \in [0, 1]` the numerator.
    """
    q, b = sp.symbols("q b", positive=True)
    t = sp.Symbol("t", nonnegative=True)
    a = sp.Symbol("a", positive=True)
    f = (1 - a / b) / q
    on_event = {a: b * (1 - t)}
    d_q = sp.simplify(sp.diff(f, q).subs(on_event))
    d_a = sp.simplify(sp.diff(f, a))
    d_b = sp.simplify(sp.diff(f, b))
    return bool((-d_q).is_nonnegative and (-d_a).is_positive and d_b.is_positive)


#: CLCB-IM-N's certificate (Theorem 4's algorithm).
IM_NODE_CERTIFICATE = SpreadCertificateRecord(THM4_IM.id)

#: CLCB on edge-level IM feedback (each edge a base arm, Theorem 1 in the 1-norm): CLCB's
#: Hoeffding arm event with the spread form of the steps above (exact or estimated as for
#: CLCB-IM-N).  Not in :data:`CERTIFICATES`, whose ``thm1-one`` entry is the k-path one.
IM_EDGE_CERTIFICATE = CertificateRecord(THM1_ONE.id, "im-edge", "spread", THM1_ONE.id)

#: Bound id -> its certificate.  Theorem 1's algorithm (CLCB, Algorithm 1's radius) on the
#: k-path problem; CLCB-Cascade at the cascade radius; both cache variants on the standard
#: analysis's arm event over frequencies and costs (the improved analysis's cost event covers
#: no frequency, and its l1 arrival event is wider than per-query intervals).
_RECORDS = (
    CertificateRecord(THM1_INF.id, "kpath", "reward", THM1_INF.id),
    CertificateRecord(THM1_ONE.id, "kpath", "reward", THM1_ONE.id),
    CertificateRecord(COR1_CASCADE.id, "cascade", "reward", COR1_CASCADE.id),
    CertificateRecord(LEM_LLM_STD.id, "llm-cache", "cost", LEM_LLM_STD.id),
    CertificateRecord(THM3_LLM.id, "llm-cache", "cost", LEM_LLM_STD.id),
)
CERTIFICATES: Mapping[str, CertificateRecord | SpreadCertificateRecord] = {
    record.bound_id: record for record in (*_RECORDS, IM_NODE_CERTIFICATE)}


def certificate_of(bound_id: str) -> CertificateRecord | SpreadCertificateRecord:
    """The certificate record of ``bound_id`` (``InputError`` for an id without one)."""
    try:
        return CERTIFICATES[bound_id]
    except KeyError:
        raise InputError("bound id", f"no certificate is derived for {bound_id!r}; known: "
                         f"{', '.join(CERTIFICATES)}") from None


def monotone_step_holds() -> bool:
    r"""Step 5 in sympy for one arm of each form: the certificate minus the gap is a sum of
    nonnegative terms on the event (linear reward; cost :math:`p c` with
    :math:`0 \le \underline p \le p \le \bar p`, :math:`0 \le \underline c \le c \le \bar c`).
    """
    mu_s, mu_h, u_s, l_h = sp.symbols("mu_s mu_h u_s l_h", real=True)
    reward_slack = (u_s - l_h) - (mu_s - mu_h)
    linear = sp.expand(reward_slack - ((u_s - mu_s) + (mu_h - l_h))) == 0
    p, c, pl, pu, cl, cu = sp.symbols("p c pl pu cl cu", nonnegative=True)
    upper_gap = sp.expand(pu * cu - p * c - ((pu - p) * cu + p * (cu - c)))
    lower_gap = sp.expand(p * c - pl * cl - ((p - pl) * c + pl * (c - cl)))
    return bool(linear and upper_gap == 0 and lower_gap == 0)
