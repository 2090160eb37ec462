r"""The theorems ``offcmab validate`` checks: one module, one :class:`Theorem` record each.

A module here holds everything validation knows about one bound of the paper (its
instances, the signature a substituted algorithm must have, its event rows, its negative
controls, its tightness space) and exports it as ``THEOREM``.  :data:`THEOREMS` lists them
in the order reports show them; the engine receives these records and names none.
"""

from __future__ import annotations

from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.theorems import (
    cor1_cascade,
    lem_llm_std,
    thm1_inf,
    thm1_one,
    thm2_lower,
    thm3_llm,
    thm4_im,
    thm_llm_online,
)

#: Every checked theorem, in report order.
THEOREMS: tuple[Theorem, ...] = (
    thm1_inf.THEOREM,
    thm1_one.THEOREM,
    thm2_lower.THEOREM,
    cor1_cascade.THEOREM,
    lem_llm_std.THEOREM,
    thm3_llm.THEOREM,
    thm_llm_online.THEOREM,
    thm4_im.THEOREM,
)



def index() -> tuple[Theorem, ...]:
    """:data:`THEOREMS`: how worker processes find these records (their negative controls
    are closures that do not pickle, so a run hands workers this function instead)."""
    return THEOREMS


__all__ = ["THEOREMS", "Theorem", "index"]
