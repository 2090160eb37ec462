r"""CLCB: Combinatorial Lower Confidence Bound (Algorithm 1 of the paper).

Pseudo-code (``alg:CLCB``), beside the code that implements each line::

    Input: dataset D, oracle ORACLE, probability delta
    for arm i in [m]:
        N_i      = sum_t 1{i in tau_t}                         # line:counter
        mu_hat_i = sum_t 1{i in tau_t} X_{t,i} / N_i           # line:empirical_mean
        lcb_i    = mu_hat_i - sqrt(log(4 m n / delta) / 2N_i)  # line:LCB
    S_hat = ORACLE(lcb_1, ..., lcb_m)                          # line:oracle
    return S_hat

The loop over arms is two ``bincount`` calls.  An arm never observed has
``N_i = 0``; its mean is reported as ``NaN`` and its LCB is :math:`-\infty`,
the value the formula takes in the limit, so the oracle treats it as the worst
arm and still returns a feasible action.

Theory that covers it: Theorem 1 (``thm:upper_bound``), bound ids ``thm1-inf``
and ``thm1-one`` in :mod:`offcmab.bounds`.  The radius its proof's arm event needs, and
that event's failure probability, are recorded in :mod:`offcmab.bounds.events`.

References
----------
``alg:CLCB``, ``thm:upper_bound``, ``apdx_sec:upper_bound``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from offcmab.reference.certificates import ActionCertifier, Certificate, kpath_certifier
from offcmab.reference.confidence import (
    LOG_CONSTANT,
    ArmStatistics,
    RadiusRule,
    arm_statistics,
    hoeffding_radius,
)
from offcmab.reference.dataset import FloatArray, IntArray, OfflineDataset
from offcmab.reference.oracles import KPathOracle, Oracle

#: Theorem 1 in the infinity norm and in the 1-norm (bound ids of ``offcmab.bounds``): they
#: cover CLCB and the algorithms built on it (CLCB-Cascade, edge-level IM).
THEOREM_1_INFINITY_NORM, THEOREM_1_ONE_NORM = "thm1-inf", "thm1-one"

#: Bound ids whose guarantees cover this algorithm.
THEORY = (THEOREM_1_INFINITY_NORM, THEOREM_1_ONE_NORM)


@dataclass(frozen=True)
class CLCBResult:
    r"""What CLCB computed: the action and the per-arm statistics behind it.

    Attributes
    ----------
    action
        :math:`\hat S`, the oracle's output on the LCB vector.
    counts, means, lcb
        :math:`N_i`, :math:`\hat\mu_i` (``NaN`` if unobserved) and
        :math:`\underline{\mu}_i` (:math:`-\infty` if unobserved).
    certifier
        What :attr:`certificate` needs besides the action, where the reward is known: the
        best-path oracle's (k-path), the cascade's, the spread's (edge-level influence
        maximization); ``None`` for another oracle.
    """

    action: IntArray
    counts: IntArray
    means: FloatArray
    lcb: FloatArray
    certifier: ActionCertifier | None = field(default=None, kw_only=True, compare=False,
                                        repr=False)

    @property
    def certificate(self) -> Certificate | None:
        r"""With what probability the action's gap is at most what
        (:mod:`offcmab.reference.certificates`); ``None`` without a certifier."""
        return None if self.certifier is None else self.certifier(self.action)


def lower_confidence_bounds(
    stats: ArmStatistics, n: int, delta: float, rule: RadiusRule = "alg1"
) -> FloatArray:
    r"""LCB :math:`\hat\mu_i - \rho_i` (line ``line:LCB``), :math:`-\infty` if unobserved."""
    radius = hoeffding_radius(stats.counts, n, stats.counts.size, delta, rule)
    lcb = stats.means - radius
    lcb[stats.counts == 0] = -float("inf")
    return lcb


def clcb(
    dataset: OfflineDataset, oracle: Oracle, delta: float, radius: RadiusRule = "alg1"
) -> CLCBResult:
    r"""Run CLCB (Algorithm 1) on an offline dataset.

    Parameters
    ----------
    dataset
        The offline log :math:`\mathcal{D}`.
    oracle
        An :math:`\alpha`-approximate oracle for the problem's reward.
    delta
        Failure probability in (0, 1).
    radius
        ``"alg1"`` for :math:`\log(4mn/\delta)` as printed in Algorithm 1, or
        ``"cascade"`` for :math:`\log(2mn/\delta)` as in the cascade algorithm.

    Returns
    -------
    CLCBResult
        The chosen action and the counters, means and LCBs behind it.
    """
    stats = arm_statistics(dataset)  # line:counter, line:empirical_mean
    lcb = lower_confidence_bounds(stats, dataset.n, delta, radius)  # line:LCB
    action = oracle(lcb)  # line:oracle
    certifier = None
    if isinstance(oracle, KPathOracle):  # a linear reward: the certificate's maximum is exact
        certifier = kpath_certifier(stats.counts, stats.means, dataset.n, oracle.k, delta,
                                    LOG_CONSTANT[radius])
    return CLCBResult(action, stats.counts, stats.means, lcb, certifier=certifier)
