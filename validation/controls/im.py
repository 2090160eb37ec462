r"""Controls of CLCB-IM-N (Theorem 4).

``line:IM_inter_LCB`` combines three intervals into the edge LCB
:math:`\underline p_{uv} = \frac{1}{\bar q_u}
\bigl(1 - \bar p(\bar v)/\underline p(\bar v\mid\bar u)\bigr)` with
:math:`\bar q_u = \hat q_u + \rho_u`, :math:`\bar p(\bar v) = \hat p(\bar v) + \rho(\bar v)`,
:math:`\underline p(\bar v\mid\bar u) = \hat p(\bar v\mid\bar u) - \rho(\bar v\mid\bar u)`.
:func:`interval_edges` recomputes it with every radius times :math:`s` (and the
conditional one times :math:`s_c`), from the reference's own estimates and radii;
:math:`s = s_c = 1` is the reference.  The controls:

* ``no-pessimism``: :math:`s = s_c = 0` (the plug-in estimate);
* ``optimism``: :math:`s = s_c = -1` (an edge UCB);
* ``radius-0.1``: :math:`s = s_c = 0.1`;
* ``radius-0.5``: :math:`s = s_c = 0.5`;
* ``no-union-bound``: every interval at the lemma's :math:`\log(1/\delta)` in place of
  :math:`L = \log(12nE/\delta)` (:func:`no_union_bound`);
* ``no-lcb-cond``: :math:`s_c = 0`, no LCB on :math:`p(\bar v\mid\bar u)`;
* ``printed-estimator``: the reference with ``estimator="printed"``
  (:math:`n_{1,\bar u,\bar v}/n_{1,\bar v}`, conditioning on the wrong event);
* ``ignores-data``: the ``k`` nodes with the largest ids;
* ``oracle-ignores-weights``: the oracle is called with weight 1 on every edge;
* ``oracle-first-k``, ``oracle-reversed``, ``oracle-random``: CLCB-IM-N itself with its oracle
  wrapped in a :class:`offcmab.validation.controls.oracles.BrokenOracle` (the seeds
  :math:`\{0, \dots, k-1\}`, the spread under flipped edge LCBs, seeds unrelated to the LCBs).
  A last-``k`` oracle is ``ignores-data`` above (the LCBs are computed, the seeds fixed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from offcmab.reference.im.clcb_im_node import (
    CLCBIMResult,
    bernstein_radius,
    clcb_im_node,
    edge_formula,
    edge_lcbs,
)
from offcmab.reference.im.data import NodeCascades
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.oracles import Oracle, top_k
from offcmab.validation.controls.oracles import BrokenOracle, Mistake


def interval_edges(graph: ICGraph, cascades: NodeCascades, delta: float, scale: float,
                   cond_scale: float, log_term: float | None = None, mean_shift: int = 0,
                   radius_shift: int = 0) -> CLCBIMResult:
    r"""The edge index of ``line:IM_LCB`` with radii times ``scale`` and ``cond_scale``.

    ``log_term`` replaces the reference's :math:`L` inside every radius (``None``: keep it).
    ``mean_shift`` and ``radius_shift`` add to every count in the estimates' denominators
    and in the radii (an off-by-one mistake; 0 as printed).
    Undefined values of the formula (:math:`\bar q_u = 0` or a conditional bound of 0)
    become 0 for a lower index and 1 for an upper one (``scale < 0``).
    """
    ref = edge_lcbs(graph, cascades, delta)
    est, counters = ref.estimates, ref.counters
    log_term = ref.log_term if log_term is None else log_term
    n = np.full(graph.nodes, counters.n)
    unseeded = counters.unseeded[graph.sources]
    # count / (count + shift): a ratio over a count that is too big (1 without a shift)
    shrink = np.where(n > 0, n / np.maximum(n + mean_shift, 1), 1.0)
    cond = np.nan_to_num(est.p_not_given_not) * np.where(
        unseeded > 0, unseeded / np.maximum(unseeded + mean_shift, 1), 1.0)
    q_hat, p_not_hat = est.q * shrink, est.p_not * shrink
    q = np.clip(q_hat + scale * bernstein_radius(q_hat, n + radius_shift, log_term), 0.0, 1.0)
    p_not = np.clip(p_not_hat + scale * bernstein_radius(p_not_hat, n + radius_shift, log_term),
                    0.0, 1.0)
    cond_radius = bernstein_radius(cond, unseeded + np.where(unseeded > 0, radius_shift, 0),
                                   log_term)
    with np.errstate(invalid="ignore"):
        p_cond = np.clip(cond - cond_scale * cond_radius, 0.0, 1.0)
    index = np.nan_to_num(edge_formula(q[graph.sources], p_not[graph.targets], p_cond),
                          nan=1.0 if scale < 0 else 0.0)
    return replace(ref, q_ucb=q, p_not_ucb=p_not, p_cond_lcb=p_cond, lcb=index)


def _with_oracle(result: CLCBIMResult, oracle: Oracle) -> CLCBIMResult:
    return replace(result, seeds=oracle(result.lcb))


def no_pessimism(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
                 delta: float) -> CLCBIMResult:
    """No pessimism: the oracle gets the plug-in edge estimates instead of the LCBs."""
    return _with_oracle(interval_edges(graph, cascades, delta, 0.0, 0.0), oracle)


def optimism(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
             delta: float) -> CLCBIMResult:
    """Optimism: every interval is used the other way round, giving edge UCBs."""
    return _with_oracle(interval_edges(graph, cascades, delta, -1.0, -1.0), oracle)


def radius_tenth(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
                 delta: float) -> CLCBIMResult:
    """Radius times 0.1: every interval is a tenth as wide."""
    return _with_oracle(interval_edges(graph, cascades, delta, 0.1, 0.1), oracle)


def radius_half(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
                delta: float) -> CLCBIMResult:
    """Radius times 0.5: every interval is half as wide."""
    return _with_oracle(interval_edges(graph, cascades, delta, 0.5, 0.5), oracle)


def no_union_bound(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
                   delta: float) -> CLCBIMResult:
    r"""No union bound: each interval is the lemma's at the stated delta, not at the share
    CLCB-IM-N runs it at.

    CLCB-IM-N runs ``apdx_lem:aux_IM`` at :math:`\delta' = \delta/(12nE)`, so every radius
    has :math:`L = \log(12nE/\delta)`; here :math:`L = \log(1/\delta)`.  The
    :math:`\log(12nE)` that pays for the union over the nodes, the edges and the :math:`n`
    values of a counter is dropped.
    """
    return _with_oracle(interval_edges(graph, cascades, delta, 1.0, 1.0,
                                       float(np.log(1.0 / delta))), oracle)


def no_lcb_cond(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
                delta: float) -> CLCBIMResult:
    """No LCB on p(v̄|ū): the conditional probability enters as its empirical estimate."""
    return _with_oracle(interval_edges(graph, cascades, delta, 1.0, 0.0), oracle)


def printed_estimator(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
                      delta: float) -> CLCBIMResult:
    """Printed estimator n_{1,ū,v̄}/n_{1,v̄}: conditions on the wrong event."""
    return clcb_im_node(graph, cascades, oracle, delta, estimator="printed")


def ignores_data(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
                 delta: float) -> CLCBIMResult:
    """Ignores its data: always seeds the k nodes with the largest ids."""
    ref = edge_lcbs(graph, cascades, delta)
    k = oracle(ref.lcb).size
    return replace(ref, seeds=top_k(np.arange(graph.nodes, dtype=np.float64), k))


def oracle_ignores_weights(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
                           delta: float) -> CLCBIMResult:
    """An oracle that ignores its weights: the LCBs are computed, the oracle sees 1 on every edge.

    Every edge live makes the spread pure reachability, a choice the data cannot move (zero
    weights would leave every seed set tied, so the oracle's tie rule alone would decide).
    """
    ref = edge_lcbs(graph, cascades, delta)
    return replace(ref, seeds=oracle(np.ones_like(ref.lcb)))


def _broken(mistake: Mistake, summary: str) -> Callable[..., CLCBIMResult]:
    """CLCB-IM-N with its oracle called with the wrong weights (``mistake``)."""

    def run(graph: ICGraph, cascades: NodeCascades, oracle: Oracle,
            delta: float) -> CLCBIMResult:
        return clcb_im_node(graph, cascades, BrokenOracle(oracle, mistake), delta)

    run.__doc__ = summary
    run.__name__ = f"oracle_{mistake}"
    return run


oracle_first_k = _broken("first", "A first-k oracle: CLCB-IM-N's oracle returns the seeds "
                                  "0..k-1, whatever the edge LCBs.")
oracle_reversed = _broken("reversed", "A reversed oracle: CLCB-IM-N's oracle maximizes the "
                                      "spread under 1 - LCB on every edge.")
oracle_random = _broken("random", "A random oracle: CLCB-IM-N's oracle returns seeds "
                                  "unrelated to the edge LCBs.")


#: The controls that compute a certificate of their own: the printed estimator certifies
#: from its own (wrong) estimates; the others return the reference's certifier or none.
CERTIFICATE_CONTROLS = ("printed-estimator",)

IM_CONTROLS: dict[str, Callable[..., CLCBIMResult]] = {
    "no-pessimism": no_pessimism, "optimism": optimism, "radius-0.1": radius_tenth,
    "radius-0.5": radius_half, "no-union-bound": no_union_bound,
    "ignores-data": ignores_data, "oracle-ignores-weights": oracle_ignores_weights,
    "printed-estimator": printed_estimator, "no-lcb-cond": no_lcb_cond,
    "oracle-first-k": oracle_first_k, "oracle-reversed": oracle_reversed,
    "oracle-random": oracle_random,
}
