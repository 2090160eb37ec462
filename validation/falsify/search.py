r"""The hypothesis search for an instance where a subject breaks a theorem's bound.

Hypothesis draws points of the theorem's instance space (:mod:`.strategies`); each point
decodes into an instance that is evaluated on fixed seeds (:mod:`.evaluate`), so the test
of a point is deterministic.  :func:`hypothesis.target` steers the search towards a large
ratio of the gap's :math:`(1-\delta)`-quantile to the bound (towards smaller bounds among
vacuous instances), and a candidate *fails* the test when its violations on the search
seeds would be improbable for a correct algorithm: exact binomial tail below
:data:`SEARCH_LEVEL`.  An instance none of whose first :data:`SCREEN_TRIALS` trials
exceeds the bound is not run further (its target is read off those trials), which buys
more instances per second.  Hypothesis then shrinks the failing point (fewer arms, smaller
``k``, a simpler logging law, rounder means) and saves it in its example database, which
is the store of found counterexamples: a later search with the same database, bound id and
subject replays it first.

What is evaluated, what fails and what is targeted is a :class:`Judge`: by default
:func:`bound_judge` (the gap against the bound, as above); where the bound is vacuous at
every runnable size, :func:`offcmab.validation.falsify.paired.paired_judge` (the subject
against the reference on the same seeds).

The search makes no claim: it tries many instances on the same seeds, so its p-values are
not corrected for the search.  A found instance counts only once
:func:`offcmab.validation.falsify.confirm.confirm` has re-tested it on fresh seeds.

A fault of the subject (it raises, exits, hangs past the trial timeout, writes into its
input) ends the search at once: :func:`search` raises the
:class:`~offcmab.validation.sandbox.AlgorithmFault`, as a validation run reports it.
Hypothesis's own caches go to a temporary folder (:func:`private_storage`), never to
``.hypothesis/`` in the current folder.

Shrinking is capped at :data:`SHRINK_EVALUATIONS` new instances (a count, not a clock, so
the search stays deterministic): past it, instances not already evaluated pass untried,
so hypothesis ends with the smallest failing instance found by then.
"""

from __future__ import annotations

import contextlib
import json
import math
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, configuration, given, seed, settings, target
from hypothesis.database import DirectoryBasedExampleDatabase

from offcmab.validation.falsify.evaluate import CANDIDATE, VACUOUS, Evaluation, evaluate
from offcmab.validation.falsify.strategies import points
from offcmab.validation.parts.space import Space
from offcmab.validation.parts.spec import Instance
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.pool import Pool
from offcmab.validation.sandbox import AlgorithmFault

#: Name of every searched instance: part of its trial seeds (the search seeds).
SEARCH_NAME = "falsify-search"
#: Trials per searched instance (those of the default profile's rows).
SEARCH_TRIALS = 20
#: Trials that screen a searched instance: without a violation among them, it gets no more.
SCREEN_TRIALS = 5
#: A searched instance fails when its violations' binomial tail is below this.
SEARCH_LEVEL = 0.01
#: Instances tried by default (hypothesis's ``max_examples``).
DEFAULT_BUDGET = 1200
#: New instances evaluated while shrinking a failing instance, at most.
SHRINK_EVALUATIONS = 120
#: Weight of the mean gap over the bound in the target: among instances whose gap
#: quantile is 0 it prefers those where errors occur.
TIE_BREAK = 1e-3
#: The labels of the observations hypothesis maximises: the gap's quantile over the bound
#: (what fails), and its mean over the bound (which grows before the quantile does).
TARGET = "gap quantile over bound"
MEAN_TARGET = "mean gap over bound"


class Counterexample(AssertionError):
    """Raised inside the hypothesis test by an instance whose search trials fail."""


class _Faulted(BaseException):
    """Carries a fault of the subject out of the hypothesis test.

    Hypothesis takes any ``Exception`` for a failing example and goes on shrinking it,
    calling the faulty subject again and again; a ``BaseException`` ends the search at
    once, and :func:`search` raises the fault it carries.
    """

    def __init__(self, fault: AlgorithmFault):
        super().__init__(str(fault))
        self.fault = fault


@contextlib.contextmanager
def private_storage() -> Iterator[None]:
    """Hypothesis keeps caches (such as the constants it collects from source files) in
    ``.hypothesis/`` of the current folder; inside the block they go to a temporary folder,
    removed after it.  Found counterexamples live in the search's own database."""
    previous = configuration.__dict__.get("__hypothesis_home_directory")
    with tempfile.TemporaryDirectory(prefix="offcmab-hypothesis-") as folder:
        configuration.set_hypothesis_home_dir(folder)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(previous)


@dataclass
class SearchResult:
    """What one search found: the failing instance before and after shrinking, if any."""

    bound_id: str
    subject: str
    seed: int
    budget: int
    trials: int
    space: str
    found: Any = None  # the first failing instance (before shrinking), an evaluation
    shrunk: Any = None  # the smallest failing instance
    best: Any = None  # the candidate of largest target (gap over bound)
    counts: dict[str, int] = field(default_factory=lambda: {"candidate": 0, "vacuous": 0,
                                                            "n/a": 0})
    search_seconds: float = 0.0
    shrink_seconds: float = 0.0


def failing(evaluation: Evaluation) -> bool:
    """Whether a searched instance fails the test (improbable violations on search seeds)."""
    return (evaluation.status == CANDIDATE and evaluation.ratio > 1.0
            and evaluation.p_value < SEARCH_LEVEL)


def score(evaluation: Evaluation) -> float | None:
    """The target: gap quantile over bound; minus bound over largest gap when vacuous."""
    if evaluation.status == CANDIDATE:
        assert evaluation.bound is not None
        return evaluation.ratio + TIE_BREAK * float(np.mean(evaluation.gaps)) / evaluation.bound
    if evaluation.status == VACUOUS and evaluation.bound and evaluation.largest_gap:
        return -evaluation.bound / evaluation.largest_gap
    return None


@dataclass(frozen=True)
class Judge:
    """How a search evaluates an instance and what counts as failing.

    ``evaluate(instance, seed, trials, screen)`` returns an evaluation with ``status``;
    ``failing`` says whether it fails the search's test, ``targets`` what hypothesis
    maximises (label -> value), ``rank`` orders candidates for the best one seen, and
    ``describe`` is the failing instance's message; shrinking evaluates at most
    ``shrink_evaluations`` new instances.
    """

    evaluate: Callable[[Instance, int, int, int], Any]
    failing: Callable[[Any], bool]
    targets: Callable[[Any], dict[str, float]]
    rank: Callable[[Any], float]
    describe: Callable[[Any], str]
    shrink_evaluations: int = SHRINK_EVALUATIONS


def _bound_targets(found: Evaluation) -> dict[str, float]:
    value = score(found)
    targets = {} if value is None else {TARGET: value}
    if found.status == CANDIDATE and found.bound:
        targets[MEAN_TARGET] = float(np.mean(found.gaps)) / found.bound
    return targets


def bound_judge(theorem: Theorem, subject: str, pool: Pool | None = None) -> Judge:
    """The judge of an upper bound: the gap against the bound (:func:`failing`, :func:`score`),
    each instance's trials on ``pool``'s workers when given."""
    def run(instance: Instance, run_seed: int, trials: int, screen: int) -> Evaluation:
        return evaluate(theorem, subject, instance, run_seed, trials, screen, pool)

    return Judge(run, failing, _bound_targets, lambda found: found.ratio,
                 lambda found: f"gap quantile {found.quantile:.4g} > bound {found.bound:.4g}")


class _Search:
    """The state of one search: evaluated instances by key, counts, clocks."""

    def __init__(self, judge: Judge, space: Space, result: SearchResult):
        self.judge, self.space, self.result = judge, space, result
        self.seen: dict[str, Any] = {}
        self.started = time.perf_counter()
        self.found_at: float | None = None
        self.shrink_evaluations = 0

    def instance(self, point: np.ndarray) -> Instance:
        params, delta, n = self.space.decode(point)
        return Instance(SEARCH_NAME, params, delta, (n,), "falsify")

    def evaluation(self, point: np.ndarray) -> Any:
        """The instance's evaluation (cached); ``None`` once shrinking is out of budget."""
        instance = self.instance(point)
        key = json.dumps([instance.params, instance.delta, instance.n_grid], sort_keys=True)
        if key not in self.seen:
            if self.found_at is not None:
                if self.shrink_evaluations >= self.judge.shrink_evaluations:
                    return None
                self.shrink_evaluations += 1
            found = self.judge.evaluate(instance, self.result.seed, self.result.trials,
                                        SCREEN_TRIALS)
            self.seen[key] = found
            self.result.counts[found.status] += 1
            best = self.result.best
            if found.status == CANDIDATE and (best is None
                                              or self.judge.rank(found) > self.judge.rank(best)
                                              or math.isnan(self.judge.rank(best))):
                self.result.best = found
        return self.seen[key]

    def test(self, point: np.ndarray) -> None:
        """The hypothesis test of one point: fails on a failing instance; a fault of the
        subject ends the search (:class:`_Faulted`)."""
        try:
            found = self.evaluation(point)
        except AlgorithmFault as fault:
            raise _Faulted(fault) from None
        if found is None:
            return
        for label, value in self.judge.targets(found).items():
            if math.isfinite(value):
                target(value, label=label)
        if self.judge.failing(found):
            if self.found_at is None:
                self.found_at = time.perf_counter()
                self.result.found = found
                self.result.search_seconds = self.found_at - self.started
            self.result.shrunk = found
            raise Counterexample(self.judge.describe(found))


def search(theorem: Theorem, subject: str, budget: int = DEFAULT_BUDGET, run_seed: int = 2025,
           database: Path | None = None, trials: int = SEARCH_TRIALS,
           judge: Judge | None = None, pool: Pool | None = None) -> SearchResult:
    """Search ``theorem``'s space for an instance where ``subject`` breaks the bound
    (or fails ``judge``'s test, when given), the trials of each instance on ``pool``'s
    workers when given.

    Deterministic for a fixed ``run_seed`` and an empty (or no) ``database``.
    """
    if theorem.space is None:
        raise ValueError(f"id: {theorem.id} has no instance space to search")
    if budget < 1:
        raise ValueError(f"budget: must be at least 1, got {budget}")
    space = (theorem.falsify_space or theorem.space)()
    result = SearchResult(theorem.id, subject, run_seed, budget, trials, space.family)
    state = _Search(judge or bound_judge(theorem, subject, pool), space, result)

    def instance_holds(point: np.ndarray) -> None:
        state.test(point)

    # one database entry per (bound id, subject): their stored counterexamples differ; a
    # file's digest is left out, so a corrected file is tried on its old counterexamples
    name = subject.rpartition("@")[0] if subject.startswith("file:") else subject
    instance_holds._hypothesis_internal_add_digest = (  # type: ignore[attr-defined]
        f"{theorem.id}|{name}".encode())
    store = None if database is None else DirectoryBasedExampleDatabase(str(database))
    # the seed goes on first: applied over the settings, it would drop their database
    test = settings(
        max_examples=budget, deadline=None, database=store, verbosity=Verbosity.quiet,
        phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink),
        suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
        print_blob=False)(seed(run_seed)(given(points(space))(instance_holds)))
    with contextlib.suppress(Counterexample), private_storage():  # found: in ``result``
        try:
            test()
        except _Faulted as faulted:  # the subject failed: no search result, its fault
            raise faulted.fault from None
    finished = time.perf_counter()
    if result.found is None:
        result.search_seconds = finished - state.started
    else:
        assert state.found_at is not None
        result.shrink_seconds = finished - state.found_at
    return result
