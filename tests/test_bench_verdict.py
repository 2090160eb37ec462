r"""``offcmab bench``'s exit code is its verdict on the speed goals."""

from __future__ import annotations

from typing import Any

import pytest

from offcmab.validation.commands.bench import summary, verdict


def _figure(met: bool) -> dict[str, Any]:
    return {"figure": "f", "ratio": 1.0, "goal": 1.5, "better": "lower", "met": met,
            "reference": "floor"}


@pytest.mark.parametrize(("figures", "code"), [
    ([[_figure(True)], [_figure(True)]], 0),
    ([[_figure(True)], [_figure(False)]], 1),
    ([[_figure(False)], []], 1),
    ([[], []], 3),
])
def test_verdict_of_the_goals(figures: list[list[dict[str, Any]]], code: int) -> None:
    """0 every goal met, 1 one not met (even beside a benchmark with no reference), 3 when no
    benchmark measured its reference."""
    results = {f"b{i}": {"title": "t", "figures": rows} for i, rows in enumerate(figures)}
    assert verdict(summary(results)) == code
