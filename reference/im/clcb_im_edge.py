r"""Offline IM from edge-level feedback: CLCB with every edge a base arm.

With edge-level (semi-bandit) feedback, IM is a CMAB-T instance as it stands: arm
:math:`(u,v)` has mean :math:`p_{uv}`, it is triggered when :math:`u` becomes active, and its
outcome says whether the edge fired.  CLCB (Algorithm 1,
:func:`offcmab.reference.clcb.clcb`) applies
unchanged: Hoeffding LCBs per edge, then the IM oracle on the LCB graph.  The empirical-mean
baseline (Chen et al. 2021 style plug-in, no pessimism) calls the oracle on the means.

Theory: Theorem 1 with 1-norm TPM smoothness :math:`B_1 \le V` (``thm1-one``).

References
----------
``app:OIM_node`` (edge-level feedback paragraph), ``alg:CLCB``, ``thm:upper_bound``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from offcmab.reference.clcb import THEOREM_1_ONE_NORM, CLCBResult, clcb
from offcmab.reference.confidence import LOG_CONSTANT, RadiusRule, arm_statistics
from offcmab.reference.dataset import IntArray
from offcmab.reference.im.certificate import edge_certifier
from offcmab.reference.im.data import EdgeFeedback
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.oracles import Oracle

#: Bound ids (see ``bounds``) whose guarantees cover this algorithm.
THEORY = (THEOREM_1_ONE_NORM,)


def clcb_im_edge(
    feedback: EdgeFeedback, oracle: Oracle, delta: float, radius: RadiusRule = "alg1",
    structure: ICGraph | None = None,
) -> CLCBResult:
    r"""CLCB on edge-level feedback; ``oracle`` maps per-edge LCBs to seeds (``-inf`` → 0).

    Given the graph ``structure`` (its probabilities are not read), the result carries the
    seeds' spread certificate (:func:`offcmab.reference.im.certificate.edge_certifier`).
    """
    result = clcb(feedback.dataset, oracle, delta, radius)
    if structure is None:
        return result
    return replace(result, certifier=edge_certifier(
        structure, result.counts, result.means, feedback.dataset.n, delta,
        LOG_CONSTANT[radius]))


def empirical_mean_edge(feedback: EdgeFeedback, oracle: Oracle) -> IntArray:
    r"""Baseline: the oracle on the empirical edge means (unobserved edges count as 0)."""
    return oracle(np.nan_to_num(arm_statistics(feedback.dataset).means, nan=0.0))
