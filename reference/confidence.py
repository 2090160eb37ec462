r"""Hoeffding confidence radii and the per-arm statistics they act on.

For an arm observed :math:`N_i` times, CLCB subtracts

.. math::

    \rho_i = \sqrt{\frac{\log(c\, m n / \delta)}{2 N_i}}

from the empirical mean.  The constant :math:`c` differs between the paper's
pseudo-codes: Algorithm 1 (``alg:CLCB``, line ``line:LCB``) prints :math:`c=4`,
Algorithm ``alg:CLCB_cascade`` (line ``line:LCB_cascade``) prints :math:`c=2`.  Both are
selectable by name.  The radius each proof's event :math:`\mathcal{E}_{\text{arm}}` needs is
recorded once, in :mod:`offcmab.bounds.events`, and not restated here.
Arms never observed get :math:`\rho_i = +\infty`, so their LCB is
:math:`-\infty` and their UCB :math:`+\infty`.

Where a mean is known to lie in a range (a probability or a cost in [0, 1]), a bound on it
may be clipped to that range by :func:`clip_bound`, the one clipping policy of the package.

References
----------
``alg:CLCB`` lines ``line:counter``, ``line:empirical_mean``, ``line:LCB``;
``apdx_lem:arm_concen``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from offcmab.reference.dataset import FloatArray, IntArray, OfflineDataset
from offcmab.reference.errors import InputError, check_probability

RadiusRule = Literal["alg1", "cascade"]

#: The constant ``c`` inside ``log(c m n / delta)`` for each printed radius.
LOG_CONSTANT: dict[str, float] = {"alg1": 4.0, "cascade": 2.0}


@dataclass(frozen=True)
class ArmStatistics:
    r"""Counters and empirical means of every base arm.

    Attributes
    ----------
    counts
        :math:`N_i = \sum_t \mathbb{1}\{i \in \tau_t\}`.
    sums
        :math:`\sum_t \mathbb{1}\{i \in \tau_t\} X_{t,i}`.
    means
        :math:`\hat\mu_i = \text{sums}_i / N_i`, ``NaN`` where :math:`N_i = 0`.
    """

    counts: IntArray
    sums: FloatArray
    means: FloatArray


def arm_statistics(dataset: OfflineDataset) -> ArmStatistics:
    r"""Counters and empirical means by two ``bincount`` calls (no loop over samples).

    References
    ----------
    ``alg:CLCB`` lines ``line:counter`` and ``line:empirical_mean``.
    """
    counts = np.bincount(dataset.triggered, minlength=dataset.m).astype(np.int64)
    sums = np.bincount(
        dataset.triggered, weights=dataset.outcomes, minlength=dataset.m
    ).astype(np.float64)
    means = np.full(dataset.m, np.nan)
    np.divide(sums, counts, out=means, where=counts > 0)
    return ArmStatistics(counts, sums, means)


def log_over_delta(factors: Iterable[float], delta: float) -> float:
    r""":math:`\log(\prod_j f_j / \delta)` as :math:`\sum_j \log f_j - \log\delta`.

    The sum of logs is finite for every positive ``delta`` a float holds (down to the
    subnormal ``5e-324``), where the product ``c m n / delta`` would overflow to infinity.
    """
    return math.fsum(math.log(factor) for factor in factors) - math.log(delta)


def hoeffding_radius(
    counts: IntArray, n: int, m: int, delta: float, rule: RadiusRule = "alg1"
) -> FloatArray:
    r"""Radius :math:`\sqrt{\log(c m n/\delta) / (2 N_i)}`, ``inf`` where :math:`N_i=0`.

    Parameters
    ----------
    counts
        Observation counts :math:`N_i`.
    n, m
        Number of samples and of base arms (they enter the union bound).
    delta
        Failure probability in (0, 1).
    rule
        ``"alg1"`` (:math:`c=4`, as printed in Algorithm 1) or ``"cascade"``
        (:math:`c=2`, as printed in the cascade algorithm).
    """
    delta = check_probability(delta)
    if rule not in LOG_CONSTANT:
        raise InputError("radius", f"must be one of {sorted(LOG_CONSTANT)}, got {rule!r}")
    log_term = log_over_delta((LOG_CONSTANT[rule], m, n), delta)
    radius = np.full(counts.shape, np.inf)
    observed = counts > 0
    radius[observed] = np.sqrt(log_term / (2.0 * counts[observed]))
    return radius


def clip_bound(
    bound: FloatArray, low: float | None = None, high: float | None = None,
    undefined: float | None = None,
) -> FloatArray:
    r"""A confidence bound clipped to the range :math:`[\text{low}, \text{high}]` of its mean.

    A lower bound is raised to ``low`` and an upper bound lowered to ``high`` (``None``: that
    side is left as it is); ``NaN`` entries (a bound the data leaves undefined) become
    ``undefined`` when it is given and stay ``NaN`` otherwise.

    Why this keeps every guarantee: when the true mean :math:`\mu` lies in
    :math:`[\text{low}, \text{high}]`, clipping maps :math:`\underline\mu \le \mu` to
    :math:`\max\{\underline\mu, \text{low}\} \le \mu` (and :math:`\bar\mu \ge \mu` to
    :math:`\min\{\bar\mu, \text{high}\} \ge \mu`), so the bound stays on the same side of
    the truth and never moves away from it; the proofs use only that side and the width
    :math:`|\underline\mu - \mu| \le 2\rho`, both kept.  Clipping is monotone, so it keeps
    the order of any two bounds: an oracle monotone in its weights ranks actions as before, up to
    ties among bounds that were beyond the range (they carry no information the range does not
    already give).  It also keeps the oracle's input in its domain (an IM oracle needs edge
    probabilities in [0, 1]) and avoids :math:`0 \cdot \infty` in products of bounds.
    An undefined bound set to ``low`` is the weakest bound the range gives.

    Parameters
    ----------
    bound
        Lower or upper confidence bounds (``-inf``, ``+inf`` and ``NaN`` allowed).
    low, high
        The range of the mean; ``None`` leaves that side unclipped.
    undefined
        The value given to ``NaN`` entries (``None``: they stay ``NaN``).
    """
    values = np.asarray(bound, dtype=np.float64)
    if undefined is not None:
        values = np.where(np.isnan(values), undefined, values)
    if low is not None:
        values = np.maximum(values, low)  # NaN stays NaN, as with np.clip
    if high is not None:
        values = np.minimum(values, high)
    return values
