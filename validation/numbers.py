r"""Strict parsing of the numbers users type on the command line.

Python's ``int`` and ``float`` accept more than a person means by a number: digits of any
script (``int("٢") == 2``), underscores (``int("1_0") == 10``), ``"nan"``, ``"inf"`` and
values that overflow to infinity (``float("1e400")``).  Here a number is ASCII only:

* an integer is ``[+-]?[0-9]+`` with at most :data:`MAX_DIGITS` digits;
* a decimal is ``[+-]?`` digits with an optional point and an optional ``e``/``E``
  exponent, and must be finite as a float;
* a list is comma-separated items, none of them empty (``0,,1`` is refused, not ``0,1``).

Surrounding spaces and tabs are ignored.  Every error is an
:class:`~offcmab.reference.errors.InputError` naming the field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TypeVar

from offcmab.reference.errors import InputError

T = TypeVar("T")

#: Longest integer accepted, in digits (no count, id or seed needs more).
MAX_DIGITS = 40

INTEGER = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
BLANKS = " \t"


def parse_int(text: str, field: str, low: int | None = None, high: int | None = None) -> int:
    """An integer written in ASCII digits, optionally within ``[low, high]``."""
    stripped = text.strip(BLANKS)
    if not INTEGER.fullmatch(stripped):
        raise InputError(field, f"must be an integer written in digits 0-9, got {text!r}")
    if len(stripped.lstrip("+-")) > MAX_DIGITS:
        raise InputError(field, f"has more than {MAX_DIGITS} digits")
    value = int(stripped)
    if low is not None and value < low:
        raise InputError(field, f"must be at least {low}, got {value}")
    if high is not None and value > high:
        raise InputError(field, f"must be at most {high}, got {value}")
    return value


def parse_float(text: str, field: str) -> float:
    """A finite decimal number written in ASCII (``0.5``, ``-3``, ``1e-3``, ``.5``)."""
    stripped = text.strip(BLANKS)
    if not DECIMAL.fullmatch(stripped):
        raise InputError(field, f"must be a decimal number like 0.5 or 1e-3, got {text!r}")
    value = float(stripped)
    if not math.isfinite(value):
        raise InputError(field, f"is too large for a 64-bit float, got {text!r}")
    return value


def parse_list(text: str, field: str, item: Callable[[str, str], T]) -> list[T]:
    """Comma-separated items parsed by ``item(piece, field)``; empty items are refused."""
    pieces = text.split(",")
    for position, piece in enumerate(pieces, start=1):
        if not piece.strip(BLANKS):
            raise InputError(field, f"item {position} of {text!r} is empty")
    return [item(piece, field) for piece in pieces]
