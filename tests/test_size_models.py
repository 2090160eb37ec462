"""The memory models behind the early refusals of huge counts (runs, replicates, trials).

Each model counts bytes per item of what the command keeps for every item before the
first one runs; here the constant is checked against :mod:`tracemalloc` on a small count
(within a factor of two: the models refuse counts that are off by orders of magnitude).
Deterministic: no sampling, no clock.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from offcmab.validation import costs
from offcmab.validation.calibration import run_seeds
from offcmab.validation.mutation.score import plan
from offcmab.validation.parts.spec import PROFILES, TrialKey
from offcmab.validation.parts.theorem import find
from offcmab.validation.runner.store import TrialRecord
from offcmab.validation.runner.sweep import RunConfig
from offcmab.validation.theorems import THEOREMS

COUNT = 2000
CASCADE = "cor1-cascade"


def _calibration(count: int) -> Any:
    base = RunConfig(profile=PROFILES["quick"], seed=1, out=Path(), only=(CASCADE,))
    return [replace(base, seed=seed) for seed in run_seeds(2025, count)]


def _mutation(count: int) -> Any:
    jobs, _ = plan([find(THEOREMS, CASCADE)], 2025, count, ())
    return jobs


def _confirmation(count: int) -> Any:
    records = [TrialRecord(TrialKey(CASCADE, "counterexample", 1000, trial,
                                    "file:/home/user/mine.py:clcb").text(),
                           0.1 * trial, 0.0, {}, 0.01) for trial in range(count)]
    return records, np.array([record.gap for record in records])


def _items(kept: Any) -> int:
    return len(kept[0]) if isinstance(kept, tuple) else len(kept)


MODELS = [
    ("calibrate --runs", _calibration, costs.BYTES_PER_CALIBRATION_RUN),
    ("mutation --replicates", _mutation, costs.BYTES_PER_MUTATION_RUN),
    ("falsify --confirm-trials", _confirmation, costs.BYTES_PER_CONFIRMATION_TRIAL),
]


@pytest.mark.parametrize(("name", "build", "model"), MODELS, ids=[m[0] for m in MODELS])
def test_bytes_per_item_match_what_is_kept(name: str, build: Callable[[int], Any],
                                           model: float) -> None:
    build(10)  # warm-up: what is allocated once is no cost per item
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = build(COUNT)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    measured = peak / _items(kept)
    assert model / 2 <= measured <= model * 2, f"{name}: {measured:.0f} bytes per item"


def test_a_count_cost_names_its_field_and_scales_with_the_count() -> None:
    cost = costs.count_cost("runs", 10**12, 420, "runs")
    assert cost.field == "runs" and cost.bytes == 420e12 and cost.seconds == 0.0
