r"""Measure how often ``validate`` flags a correct algorithm: its false-alarm rate.

A validation run states a run-level false-alarm budget
(:data:`~offcmab.validation.parts.spec.FALSE_ALARM_BUDGET`): the probability that the
reference algorithm gets a ``FAIL`` row anywhere in one run is at most that number.  The
budget is computed (each row with power is tested at its share, the shares sum to the
budget), not observed.  This module observes it: it repeats the same run over ``N``
independent run seeds and counts the runs with at least one ``FAIL`` row.

Statistics
----------
With :math:`k` runs flagged among :math:`N`, the rate :math:`\hat p = k/N` gets its exact
two-sided Clopper-Pearson interval at confidence :data:`LEVEL`, whose limits are beta
quantiles,

.. math::

    \big[\,B^{-1}(\alpha/2;\, k,\, N-k+1),\; B^{-1}(1-\alpha/2;\, k+1,\, N-k)\,\big],
    \qquad \alpha = 1 - \text{LEVEL},

(the lower limit is 0 when :math:`k = 0`, the upper 1 when :math:`k = N`).  The verdict
against a budget :math:`b` comes from the one-sided exact test of :math:`p \le b` at
:math:`\alpha/2`: its p-value :math:`P(\mathrm{Bin}(N, b) \ge k)` is below :math:`\alpha/2`
exactly when :math:`b` lies below the interval's lower limit.  So

* ``EXCEEDS``: the budget lies below the interval; the measured rate is significantly
  above it (the command exits 1 when this is the verdict of the whole run);
* ``confirmed``: the budget lies at or above the upper limit; the data show the rate
  is within budget;
* ``consistent``: the budget lies inside the interval; too few runs to tell either way.

With no flagged run the upper limit is :math:`1 - (\alpha/2)^{1/N}`, so confirming a
budget :math:`b` needs :func:`runs_to_confirm` runs, :math:`\lceil \log(\alpha/2) /
\log(1-b)\rceil`.

Per theorem
-----------
A theorem counts as flagged in a run when one of its rows fails (an event row shared by
several theorems counts for each).  Its budget is its share of the run's budget: the sum
of the ``row_level`` of its rows, averaged over the runs, since the instances a run
generates (and so the rows with power) depend on its seed.  Given the run's plan, the
chance that one of those rows fails is at most that sum, so the average bounds the
theorem's rate.  Per-theorem verdicts are shown but not corrected for multiplicity; only
the whole-run verdict sets the exit code.

Seeds
-----
The run seeds are spawned from one base seed:
``numpy.random.SeedSequence(base).spawn(N)``, the ``i``-th run taking the first 64-bit word
of its child's state, shifted right by one bit (so that ``offcmab validate --seed S``
accepts it and reruns that very run).  Child ``i`` depends on the base seed and ``i`` only,
so ``N`` runs are the first ``N`` of any longer calibration with the same base seed.

Runs are independent: with ``jobs > 1`` they go to a pool of worker processes (started
with ``spawn``) or to a dask cluster (:mod:`offcmab.validation.runner.pool`), each run
executed serially inside its worker; a run's outcome depends on its seed only.  Each run
writes its trial log to a temporary folder that is removed afterwards.  On Ctrl-C,
``SIGTERM`` or a failed run, the runs not started are cancelled and the workers ended
(terminated, then killed) before the error goes on: nothing keeps running.

Extension point
---------------
Only the reference algorithm is calibrated.  A theorem record does not declare
*equivalent mutants* (rewrites of the reference that are correct by construction, so
every flag they get is a false alarm too); once it does, each would be one more subject
per run (``RunConfig.subject``, resolved by :mod:`offcmab.validation.subjects`), counted
like the reference in :func:`one_run`.
"""

from __future__ import annotations

import math
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.parts.verdict import binomial_tail, clopper_pearson
from offcmab.validation.runner.backends import lookup
from offcmab.validation.runner.pool import Pool, worker_pool
from offcmab.validation.runner.sweep import RunConfig, run_validation, selected
from offcmab.validation.theorems import index as package_index

#: Confidence of the two-sided Clopper-Pearson interval.
LEVEL = 0.95

#: Verdicts of a rate against its budget (see the module docstring).
EXCEEDS, CONSISTENT, CONFIRMED = "EXCEEDS", "consistent", "confirmed"

#: The name of the whole-run estimate beside the theorem ids.
OVERALL = "all"


def run_seeds(base_seed: int, runs: int) -> list[int]:
    """The seeds of ``runs`` independent runs, spawned from ``base_seed``.

    ``ValueError`` naming ``runs`` when it is below 1, ``seed`` when it is negative.
    """
    if runs < 1:
        raise ValueError(f"runs: need at least 1 run, got {runs}")
    if base_seed < 0:
        raise ValueError(f"seed: must be at least 0, got {base_seed}")
    children = np.random.SeedSequence(base_seed).spawn(runs)
    return [int(child.generate_state(1, np.uint64)[0]) >> 1 for child in children]


def interval(failed: int, runs: int, level: float = LEVEL) -> tuple[float, float]:
    """The exact two-sided Clopper-Pearson interval of a binomial rate, ``failed`` of ``runs``."""
    return clopper_pearson(failed, runs, (1.0 - level) / 2.0)


def runs_to_confirm(budget: float, level: float = LEVEL) -> int:
    r"""Fewest runs whose upper limit, with no run flagged, is at most ``budget``.

    The upper limit with none of :math:`N` flagged is :math:`1 - (\alpha/2)^{1/N}`; it is at
    most :math:`b` iff :math:`N \ge \log(\alpha/2) / \log(1 - b)`.
    """
    if not 0.0 < budget < 1.0:
        raise ValueError(f"budget: must lie strictly between 0 and 1, got {budget}")
    runs = math.ceil(math.log((1.0 - level) / 2.0) / math.log1p(-budget))
    return runs if interval(0, runs, level)[1] <= budget else runs + 1  # rounding guard


@dataclass(frozen=True)
class Estimate:
    """A measured false-alarm rate against its budget.

    Attributes
    ----------
    name
        A theorem id, or :data:`OVERALL` for the whole run.
    runs, failed
        Runs made, and runs with a ``FAIL`` row (of this theorem).
    low, high
        The Clopper-Pearson interval of ``failed / runs`` at :data:`LEVEL`.
    budget
        The stated budget.
    p_value
        One-sided exact p-value of "rate at most ``budget``".
    verdict
        :data:`EXCEEDS`, :data:`CONSISTENT` or :data:`CONFIRMED`.
    """

    name: str
    runs: int
    failed: int
    low: float
    high: float
    budget: float
    p_value: float
    verdict: str

    @property
    def rate(self) -> float:
        """The measured rate, ``failed / runs``."""
        return self.failed / self.runs

    def json(self) -> dict[str, Any]:
        """The estimate as JSON-able data."""
        return {"name": self.name, "runs": self.runs, "failed": self.failed,
                "rate": self.rate, "interval": [self.low, self.high], "budget": self.budget,
                "p_value": self.p_value, "verdict": self.verdict}


def estimate(name: str, failed: int, runs: int, budget: float,
             level: float = LEVEL) -> Estimate:
    """Interval, one-sided test and verdict of ``failed`` flagged runs of ``runs``."""
    low, high = interval(failed, runs, level)
    p_value = binomial_tail(failed, runs, budget)  # P(Bin(runs, budget) >= failed)
    verdict = (EXCEEDS if p_value < (1.0 - level) / 2.0
               else CONFIRMED if high <= budget else CONSISTENT)
    return Estimate(name, runs, failed, low, high, budget, p_value, verdict)


@dataclass(frozen=True)
class RunOutcome:
    """What one run says about false alarms.

    Attributes
    ----------
    seed
        The run seed.
    fail_rows
        Its ``FAIL`` rows (``report["summary"]["FAIL"]``).
    flagged
        The theorem ids with a ``FAIL`` row.
    shares
        Theorem id -> the sum of the ``row_level`` of its rows (its share of the budget).
    budget
        The run's stated budget.
    """

    seed: int
    fail_rows: int
    flagged: tuple[str, ...]
    shares: dict[str, float]
    budget: float


def one_run(config: RunConfig, theorems: Sequence[Theorem]) -> RunOutcome:
    """Run validation once in a temporary folder and keep what calibration counts."""
    with tempfile.TemporaryDirectory(prefix="offcmab-calibrate-") as folder:
        report = run_validation(replace(config, out=Path(folder)), theorems)
    ids = [theorem.id for theorem in selected(theorems, config.only)]
    shares = dict.fromkeys(ids, 0.0)
    flagged: set[str] = set()
    for row in report["rows"]:
        for owner in row.get("bound_ids") or [row["id"]]:
            shares[owner] += row["row_level"]
            if row["verdict"] == "FAIL":
                flagged.add(owner)
    return RunOutcome(config.seed, int(report["summary"]["FAIL"]),
                      tuple(i for i in ids if i in flagged), shares,
                      float(report["false_alarm_budget"]))


def _worker_run(config: RunConfig) -> RunOutcome:
    """A worker process's run: its records looked up by id (handed over at start)."""
    return one_run(config, [lookup(bound_id) for bound_id in config.only])


@dataclass(frozen=True)
class Calibration:
    """The result: every run's outcome, the whole-run estimate and one per theorem."""

    profile: str
    base_seed: int
    bound_scale: float
    outcomes: tuple[RunOutcome, ...]
    overall: Estimate
    theorems: tuple[Estimate, ...]

    def json(self) -> dict[str, Any]:
        """The result as JSON-able data (``offcmab calibrate --json``)."""
        return {"tool": "offcmab calibrate", "profile": self.profile,
                "base_seed": self.base_seed, "bound_scale": self.bound_scale,
                "runs": len(self.outcomes), "level": LEVEL,
                "overall": self.overall.json(),
                "theorems": [entry.json() for entry in self.theorems],
                "runs_to_confirm": runs_to_confirm(self.overall.budget),
                "flagged_runs": [{"seed": o.seed, "fail_rows": o.fail_rows,
                                  "ids": list(o.flagged)}
                                 for o in self.outcomes if o.fail_rows]}


def run_configs(theorems: Sequence[Theorem], profile: Profile, seeds: Sequence[int],
                only: Sequence[str] = (), bound_scale: float = 1.0,
                extra_instances: tuple[tuple[str, Instance], ...] = ()) -> list[RunConfig]:
    """The validation run of each seed: the ``only`` theorems (default all) of ``profile``,
    without power requirements, with the ``extra_instances`` of the chosen ids."""
    ids = tuple(theorem.id for theorem in selected(theorems, only))
    base = RunConfig(profile=profile, seed=0, out=Path(), only=ids, bound_scale=bound_scale,
                     power=False, extra_instances=tuple(
                         pair for pair in extra_instances if pair[0] in ids))
    return [replace(base, seed=run_seed) for run_seed in seeds]


def run_all(pool: Pool, configs: Sequence[RunConfig], bar: Any = None,
            done: Callable[[int, RunOutcome], None] | None = None) -> list[RunOutcome]:
    """The outcome of every run, in order, computed on ``pool``'s workers (``bar``, when
    given, advances by one per finished run; ``done`` gets each as it finishes)."""
    def finished(index: int, outcome: RunOutcome) -> None:
        if bar is not None:
            bar.update(1)
        if done is not None:
            done(index, outcome)

    return pool.map(_worker_run, configs, finished)


def summary(outcomes: Sequence[RunOutcome], ids: Sequence[str], profile: str, seed: int,
            bound_scale: float) -> Calibration:
    """The whole-run and per-theorem estimates of ``outcomes``."""
    runs = len(outcomes)
    overall = estimate(OVERALL, sum(o.fail_rows > 0 for o in outcomes), runs,
                       math.fsum(o.budget for o in outcomes) / runs)
    per_theorem = tuple(
        estimate(bound_id, sum(bound_id in o.flagged for o in outcomes), runs,
                 math.fsum(o.shares[bound_id] for o in outcomes) / runs)
        for bound_id in ids)
    return Calibration(profile, seed, bound_scale, tuple(outcomes), overall, per_theorem)


def progress_bar(total: int, shown: bool, initial: int = 0) -> Any:
    """The progress bar of a calibration on stderr (hidden unless ``shown``)."""
    return tqdm(total=total, initial=initial, unit="run", desc="calibrate", leave=False,
                file=sys.stderr, disable=not shown)


def calibrate(theorems: Sequence[Theorem], profile: Profile, *, runs: int, seed: int,
              only: Sequence[str] = (), jobs: int = 1, bound_scale: float = 1.0,
              extra_instances: tuple[tuple[str, Instance], ...] = (),
              progress: bool = False, backend: str | None = None,
              scheduler: str | None = None) -> Calibration:
    """Run validation of the ``only`` theorems (default all) ``runs`` times and count false alarms.

    ``extra_instances`` are run beside the scenarios' own, as in ``validate``
    (``RunConfig.extra_instances``).  The runs go to ``backend`` (default: serial for one
    job, else processes; :func:`~offcmab.validation.runner.pool.worker_pool`); the result
    does not depend on it.  ``progress`` shows a bar on stderr.  ``ValueError`` naming the
    field for an unknown id, ``runs < 1`` or records that worker processes cannot receive.
    """
    chosen = selected(theorems, only)
    configs = run_configs(theorems, profile, run_seeds(seed, runs), only, bound_scale,
                          extra_instances)
    bar = progress_bar(runs, progress)
    try:
        with worker_pool(backend or ("serial" if jobs == 1 else "processes"), jobs, scheduler,
                         chosen, index=package_index) as pool:
            outcomes = run_all(pool, configs, bar)
    finally:
        bar.close()
    return summary(outcomes, [theorem.id for theorem in chosen], profile.name, seed,
                   bound_scale)
