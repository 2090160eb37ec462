r"""Baselines of the paper's experiments: CUCB-Offline and EMP, for any oracle.

Both share CLCB's counters and means (:func:`offcmab.reference.confidence.arm_statistics`)
and differ only in the index handed to the oracle:

* **CUCB-Offline** (an offline run of CUCB, Chen et al. 2016): the UCB
  :math:`\hat\mu_i + \rho_i` with the same radius :math:`\rho_i` as CLCB;
  unobserved arms get :math:`+\infty` (optimism: they are preferred).
* **EMP** (Liu et al. 2021): the empirical mean :math:`\hat\mu_i`; unobserved
  arms get ``unobserved`` (default :math:`-\infty`: ranked after every observed
  arm, ties among them toward smaller ids, as the oracles break ties).

Both return a :class:`BaselineResult`, an :class:`offcmab.reference.clcb.CLCBResult`
(``action``, ``counts``, ``means``, ``lcb``) that also carries the ``index``
the oracle saw.

References
----------
``app:extended`` (``sec:Cascading``): the baselines of Figures 1 and 2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from offcmab.reference.clcb import CLCBResult, lower_confidence_bounds
from offcmab.reference.confidence import RadiusRule, arm_statistics, hoeffding_radius
from offcmab.reference.dataset import FloatArray, OfflineDataset
from offcmab.reference.oracles import Oracle

#: No bound of the paper covers the baselines.
THEORY: tuple[str, ...] = ()


@dataclass(frozen=True)
class BaselineResult(CLCBResult):
    r"""A CLCB-style result plus the index vector the oracle maximized."""

    index: FloatArray


def cucb_offline(
    dataset: OfflineDataset, oracle: Oracle, delta: float, radius: RadiusRule = "alg1"
) -> BaselineResult:
    r"""CUCB-Offline: the oracle on the UCBs :math:`\bar\mu_i = \hat\mu_i + \rho_i`.

    Unobserved arms get :math:`\bar\mu_i = +\infty`.

    ``radius`` selects :math:`\rho_i` exactly as in :func:`offcmab.reference.clcb.clcb`.
    """
    stats = arm_statistics(dataset)
    ucb = stats.means + hoeffding_radius(stats.counts, dataset.n, dataset.m, delta, radius)
    ucb[stats.counts == 0] = np.inf
    lcb = lower_confidence_bounds(stats, dataset.n, delta, radius)
    return BaselineResult(oracle(ucb), stats.counts, stats.means, lcb, ucb)


def emp(
    dataset: OfflineDataset,
    oracle: Oracle,
    delta: float = 0.05,
    radius: RadiusRule = "alg1",
    unobserved: float = -np.inf,
) -> BaselineResult:
    r"""EMP: the oracle on the empirical means; unobserved arms get ``unobserved``.

    ``delta`` and ``radius`` only fill the reported ``lcb`` (EMP ignores them).
    """
    stats = arm_statistics(dataset)
    index = np.where(stats.counts > 0, stats.means, unobserved)
    lcb = lower_confidence_bounds(stats, dataset.n, delta, radius)
    return BaselineResult(oracle(index), stats.counts, stats.means, lcb, index)
