r"""Search a theorem's instances for the one where its bound is closest to tight.

The objective of a point ``x`` of the bound id's
:class:`~offcmab.validation.parts.space.Space` is minus the tightness of the row
``offcmab validate`` would report for the decoded instance (less ``TIE_BREAK``
times its mean gap over the bound): the empirical :math:`(1-\delta)`-quantile of
the real algorithm's gap over the stated bound.  It is computed by the runner
itself: each of the ``trials`` trials is :func:`offcmab.validation.runner.backends.run_task`
on the trial key ``(id, "tightest", n, t)`` with the search seed, and the row is
:func:`offcmab.validation.runner.analysis.upper_row`.  Every candidate therefore sees the
same seeds (common random numbers), and the saved instance replays to the same row.

An instance is a candidate only when its bound applies (the precondition holds, the
coefficients are finite) and is not vacuous (smaller than the largest gap the
instance allows, :mod:`offcmab.validation.tightness.largest`).  Non-candidates score above
every candidate (a vacuous one by bound over largest gap, so the optimizer is led
towards smaller bounds), and no trial is run for them.

The optimizer is :func:`scipy.optimize.differential_evolution` with a fixed seed,
deferred updating (a whole generation is scored at once, its evaluations on the workers of
:func:`~offcmab.validation.runner.pool.worker_pool`: serial, processes or dask), no
polishing and no convergence test (a population
whose scores are all equal keeps searching until the budget is spent), started from
a population whose first member is the space's starting instance and whose others
are a Latin hypercube drawn from the seed: for a fixed seed the search is
deterministic.  The budget counts evaluations (decoded instances, candidates or
not); once it is spent, the objective stops running trials and the optimizer is
stopped after its current generation.

With ``objective="certificate"`` the score is instead minus the empirical
:math:`(1-\delta)`-quantile of the gap over the certificate the algorithm returned with its
action (:func:`offcmab.validation.tightness.ledger.quantile_ratio`), over
:data:`CERTIFICATE_TRIALS` logs of the trial keys of :data:`CERTIFICATE_NAME`.  The
certificate itself needs no precondition, but an instance is a candidate only where the
theorem applies (the stated and the proved preconditions hold and the coefficients are
finite), so that the ledger of the instance found compares the certificate with both
bounds; a vacuous bound does not exclude it (the certificate's ratio is what is
maximised).  More logs than the stated search's 20: at :math:`\delta = 0.05` the quantile
of 20 logs is their largest gap, and a search on so few common logs prefers instances that
err once among them, however rarely they err elsewhere.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import differential_evolution

from offcmab.bounds.certificates import CERTIFICATES
from offcmab.validation.parts.space import Space
from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET, PROFILES, Instance, TrialKey
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner import analysis
from offcmab.validation.runner.backends import Index, Task, lookup, run_task
from offcmab.validation.runner.pool import Pool, worker_pool
from offcmab.validation.tightness.ledger import quantile_ratio, trial_terms

#: Name of every evaluated instance: part of its trial seeds, kept by the saved instance.
INSTANCE_NAME = "tightest"
#: Trials per evaluation: those of the default profile, so the corpus replays there.
TRIALS = PROFILES["default"].trials
#: Weight of the mean gap over the bound in a candidate's score: among instances of equal
#: tightness (often 0: the algorithm rarely errs) it prefers those where errors occur.
TIE_BREAK = 1e-3
#: Score of an instance whose bound does not apply (above every candidate's).
NOT_APPLICABLE_SCORE = 10.0
#: What a search can maximise: the stated bound's ratio (validate's row) or the certificate's.
OBJECTIVES = ("stated", "certificate")
#: Name of the instances a certificate search evaluates (its own trial keys).
CERTIFICATE_NAME = "tightest-certificate"
#: Logs per evaluation of a certificate search.
CERTIFICATE_TRIALS = 100


def searchable(theorem: Theorem, theorems: Sequence[Theorem]) -> str:
    """Empty when ``theorem`` can be searched, else why not (for the CLI's message)."""
    if theorem.space is None:
        names = ", ".join(known.id for known in theorems if known.space is not None)
        return (f"{theorem.id} is a lower bound (a minimax risk over a family): there is no "
                "gap/bound ratio of one instance to maximise; searchable: " + names)
    return ""


@dataclass(frozen=True)
class Evaluation:
    """One decoded instance and what it scored."""

    instance: Instance
    n: int
    status: str  # "candidate", "vacuous" or "n/a"
    score: float  # minimised: -tightness for a candidate
    row: dict[str, Any] = field(default_factory=dict)
    largest_gap: float | None = None
    reason: str = ""
    excess: float | None = None  # bound / largest gap of a vacuous instance

    @property
    def ratio(self) -> float:
        """The tightness of a candidate (``nan`` for a non-candidate)."""
        return float(self.row["tightness"]) if self.status == "candidate" else math.nan


def evaluate(theorem: Theorem, params: dict[str, Any], delta: float, n: int, seed: int,
             trials: int = TRIALS) -> Evaluation:
    """Score one instance of ``theorem``: the validate row of its ``trials`` trials at ``n``."""
    scenario, bound_id = theorem.scenario, theorem.id
    instance = Instance(INSTANCE_NAME, params, delta, (n,), "tightness")
    value = scenario.bound(instance, n, "stated")
    if value.value is None:
        return Evaluation(instance, n, "n/a", NOT_APPLICABLE_SCORE, reason=value.reason)
    largest = scenario.max_gap(instance, n).value  # the same vacuity test as validate's rows
    if value.value >= largest:
        excess = value.value / largest if largest > 0 else math.inf
        return Evaluation(instance, n, "vacuous", min(1.0 + excess, NOT_APPLICABLE_SCORE),
                          largest_gap=largest, excess=excess,
                          reason=f"bound {value.value:.4g} >= largest gap {largest:.4g}")
    records = [run_task(Task(instance, TrialKey(bound_id, INSTANCE_NAME, n, t), seed), theorem)
               for t in range(trials)]
    cell = analysis.Cell.from_records(bound_id, instance, n, records)
    plan = analysis.RowPlan("stated", value, None)
    row = analysis.upper_row(cell, plan, FALSE_ALARM_BUDGET, PROFILES["default"].detect)
    tie_break = TIE_BREAK * float(row["gap_mean"]) / float(row["bound"])
    return Evaluation(instance, n, "candidate", -float(row["tightness"]) - tie_break, row,
                      largest)


def evaluate_certificate(theorem: Theorem, params: dict[str, Any], delta: float, n: int,
                         seed: int, trials: int = CERTIFICATE_TRIALS) -> Evaluation:
    """Score one instance by the certificate's ratio over ``trials`` logs at ``n``."""
    scenario = theorem.scenario
    instance = Instance(CERTIFICATE_NAME, params, delta, (n,), "tightness")
    for variant in ("stated", "proved"):  # outside the hypotheses the ledger has no bound
        value = scenario.bound(instance, n, variant)
        if value.value is None:
            return Evaluation(instance, n, "n/a", NOT_APPLICABLE_SCORE,
                              reason=f"{variant}: {value.reason}")
    largest = scenario.max_gap(instance, n).value
    if not largest > 0:
        return Evaluation(instance, n, "n/a", NOT_APPLICABLE_SCORE,
                          reason="no feasible action has a positive gap")
    terms = trial_terms(theorem, instance, n, seed, trials)
    if terms.certificates is None:
        raise ValueError(f"objective: {theorem.id}'s algorithm returns no certificate")
    ratio = quantile_ratio(terms.gaps, terms.certificates, delta)
    per_log = np.zeros(trials)
    np.divide(terms.gaps, terms.certificates, out=per_log,
              where=(terms.gaps > 0) & (terms.certificates > 0))
    row = {"tightness": ratio, "bound": float(np.median(terms.certificates)),
           "gap_quantile": float(np.quantile(terms.gaps, 1.0 - delta, method="higher")),
           "gap_mean": float(np.mean(terms.gaps))}
    return Evaluation(instance, n, "candidate", -ratio - TIE_BREAK * float(np.mean(per_log)),
                      row, largest)


@dataclass
class SearchResult:
    """The best candidate, the starting instance's evaluation, and counts by status."""

    bound_id: str
    space: Space
    best: Evaluation | None
    start: Evaluation
    counts: dict[str, int]
    evaluations: int
    closest_vacuous: float  # smallest bound / largest gap among vacuous instances (inf: none)
    seed: int
    budget: int
    trials: int
    objective: str = "stated"


def evaluate_task(task: tuple[str, str, dict[str, Any], float, int, int, int]) -> Evaluation:
    """A worker's evaluation: ``(objective, bound id, params, delta, n, seed, trials)``, the
    theorem looked up by its id."""
    objective, bound_id, params, delta, n, seed, trials = task
    measure = evaluate_certificate if objective == "certificate" else evaluate
    return measure(lookup(bound_id), params, delta, n, seed, trials)


class _Objective:
    """Decode, evaluate, remember the best candidate; stop running trials past the budget.

    Differential evolution hands over a whole generation at once (:meth:`map`, its
    ``workers``); the generation's evaluations run on ``pool`` and are counted in the
    order of the population, so the search is the same on every backend.
    """

    def __init__(self, theorem: Theorem, space: Space, seed: int, budget: int, trials: int,
                 pool: Pool, objective: str = "stated"):
        self.theorem, self.space, self.seed = theorem, space, seed
        self.budget, self.trials, self.pool = budget, trials, pool
        self.objective = objective
        self.evaluations = 0
        self.counts = {"candidate": 0, "vacuous": 0, "n/a": 0}
        self.best: Evaluation | None = None
        self.first: Evaluation | None = None
        self.closest_vacuous = math.inf

    def map(self, _function: Any, points: Iterable[np.ndarray]) -> list[float]:
        """The scores of a generation (the objective itself is this object's, so
        ``_function``, scipy's wrapper of it, is not needed)."""
        points = list(points)
        room = max(0, min(len(points), self.budget - self.evaluations))
        tasks = [(self.objective, self.theorem.id, *self.space.decode(x), self.seed,
                  self.trials) for x in points[:room]]
        scores = [self.record(found) for found in self.pool.map(evaluate_task, tasks)]
        return scores + [NOT_APPLICABLE_SCORE] * (len(points) - room)

    def record(self, found: Evaluation) -> float:
        """Count one evaluation, keep the best candidate; its score."""
        self.evaluations += 1
        self.counts[found.status] += 1
        if self.first is None:
            self.first = found
        if found.status == "vacuous" and found.excess is not None:
            self.closest_vacuous = min(self.closest_vacuous, found.excess)
        if found.status == "candidate" and (self.best is None or found.score < self.best.score):
            self.best = found
        return found.score

    def __call__(self, x: np.ndarray) -> float:
        return self.map(None, [x])[0]

    def spent(self, *_: Any, **__: Any) -> bool:
        """Differential evolution's callback: stop once the budget is spent."""
        return self.evaluations >= self.budget


def initial_population(space: Space, size: int, seed: int) -> np.ndarray:
    """The start point, then ``size - 1`` Latin-hypercube points of the box (seeded)."""
    from scipy.stats import qmc

    lower, upper = np.array(space.lower), np.array(space.upper)
    sample = qmc.LatinHypercube(d=len(space.names), rng=np.random.default_rng(seed))
    points = qmc.scale(sample.random(size - 1), lower, upper)
    return np.vstack([np.array(space.start), points])


def population_size(budget: int, dimension: int) -> int:
    """Members per generation: about a fifth of the budget, between 5 and ``dimension + 5``."""
    return max(5, min(budget // 5, dimension + 5))


def search(theorem: Theorem, budget: int, seed: int, trials: int | None = None,
           objective: str = "stated", backend: str = "serial", jobs: int = 1,
           scheduler: str | None = None, index: Index | None = None) -> SearchResult:
    """Differential evolution over the space of ``theorem`` for at most ``budget`` evaluations,
    maximising the ratio ``objective`` names (``trials`` logs per evaluation; by default
    :data:`TRIALS`, or :data:`CERTIFICATE_TRIALS` for the certificate), each generation's
    evaluations on ``backend`` (:func:`~offcmab.validation.runner.pool.worker_pool`, with
    the package's ``index`` for workers to find its records; the result does not depend on
    the backend).
    """
    if theorem.space is None:
        raise ValueError(f"id: {theorem.id} has no instance space to search")
    if budget < 1:
        raise ValueError(f"budget: must be at least 1, got {budget}")
    if objective not in OBJECTIVES:
        raise ValueError(f"objective: must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if objective == "certificate" and not certified(theorem):
        raise ValueError(f"objective: {theorem.id}'s algorithm returns no certificate; "
                         f"certified: {', '.join(CERTIFICATES)}")
    if trials is None:
        trials = CERTIFICATE_TRIALS if objective == "certificate" else TRIALS
    space = theorem.space()
    size = population_size(budget, len(space.names))
    generations = max(1, math.ceil(budget / size))
    with worker_pool(backend, jobs, scheduler, [theorem], index=index) as pool:
        objective_run = _Objective(theorem, space, seed, budget, trials, pool, objective)
        differential_evolution(
            objective_run, list(zip(space.lower, space.upper, strict=True)),
            integrality=np.array(space.integral), init=initial_population(space, size, seed),
            maxiter=generations, rng=np.random.default_rng(seed), polish=False,
            workers=objective_run.map, updating="deferred", tol=0.0, atol=-1.0,
            callback=objective_run.spent)
    assert objective_run.first is not None  # the start point is evaluated first
    return SearchResult(theorem.id, space, objective_run.best, objective_run.first,
                        objective_run.counts, objective_run.evaluations,
                        objective_run.closest_vacuous, seed, budget, trials, objective)


def certified(theorem: Theorem) -> bool:
    """Whether ``theorem``'s algorithm returns a certificate (a record derives one)."""
    return theorem.id in CERTIFICATES
