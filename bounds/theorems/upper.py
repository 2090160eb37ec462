r"""Theorem 1 (``thm:upper_bound``): the CLCB gap under infinity-norm and 1-norm coverage.

Stated (eqs. ``gap_c_max`` and ``gap_c_1``), with probability :math:`1-\delta` when
:math:`n \ge 8\log(m/\delta)/p^*`:

.. math::

    2\alpha B_1 \bar K_2^* \sqrt{2 C_\infty^* \log(2mn/\delta)/n},\qquad
    2\alpha B_1 \sqrt{2 \bar K^* C_1^* \log(2mn/\delta)/n}.

Proved (``apdx_sec:upper_bound`` read step by step):

1. Events.  :math:`\mathcal E_{\text{arm}}` (``apdx_lem:arm_concen``) with radius
   :math:`\sqrt{\log(2mn/\delta')/(2N_i)}` fails with probability at most
   :math:`\sum_i\sum_{j\le n} 2e^{-\log(2mn/\delta')} = \delta'`;
   :math:`\mathcal E_{\text{counter}}` (``apdx_lem:arm_counter_concen``, Chernoff with
   :math:`a=1/2`: :math:`\Pr[N_i \le np_i/2] \le e^{-np_i/8}`) fails with probability at
   most :math:`m e^{-np^*/8} \le \delta'` when :math:`n \ge 8\log(m/\delta')/p^*`.
   The proof sets :math:`\delta' = \delta/2`, so the radius becomes
   :math:`\sqrt{\log(4mn/\delta)/(2N_i)}` (exactly the radius Algorithm 1 prints, line
   ``line:LCB``) and the counter event needs :math:`n \ge 8\log(2m/\delta)/p^*`, not the
   printed :math:`8\log(m/\delta)/p^*` (finding: the printed precondition is too weak;
   at its boundary the union bound gives failure probability :math:`1.5\delta`).
2. Steps (a)-(c): gap :math:`\le \alpha B_1\sum_i p_i^{S^*}(\mu_i-\underline\mu_i)`.
3. Step (d): :math:`\mu_i-\underline\mu_i \le 2\sqrt{\log(4mn/\delta)/(2N_i)}`.
4. Step (e): :math:`N_i \ge np_i^{D}/2` turns it into :math:`2\sqrt{\log(4mn/\delta)/(np_i^D)}`
   (no factor 2 inside the root).
5. Step (f) (infinity norm): :math:`p_i^{S^*}/p_i^D \le C_\infty^*` gives
   :math:`2\alpha B_1\bar K_2^*\sqrt{C_\infty^*\log(4mn/\delta)/n}`; the printed extra
   :math:`\sqrt 2` is slack.
   1-norm: Cauchy-Schwarz gives :math:`2\alpha B_1\sqrt{\bar K^* C_1^*\log(4mn/\delta)/n}`
   (the proof inserts the same slack :math:`\sqrt2`).

Since :math:`\log(4x) < 2\log(2x)` for :math:`x = mn/\delta > 1`, proved < stated
everywhere (checked symbolically in the tests): the printed value is valid, only its
precondition is too weak.

References
----------
``thm:upper_bound``, ``apdx_sec:upper_bound``, ``apdx_eq:gap_decom``,
``apdx_lem:arm_concen``, ``apdx_lem:arm_counter_concen``, ``alg:CLCB`` line ``line:LCB``.
"""

from __future__ import annotations

import sympy as sp

from offcmab.bounds.bound import Bound
from offcmab.bounds.symbols import B1, C_inf, C_one, K2bar, Kbar, alpha, delta, m, n, p_star

STATED_LOG = sp.log(2 * m * n / delta)
PROVED_LOG = sp.log(4 * m * n / delta)
STATED_PRECONDITION = sp.GreaterThan(n, 8 * sp.log(m / delta) / p_star)
PROVED_PRECONDITION = sp.GreaterThan(n, 8 * sp.log(2 * m / delta) / p_star)

THM1_INF = Bound(
    id="thm1-inf",
    title="CLCB suboptimality gap under infinity-norm TPM data coverage",
    paper_ref="thm:upper_bound (eq. gap_c_max)",
    parameters=("alpha", "B1", "K2bar", "C_inf", "m", "n", "delta"),
    optional_parameters=("p_star",),
    expressions={
        "stated": 2 * alpha * B1 * K2bar * sp.sqrt(2 * C_inf * STATED_LOG / n),
        "proved": 2 * alpha * B1 * K2bar * sp.sqrt(C_inf * PROVED_LOG / n),
    },
    preconditions={"stated": STATED_PRECONDITION, "proved": PROVED_PRECONDITION},
    failure_probability={"stated": delta, "proved": delta},
    derivation=__doc__ or "",
)

THM1_ONE = Bound(
    id="thm1-one",
    title="CLCB suboptimality gap under 1-norm TPM data coverage",
    paper_ref="thm:upper_bound (eq. gap_c_1)",
    parameters=("alpha", "B1", "Kbar", "C_one", "m", "n", "delta"),
    optional_parameters=("p_star",),
    expressions={
        "stated": 2 * alpha * B1 * sp.sqrt(2 * Kbar * C_one * STATED_LOG / n),
        "proved": 2 * alpha * B1 * sp.sqrt(Kbar * C_one * PROVED_LOG / n),
    },
    preconditions={"stated": STATED_PRECONDITION, "proved": PROVED_PRECONDITION},
    failure_probability={"stated": delta, "proved": delta},
    derivation=__doc__ or "",
)

BOUNDS_HERE: tuple[Bound, ...] = (THM1_INF, THM1_ONE)
