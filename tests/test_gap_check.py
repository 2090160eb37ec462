"""A gap no feasible action can have stops ``validate`` with exit 2, never a pass.

The checker's gap route is the reference's own problem code; if it went wrong (here: an
optimum halved), the gaps would shrink and every bound would look comfortable.  The
independent evaluator's range, checked on every trial, and its once-per-instance
cross-check turn that into an internal error naming the bound id, instance, n and trial.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from offcmab.reference.problems.kpath import KPathProblem
from offcmab.reference.problems.llm_cache import LLMCacheProblem
from offcmab.validation.cli import main
from offcmab.validation.evaluator.crosscheck import InternalError
from offcmab.validation.parts.scenario import Subject, TrialOutcome
from offcmab.validation.parts.spec import Instance, TrialKey
from offcmab.validation.runner.backends import Task, check_gap
from offcmab.validation.scenarios import cmabt, im, llm_instances, thm2_lower
from offcmab.validation.scenarios.cascade import CascadeScenario

ARGS = ["validate", "--quick", "--only", "cor1-cascade", "--no-figures"]


def halved_optimum_trial(original: Any) -> Any:
    """A trial whose gap is measured against half the optimum's reward."""
    def trial(self: Any, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        outcome = original(self, instance, n, rng, subject)
        problem = cmabt.build(instance.params).problem
        return TrialOutcome(outcome.gap - 0.5 * problem.reward(problem.optimal_action()))
    return trial


def test_halved_optimum_in_the_trial_exits_2_naming_the_impossible_gap(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(CascadeScenario, "trial", halved_optimum_trial(CascadeScenario.trial))
    assert main([*ARGS, "--out", str(tmp_path / "out")]) == 2
    message = capsys.readouterr().err.strip()
    assert "\n" not in message
    assert "internal error in cor1-cascade, instance cascade-ood, n=1000, trial 0" in message
    assert "impossible gap -" in message


def test_halved_optimum_in_the_gap_function_exits_2(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    def halved(setup: cmabt.Setup, action: np.ndarray) -> float:
        problem = setup.problem
        best = problem.reward(problem.optimal_action())
        return float(0.5 * setup.oracle.alpha * best - problem.reward(action))

    monkeypatch.setattr(cmabt, "gap", halved)
    monkeypatch.setattr(cmabt, "_EVALUATION", {})  # the cross-check runs once per instance
    assert main([*ARGS, "--out", str(tmp_path / "out")]) == 2
    message = capsys.readouterr().err.strip()
    assert "\n" not in message
    assert message.startswith("offcmab validate: error: internal error in cor1-cascade, "
                              "instance cascade-ood, n=1000")
    assert "the independent evaluator" in message


def task() -> Task:
    instance = Instance("one", {}, 0.05, (10,))
    return Task(instance, TrialKey("some-bound", "one", 10, 3), 0)


def test_a_gap_inside_the_range_passes_and_one_outside_is_refused() -> None:
    record: Any = SimpleNamespace(id="some-bound",
                                  scenario=SimpleNamespace(gap_range=lambda i, n: (0.0, 1.0)))
    check_gap(task(), record, TrialOutcome(1.0))
    check_gap(task(), record, TrialOutcome(1.2, gap_error=0.25))  # an estimate within error
    with pytest.raises(InternalError, match=r"some-bound, instance one, n=10, trial 3 .*"
                                            r"impossible gap 1\.2 "):
        check_gap(task(), record, TrialOutcome(1.2))
    with pytest.raises(InternalError, match=r"impossible gap -0\.1 "):
        check_gap(task(), record, TrialOutcome(-0.1))


def test_internal_errors_cross_processes_unchanged() -> None:
    error = InternalError("two routes disagree", "some-bound, instance one, n=10")
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error) == ("internal error in some-bound, instance one, n=10: "
                                       "two routes disagree")


def test_a_scenario_without_a_gap_range_is_not_checked() -> None:
    record: Any = SimpleNamespace(id="some-bound", scenario=SimpleNamespace())
    check_gap(task(), record, TrialOutcome(-1e6))


def test_every_family_cross_checks_its_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wrong optimum in the LLM cache, IM or lower-bound route is an internal error."""
    for module, name in ((llm_instances, "_EVALUATION"), (im, "_EVALUATION"),
                         (thm2_lower, "_RANGES")):
        monkeypatch.setattr(module, name, {})
    monkeypatch.setattr(LLMCacheProblem, "optimal_cost",
                        lambda self: 0.5 * self.expected_cost(self.optimal_cache()))
    with pytest.raises(InternalError, match="gap of cache"):
        llm_instances.evaluation(llm_instances.small_ood())
    original = im.seed_gap
    monkeypatch.setattr(im, "seed_gap", lambda problem, alpha, seeds:
                        original(problem, 0.5 * alpha, seeds))
    with pytest.raises(InternalError, match="gap of seed set"):
        im.evaluation(im.star_and_chain())
    monkeypatch.setattr(KPathProblem, "gap", lambda self, action: 0.5 * (
        self.reward(self.optimal_action()) - self.reward(action)))
    pair = Instance("pair", {"m": 4, "k": 2, "C_inf": 4.0, "variant": "proved"}, 0.05, (100,))
    with pytest.raises(InternalError, match="gap of path"):
        thm2_lower.pair_range(pair, 100)
