r"""Check a theorem of your own: the public API for a record outside the package.

A theorem record (:class:`Theorem`) holds everything ``offcmab validate`` checks for one
bound: the bound, a scenario (instances, one trial, the bound at an instance, the largest
gap), the call an algorithm must have and the reference algorithm, negative controls,
optionally a search space for ``offcmab tightness`` and ``offcmab falsify``.  Write one in
a file and hand it to any command::

    offcmab validate --theorem my_theorem.py:THEOREM
    offcmab validate --theorem my_theorem.py:THEOREM --algorithm mine.py:rule
    offcmab tightness my-id --theorem my_theorem.py:THEOREM

or to :func:`offcmab.validation.check` (``theorem="my_theorem.py:THEOREM"``).  The
file is run as Python code, as ``python my_theorem.py`` would, here and once in each
worker process (it should only define things at its top level).  Instances of origin
``"trap"`` are where the record's negative controls run.

The pieces:

:func:`define_bound`
    A bound in sympy symbols of your own, each with its :class:`Domain`, and the
    probability with which it may fail (``2 * delta``, ...).
:func:`make_scenario`
    A scenario from plain functions: draw a dataset (the arguments of the algorithm's
    call), the bound's parameters at an instance, and the exact reward of every action
    (or the exact gap of an action and the largest gap).
:class:`Theorem`, :class:`Signature`, :class:`Instance`, :class:`Rate`, :class:`Space`
    The record, the call and its reference, one instance, the proven order in ``n``, the
    box ``offcmab tightness`` searches.
:class:`Scenario` and its value types
    What a scenario written by hand implements (see ``docs/extending.md``), the values it
    takes and returns: :class:`Subject`, :class:`Profile`, :class:`TrialOutcome`,
    :class:`BoundValue`, :class:`MaxGap`.
:class:`EventCase`, :data:`EventCases`, :func:`no_events`
    Event rows: the high-probability events a proof rests on.

These names are stable; everything else in :mod:`offcmab.validation` may move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from offcmab.bounds.bound import Bound, define_bound
from offcmab.bounds.symbols import Domain
from offcmab.validation.actions import as_action
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.parts.scenario import (
    BoundValue,
    Kind,
    MaxGap,
    Scenario,
    Subject,
    TrialOutcome,
)
from offcmab.validation.parts.space import Space
from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.parts.theorem import EventCases, Rate, Signature, Theorem, no_events

#: A dataset as the algorithm's call receives it: the positional arguments of the call.
Draw = Callable[[Instance, int, np.random.Generator], Sequence[Any]]


@dataclass(frozen=True)
class PlainScenario:
    r"""A scenario made of plain functions (build it with :func:`make_scenario`).

    Every field is a value or a function defined at the top level of a module, so the
    scenario travels to worker processes.
    """

    bound_id: str
    formula: Bound
    listed: tuple[Instance, ...] | Callable[[str, int], Sequence[Instance]]
    draw: Draw
    parameters: Callable[[Instance, int], Mapping[str, float]]
    rewards: Callable[[Instance], Sequence[float]] | None = None
    gap: Callable[[Instance, Any], float] | None = None
    largest_gap: Callable[[Instance, int], float] | None = None
    algorithm: str = ""
    kind: Kind = "upper"

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        """The listed instances (or those the instance function gives for the profile)."""
        if callable(self.listed):
            return list(self.listed(profile.name, seed))
        return list(self.listed)

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        """Draw the data from ``rng`` alone, call the subject on them, measure its gap."""
        arguments = tuple(self.draw(instance, n, rng))
        result = subject.function(*arguments)
        if self.gap is not None:
            return TrialOutcome(float(self.gap(instance, result)))
        rewards = self._rewards(instance)
        action = as_action(np.atleast_1d(result) if np.ndim(result) == 0 else result,
                           rewards.size, 1, subject.spec)
        return TrialOutcome(float(rewards.max() - rewards[action[0]]))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        """The bound at the instance's parameters, with the failure probability its variant
        states; not applicable where its precondition fails."""
        params = {name: float(value) for name, value in self.parameters(instance, n).items()}
        if self.formula.precondition_holds(variant, **params) is False:
            return BoundValue.not_applicable(
                f"precondition {self.formula.precondition(variant)} fails", **params)
        return BoundValue(float(self.formula.evaluate(variant, **params)), parameters=params,
                          failure=float(self.formula.failure(variant, **params)))

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        """The largest gap the instance allows (and, from ``rewards``, the smallest positive
        one, which turns on the identification rows)."""
        if self.largest_gap is not None:
            return MaxGap(float(self.largest_gap(instance, n)), True,
                          "the scenario's largest_gap")
        gaps = self._rewards(instance).max() - self._rewards(instance)
        positive = gaps[gaps > 0]
        return MaxGap(float(gaps.max()), True, "the best action against the worst",
                      float(positive.min()) if positive.size else None)

    def gap_range(self, instance: Instance, n: int) -> tuple[float, float]:
        """Every gap lies in ``[0, largest gap]``; a trial outside it is an internal error."""
        return 0.0, self.max_gap(instance, n).value

    def _rewards(self, instance: Instance) -> npt.NDArray[np.float64]:
        assert self.rewards is not None
        return np.asarray(self.rewards(instance), dtype=np.float64)


def make_scenario(bound: Bound,
                  instances: Sequence[Instance] | Callable[[str, int], Sequence[Instance]],
                  draw: Draw, parameters: Callable[[Instance, int], Mapping[str, float]], *,
                  rewards: Callable[[Instance], Sequence[float]] | None = None,
                  gap: Callable[[Instance, Any], float] | None = None,
                  largest_gap: Callable[[Instance, int], float] | None = None,
                  algorithm: str = "", kind: Kind = "upper") -> PlainScenario:
    r"""A scenario from a few plain functions.

    Parameters
    ----------
    bound
        The bound checked (:func:`define_bound`); its id is the scenario's.
    instances
        The instances (the same in every profile), or ``instances(profile, seed)`` giving
        them per profile name (``quick``, ``ci``, ``default``, ``full``).
    draw
        ``draw(instance, n, rng)``: one dataset of ``n`` samples drawn from ``rng`` alone,
        as the positional arguments of the algorithm's call (the :class:`Signature`).
    parameters
        ``parameters(instance, n)``: the value of every symbol of the bound.
    rewards
        ``rewards(instance)``: the exact expected reward of every action, for a problem
        whose actions are the indices ``0 .. A-1``: an algorithm returns one index, its gap
        is the best reward minus its own, the largest gap the best minus the worst.
    gap, largest_gap
        Instead of ``rewards``, for any other action set: ``gap(instance, action)``, the exact
        suboptimality gap of what the algorithm returned (raise ``ValueError`` for an
        action that is not feasible), and ``largest_gap(instance, n)``, the largest gap any
        action can have.  A bound at least the largest gap cannot fail (its rows are
        ``vacuous``).
    algorithm
        How reports name the reference algorithm (default: the bound id).
    kind
        ``upper`` (a high-probability gap bound; the default).

    Notes
    -----
    Every function must be defined at the top level of a module, so that worker processes
    find it.  ``ValueError`` naming the field for a missing or misplaced piece.
    """
    if not isinstance(bound, Bound):
        raise ValueError(f"bound: must be a Bound (define_bound), got {type(bound).__name__}")
    for name, value in (("draw", draw), ("parameters", parameters), ("rewards", rewards),
                        ("gap", gap), ("largest_gap", largest_gap)):
        if value is not None and not callable(value):
            raise ValueError(f"{name}: must be a function, got {type(value).__name__}")
    if (rewards is None) == (gap is None) or (gap is None) != (largest_gap is None):
        raise ValueError("rewards: give either rewards, or both gap and largest_gap")
    listed = instances if callable(instances) else tuple(instances)
    if not callable(listed) and not all(isinstance(item, Instance) for item in listed):
        raise ValueError("instances: must be Instance values or a function returning them")
    return PlainScenario(bound.id, bound, listed, draw, parameters, rewards, gap, largest_gap,
                         algorithm or bound.id, kind)


__all__ = [
    "Bound",
    "BoundValue",
    "Domain",
    "EventCase",
    "EventCases",
    "Instance",
    "Kind",
    "MaxGap",
    "PlainScenario",
    "Profile",
    "Rate",
    "Scenario",
    "Signature",
    "Space",
    "Subject",
    "Theorem",
    "TrialOutcome",
    "define_bound",
    "make_scenario",
    "no_events",
]
