r"""What a mutant is, and the pieces the equivalent mutants share.

A :class:`Mutant` is a function with the call signature of one reference algorithm and one
building block changed; a :class:`Family` holds the mutants of one reference algorithm and
says which operators do not apply to it, and why.  Mutants are reached by worker processes
through a spec string ``package.module:FAMILY.attribute`` (the ``module:FUNCTION`` form of
``offcmab validate --algorithm``), so a family looks its mutants up by attribute.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import IntArray

FloatArray = npt.NDArray[np.float64]

#: The key of :attr:`Mutant.no_power` that holds the reason for every bound id.
EVERY_ID = "*"


@dataclass(frozen=True)
class Mutant:
    r"""One broken (or equivalent) variant of a reference algorithm.

    Attributes
    ----------
    name
        The mutant's name in tables, e.g. ``radius-x0.5``.
    operator
        The operator it applies (``radius-scale``, ``optimism``, ...; see
        :data:`offcmab.validation.mutation.operators.OPERATORS`).
    function
        The algorithm, with the reference's call signature.
    equivalent
        True for a declared equivalent mutant: a change the theorem allows, which must pass.
    control
        The name of the theorem's negative control this mutant *is* (reused, not rewritten),
        or ``None``; a theorem whose record leaves that control out skips the mutant.
    no_power
        Bound id -> why no runnable size of that id's instances can kill this mutant (the
        arithmetic, not a measurement); the key :data:`EVERY_ID` covers every id without a
        reason of its own.  A survivor with a reason is *explained*; one without fails
        ``offcmab mutation``.
    """

    name: str
    operator: str
    function: Callable[..., Any]
    equivalent: bool = False
    control: str | None = None
    no_power: Mapping[str, str] = field(default_factory=dict)

    def no_power_reason(self, bound_id: str) -> str | None:
        """Why this mutant cannot be killed on ``bound_id`` (``None``: it should be)."""
        return self.no_power.get(bound_id, self.no_power.get(EVERY_ID))

    @property
    def attribute(self) -> str:
        """The name its family exposes it under (``radius-x0.5`` -> ``radius_x0_5``)."""
        return self.name.replace("-", "_").replace(".", "_")


@dataclass(frozen=True)
class Family:
    r"""The mutants of one reference algorithm and the operators that do not apply to it.

    Attributes
    ----------
    name
        The module attribute that holds this family (part of every mutant's spec).
    mutants
        The mutants, equivalent ones included.
    not_applicable
        Operator -> why it does not apply to this algorithm.
    """

    name: str
    mutants: tuple[Mutant, ...]
    not_applicable: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = [mutant.attribute for mutant in self.mutants]
        if len(set(names)) != len(names):
            raise ValueError(f"mutants: duplicate names in family {self.name}: {names}")

    def __getattr__(self, attribute: str) -> Callable[..., Any]:
        if attribute.startswith("_"):  # copy, pickle and friends probe dunder names
            raise AttributeError(attribute)
        for mutant in object.__getattribute__(self, "mutants"):
            if mutant.attribute == attribute:
                return mutant.function
        raise AttributeError(f"family {self.name} has no mutant {attribute!r}")


def ties_to_larger_ids(index: FloatArray) -> FloatArray:
    r"""``index`` with exact ties broken toward the larger id, every strict order kept.

    Each finite entry :math:`i` moves down by :math:`\varepsilon\,(m - 1 - i)` with
    :math:`\varepsilon = g / (2m)` and :math:`g` the smallest gap between distinct finite
    values, so the total move stays below :math:`g/2`: two values that differed keep their
    order, two that were equal now rank the larger id first.  Values only decrease, so a
    lower confidence bound stays a lower bound.
    """
    values = np.asarray(index, dtype=np.float64)
    finite = np.isfinite(values)
    distinct = np.unique(values[finite])
    gap = float(np.min(np.diff(distinct))) if distinct.size > 1 else 1.0
    m = values.size
    shift = gap / (2.0 * m) * (m - 1 - np.arange(m, dtype=np.float64))
    return np.where(finite, values - shift, values)


def relabelling(m: int) -> tuple[IntArray, IntArray]:
    r"""A fixed permutation of ``m`` ids and its inverse.

    ``new = perm[old]`` and ``old = inverse[new]``.

    Seeded by ``m`` alone, so every trial and every process draws the same one.
    """
    perm = np.random.default_rng(m).permutation(m).astype(np.int64)
    return perm, np.argsort(perm).astype(np.int64)


@dataclass(frozen=True)
class RelabelledOracle:
    r"""An oracle for relabelled arms: ``oracle`` in the original labels, seen through ``perm``.

    Called with weights :math:`w'` in the new labels (:math:`w'_{\pi(i)} = w_i`), it asks the
    original oracle for :math:`w = w' \circ \pi` and returns that action in the new labels.
    """

    oracle: Any
    perm: IntArray

    @property
    def alpha(self) -> float:
        """The wrapped oracle's approximation ratio."""
        return float(self.oracle.alpha)

    def __call__(self, weights: FloatArray) -> IntArray:
        original = np.asarray(weights, dtype=np.float64)[self.perm]
        return self.perm[np.asarray(self.oracle(original), dtype=np.int64)]
