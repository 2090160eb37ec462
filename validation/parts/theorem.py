r"""The record of one theorem: everything validation checks for it, in one value.

A :class:`Theorem` is built by one module of :mod:`offcmab.validation.theorems` and read
by the engine (the runner, the power table, the tightness search, the commands), which
takes records as arguments and never names a theorem.  Adding a theorem is one module
in :mod:`offcmab.bounds.theorems` (the formula), one module in
:mod:`offcmab.validation.theorems` (this record) and a line in each index.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from offcmab.bounds.bound import Bound
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.parts.scenario import Scenario
from offcmab.validation.parts.space import Space
from offcmab.validation.parts.spec import Instance

#: The default of :attr:`Signature.returns`: what an offline algorithm hands back.
ACTION = ("the action: a flat integer array of distinct ids, or a result object with an "
          "`action`, `cache` or `seeds` attribute")


@dataclass(frozen=True)
class Signature:
    r"""How a substituted algorithm is called, and the reference algorithm it replaces.

    Attributes
    ----------
    call
        The call, e.g. ``f(dataset, oracle, delta)``.
    reference
        The reference algorithm (a function of :mod:`offcmab.reference`, or a thin adapter
        with the same call).
    keywords
        Keyword arguments the reference is called with beside ``call`` (its variant).
    returns
        What the function must return.
    exposes
        The attributes of a returned result object that the event rows read
        (:mod:`offcmab.validation.events.subject`); a bare action turns those rows ``n/a``.
    """

    call: str
    reference: Callable[..., Any]
    keywords: Mapping[str, Any] = field(default_factory=dict)
    returns: str = ACTION
    exposes: tuple[str, ...] = ()

    @property
    def reference_name(self) -> str:
        """``module:function`` of the reference algorithm, as reports and docs show it."""
        return f"{self.reference.__module__}:{self.reference.__qualname__}"


@dataclass(frozen=True)
class Rate:
    r"""The proven order of the gap in ``n``, checked where the bound rows cannot speak.

    Every instance whose bound rows all lack power (vacuous or ``n/a``), whose bound applies
    at one size of its grid at least, and whose grid has enough sizes (the largest able to
    tell the nearest actions apart) gets a rate row
    (:mod:`offcmab.validation.runner.consistency`): the subject's mean gap at the largest
    ``n`` may be no larger than the bound's shape, :math:`n^{\text{order}}` times its
    logarithmic factor, allows from every smaller ``n`` of the grid
    (:func:`offcmab.validation.runner.analysis.rate_row`).

    Attributes
    ----------
    order
        The power of ``n`` in the bound: ``-1/2`` for a gap that shrinks as
        :math:`n^{-1/2}`, ``1/2`` for a regret that grows as :math:`\sqrt T`.
    instance
        The instance whose rate row the claims' stored check quotes
        (:mod:`offcmab.validation.stored_checks`; ``None``: none).  It gets its row as every
        other instance does: the scenario lists it with a grid on which the bound rows
        cannot speak.
    log_factor
        The bound's factor beside :math:`n^{\text{order}}` (e.g.
        :math:`\sqrt{\log(12nE/\delta)}`) as a function of the instance and ``n``;
        ``None``: none.
    floor
        Mean gaps below this count as this (the logarithm of a zero mean is undefined); the
        run raises it to a fixed fraction of the instance's largest gap
        (:data:`offcmab.validation.runner.consistency.RELATIVE_FLOOR`).  A subject whose mean
        gap is at most the floor already at the smallest ``n`` has nothing left to shrink,
        and its row is ``n/a``.
    """

    order: float
    instance: str | None = None
    log_factor: Callable[[Instance, int], float] | None = None
    floor: float = 1e-3


#: The event cases of a theorem for one profile: ``events(profile, subject, spec)`` with the
#: subject's callable and how messages name it.  The reference is a subject like any other:
#: its callable is :meth:`Theorem.reference_algorithm` (named ``module:function``), so every
#: row reads what the function the signature names returns, as for a user's algorithm.
#: Rows that check no subject (the package's own oracles) set ``subject_free``.
EventCases = Callable[[str, Callable[..., Any], str], Sequence[EventCase]]

#: Checks the parameters of a saved instance (``validate --instances``); ``ValueError``
#: naming the field when they are not valid.
ParamsChecker = Callable[[Any, str], None]


def no_events(profile: str, subject: Callable[..., Any], spec: str) -> list[EventCase]:
    """The event rows of a theorem that has none."""
    return []


@dataclass(frozen=True)
class Theorem:
    r"""Everything validation knows about one bound of the paper.

    Attributes
    ----------
    id
        The bound id, e.g. ``thm1-inf`` (the id of ``bound`` when there is one).
    bound
        The bound (:mod:`offcmab.bounds.registry`), or ``None`` for a theorem that is not
        part of :mod:`offcmab.bounds` (a record written for a test or an extension).
    title
        How messages name the bound, e.g. "Theorem 3's bound".
    scenario
        Instances per profile, one trial, the bound and the largest gap of an instance.
    signature
        The call a substituted algorithm must have, and the reference it replaces.
    events
        The event rows: the high-probability events the proof rests on (default: none).
    controls
        Negative controls: named broken variants with the reference's signature, each
        standing for a class of mistakes (its docstring's first line says which).
    no_power
        Control name -> why no row of this theorem can flag it.
    controls_check_events
        Whether the controls also run through the event rows (beside the trap rows).
    traps_vacuous
        Whether the trap rows cannot fail (every runnable size is vacuous): the controls'
        trap trials then run in the full profile only.
    space
        The instance space of ``offcmab tightness`` (``None``: not searchable).
    check_params
        Checks the parameters of a saved instance of this theorem.
    rate
        The proven order of the gap in ``n``: a rate row on every instance where the bound
        rows cannot speak; ``None``: no rate rows.
    falsify_space
        The instance space of ``offcmab falsify`` when it is not ``space``.
    regions
        The regions of :mod:`offcmab.validation.regions` that this theorem's hypotheses
        allow: a run must draw instances with power in each (``hypothesis_coverage``).
    source
        Where a record from outside the package was loaded from (``--theorem``): the
        spec ``file:<path>:<NAME>@<sha256>`` or ``module:<module>:<NAME>@<sha256>``
        worker processes load it from again; empty for the package's own records and
        for records handed over as Python objects.
    """

    id: str
    bound: Bound | None
    title: str
    scenario: Scenario
    signature: Signature
    events: EventCases = no_events
    controls: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    no_power: Mapping[str, str] = field(default_factory=dict)
    controls_check_events: bool = False
    traps_vacuous: bool = False
    space: Callable[[], Space] | None = None
    check_params: ParamsChecker | None = None
    rate: Rate | None = None
    falsify_space: Callable[[], Space] | None = None
    regions: tuple[str, ...] = ()
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.bound is not None and self.bound.id != self.id:
            raise ValueError(f"id: {self.id!r} is not the id of its bound {self.bound.id!r}")

    @property
    def target(self) -> str:
        """The ``--theorem`` target the record was loaded from (``FILE.py:NAME`` or
        ``module:NAME``), empty when it was not loaded from one."""
        where = self.source.partition(":")[2]
        return where.rpartition("@")[0] if "@" in where else where

    def theorem_arguments(self) -> list[str]:
        """``["--theorem", target]`` for a record loaded from a target, else nothing: what a
        printed command needs to find this record again."""
        return ["--theorem", self.target] if self.source else []

    def reference_algorithm(self) -> Callable[..., Any]:
        """The reference algorithm with its variant keywords bound."""
        reference, keywords = self.signature.reference, dict(self.signature.keywords)
        return functools.partial(reference, **keywords) if keywords else reference


def find(theorems: Sequence[Theorem], bound_id: str) -> Theorem:
    """The record with this id, or a ``ValueError`` naming the known ids."""
    for theorem in theorems:
        if theorem.id == bound_id:
            return theorem
    raise ValueError(f"bound id: no theorem {bound_id!r} is checked; known: "
                     f"{', '.join(theorem.id for theorem in theorems)}")
