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

#: Confidence of the upper limit put on a measured known-failure rate: the limit lies below
#: the true rate with probability at most 1e-3 over the one measurement.
KNOWN_CONFIDENCE = 1.0 - 1e-3


@dataclass(frozen=True)
class KnownRate:
    r"""How often the printed algorithm breaks a refuted statement: ``failures`` of ``trials``.

    Measured once with :func:`run_case` at run seed ``seed`` on the reference (the builder
    of the row says where; a test re-measures it).  :meth:`upper` is the one-sided
    Clopper-Pearson limit :math:`u` with :math:`P(\mathrm{Binomial}(N, u) \le V_0) = 1 - c`.
    """

    failures: int
    trials: int
    seed: int

    def __post_init__(self) -> None:
        if not 0 <= self.failures <= self.trials or self.trials < 1:
            raise ValueError(f"failures: need 0 <= failures <= trials, trials >= 1, got "
                             f"{self.failures} of {self.trials}")

    @property
    def rate(self) -> float:
        """The measured rate :math:`V_0/N`."""
        return self.failures / self.trials

    def upper(self, confidence: float = KNOWN_CONFIDENCE) -> float:
        """The upper confidence limit (bisection on the exact binomial tail)."""
        if self.failures == self.trials:
            return 1.0
        low, high = self.rate, 1.0
        for _ in range(60):
            middle = (low + high) / 2.0
            # P(Bin(N, u) <= V0) = 1 - P(Bin(N, u) >= V0 + 1) decreases in u.
            if 1.0 - verdict.binomial_tail(self.failures + 1, self.trials, middle) \
                    > 1.0 - confidence:
                low = middle
            else:
                high = middle
        return high


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
    known
        For an erratum row (required there): how often the printed algorithm breaks the
        statement (:class:`KnownRate`); the row fails a subject that breaks it more often.
    subject_free
        True for a row that checks the package's own objects (the oracle a scenario hands
        over), not the algorithm under test: it says nothing about a substituted algorithm,
        so it runs in reference runs only.
    skip
        Why this row is not run for this subject (it cannot fail for it); the row is
        ``n/a`` with this reason, and no trial runs.  Empty: the row runs.
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
    known: KnownRate | None = None
    subject_free: bool = False
    skip: str = ""

    def __post_init__(self) -> None:
        if self.erratum and self.known is None:
            raise ValueError(f"known: the known-failure row {self.id} (erratum {self.erratum}) "
                             "needs the printed algorithm's measured rate")


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
