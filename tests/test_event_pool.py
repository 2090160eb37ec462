"""Event rows run on worker processes give the rows they give in the main process."""

from __future__ import annotations

from collections.abc import Sequence

from offcmab.validation.events.collect import all_cases, theorem_cases
from offcmab.validation.events.core import TRIALS, EventResult
from offcmab.validation.parts.theorem import find
from offcmab.validation.runner.event_pool import EventBatch, run_batches
from offcmab.validation.subjects import REFERENCE, control_spec
from offcmab.validation.theorems import THEOREMS, index

SEED = 2025


def batches() -> list[EventBatch]:
    chosen = [find(THEOREMS, "thm1-inf"), find(THEOREMS, "thm3-llm")]
    reference = EventBatch("quick", REFERENCE, tuple(all_cases(chosen, "quick")),
                           TRIALS["quick"])
    control = next(iter(chosen[1].controls))
    spec = control_spec(control)
    broken = EventBatch("quick", spec, tuple(theorem_cases(chosen[1], "quick", spec)),
                        TRIALS["quick"])
    return [reference, broken]


def counts(results: Sequence[Sequence[EventResult]]) -> list[list[tuple[str, str, int, int, str]]]:
    return [[(r.case.id, r.case.instance, r.trials, r.failures, r.reason) for r in batch]
            for batch in results]


def test_two_workers_give_the_counts_of_one_process() -> None:
    chosen = [find(THEOREMS, "thm1-inf"), find(THEOREMS, "thm3-llm")]
    here = counts(run_batches(batches(), SEED, 1, chosen))
    there = counts(run_batches(batches(), SEED, 2, chosen, index=index))
    assert here == there
    assert [len(batch) for batch in here] == [len(batch.cases) for batch in batches()]
    # the control breaks some event: the comparison is not between two empty lists
    assert any(failures for *_, failures, _reason in here[1])
