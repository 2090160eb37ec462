r"""Verdict statistics: exact binomial tails, the false-alarm budget, tightness, slopes.

Upper bounds (high-probability statements)
    A correct bound :math:`b` at level :math:`\delta` satisfies
    :math:`P(\text{gap} > b) \le \delta` for each independent trial, so the number
    :math:`V` of violations among :math:`T` trials is stochastically below
    :math:`\mathrm{Binomial}(T, \delta)`.  A row is flagged when
    :math:`P(\mathrm{Binomial}(T,\delta) \ge V) < a`, where :math:`a` is the row's
    share of the run's false-alarm budget (Bonferroni: budget / number of tested
    rows).  The probability that a correct bound is flagged anywhere in a run is
    then at most the budget.

Lower bounds (minimax risk statements)
    A correct lower bound :math:`L` on an expected gap with values in
    :math:`[0, G]` gives, by Hoeffding's inequality, :math:`P(\bar g \le L - t)
    \le \exp(-2 T t^2 / G^2)`; a row is flagged when that tail at the observed mean
    falls below its share :math:`a`.  The same test, mirrored, checks an upper
    bound on a mean.

Tightness
    The empirical :math:`(1-\delta)`-quantile of the gap divided by the bound: the
    bound is valid exactly when the true quantile is at most the bound, so a
    tightness near 1 means the bound is sharp, near 0 that it is loose.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np
import numpy.typing as npt


def binomial_tail(violations: int, trials: int, delta: float) -> float:
    r""":math:`P(\mathrm{Binomial}(T, \delta) \ge V) = \sum_{j \ge V}\binom{T}{j}
    \delta^j(1-\delta)^{T-j}`, exactly (1 when ``V = 0``, 0 when ``V > T``).

    Computed as the regularized incomplete beta function :math:`I_\delta(V, T-V+1)`
    (an identity, accurate to float rounding for any ``T``; the term-by-term sum
    overflows beyond ``T`` of about a thousand).
    """
    from scipy.special import betainc

    if violations <= 0:
        return 1.0
    if violations > trials:
        return 0.0
    return float(betainc(violations, trials - violations + 1, delta))


def clopper_pearson(hits: int, trials: int, eta: float) -> tuple[float, float]:
    r"""One-sided Clopper-Pearson limits :math:`(\ell, u)` of a binomial proportion: each
    misses the true proportion with probability at most ``eta``."""
    from scipy.special import betaincinv

    low = 0.0 if hits == 0 else float(betaincinv(hits, trials - hits + 1, eta))
    high = 1.0 if hits == trials else float(betaincinv(hits + 1, trials - hits, 1.0 - eta))
    return low, high


def flag_threshold(trials: npt.ArrayLike, delta: float, level: float) -> npt.NDArray[np.int64]:
    r"""Per ``T``: the fewest violations :math:`V \ge 1` whose binomial tail is below ``level``.

    :math:`T + 1` when no count flags.  The tail decreases in :math:`V`, so a
    vectorised bisection finds the boundary exactly (the same ``betainc`` as
    :func:`binomial_tail`, so rows flag exactly at this count).
    """
    from scipy.special import betainc

    t = np.atleast_1d(np.asarray(trials, dtype=np.int64))
    low = np.zeros_like(t)  # tail(low) >= level (tail(0) = 1)
    high = t + 1  # tail(T + 1) = 0 < level
    while np.any(high - low > 1):
        mid = (low + high) // 2
        tail = betainc(np.maximum(mid, 1), np.maximum(t - mid + 1, 1), delta)
        flags = (tail < level) & (mid >= 1) & (mid <= t)
        high = np.where(flags & (high - low > 1), mid, high)
        low = np.where(~flags & (high - low > 1), mid, low)
    return high


def allowed_violations(trials: int, delta: float, level: float) -> int:
    r"""The largest :math:`V` whose binomial tail is still at least ``level`` (not flagged)."""
    return int(flag_threshold(trials, delta, level)[0]) - 1


#: Probability with which a row must flag the exceedance rate it reports as detectable.
DETECTION_POWER = 0.9


def detectable_rate(trials: int, delta: float, level: float,
                    power: float = DETECTION_POWER) -> float | None:
    r"""The smallest exceedance probability :math:`p` the row flags with probability ``power``.

    The row flags when the violations reach :math:`r` (:func:`flag_threshold`); under an
    exceedance probability :math:`p` that happens with probability
    :math:`P(\mathrm{Binomial}(T, p) \ge r) = I_p(r, T-r+1)`, increasing in :math:`p`,
    so the answer is the ``power``-quantile of :math:`\mathrm{Beta}(r, T-r+1)`.
    ``None`` when even :math:`T` violations out of :math:`T` are not flagged.
    """
    from scipy.special import betaincinv

    needed = int(flag_threshold(trials, delta, level)[0])
    if needed > trials:
        return None
    return float(betaincinv(needed, trials - needed + 1, power))


@functools.lru_cache(maxsize=1024)
def trials_to_detect(delta: float, level: float, rate: float, start: int, cap: int,
                     power: float = DETECTION_POWER) -> int | None:
    r"""The fewest trials :math:`T \ge` ``start`` whose row detects ``rate`` (``None``: > ``cap``).

    Every :math:`T` up to ``cap`` is tried in one vectorised pass; detection is not
    monotone in :math:`T` (the threshold jumps by whole violations), so the first
    :math:`T` that works is taken, not a bisection.  The winner is confirmed with
    :func:`detectable_rate`, the number the row will report.
    """
    from scipy.special import betainc

    low = max(start, 1)
    while low <= cap:  # windows of doubling length: cheap when few trials suffice
        grid = np.arange(low, min(cap, 2 * low + 64) + 1)
        needed = flag_threshold(grid, delta, level)
        chance = np.where(needed <= grid,
                          betainc(np.minimum(needed, grid), np.maximum(grid - needed + 1, 1),
                                  min(rate, 1.0)), 0.0)
        for trials in grid[chance >= power]:
            found = detectable_rate(int(trials), delta, level, power)
            if found is not None and found <= rate:
                return int(trials)
        low = int(grid[-1]) + 1
    return None


def count_violations(gaps: np.ndarray, errors: np.ndarray, bound: float) -> int:
    """Trials whose gap, less its estimation error, exceeds ``bound``."""
    return int(np.count_nonzero(gaps - errors > bound))


def smallest_passing_scale(gaps: np.ndarray, errors: np.ndarray, bound: float,
                           allowed: int) -> float:
    r"""The smallest factor :math:`x` such that ``bound * x`` would still pass.

    At most ``allowed`` trials may exceed the scaled bound, so the answer is the
    ``(allowed + 1)``-th largest (error-corrected) gap over the bound; 0 when every
    trial may be a violation.
    """
    lows = np.sort(gaps - errors)[::-1]
    if allowed >= lows.size or bound <= 0:
        return 0.0 if allowed >= lows.size else math.inf
    return max(float(lows[allowed]), 0.0) / bound


def tightness(gaps: np.ndarray, bound: float, delta: float) -> float:
    r"""Empirical :math:`(1-\delta)`-quantile of the gap over the bound."""
    if bound <= 0:
        return math.inf
    return float(np.quantile(gaps, 1.0 - delta, method="higher")) / bound


def hoeffding_below(mean: float, target: float, trials: int, span: float) -> float:
    r"""Bound on :math:`P(\bar g \le \text{mean})` when :math:`E g \ge \text{target}`.

    :math:`\exp(-2T(\text{target}-\text{mean})^2/G^2)` for a mean below the target,
    1 otherwise (Hoeffding's inequality for values in :math:`[0, G]`).
    """
    if mean >= target or span <= 0:
        return 1.0
    return math.exp(-2.0 * trials * (target - mean) ** 2 / span**2)


def hoeffding_above(mean: float, target: float, trials: int, span: float) -> float:
    r"""Bound on :math:`P(\bar g \ge \text{mean})` when :math:`E g \le \text{target}`."""
    return hoeffding_below(-mean, -target, trials, span)


def loglog_slope(ns: Sequence[int], means: Sequence[float],
                 standard_errors: Sequence[float]) -> tuple[float, float]:
    r"""Least-squares slope of :math:`\log \bar g` against :math:`\log n`, and its error.

    The standard error propagates each point's standard error of the mean through
    :math:`\log` (delta method, :math:`\mathrm{se}/\bar g`) and the least-squares
    weights :math:`w_j = (x_j - \bar x)/\sum_l (x_l - \bar x)^2`.
    """
    x = np.log(np.asarray(ns, dtype=float))
    y = np.log(np.asarray(means, dtype=float))
    centred = x - x.mean()
    weights = centred / np.sum(centred**2)
    slope = float(np.sum(weights * (y - y.mean())))
    relative = np.asarray(standard_errors, dtype=float) / np.asarray(means, dtype=float)
    return slope, float(np.sqrt(np.sum(weights**2 * relative**2)))


def normal_two_sided_quantile(level: float) -> float:
    r"""The :math:`z` with :math:`P(|Z| > z) = \text{level}` for a standard normal :math:`Z`."""
    return NormalDist().inv_cdf(1.0 - level / 2.0)
