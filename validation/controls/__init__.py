r"""Negative controls: deliberately broken variants of the reference algorithms.

A check that cannot fail proves nothing.  Each control here is the reference
algorithm of one bound id with *one* expression changed (the docstring names it),
written as a thin wrapper around the code in :mod:`offcmab.reference`: it recomputes the
reference's statistics and changes only the index the oracle sees, or passes a
parameter the reference already has.  ``offcmab validate`` runs the controls on the
same datasets as the real algorithm; a control that no row flags shows a blind spot
of the validation (the power table, :mod:`offcmab.validation.power`).

Controls live here and never in :mod:`offcmab.reference`: nothing a user imports from the
reference package is broken on purpose.

``CONTROLS[bound_id][name]`` is the control ``name`` of ``bound_id``; it has the
signature of that bound id's reference algorithm (:data:`REFERENCE`).  The subject
spec ``control:<name>`` resolves to it (:func:`resolve_control`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from offcmab.validation import subjects
from offcmab.validation.controls import cmab, im, llm, stream

#: The reference algorithm (module path) whose signature the controls of a bound id share.
REFERENCE: dict[str, str] = {
    "thm1-inf": "offcmab.reference.clcb.clcb",
    "thm1-one": "offcmab.reference.clcb.clcb",
    "thm2-lower": "offcmab.reference.clcb.clcb",
    "cor1-cascade": "offcmab.reference.clcb_cascade.clcb_cascade",
    "lem-llm-std": "offcmab.reference.clcb_llm.clcb_llm",
    "thm3-llm": "offcmab.reference.clcb_llm.clcb_llm",
    "thm-llm-online": "offcmab.validation.subjects.printed_stream",
    "thm4-im": "offcmab.reference.im.clcb_im_node.clcb_im_node",
}


@dataclass(frozen=True)
class Control:
    """A named broken variant: the function and what it breaks (its docstring's summary)."""

    name: str
    bound_id: str
    function: Callable[..., Any]

    @property
    def broken(self) -> str:
        """The first line of the function's docstring: what is broken."""
        return (self.function.__doc__ or "").strip().splitlines()[0]


def _controls(bound_id: str, functions: dict[str, Callable[..., Any]]) -> dict[str, Control]:
    return {name: Control(name, bound_id, function) for name, function in functions.items()}


CONTROLS: dict[str, dict[str, Control]] = {
    "thm1-inf": _controls("thm1-inf", cmab.CLCB_CONTROLS),
    "thm1-one": _controls("thm1-one", cmab.CLCB_CONTROLS),
    "thm2-lower": _controls("thm2-lower", cmab.LOWER_CONTROLS),
    "cor1-cascade": _controls("cor1-cascade", cmab.CASCADE_CONTROLS),
    "lem-llm-std": _controls("lem-llm-std", llm.STANDARD_CONTROLS),
    "thm3-llm": _controls("thm3-llm", llm.IMPROVED_CONTROLS),
    "thm-llm-online": _controls("thm-llm-online", stream.STREAM_CONTROLS),
    "thm4-im": _controls("thm4-im", im.IM_CONTROLS),
}

#: Prefix of the subject specs that name a control.
PREFIX = "control"


def control_names(bound_id: str) -> tuple[str, ...]:
    """The controls of ``bound_id``, in report order (none for an unknown id)."""
    return tuple(CONTROLS.get(bound_id, {}))


def resolve_control(name: str, bound_id: str) -> Callable[..., Any]:
    """The function of control ``name`` for ``bound_id``; ``ValueError`` naming the field."""
    known = CONTROLS.get(bound_id, {})
    if name not in known:
        raise ValueError(f"algorithm: no control {name!r} for {bound_id}; known: "
                         f"{', '.join(known) or 'none'}")
    return known[name].function


subjects.register_prefix(PREFIX, resolve_control)
