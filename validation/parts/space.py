r"""The instance space of a theorem: a box of coordinates and how a point decodes to an instance.

``offcmab tightness`` searches a theorem's space for the instance where its bound is
tightest, and ``offcmab falsify`` searches it for one where an algorithm breaks its bound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

#: A decoded point: the instance's parameters, its :math:`\delta` and its size ``n``.
Decoded = tuple[dict[str, Any], float, int]


@dataclass(frozen=True)
class Space:
    r"""A box ``[lo, hi]^d`` with integral coordinates, and how to decode a point.

    Attributes
    ----------
    names
        One name per coordinate (``mu[3]``, ``k``, ...), for messages and the JSON.
    lower, upper
        The box.
    integral
        True for integral coordinates (rounded before decoding).
    decode
        Point -> (params, delta, n).
    start
        A point decoding to a hand-picked instance (a candidate where one exists).
    family
        What the space varies, in words (shown by ``offcmab tightness``).
    """

    names: tuple[str, ...]
    lower: tuple[float, ...]
    upper: tuple[float, ...]
    integral: tuple[bool, ...]
    decode: Callable[[np.ndarray], Decoded]
    start: tuple[float, ...]
    family: str
