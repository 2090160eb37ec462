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
against the printed statement too.  Such a row carries the rate at which the printed
algorithm breaks that statement, measured once (:class:`KnownRate`).  Its verdict is
``note`` when this run does not reject the printed statement, ``known-failure`` when it
does at a rate consistent with the measured one, and ``FAIL`` when the subject breaks the
statement significantly more often than the printed algorithm (the exact binomial test
against the measured rate's upper confidence limit): a known failure that can still fail.
The corrected statement is a row of its own and fails normally.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from offcmab.validation.events.subject import NotExposedError
from offcmab.validation.parts import verdict
from offcmab.validation.parts.event_case import EventCase, KnownRate

PASS, FAIL, NOTE, NA, KNOWN = "pass", "FAIL", "note", "n/a", "known-failure"

#: Trials per event row and profile (independent datasets; most cost a millisecond).
TRIALS: dict[str, int] = {"quick": 40, "default": 100, "full": 300}

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
    if case.skip:
        return EventResult(case, 0, 0, 0.0, case.skip)
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


def _known_failure(result: EventResult, known: KnownRate, rejected: bool,
                   level: float) -> dict[str, Any]:
    """Verdict and fields of an erratum row: note, known-failure, or FAIL when the subject
    breaks the printed statement significantly more often than the printed algorithm."""
    case = result.case
    ceiling = known.upper()
    p_known = verdict.binomial_tail(result.failures, result.trials, ceiling)
    fields = {"known_rate": known.rate, "known_trials": known.trials,
              "known_upper": ceiling, "p_value_known": p_known}
    if not rejected:
        return fields | {"verdict": NOTE, "reason": f"erratum {case.erratum} not reproduced "
                                                    "on this instance in this run"}
    if p_known < level:
        return fields | {"verdict": FAIL, "reason": (
            f"printed statement broken in {result.failures} of {result.trials} trials, "
            f"significantly more than the printed algorithm's {known.failures} of "
            f"{known.trials} (upper limit {ceiling:.3g}; erratum {case.erratum})")}
    return fields | {"verdict": KNOWN, "reason": (
        f"printed statement refuted here, as erratum {case.erratum} records, at a rate "
        f"consistent with the printed algorithm's {known.failures} of {known.trials}")}


def event_row(result: EventResult, level: float) -> dict[str, Any]:
    """The report row of one event: the exact binomial test at ``level``."""
    case = result.case
    if result.reason:
        return _base(case) | {"trials": 0, "violations": None, "verdict": NA,
                              "reason": result.reason}
    p_value = verdict.binomial_tail(result.failures, result.trials, case.failure)
    rejected = p_value < level
    if case.known is not None:
        outcome = _known_failure(result, case.known, rejected, level)
    else:
        outcome = {"verdict": FAIL if rejected else PASS, "reason": (
            f"event failed in {result.failures} of {result.trials} trials, more than "
            f"a failure probability of {case.failure:.3g} allows" if rejected else "")}
    return _base(case) | {
        "trials": result.trials, "violations": result.failures, "p_value": p_value,
        "row_level": level,
        "allowed_violations": verdict.allowed_violations(result.trials, case.failure, level),
        "detectable_rate": detectable_rate(result.trials, case.failure, level),
    } | outcome


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


def can_fail(case: EventCase) -> bool:
    """Whether the row of ``case`` can fail the run: every row but an erratum row whose
    printed algorithm breaks the statement in every measured trial (no subject can do worse).
    """
    return case.known is None or case.known.failures < case.known.trials
