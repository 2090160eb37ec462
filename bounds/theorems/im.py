r"""Theorem 4 (``thm:IM``, ``apdx_thm:IM``): CLCB-IM-N with node-level feedback.

Stated: with probability :math:`1-\delta`, when :math:`n \ge 392\log(12nE/\delta)/(\eta\gamma)`,

.. math::

    \alpha\sigma(S^*) - \sigma(\hat S) \le 48\sqrt6\sqrt{V^2 d_{\max}^2\sigma^{*2}
    \log(12nE/\delta)/(\eta\gamma^3 n)}.

Proved (``apdx_sec:app_IM_node``), with :math:`L = \log(1/\delta') = \log(12nE/\delta)`:

1. ``eq:puv_diff_term1``: :math:`p_{uv}-\underline p_{1,uv} \le 8\sqrt3\sqrt{L/(\gamma n)}\,p_{uv}`
   (step (c) needs :math:`n \ge 49L/(3q_u)`).
2. ``eq:puv_diff_term2``: :math:`\le 8\sqrt3\sqrt{L/(\eta\gamma^2 n)}` (step (d) uses
   :math:`p(\bar v) \le p(\bar v|\bar u)`, true since
   :math:`p(\bar v) = (1-q_up_{uv})p(\bar v|\bar u)`).
3. ``apdx_eq:lower_bound_of_ubar_p`` step (c): :math:`8\sqrt3\sqrt{pL/n_0}\le p/2` holds iff
   :math:`n_0 \ge 768L/p(\bar v|\bar u)`; the proof prints 196.  With
   :math:`n_0\ge n\gamma/2` and :math:`p(\bar v|\bar u)\ge\eta` this needs
   :math:`n \ge 1536L/(\eta\gamma)`, not 392 (finding).  Step (f) needs
   :math:`n\ge 192L/\eta` (printed ":math:`392L/\gamma`"); step (g) uses
   :math:`p(\bar v)\le p(\bar v|\bar u)` (printed :math:`\ge`).
4. ``eq:puv_diff_term3``: :math:`\le 32\sqrt6\sqrt{L/(\eta\gamma^3 n)}`.
5. Sum, :math:`p_{uv}\le 1`, :math:`B_1\le V`, :math:`\sum p^{S^*}_{uv}\le d_{\max}\sigma^*`
   and :math:`\alpha\le1`: :math:`Vd_{\max}\sigma^*(8\sqrt3\sqrt{L/(\gamma n)} +
   8\sqrt3\sqrt{L/(\eta\gamma^2 n)} + 32\sqrt6\sqrt{L/(\eta\gamma^3 n)})`; the proof then
   relaxes the bracket to :math:`48\sqrt6\sqrt{L/(\eta\gamma^3 n)}` (valid, slack).
6. Union bound (``apdx_lem:aux_IM``): per edge :math:`(2+2+2n+1+1+1)\delta'`, over
   :math:`E` edges with :math:`\delta'=\delta/(12nE)`: :math:`(2n+7)\delta/(12n)\le\delta`.

References
----------
``thm:IM``, ``apdx_thm:IM``, ``apdx_sec:app_IM_node``, ``apdx_eq:IM_lcb_gap``,
``apdx_lem:aux_IM``, ``alg:CLCB-IM`` line ``line:IM_intervals``.
"""

from __future__ import annotations

import sympy as sp

from offcmab.bounds.bound import Bound
from offcmab.bounds.symbols import E, V, d_max, delta, eta, gamma, n, sigma_star

LOG = sp.log(12 * n * E / delta)

THM4_IM = Bound(
    id="thm4-im",
    title="CLCB-IM-N influence-spread gap with node-level feedback",
    paper_ref="thm:IM (apdx_thm:IM)",
    parameters=("V", "d_max", "sigma_star", "eta", "gamma", "E", "n", "delta"),
    expressions={
        "stated": 48 * sp.sqrt(6) * sp.sqrt(
            V**2 * d_max**2 * sigma_star**2 * LOG / (eta * gamma**3 * n)),
        "proved": V * d_max * sigma_star * (
            8 * sp.sqrt(3) * sp.sqrt(LOG / (gamma * n))
            + 8 * sp.sqrt(3) * sp.sqrt(LOG / (eta * gamma**2 * n))
            + 32 * sp.sqrt(6) * sp.sqrt(LOG / (eta * gamma**3 * n))),
    },
    preconditions={
        "stated": sp.GreaterThan(n, 392 * LOG / (eta * gamma)),
        "proved": sp.GreaterThan(n, 1536 * LOG / (eta * gamma)),
    },
    failure_probability={"stated": delta, "proved": (2 * n + 7) * delta / (12 * n)},
    derivation=__doc__ or "",
    constraints=((sp.LessThan(sigma_star, V), "sigma_star"),),
)

BOUNDS_HERE: tuple[Bound, ...] = (THM4_IM,)
