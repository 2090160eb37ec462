r"""Theorem 2 (``thm:lower_bound``): minimax lower bound on the k-path problem.

Stated: for :math:`C_\infty^* \ge 2`,
:math:`\inf_A\sup \mathbb E[r(S^*)-r(A(\mathcal D))] \ge k\min(1, \sqrt{C_\infty^*/n})`.

Proved (``apdx_sec:lower_bound``, Le Cam's two-point method), step by step:

1. Two instances differ in path 2 only (means :math:`1/2 \mp \Delta`), so for every
   action :math:`g_1 + g_2 \ge k\Delta`.
2. (a) :math:`\sup \ge` average of the two expected gaps.
3. With :math:`\mathcal E = \{g_1 \le k\Delta/2\}`: average :math:`\ge
   \tfrac{k\Delta}{4}(P_1(\neg\mathcal E)+P_2(\mathcal E))`.
4. ``apdx_lem:hard_test``: :math:`\ge \tfrac{k\Delta}{8}e^{-\mathrm{KL}}` (the first
   display prints :math:`k\Delta/4`, the detailed one :math:`k\Delta/8`; the latter is right).
5. The proof's KL step: :math:`\mathrm{KL} \le 20 n\Delta^2/C_\infty^*`; with
   :math:`\Delta = \min(1/4, \sqrt{C_\infty^*/(20n)})`, :math:`\mathrm{KL}\le 1`.

Result: :math:`\tfrac{k}{8e}\min(1/4, \sqrt{C_\infty^*/(20n)})`, at most
:math:`1/(32e) \approx 1/87` of the stated value (ratio :math:`1/(8e\sqrt{20}) \approx 1/97`
when :math:`n \ge 16C_\infty^*/20`).

Findings (reported, not encoded in the formula): the stated constant 1 is false (for
:math:`m = k` every algorithm has gap 0; for :math:`m/k \ge 2` paths, choosing a path
uniformly at random has worst-case expected gap :math:`\le k(1-k/m) < k`, contradicting
the stated :math:`k` whenever :math:`n \le C_\infty^*`); in step 5 the two instances
differ on path 2, which the data law samples with probability :math:`1-1/C_\infty^*`, not
:math:`1/C_\infty^*`, so the KL is :math:`n(1-1/C_\infty^*)\mathrm{KL}_{\text{Bern}}`
and the :math:`C_\infty^*` dependence does not follow from the construction as printed
(swapping the data law to :math:`(1-1/C, 1/C)` repairs it); and
:math:`4\Delta^2/(1/4-\Delta^2) \le 20\Delta^2` needs :math:`\Delta \le 1/\sqrt{20}`, not
:math:`\Delta \le 1/4` (at :math:`\Delta = 1/4` it is :math:`64/3\,\Delta^2`).  The
``proved`` variant keeps the proof's own KL step, as printed.

References
----------
``thm:lower_bound``, ``apdx_sec:lower_bound``, ``apdx_lem:hard_test``.
"""

from __future__ import annotations

import sympy as sp

from offcmab.bounds.bound import Bound
from offcmab.bounds.symbols import C_inf, k, n

PRECONDITION = sp.GreaterThan(C_inf, 2)

THM2_LOWER = Bound(
    id="thm2-lower",
    title="Minimax lower bound for the k-path problem (expected gap)",
    paper_ref="thm:lower_bound",
    parameters=("k", "C_inf", "n"),
    expressions={
        "stated": k * sp.Min(1, sp.sqrt(C_inf / n)),
        "proved": k / (8 * sp.E) * sp.Min(sp.Rational(1, 4), sp.sqrt(C_inf / (20 * n))),
    },
    preconditions={"stated": PRECONDITION, "proved": PRECONDITION},
    failure_probability={"stated": sp.Integer(0), "proved": sp.Integer(0)},
    kind="lower",
    derivation=__doc__ or "",
)

BOUNDS_HERE: tuple[Bound, ...] = (THM2_LOWER,)
