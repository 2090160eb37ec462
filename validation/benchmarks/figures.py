r"""The headline rows of ``offcmab bench``: a ratio against a reference, and its goal."""

from __future__ import annotations

from typing import Any


def figure(name: str, ratio: float, reference: str, goal: float, better: str) -> dict[str, Any]:
    """One row of the bench summary: a ratio to a reference measured in the same run.

    ``better`` is ``"lower"`` (times, memory: ours / reference) or ``"higher"``
    (throughputs: ours / reference); ``met`` compares ``ratio`` with ``goal`` that way.
    """
    met = ratio <= goal if better == "lower" else ratio >= goal
    return {"figure": name, "ratio": ratio, "reference": reference, "goal": goal,
            "better": better, "met": bool(met)}
