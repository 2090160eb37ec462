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

References
----------
``apdx_lem:arm_concen``, ``eq:def_oracle``, the first steps of ``apdx_sec:upper_bound``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp

from offcmab.bounds.events import HoeffdingEvent, N, hoeffding_event, radius_factor
from offcmab.bounds.symbols import delta, m, n
from offcmab.bounds.theorems.cascade import COR1_CASCADE
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
        The problem family (``kpath``, ``cascade``, ``llm-cache``).
    form
        ``reward`` (:math:`\max_S r(S;\bar\mu) - r(\hat S;\underline\mu)`) or ``cost``
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

    def failure_value(self, delta_value: float) -> float:
        """The failure probability at a numeric ``delta`` (capped at 1)."""
        return min(1.0, float(self.failure.subs(delta, delta_value)))

    def radius_constant(self) -> float:
        r"""The constant :math:`c` of :math:`F = c\,m n` (what the reference multiplies in)."""
        return float(sp.simplify(self.radius_factor / (m * n)))


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
CERTIFICATES: Mapping[str, CertificateRecord] = {record.bound_id: record for record in _RECORDS}


def certificate_of(bound_id: str) -> CertificateRecord:
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
