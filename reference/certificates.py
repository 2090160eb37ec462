r"""Data-dependent certificates: how far from optimal an action can be, computed from the log.

A theorem's bound needs constants of the unknown optimum (its coverage); a certificate needs
only the data.  On the event that every mean lies in its confidence interval
:math:`[\underline\mu_i, \bar\mu_i]`, a reward monotone in the means gives, for any action
:math:`\hat S` (whichever algorithm chose it) and an exact oracle,

.. math::

    r(S^*; \mu) - r(\hat S; \mu) \le \max_S r(S; \bar\mu) - r(\hat S; \underline\mu),

because :math:`r(S^*; \mu) \le r(S^*; \bar\mu) \le \max_S r(S; \bar\mu)` and
:math:`r(\hat S; \mu) \ge r(\hat S; \underline\mu)`.  For a cost (the LLM cache: the gap is
:math:`c(\hat{\mathcal M}) - c(\mathcal M^*)`) the roles swap:
:math:`c(\hat{\mathcal M}) \le c(\hat{\mathcal M}; \bar p, \bar c)` and
:math:`c(\mathcal M^*) \ge \min_{\mathcal M} c(\mathcal M; \underline p, \underline c)`.

Every interval is clipped to the mean's range [0, 1], so an arm the data never shows has the
interval [0, 1] and the certificate stays finite.  The radius is that of the proof's
Hoeffding event, :math:`\sqrt{\log(F/\delta)/(2N)}` with :math:`F` the product of the
event's factors; its two-sided failure, a union over ``intervals`` (arm, count) pairs, is
:math:`\text{intervals}\cdot 2\delta/F`.  The derivation and that failure probability, as
sympy, are the records of :mod:`offcmab.bounds.certificates`; this module only computes the
numbers, with array operations (no loop over samples or arms).

The maxima here are exact (top-k, the best path), so :math:`\alpha = 1`.

References
----------
``apdx_lem:arm_concen`` (the event), ``eq:def_oracle`` (monotonicity, the oracle).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import numpy.typing as npt

from offcmab.reference.confidence import clip_bound, log_over_delta
from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.oracles import path_totals, top_k


@dataclass(frozen=True)
class Certificate:
    r"""With probability at least ``1 - failure_probability``, the gap is at most ``bound``.

    Attributes
    ----------
    bound
        The certified largest gap of the action (finite, at least 0).
    failure_probability
        The probability that the event the certificate rests on fails.
    event
        That event, in words (its radius and the number of intervals of its union bound).
    """

    bound: float
    failure_probability: float
    event: str

    def sentence(self) -> str:
        """The certificate as one line of text."""
        return (f"with probability at least 1 - {self.failure_probability:.3g} the gap is at "
                f"most {self.bound:.6g}")


@dataclass(frozen=True)
class HoeffdingEvent:
    r"""Every mean inside :math:`\hat\mu \pm \text{scale}\sqrt{\log(F/\delta)/(2N)}`, at once.

    Attributes
    ----------
    factors
        The factors of :math:`F` (e.g. ``(4, m, n)``).
    intervals
        How many (arm, count) pairs the union bound runs over (e.g. ``m n``).
    delta
        The algorithm's :math:`\delta`.
    name
        How the event is named in the certificate's text.
    scale
        1 for the proof's radius; a negative control narrows it (a certificate with a smaller
        scale is not guaranteed).
    """

    factors: Sequence[float]
    intervals: float
    delta: float
    name: str
    scale: float = 1.0

    @property
    def log_term(self) -> float:
        r""":math:`\log(F/\delta)`."""
        return log_over_delta(self.factors, self.delta)

    @property
    def failure(self) -> float:
        r""":math:`\min\{1, 2\,\text{intervals}\,\delta/F\}` (two-sided), as a ratio of
        products while :math:`F` is a finite float, through logarithms beyond."""
        product = math.prod(self.factors)
        if math.isfinite(product) and product > 0:
            return min(1.0, 2.0 * self.intervals / product * self.delta)
        return min(1.0, 2.0 * self.intervals * math.exp(-self.log_term))

    def radius(self, counts: npt.ArrayLike) -> FloatArray:
        r"""Half-widths at counts :math:`N` (``inf`` where :math:`N = 0`)."""
        counts = np.asarray(counts)
        radius = np.full(counts.shape, np.inf)
        seen = counts > 0
        radius[seen] = self.scale * np.sqrt(self.log_term / (2.0 * counts[seen]))
        return radius

    def interval(self, counts: npt.ArrayLike, means: npt.ArrayLike) -> tuple[FloatArray,
                                                                              FloatArray]:
        """Clipped (LCB, UCB) in [0, 1]; [0, 1] for an arm never observed."""
        radius = self.radius(counts)
        centre = np.where(np.asarray(counts) > 0, np.asarray(means, dtype=np.float64), 0.5)
        lcb = clip_bound(centre - radius, 0.0, 1.0)
        ucb = clip_bound(centre + radius, 0.0, 1.0)
        return lcb, ucb

    def describe(self) -> str:
        """The event in words, with its radius."""
        product = " * ".join(f"{factor:g}" for factor in self.factors)
        return (f"{self.name}: every mean in [mean - r, mean + r] clipped to [0, 1], "
                f"r = sqrt(log({product} / delta) / (2 N)), union over {self.intervals:g} "
                "(arm, count) pairs")


def cascade_reward(action: IntArray, weights: FloatArray) -> float:
    r""":math:`1 - \prod_{i \in S}(1 - w_i)` for weights in [0, 1]."""
    return float(1.0 - np.prod(1.0 - weights[np.asarray(action, dtype=np.int64)]))


def cascade_bound(action: IntArray, lcb: FloatArray, ucb: FloatArray, k: int) -> float:
    r""":math:`r(\text{Top-}k(\bar\mu); \bar\mu) - r(\hat S; \underline\mu)` (exact: the
    cascade reward is increasing in each weight and symmetric, so the top-k UCBs maximize it)."""
    return max(0.0, cascade_reward(top_k(ucb, k), ucb) - cascade_reward(action, lcb))


def kpath_bound(action: IntArray, lcb: FloatArray, ucb: FloatArray, k: int) -> float:
    r""":math:`\max_j \sum_{i \in P_j} \bar\mu_i - \sum_{i \in \hat S} \underline\mu_i`
    (the reward is linear; the best path is exact)."""
    chosen = np.asarray(action, dtype=np.int64)
    return max(0.0, float(path_totals(ucb, k).max()) - float(lcb[chosen].sum()))


def cache_cost_bound(cache: IntArray, p_lcb: FloatArray, p_ucb: FloatArray,
                     c_lcb: FloatArray, c_ucb: FloatArray, k: int) -> float:
    r""":math:`\sum_{q \notin \hat{\mathcal M}} \bar p \bar c - \min_{|\mathcal M| = k}
    \sum_{q \notin \mathcal M} \underline p\, \underline c`.

    Products of nonnegative bounds are monotone in each factor; the minimum leaves out the
    ``k`` largest :math:`\underline p\,\underline c` (exact).
    """
    outside = np.ones(p_lcb.size, dtype=bool)
    outside[np.asarray(cache, dtype=np.int64)] = False
    upper = float(np.sum((p_ucb * c_ucb)[outside]))
    low = p_lcb * c_lcb
    lowest = float(low.sum() - low[top_k(low, k)].sum())
    return max(0.0, upper - lowest)


#: Anything that certifies an action: :class:`Certifier`, or influence maximization's
#: :class:`offcmab.reference.im.certificate.SpreadCertifier`.
ActionCertifier = Callable[[IntArray], Certificate]


@dataclass(frozen=True)
class Certifier:
    r"""What a certificate needs besides the action: its event and the bound of an action.

    A result keeps a certifier rather than a number, so the certificate it reports is always
    that of the action it returns, even when that action is replaced afterwards.

    Attributes
    ----------
    event
        The event the certificate rests on.
    bound
        The certified gap of an action, from the clipped intervals (e.g. :func:`cascade_bound`
        with the intervals bound in).
    """

    event: HoeffdingEvent
    bound: Callable[[IntArray], float] = field(compare=False, repr=False)

    def __call__(self, action: IntArray) -> Certificate:
        """The certificate of ``action``."""
        return Certificate(self.bound(action), self.event.failure, self.event.describe())


def clcb_event(n: int, m: int, delta: float, constant: float, scale: float = 1.0
               ) -> HoeffdingEvent:
    r"""CLCB's Hoeffding intervals with the constant ``constant`` of its printed radius, over
    :math:`mn` pairs.

    With Algorithm 1's constant these are the arm event of Theorem 1's proof, with the
    cascade constant that of CLCB-Cascade's corollary; their radii and failure probabilities
    are recorded in ``offcmab.bounds.events``, and a test checks this function against them.
    """
    return HoeffdingEvent((constant, m, n), m * n, delta, "E_arm", scale)


def cache_event(n: int, m: int, delta: float, scale: float = 1.0) -> HoeffdingEvent:
    r"""The standard cache analysis's arm event over :math:`2m` arms (a frequency and a cost
    per query).

    Its radius and failure probability are those recorded in ``offcmab.bounds.events`` for
    the standard-view lemma; a test checks this function against them.
    """
    return HoeffdingEvent((8.0, m, n), 2 * m * n, delta, "E_arm (frequencies and costs)",
                          scale)


def cache_certifier(counts: IntArray, cost_counts: IntArray, c_hat: FloatArray, n: int,
                    k: int, delta: float, scale: float = 1.0) -> Certifier:
    r"""The certificate of a cache from the log's counters: frequencies :math:`N(q)/n` (count
    :math:`n`), mean costs :math:`\hat c(q)` (count :math:`N_c(q)`; ``NaN`` where it is 0),
    costs in [0, 1]."""
    m = counts.size
    event = cache_event(n, m, delta, scale)
    p_lcb, p_ucb = event.interval(np.full(m, n), counts / n)
    c_lcb, c_ucb = event.interval(cost_counts, c_hat)
    return Certifier(event, partial(cache_cost_bound, p_lcb=p_lcb, p_ucb=p_ucb, c_lcb=c_lcb,
                                    c_ucb=c_ucb, k=k))


def cache_certificate(cache: IntArray, counts: IntArray, cost_counts: IntArray,
                      c_hat: FloatArray, n: int, k: int, delta: float,
                      scale: float = 1.0) -> Certificate:
    """The certificate of ``cache`` (:func:`cache_certifier`)."""
    return cache_certifier(counts, cost_counts, c_hat, n, k, delta, scale)(cache)


def cascade_certifier(counts: IntArray, means: FloatArray, n: int, k: int, delta: float,
                      constant: float, scale: float = 1.0) -> Certifier:
    r"""The certificate of a ranked list from a cascade log's counters (CLCB's arm event at
    constant :math:`c`: 2 for the cascade algorithm's radius, 4 for Algorithm 1's)."""
    event = clcb_event(n, counts.size, delta, constant, scale)
    lcb, ucb = event.interval(counts, means)
    return Certifier(event, partial(cascade_bound, lcb=lcb, ucb=ucb, k=k))


def cascade_certificate(action: IntArray, counts: IntArray, means: FloatArray, n: int, k: int,
                        delta: float, constant: float, scale: float = 1.0) -> Certificate:
    """The certificate of ``action`` (:func:`cascade_certifier`)."""
    return cascade_certifier(counts, means, n, k, delta, constant, scale)(action)


def kpath_certifier(counts: IntArray, means: FloatArray, n: int, k: int, delta: float,
                    constant: float, scale: float = 1.0) -> Certifier:
    r"""The certificate of a path from a k-path log's counters (CLCB's arm event at constant
    :math:`c`)."""
    event = clcb_event(n, counts.size, delta, constant, scale)
    lcb, ucb = event.interval(counts, means)
    return Certifier(event, partial(kpath_bound, lcb=lcb, ucb=ucb, k=k))


def kpath_certificate(action: IntArray, counts: IntArray, means: FloatArray, n: int, k: int,
                      delta: float, constant: float, scale: float = 1.0) -> Certificate:
    """The certificate of ``action`` (:func:`kpath_certifier`)."""
    return kpath_certifier(counts, means, n, k, delta, constant, scale)(action)
