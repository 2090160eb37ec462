"""A theorem record written outside the package runs through the engine with no other edit.

The toy theorem (docs/extending.md, section 4) lives in a package created in a temporary
folder: two Bernoulli arms, the better one seen rarely by the logger, the action one arm.
Its "bound" is Hoeffding's radius doubled, so CLCB passes it and an algorithm that picks
the arm the logger played most fails it.  Statistical content: the reference fails a row
with probability at most the run's row level (exact binomial, at the budget of 1e-3 split
over the rows with power); the broken subject picks the worse arm in every trial (gap 0.4
against bounds of 0.19 and 0.05), which the same test flags at this seed.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from offcmab.validation import check
from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.runner.sweep import RunConfig, run_validation

TOY = textwrap.dedent('''
    """A toy theorem: pick the better of two Bernoulli arms from a log that favours the worse."""

    import math
    from dataclasses import dataclass

    import numpy as np

    from offcmab.reference.clcb import clcb
    from offcmab.reference.dataset import OfflineDataset
    from offcmab.reference.oracles import TopK
    from offcmab.validation.actions import as_action
    from offcmab.validation.parts.scenario import BoundValue, Kind, MaxGap, Subject, TrialOutcome
    from offcmab.validation.parts.spec import Instance, Profile
    from offcmab.validation.parts.theorem import Signature, Theorem, no_events

    MU = np.array([0.3, 0.7])  # arm 1 is better
    SEEN = np.array([0.9, 0.2])  # the logger shows arm 0 far more often


    @dataclass(frozen=True)
    class TwoArms:
        bound_id: str = "toy-two-arms"
        kind: Kind = "upper"
        algorithm: str = "offcmab.reference.clcb"

        def instances(self, profile: Profile, seed: int) -> list[Instance]:
            return [Instance("rare-best", {"mu": MU.tolist(), "seen": SEEN.tolist()}, 0.05,
                             (4000, 16000))]

        def trial(self, instance: Instance, n: int, rng: np.random.Generator,
                  subject: Subject) -> TrialOutcome:
            seen = rng.random((n, 2)) < SEEN
            samples, arms = np.nonzero(seen)
            outcomes = (rng.random(arms.size) < MU[arms]).astype(float)
            offsets = np.concatenate([[0], np.cumsum(seen.sum(axis=1))])
            data = OfflineDataset(2, offsets, arms, outcomes)
            action = as_action(subject.function(data, TopK(1), instance.delta), 2, 1,
                               subject.spec)
            return TrialOutcome(float(MU.max() - MU[action].sum()))

        def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
            # on the event that both means lie within their radius, a wrong pick needs the
            # gap below twice the radius of the rarer arm (a toy bound, not a theorem)
            radius = math.sqrt(math.log(4 * 2 * n / instance.delta) / (2 * SEEN.min() * n))
            return BoundValue(min(2 * radius, 1.0), parameters={"n": n})

        def max_gap(self, instance: Instance, n: int) -> MaxGap:
            return MaxGap(float(MU.max() - MU.min()), True, "the worse arm")


    THEOREM = Theorem(id="toy-two-arms", bound=None, title="the toy bound",
                      scenario=TwoArms(),
                      signature=Signature("f(dataset, oracle, delta)", clcb),
                      events=no_events)


    def most_logged(dataset, oracle, delta):
        """Behaviour cloning: the arm the logger showed most (ignores the outcomes)."""
        return np.array([int(np.argmax(np.bincount(dataset.triggered, minlength=2)))])
''')


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    """The module ``toy_theorem.theorem``, importable by worker processes too."""
    package = tmp_path / "toy_theorem"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "theorem.py").write_text(TOY, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "toy_theorem", raising=False)
    monkeypatch.delitem(sys.modules, "toy_theorem.theorem", raising=False)
    import toy_theorem.theorem as module

    return module


def test_a_toy_theorem_runs_through_the_engine(toy: object, tmp_path: Path) -> None:
    theorem = toy.THEOREM  # type: ignore[attr-defined]
    serial = run_validation(RunConfig(profile=PROFILES["quick"], seed=5, out=tmp_path / "s"),
                            (theorem,))
    assert {row["id"] for row in serial["rows"]} == {"toy-two-arms"}
    assert {row["verdict"] for row in serial["rows"]} == {"pass"}
    assert serial["summary"]["power"] == 2  # both rows can fail: bound < largest gap
    parallel = run_validation(RunConfig(profile=PROFILES["quick"], seed=5, out=tmp_path / "p",
                                        jobs=2, backend="processes"), (theorem,))
    assert parallel["rows"] == serial["rows"]


def test_a_toy_theorem_checks_a_users_algorithm(toy: object, tmp_path: Path) -> None:
    theorem = toy.THEOREM  # type: ignore[attr-defined]
    clone = check(toy.most_logged, "toy-two-arms", profile="quick",  # type: ignore[attr-defined]
                  theorems=(theorem,))
    assert not clone.passed
    assert {row["verdict"] for row in clone.rows} == {"FAIL"}
    with pytest.raises(ValueError, match="bound_id: must be one of toy-two-arms"):
        check(toy.most_logged, "thm1-inf", theorems=(theorem,))  # type: ignore[attr-defined]
