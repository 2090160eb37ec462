r"""An event row before it runs: the case a theorem's ``events`` lists, and the measured rate of
a known failure.

A case names the event (the lemma or proof step it comes from, in words and symbols), the
instance, the dataset size and :math:`\delta` the algorithm runs with, the probability with
which the proof lets the event fail, and one trial (:data:`Draw`).
:mod:`offcmab.validation.events.core` runs the cases and turns their counts into rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from offcmab.validation.parts import verdict

#: One trial: draw a dataset with the generator, run the algorithm, return True when
#: the event failed.
Draw = Callable[[np.random.Generator], bool]

#: Confidence of the upper limit put on a measured known-failure rate: the limit lies below
#: the true rate with probability at most 1e-3 over the one measurement.
KNOWN_CONFIDENCE = 1.0 - 1e-3


@dataclass(frozen=True)
class KnownRate:
    r"""How often the printed algorithm breaks a refuted statement: ``failures`` of ``trials``.

    Measured once with :func:`~offcmab.validation.events.core.run_case` at run seed ``seed``
    on the reference (the builder of the row says where; a test re-measures it).
    :meth:`upper` is the one-sided Clopper-Pearson limit :math:`u` with
    :math:`P(\mathrm{Binomial}(N, u) \le V_0) = 1 - c`.
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
