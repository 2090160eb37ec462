"""The online door: a learner fed one round at a time, never the stream, never a hit's cost.

Every run here is deterministic (fixed seeds).  The one statistical verdict, the inverted
learner failing ``event-stream-oracle-printed``, is an exact binomial test at the run's row
level against the printed algorithm's measured rate; a learner as good as the printed one
fails it with probability at most that level (plus 1e-3 for the stored rate's limit).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from online_learners import Peeker, first_k, never_caches
from test_cli_solve import run_cli

from offcmab.reference.cucb_llm_stream import cucb_llm_stream
from offcmab.validation.events import core, llm
from offcmab.validation.parts.scenario import Subject
from offcmab.validation.parts.spec import Instance
from offcmab.validation.parts.theorem import find
from offcmab.validation.scenarios import llm_instances
from offcmab.validation.scenarios.llm_online import (
    draw_stream,
    feed,
    printed_cache,
    replay,
    round_cache,
)
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.user_algorithm import AlgorithmError

LEARNERS = Path(__file__).resolve().parent / "online_learners.py"
PROBLEM = llm_instances.build(llm.STREAM_INSTANCE).problem


def stream(seed: int, T: int = 200) -> tuple[np.ndarray, np.ndarray]:
    return draw_stream(PROBLEM, T, np.random.default_rng(seed), "bernoulli")


def test_a_learner_is_handed_scalars_only_and_no_cost_on_a_hit() -> None:
    """Everything a learner gets through the door: its three factory arguments and, per
    round, one query id and its cost on a miss, None on a hit (query 0 is always cached)."""
    queries, costs = stream(1)
    made: list[Peeker] = []

    def factory(m: int, k: int, delta: float) -> Peeker:
        made.append(Peeker(m, k, delta))
        return made[-1]

    run = replay(factory, queries, costs, PROBLEM.m, PROBLEM.k, 0.05)
    [learner] = made
    assert all(item is None or type(item) in (int, float) for item in learner.seen)
    assert [q for q, _ in learner.feedback] == queries.tolist()
    hit = queries == 0
    assert run.hits.tolist() == hit.tolist() and hit.any() and (~hit).any()
    assert all(cost is None for q, cost in learner.feedback if q == 0)
    assert [cost for q, cost in learner.feedback if q != 0] == costs[~hit].tolist()


def test_the_cache_of_round_t_is_chosen_before_query_t_is_revealed() -> None:
    """A learner counting its feedback when asked for its cache: round t's cache is asked
    for after exactly t - 1 observations (and once more after the last round)."""
    queries, costs = stream(2, 50)

    class Counter(Peeker):
        def __init__(self) -> None:
            super().__init__()
            self.asked_after: list[int] = []

        def cache(self) -> np.ndarray:
            self.asked_after.append(len(self.feedback))
            return super().cache()

    learner = Counter()
    feed(learner, queries, costs, PROBLEM.m, PROBLEM.k)
    assert learner.asked_after == list(range(51))


def test_the_scenario_builds_the_learner_from_m_k_delta_only() -> None:
    theorem = find(THEOREMS, "thm-llm-online")
    instance = Instance("stream", dict(llm.STREAM_INSTANCE), 0.05, (100,))
    calls: list[tuple[Any, ...]] = []

    def factory(*arguments: Any) -> Peeker:
        calls.append(arguments)
        return Peeker()

    theorem.scenario.trial(instance, 100, np.random.default_rng(3), Subject("peek", factory))
    assert calls == [(PROBLEM.m, PROBLEM.k, 0.05)]


def test_the_reference_learner_is_the_printed_algorithm() -> None:
    """Fed the stream cucb_llm_stream draws, the reference learner holds the same caches
    and LCBs as cucb_llm_stream's own run (the regret of the scenario is unchanged)."""
    theorem = find(THEOREMS, "thm-llm-online")
    assert theorem.reference_algorithm() is printed_cache
    ref = cucb_llm_stream(PROBLEM, 300, np.random.default_rng(4))
    mine = replay(printed_cache, ref.queries, ref.costs, PROBLEM.m, PROBLEM.k, 0.05)
    assert np.array_equal(mine.caches, ref.caches) and np.array_equal(mine.lcbs, ref.lcbs)


def test_the_printed_lemma_check_agrees_with_the_reference_diagnostics() -> None:
    """stream_oracle_fails rebuilds the printed scores from the trace; on the printed
    learner it agrees with cucb_llm_stream's brute-force comparison on 60 streams (both
    outcomes occur)."""
    outcomes = set()
    for seed in range(60):
        queries, costs = stream(seed, 600)
        ref = cucb_llm_stream(PROBLEM, 600, np.random.default_rng(0), queries=queries,
                              costs=costs)
        run = replay(printed_cache, queries, costs, PROBLEM.m, PROBLEM.k, 0.05)
        fails = llm.stream_oracle_fails(queries, costs, run, PROBLEM.k)
        assert fails == (not np.all(ref.equals_reference)), seed
        outcomes.add(fails)
    assert outcomes == {True, False}


@pytest.mark.parametrize("factory", [never_caches, first_k], ids=["never", "first-k"])
def test_fixed_learners_run_through_the_door(factory: Any) -> None:
    """A learner that never caches and one that always holds 0..k-1 run in the scenario and
    in every online event row (their LCB row is n/a: they expose none)."""
    theorem = find(THEOREMS, "thm-llm-online")
    instance = Instance("stream", dict(llm.STREAM_INSTANCE), 0.05, (100,))
    gap = theorem.scenario.trial(instance, 100, np.random.default_rng(5),
                                 Subject("fixed", factory)).gap
    assert gap >= 0.0
    rows = {row["id"]: row for row in (
        core.event_row(core.run_case(case, 4, 2025), 1e-6)
        for case in llm.online_cases("quick", factory, "fixed"))}
    assert rows["event-online-lcb"]["verdict"] == core.NA
    assert rows["event-online-cost"]["trials"] == 16


def test_a_learner_exposing_lcb_as_a_method_is_read() -> None:
    queries, costs = stream(6, 40)

    class Method:
        def __init__(self) -> None:
            self.inner = printed_cache(PROBLEM.m, PROBLEM.k, 0.05)
            self.cache, self.observe = self.inner.cache, self.inner.observe

        def lcb(self) -> np.ndarray:
            return self.inner.lcb

    run = feed(Method(), queries, costs, PROBLEM.m, PROBLEM.k)
    ref = replay(printed_cache, queries, costs, PROBLEM.m, PROBLEM.k, 0.05)
    assert run.lcbs is not None and np.array_equal(run.lcbs, ref.lcbs)


@pytest.mark.parametrize(("value", "words"), [
    ([0, 1], "more than k=1"), ([7], r"must lie in \[0, 4\)"), ([-1], "must lie"),
    ([0.5], "ids must be integers"), ([True, False], "mask must have length m=4"),
    ([[0]], "must be a flat array")])
def test_a_bad_cache_is_a_value_error_naming_the_round(value: Any, words: str) -> None:
    with pytest.raises(ValueError, match=f"cache of me in round 3: .*{words}"):
        round_cache(value, 4, 1, "me", 3)
    with pytest.raises(ValueError, match="duplicate ids"):
        round_cache([1, 1], 4, 2, "me", 3)
    assert round_cache([], 4, 1, "me", 3).tolist() == [False] * 4


def test_a_factory_returning_no_learner_or_a_raising_learner_is_named() -> None:
    queries, costs = stream(7, 10)
    with pytest.raises(ValueError, match="learner built by me: must have the methods"):
        feed(np.zeros((10, 4), dtype=bool), queries, costs, 4, 1, "me")  # type: ignore[arg-type]

    class Raises(Peeker):
        def observe(self, query: int, cost: float | None) -> None:
            raise RuntimeError("boom")

    with pytest.raises(AlgorithmError, match="me observe\\(\\) raised RuntimeError: boom"):
        feed(Raises(), queries, costs, 4, 1, "me")


def test_an_inverted_replacement_rule_fails_validate(tmp_path: Path) -> None:
    """Evicting the best cached query breaks the printed lemma in every trial (16 of 16),
    significantly more often than the printed algorithm's stored rate: exit 1."""
    code = run_cli(["validate", "--quick", "--only", "thm-llm-online", "--algorithm",
                    f"{LEARNERS}:inverted", "--no-figures", "--out", str(tmp_path)])
    assert code == 1
    rows = json.loads((tmp_path / "report.json").read_text())["rows"]
    [row] = [r for r in rows if r["id"] == "event-stream-oracle-printed"]
    assert row["verdict"] == "FAIL" and row["violations"] == row["trials"] == 16
    assert row["p_value_known"] < row["row_level"]
