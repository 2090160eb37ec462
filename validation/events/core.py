r"""Event rows: the high-probability events the proofs rest on, checked one by one.

A proof of a gap bound first shows that some *event* (every confidence interval covers
its mean, the oracle returns a good action, ...) fails with probability at most a
promised :math:`p`, then derives the bound deterministically on that event.  An event
row draws ``trials`` independent datasets, runs the algorithm, inspects the
statistics the algorithm itself computed (its LCBs, UCBs, counters) against the true
parameters, and counts the trials in which the event failed.  The count :math:`V` of
a correct implementation is stochastically below :math:`\mathrm{Binomial}(T, p)`, so the
row fails when :math:`P(\mathrm{Binomial}(T, p) \ge V)` falls below the row's share of
the run's false-alarm budget (the same exact binomial test as the bound rows).

Events do not go through the bound's constants, so a radius ten times too small, a
UCB where an LCB belongs, or an estimator of the wrong quantity makes the event fail
in most trials even where the final bound has slack to spare.

A case whose printed statement is false (an erratum of :mod:`offcmab.bounds.errata`) is run
against the printed statement too, with verdict ``known-failure`` when the test
rejects it (``note`` when this run did not reproduce the failure); such rows never
fail the run.  The corrected statement is a row of its own and fails normally.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from offcmab.validation.events.subject import NotExposedError
from offcmab.validation.runner import verdict

PASS, FAIL, NOTE, NA, KNOWN = "pass", "FAIL", "note", "n/a", "known-failure"

#: Trials per event row and profile (independent datasets; most cost a millisecond).
TRIALS: dict[str, int] = {"quick": 40, "default": 100, "full": 300}

#: One trial: draw a dataset with the generator, run the algorithm, return True when
#: the event failed.
Draw = Callable[[np.random.Generator], bool]


@dataclass(frozen=True)
class EventCase:
    r"""One event row before it is run.

    Attributes
    ----------
    id
        The row id, ``event-...``.
    bound_ids
        The bound ids whose proofs rest on this event (a failure here means their
        proofs do not apply to the algorithm checked).
    algorithm
        Module path of the algorithm whose statistics are inspected.
    lemma
        Paper label of the lemma or proof step the event comes from.
    statement
        The event, in words and symbols.
    instance, n, delta
        The instance, the dataset size (rounds for an online algorithm) and the
        :math:`\delta` the algorithm was run with.
    failure
        The probability with which the proof lets the event fail (0 for a
        deterministic promise).
    draw
        One trial (see :data:`Draw`).
    erratum
        Id of the erratum (:mod:`offcmab.bounds.errata`) refuting the printed statement, for a
        row that checks that printed statement; empty otherwise.
    trials
        Overrides the profile's trial count when positive (for costly cases).
    """

    id: str
    bound_ids: tuple[str, ...]
    algorithm: str
    lemma: str
    statement: str
    instance: str
    n: int
    delta: float
    failure: float
    draw: Draw = field(compare=False)
    erratum: str = ""
    trials: int = 0


@dataclass(frozen=True)
class EventResult:
    """A case after its trials: event failures out of trials, and the time taken."""

    case: EventCase
    trials: int
    failures: int
    seconds: float
    reason: str = ""


def event_generator(run_seed: int, event_id: str, instance: str) -> np.random.Generator:
    """The generator of one event row: the run seed, the row id and the instance, hashed."""
    digest = hashlib.sha256(f"{event_id}\x1f{instance}".encode()).digest()
    words = tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))
    return np.random.default_rng(np.random.SeedSequence(entropy=run_seed, spawn_key=words))


def run_case(case: EventCase, trials: int, run_seed: int) -> EventResult:
    """Run ``trials`` independent trials of one case on its own seeded generator."""
    rng = event_generator(run_seed, case.id, case.instance)
    count = case.trials or trials
    start = time.perf_counter()
    try:
        failures = sum(bool(case.draw(rng)) for _ in range(count))
    except NotExposedError as missing:
        return EventResult(case, 0, 0, time.perf_counter() - start, str(missing))
    return EventResult(case, count, failures, time.perf_counter() - start)


def run_cases(cases: Sequence[EventCase], trials: int, run_seed: int) -> list[EventResult]:
    """Run every case (in order)."""
    return [run_case(case, trials, run_seed) for case in cases]


def _base(case: EventCase) -> dict[str, Any]:
    """Fields every row of ``case`` has, whatever its verdict."""
    return {"id": case.id, "kind": "event", "bound_ids": list(case.bound_ids),
            "algorithm": case.algorithm, "lemma": case.lemma, "check": case.statement,
            "instance": case.instance, "origin": "named", "n": case.n, "variant": "event",
            "delta": case.delta, "failure_probability": case.failure, "bound": None,
            "gap_max": None, "tightness": None, "erratum": case.erratum or None}


def event_row(result: EventResult, level: float) -> dict[str, Any]:
    """The report row of one event: the exact binomial test at ``level``."""
    case = result.case
    if result.reason:
        return _base(case) | {"trials": 0, "violations": None, "verdict": NA,
                              "reason": result.reason}
    p_value = verdict.binomial_tail(result.failures, result.trials, case.failure)
    rejected = p_value < level
    if case.erratum:
        outcome = KNOWN if rejected else NOTE
        reason = (f"printed statement refuted here, as erratum {case.erratum} records"
                  if rejected else
                  f"erratum {case.erratum} not reproduced on this instance in this run")
    else:
        outcome = FAIL if rejected else PASS
        reason = (f"event failed in {result.failures} of {result.trials} trials, more than "
                  f"a failure probability of {case.failure:.3g} allows" if rejected else "")
    return _base(case) | {
        "trials": result.trials, "violations": result.failures, "p_value": p_value,
        "row_level": level,
        "allowed_violations": verdict.allowed_violations(result.trials, case.failure, level),
        "detectable_rate": detectable_rate(result.trials, case.failure, level),
        "verdict": outcome, "reason": reason,
    }


def detectable_rate(trials: int, failure: float, level: float, power: float = 0.9) -> float:
    r"""The smallest event-failure rate this row flags with probability ``power``.

    The row flags when more than ``allowed`` trials fail; the rate :math:`r` solves
    :math:`P(\mathrm{Binomial}(T, r) > \text{allowed}) = \text{power}` (bisection on
    the exact tail, which increases with :math:`r`).
    """
    allowed = verdict.allowed_violations(trials, failure, level)
    if allowed >= trials:
        return math.inf
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = (low + high) / 2.0
        if verdict.binomial_tail(allowed + 1, trials, middle) >= power:
            high = middle
        else:
            low = middle
    return high


def tested(results: Sequence[EventResult]) -> int:
    """Rows that can fail the run (not those checking a printed erratum, nor n/a ones)."""
    return sum(not result.case.erratum and not result.reason for result in results)
