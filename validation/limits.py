r"""Cost estimates made before long work, and the refusal of a command whose cost is too high.

A command that could run for minutes or exhaust the machine's memory first estimates both
from its parameters, with a model derived from the arrays its code allocates (each model's
docstring says which), and refuses with exit code 2 when the memory needed exceeds
:data:`MEMORY_SHARE` of this machine's memory or the time exceeds :data:`SECONDS_LIMIT`.
The message names the parameter that drives the cost and gives the estimate; ``--force``
runs the command anyway.

Time models count elementary steps (multiply-adds, RR sets, node activations) and divide by
a throughput measured on a small shared 2-core machine; they are rough (a faster machine is
maybe 2-4 times faster) and serve to stop what would take many minutes, not to predict.
Memory models count bytes of the arrays allocated, which a test checks against
:mod:`tracemalloc` on a small input.
"""

from __future__ import annotations

import argparse
import math
import os
from dataclasses import dataclass

from offcmab.reference.errors import InputError

#: Largest share of the machine's physical memory a command may plan to use.
MEMORY_SHARE = 0.5
#: Longest estimated run time, in seconds, accepted without ``--force``.
SECONDS_LIMIT = 30.0
#: Assumed physical memory when the operating system does not say (bytes).
FALLBACK_MEMORY = 8 * 2**30


@dataclass(frozen=True)
class Cost:
    r"""The estimated cost of a command, and the parameter that drives it.

    Attributes
    ----------
    field
        The parameter named when the cost is refused (``k``, ``eps``, ``samples``, ...).
    bytes
        Estimated peak memory in bytes.
    seconds
        Estimated run time in seconds (``0`` when the command has no time model).
    model
        The model in words (shown in the refusal).
    """

    field: str
    bytes: float
    seconds: float
    model: str


def physical_memory() -> int:
    """Bytes of physical memory of this machine (:data:`FALLBACK_MEMORY` when unknown)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return FALLBACK_MEMORY


def memory_limit() -> float:
    """Most bytes a command may plan to use: :data:`MEMORY_SHARE` of the physical memory."""
    return MEMORY_SHARE * physical_memory()


def describe_bytes(size: float) -> str:
    """``about 1.5 GB``, ``about 320 MB``: a size for a person (powers of 1000)."""
    if not math.isfinite(size):
        return "more than any machine has"
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"about {size / scale:.3g} {unit}"
    return f"about {size:.0f} bytes"


def describe_seconds(seconds: float) -> str:
    """``about 45 s``, ``about 12 min``, ``about 3.5 h``: a duration for a person."""
    if not math.isfinite(seconds):
        return "forever"
    for unit, scale in (("days", 86400.0), ("h", 3600.0), ("min", 60.0)):
        if seconds >= scale:
            return f"about {seconds / scale:.3g} {unit}"
    return f"about {seconds:.3g} s"


def check_cost(cost: Cost, force: bool = False) -> Cost:
    """Return ``cost`` if within the limits (or ``force``); else ``InputError`` on its field."""
    if force:
        return cost
    limit = memory_limit()
    if not cost.bytes <= limit:
        raise InputError(cost.field, f"would need {describe_bytes(cost.bytes)} of memory, "
                         f"more than {limit / 1e9:.3g} GB (half of this machine's); "
                         f"estimate: {cost.model}; --force runs it anyway")
    if not cost.seconds <= SECONDS_LIMIT:
        raise InputError(cost.field, f"would take {describe_seconds(cost.seconds)}, more than "
                         f"{SECONDS_LIMIT:.0f} s; estimate: {cost.model}; --force runs it "
                         "anyway")
    return cost


def add_force_argument(parser: argparse.ArgumentParser) -> None:
    """``--force``: run even when the cost estimate is over its limit."""
    parser.add_argument("--force", action="store_true",
                        help="run even when the memory or time estimated beforehand is over "
                        f"its limit (half of this machine's memory, {SECONDS_LIMIT:.0f} s)")
