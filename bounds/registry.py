r"""The registry of the paper's bounds: ``BOUNDS[id] -> Bound``.

Ids and parameter names are a stable interface (``CONTRIBUTING.md``).  Each theorem
lives in its own module under :mod:`offcmab.bounds.theorems`, whose docstring derives its
``proved`` variant from the proof step by step.
"""

from __future__ import annotations

from offcmab.bounds.bound import VARIANTS, Bound, Variant, check_variant
from offcmab.bounds.theorems import cascade, im, llm, lower, upper
from offcmab.reference.errors import InputError

__all__ = ["BOUNDS", "VARIANTS", "Bound", "Variant", "check_variant", "get_bound"]

#: Bound id -> Bound, in the paper's order.
BOUNDS: dict[str, Bound] = {
    bound.id: bound
    for module in (upper, lower, cascade, llm, im)
    for bound in module.BOUNDS_HERE
}


def get_bound(bound_id: str) -> Bound:
    """The bound with this id, or an :class:`InputError` naming the known ids."""
    try:
        return BOUNDS[bound_id]
    except KeyError:
        raise InputError("id", f"unknown bound {bound_id!r}; known: "
                         f"{', '.join(BOUNDS)}") from None
