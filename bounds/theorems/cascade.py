r"""Corollary 1 (``thm:app_ranking``): CLCB-Cascade on cascading bandits.

Stated (eq. ``app_ranking_eq1``), with probability :math:`1-\delta` when
:math:`n \ge 8\log(2mn/\delta)/\min_{i\le k}\sum_j q_{ij}(1-\mu_1)^{j-1}`:
:math:`2\sqrt{2k\log(2mn/\delta)\,C_1^*/n}` with the sum formula for :math:`C_1^*`;
uniform lists (eq. ``app_ranking_eq2``): :math:`C_1^* \le m\mu_1/\mu_k`.  Here ``p_star``
stands for the printed denominator (a lower bound of :math:`p^*`); in the uniform form
it is :math:`(1-(1-\mu_1)^k)/(m\mu_1)`, and ``C_one`` defaults to :math:`m\mu_1/\mu_k`
when ``mu1`` and ``muk`` are given instead.

Proved (``apdx_sec:app_ranking`` plugged into the proof of ``thm:upper_bound``):

1. :math:`B_1 = 1`, :math:`\alpha = 1`, :math:`\bar K^* = \sum_{i\le k} p_i^{S^*} \le k`.
2. ``alg:CLCB_cascade`` (line ``line:LCB_cascade``) prints the radius
   :math:`\sqrt{\log(2mn/\delta)/(2N_i)}`.  Pessimism needs :math:`\mathcal E_{\text{arm}}`
   at exactly this radius, whose union bound over :math:`m` arms and :math:`n` counts
   costs the whole :math:`\delta` (:math:`2mn\cdot e^{-\log(2mn/\delta)} = \delta`).
3. The counter event under the printed precondition fails with probability at most
   :math:`m e^{-np^*/8} \le m\,\delta/(2mn) = \delta/(2n)`.
4. Steps (d)-(e) and Cauchy-Schwarz as in Theorem 1, without the slack
   :math:`\sqrt 2`: :math:`2\sqrt{k C_1^*\log(2mn/\delta)/n}`.

So the proof delivers the (smaller) proved value with probability
:math:`1-\delta-\delta/(2n)`, not :math:`1-\delta` (finding; using one-sided Hoeffding
tails, upper for all :math:`m` arms and lower for the :math:`k` arms of :math:`S^*`,
costs :math:`\delta(m+k)/(2m)` and repairs it under the printed precondition).
The uniform-list step prints :math:`\sum_{j=1}^k(1-\mu_k)^j` where
:math:`\sum_{j=0}^{k-1}(1-\mu_k)^j` is meant; the next equality and the final
:math:`m\mu_1/\mu_k` are right.

References
----------
``thm:app_ranking``, ``apdx_sec:app_ranking``, ``apdx_eq:ranking_C*``,
``alg:CLCB_cascade`` line ``line:LCB_cascade``.
"""

from __future__ import annotations

import sympy as sp

from offcmab.bounds.bound import Bound
from offcmab.bounds.symbols import C_one, delta, k, m, mu1, muk, n, p_star

LOG = sp.log(2 * m * n / delta)

COR1_CASCADE = Bound(
    id="cor1-cascade",
    title="CLCB-Cascade suboptimality gap for cascading bandits",
    paper_ref="thm:app_ranking (eqs. app_ranking_eq1, app_ranking_eq2)",
    parameters=("k", "C_one", "m", "n", "delta"),
    optional_parameters=("p_star", "mu1", "muk"),
    expressions={
        "stated": 2 * sp.sqrt(2 * k * LOG * C_one / n),
        "proved": 2 * sp.sqrt(k * C_one * LOG / n),
    },
    preconditions={
        "stated": sp.GreaterThan(n, 8 * LOG / p_star),
        "proved": sp.GreaterThan(n, 8 * LOG / p_star),
    },
    failure_probability={"stated": delta, "proved": delta + delta / (2 * n)},
    alternatives={
        "C_one": m * mu1 / muk,
        "p_star": (1 - (1 - mu1) ** k) / (m * mu1),
    },
    derivation=__doc__ or "",
    constraints=((sp.LessThan(muk, mu1), "muk"),),
)

BOUNDS_HERE: tuple[Bound, ...] = (COR1_CASCADE,)
