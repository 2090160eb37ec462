"""The substitution point: signatures, specs, action checks and paired datasets."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import subject_probe

from offcmab.validation import actions, subjects
from offcmab.validation.parts.scenario import Subject
from offcmab.validation.parts.spec import PROFILES, TrialKey
from offcmab.validation.parts.theorem import find
from offcmab.validation.runner.seeding import trial_seed_sequence
from offcmab.validation.runner.sweep import RunConfig, run_validation
from offcmab.validation.theorems import THEOREMS, index
from offcmab.validation.user_algorithm import AlgorithmError, call_parameters, check_signature

IDS = [theorem.id for theorem in THEOREMS]


def test_every_theorem_has_a_signature_matching_its_reference() -> None:
    for theorem in THEOREMS:
        sig = theorem.signature
        parameters = list(inspect.signature(sig.reference).parameters)
        called = list(call_parameters(sig.call))
        assert parameters[: len(called)] == called, theorem.id


def test_an_online_learner_factory_fits_its_signature() -> None:
    """The online call ``f(m, k, delta) -> learner with cache() and observe(...)``: its
    parameters are those inside the first parentheses, so ``make(m, k, delta)`` fits."""
    call = find(THEOREMS, "thm-llm-online").signature.call
    assert call_parameters(call) == ("m", "k", "delta")

    def make(m: int, k: int, delta: float) -> Any:
        return None

    def stream(queries: Any, costs: Any, m: int, k: int, delta: float) -> Any:
        return None

    check_signature(make, call_parameters(call), "make", call)
    with pytest.raises(AlgorithmError, match="does not fit the call f\\(m, k, delta\\)"):
        check_signature(stream, call_parameters(call), "stream", call)


def test_llm_references_bind_their_variant() -> None:
    assert find(THEOREMS, "lem-llm-std").signature.keywords == {"variant": "standard"}
    assert find(THEOREMS, "thm3-llm").signature.keywords == {"variant": "improved"}


def test_unknown_specs_are_value_errors() -> None:
    theorem = find(THEOREMS, "thm1-inf")
    with pytest.raises(ValueError, match="subject: unknown prefix 'nope'"):
        subjects.resolve("nope:x", theorem)
    with pytest.raises(ValueError, match="subject: must be"):
        subjects.resolve("plain", theorem)
    with pytest.raises(ValueError, match="bound id: no theorem 'no-such-id'"):
        find(THEOREMS, "no-such-id")


@pytest.mark.parametrize(("value", "message"), [
    ([0, 1, 2], "wrong length, expected k=2"),
    ([1, 1], "duplicate ids"),
    ([0, 5], r"ids out of range, must lie in \[0, 5\)"),
    ([0.0, np.nan], "contains NaN"),
    ([0.5, 1.0], "ids must be integers"),
    ([True, False], "ids must be integers"),
    (["a", "b"], "ids must be integers"),
    ([[0, 1]], "must be a flat array"),
])
def test_as_action_names_the_problem(value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=f"action returned by me: {message}"):
        actions.as_action(value, 5, 2, "me")


def test_as_action_accepts_arrays_and_result_objects() -> None:
    class Result:
        seeds = np.array([4, 0])

    assert actions.as_action([3.0, 1.0], 5, 2).tolist() == [3, 1]
    assert actions.as_action(Result(), 5, 2).tolist() == [4, 0]



def test_seed_ignores_the_subject() -> None:
    a = TrialKey("thm1-inf", "x", 10, 3)
    b = TrialKey("thm1-inf", "x", 10, 3, "probe:first")
    assert a.text() != b.text()
    assert (trial_seed_sequence(7, a).generate_state(4).tolist()
            == trial_seed_sequence(7, b).generate_state(4).tolist())


def _trial(bound_id: str, subject: str) -> tuple[float, str]:
    theorem = find(THEOREMS, bound_id)
    scenario = theorem.scenario
    instance = scenario.instances(PROFILES["quick"], 2025)[0]
    n = min(instance.n_grid)
    rng = np.random.default_rng(trial_seed_sequence(5, TrialKey(bound_id, instance.name, n, 0)))
    start = len(subject_probe.SEEN)
    algorithm = (Subject(subject, subjects.resolve(subject, theorem)) if subject == "reference"
                 else subject_probe.probe(subject.removeprefix("probe:"), theorem))
    gap = scenario.trial(instance, n, rng, algorithm).gap
    return gap, "".join(subject_probe.SEEN[start:])


@pytest.mark.parametrize("bound_id", IDS)
def test_reference_and_substitute_see_the_same_data(bound_id: str) -> None:
    reference_gap = _trial(bound_id, "reference")[0]
    recorded_gap, recorded = _trial(bound_id, "probe:record")
    other_gap, other = _trial(bound_id, "probe:first")
    assert recorded and recorded == other  # same datasets whatever the algorithm
    assert recorded_gap == reference_gap  # the reference on those data: the same gap
    assert other_gap >= 0.0


@pytest.mark.parametrize("kind", ["LENGTH", "DUPLICATE", "RANGE", "NAN", "FLOAT"])
@pytest.mark.parametrize("bound_id", ["thm1-inf", "cor1-cascade", "thm3-llm", "thm4-im"])
def test_a_bad_action_is_a_value_error_naming_it(bound_id: str, kind: str) -> None:
    words = {"LENGTH": "wrong length", "DUPLICATE": "duplicate ids", "RANGE": "out of range",
             "NAN": "NaN", "FLOAT": "must be integers"}[kind]
    with pytest.raises(ValueError, match=f"action returned by probe:bad-{kind}: .*{words}"):
        _trial(bound_id, f"probe:bad-{kind}")


def test_a_kpath_action_off_one_path_is_refused() -> None:
    from offcmab.reference.problems.kpath import KPathProblem
    from offcmab.validation.scenarios.cmabt import checked_action

    problem = KPathProblem(np.array([0.5, 0.4, 0.3]), 2)
    assert checked_action(problem, [2, 3], "me").tolist() == [2, 3]
    with pytest.raises(ValueError, match="not one path"):
        checked_action(problem, [1, 2], "me")


def _rows(out: Path, subject: str, jobs: int) -> list[dict[str, Any]]:
    config = RunConfig(profile=PROFILES["quick"], seed=11, out=out, only=("cor1-cascade",),
                       jobs=jobs, backend="processes" if jobs > 1 else "serial",
                       subject=subject, index=index)
    return run_validation(config, THEOREMS)["rows"]


def test_substituted_runs_are_identical_across_backends_and_keyed_apart(tmp_path: Path) -> None:
    spec = f"file:{Path(subject_probe.__file__).resolve()}:first_items"
    serial = _rows(tmp_path / "s", spec, 1)
    parallel = _rows(tmp_path / "p", spec, 2)
    reference = _rows(tmp_path / "r", "reference", 1)
    assert serial == parallel
    assert {row["algorithm"] for row in serial} == {spec}
    assert [row["gap_max"] for row in serial] != [row["gap_max"] for row in reference]
    log = (tmp_path / "s" / "trials.jsonl").read_text(encoding="utf-8")
    assert f"|{spec}" in log
