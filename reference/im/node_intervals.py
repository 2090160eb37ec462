r"""CLCB-IM-N's node-level intervals and the edge formula that turns them into edge bounds.

Node-level feedback never shows an edge fire; it shows seeds :math:`S_0` and the nodes
:math:`S_1` active after one step.  Three node-level probabilities determine each edge's
(``eq:puv``):

.. math::

    p_{uv} = \frac{1}{q_u}\Bigl(1 - \frac{p(\bar v)}{p(\bar v\mid\bar u)}\Bigr),

each estimated with a variance-adaptive radius (``line:IM_intervals``).  The formula
decreases in :math:`q_u` (its numerator :math:`q_u p_{uv}` is nonnegative) and in
:math:`p(\bar v)`, and increases in :math:`p(\bar v\mid\bar u)`, so the interval ends that
bound it from below are :math:`(\bar q_u, \bar p(\bar v), \underline p(\bar v\mid\bar u))`
(CLCB-IM-N's LCB, ``line:IM_LCB``) and from above
:math:`(\underline q_u, \underline p(\bar v), \bar p(\bar v\mid\bar u))` (the UCB a
certificate needs).

References
----------
``alg:CLCB-IM`` lines ``line:IM_intervals`` to ``line:IM_LCB``, ``eq:puv``,
``apdx_lem:aux_IM``.
"""

from __future__ import annotations

import numpy as np

from offcmab.reference.confidence import clip_bound
from offcmab.reference.dataset import FloatArray, IntArray


def bernstein_radius(mean: FloatArray, count: FloatArray | IntArray, log_term: float) -> FloatArray:
    r"""Variance-adaptive radius :math:`\sqrt{6\hat x(1-\hat x)L/N} + 9L/N` (``line:IM_intervals``).

    ``inf`` where :math:`N = 0`.
    """
    count = np.asarray(count, dtype=np.float64)
    radius = np.full(count.shape, np.inf)
    seen = count > 0
    x = np.where(seen, mean, 0.0)
    radius[seen] = (np.sqrt(6.0 * x[seen] * (1.0 - x[seen]) * log_term / count[seen])
                    + 9.0 * log_term / count[seen])
    return radius


def edge_formula(q_u: FloatArray, p_not_v: FloatArray, p_cond: FloatArray) -> FloatArray:
    r""":math:`\min\{1,\max\{0,\frac1{q_u}(1 - p(\bar v)/p(\bar v\mid\bar u))\}\}` (``eq:puv``).

    ``NaN`` where ``q_u = 0`` or ``p_cond`` is 0 or ``NaN`` (the formula is undefined there).
    """
    out = np.full(q_u.shape, np.nan)
    ok = (q_u > 0) & (p_cond > 0)
    out[ok] = (1.0 - p_not_v[ok] / p_cond[ok]) / q_u[ok]
    return clip_bound(out, 0.0, 1.0)  # NaN stays NaN


def edge_bounds(sources: IntArray, targets: IntArray, n: int, q_hat: FloatArray,
                p_not_hat: FloatArray, p_cond_hat: FloatArray, cond_count: IntArray,
                log_term: float, scale: float = 1.0) -> tuple[FloatArray, FloatArray]:
    r"""Edge (LCB, UCB) from the node intervals, every radius times ``scale`` (> 0).

    ``q_hat`` and ``p_not_hat`` are per node (count ``n``), ``p_cond_hat`` per edge (count
    ``cond_count``, ``NaN`` where it is 0).  Where the formula is undefined (a conditional
    bound of 0, or :math:`\underline q_u = 0` for the UCB) the LCB is 0 and the UCB 1, the
    ends of the range.  ``scale = 1`` gives CLCB-IM-N's own LCB.
    """
    nodes = np.full(q_hat.shape, n)
    rho_q = scale * bernstein_radius(q_hat, nodes, log_term)
    rho_v = scale * bernstein_radius(p_not_hat, nodes, log_term)
    cond = np.nan_to_num(p_cond_hat)
    rho_c = scale * bernstein_radius(cond, cond_count, log_term)
    q_ucb, q_lcb = clip_bound(q_hat + rho_q, high=1.0), clip_bound(q_hat - rho_q, low=0.0)
    v_ucb = clip_bound(p_not_hat + rho_v, high=1.0)
    v_lcb = clip_bound(p_not_hat - rho_v, low=0.0)
    c_ucb, c_lcb = clip_bound(cond + rho_c, high=1.0), clip_bound(cond - rho_c, low=0.0)
    lcb = clip_bound(edge_formula(q_ucb[sources], v_ucb[targets], c_lcb), 0.0, 1.0,
                     undefined=0.0)
    ucb = clip_bound(edge_formula(q_lcb[sources], v_lcb[targets], c_ucb), 0.0, 1.0,
                     undefined=1.0)
    return lcb, ucb
