r"""CLCB-Cascade: CLCB with the top-k oracle for offline cascading bandits.

Pseudo-code (``alg:CLCB_cascade``), beside the code that implements each line::

    Input: dataset D, cardinality k, solver Top-k, probability delta
    for arm i in [m]:
        N_i      = sum_t 1{i in tau_t}                          # line:counter_cascade
        mu_hat_i = sum_t 1{i in tau_t} X_{t,i} / N_i            # line:empirical_mean_cascade
        lcb_i    = mu_hat_i - sqrt(log(2 m n / delta) / 2N_i)   # line:LCB_cascade
    S_hat = Top-k(lcb_1, ..., lcb_m)                            # cascade_line:oracle
    return S_hat

It is Algorithm 1 (:func:`offcmab.reference.clcb.clcb`) with the exact top-k oracle
(:class:`offcmab.reference.oracles.TopK`) and the cascade radius :math:`\log(2mn/\delta)`
by default; ``radius="alg1"`` selects Algorithm 1's printed
:math:`\log(4mn/\delta)`.  Unobserved items have LCB :math:`-\infty`, so they
enter the list only when fewer than ``k`` items were observed.

References
----------
``alg:CLCB_cascade``, ``thm:app_ranking`` (``eq:app_ranking_eq1``,
``eq:app_ranking_eq2``), ``apdx_sec:app_ranking``.
"""

from __future__ import annotations

from dataclasses import replace

from offcmab.reference.certificates import cascade_certifier
from offcmab.reference.clcb import (
    THEOREM_1_INFINITY_NORM,
    THEOREM_1_ONE_NORM,
    CLCBResult,
    clcb,
)
from offcmab.reference.confidence import LOG_CONSTANT, RadiusRule
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.errors import check_cardinality
from offcmab.reference.oracles import TopK

#: Bound ids (see ``bounds``) whose guarantees cover this algorithm.
THEORY = ("cor1-cascade", THEOREM_1_ONE_NORM, THEOREM_1_INFINITY_NORM)


def clcb_cascade(
    dataset: OfflineDataset, k: int, delta: float, radius: RadiusRule = "cascade"
) -> CLCBResult:
    r"""Run CLCB-Cascade on a cascade log and return the ranked list of ``k`` items.

    Parameters
    ----------
    dataset
        The offline log :math:`\mathcal{D}` of ranked lists and cascade feedback.
    k
        Length of the list, :math:`1 \le k \le m`.
    delta
        Failure probability in (0, 1).
    radius
        ``"cascade"`` (default, :math:`\log(2mn/\delta)`, ``line:LCB_cascade``) or
        ``"alg1"`` (:math:`\log(4mn/\delta)`, ``line:LCB``).

    Returns
    -------
    CLCBResult
        The list (largest LCB first), the counters, means and LCBs, and the list's
        certificate.
    """
    oracle = TopK(check_cardinality(k, dataset.m))  # solver Top-k (exact, alpha = 1)
    # line:counter_cascade, line:empirical_mean_cascade, line:LCB_cascade, cascade_line:oracle
    result = clcb(dataset, oracle, delta, radius)
    # the certificate on the same radius's arm event (offcmab.bounds.certificates)
    return replace(result, certifier=cascade_certifier(
        result.counts, result.means, dataset.n, oracle.k, delta, LOG_CONSTANT[radius]))
