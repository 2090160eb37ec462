"""Test subjects of a theorem, built in the test process (:func:`probe`).

``probe:record`` runs the reference algorithm and keeps a fingerprint of the data it
was given; ``probe:first`` records too but returns the first ``k`` ids (ignores its
data); ``probe:bad-LENGTH|DUPLICATE|RANGE|NAN|FLOAT`` return one kind of bad action.
For the online bound, whose reference is a learner factory, the probe is a learner that
records each query it is fed (``record``: the reference learner's caches; ``first``: it
never caches).
:func:`first_items` is a data-blind cascade ranking that worker processes load by file.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np

from offcmab.validation.parts.scenario import Subject
from offcmab.validation.parts.theorem import Theorem

#: Fingerprints of the arguments seen, in call order (this process only).
SEEN: list[str] = []


def fingerprint(value: Any) -> str:
    """SHA-256 over the arrays and scalars of ``value`` (dataclass fields recursively)."""
    digest = hashlib.sha256()

    def feed(item: Any) -> None:
        if isinstance(item, np.ndarray):
            digest.update(str(item.dtype).encode() + np.ascontiguousarray(item).tobytes())
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            for f in dataclasses.fields(item):
                feed(getattr(item, f.name))
        else:
            digest.update(repr(item).encode())

    feed(value)
    return digest.hexdigest()


def _action(result: Any) -> np.ndarray:
    """The ids of an offline result (its ``action``, ``cache`` or ``seeds``)."""
    for attribute in ("action", "cache", "seeds"):
        if hasattr(result, attribute):
            return np.asarray(getattr(result, attribute))
    return np.asarray(result)


def _bad(kind: str, reference: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        good = _action(reference(*args)).astype(np.int64)
        if kind == "LENGTH":
            return good[:-1]
        if kind == "DUPLICATE":
            return np.concatenate([good[:-1], good[:1]])
        if kind == "RANGE":
            return np.concatenate([good[:-1], [10**8]])
        if kind == "NAN":
            return np.concatenate([good[:-1].astype(float), [np.nan]])
        return good.astype(float) + 0.5
    return run


class Recording:
    """An online learner that records each query it is fed; with ``keep`` it is the wrapped
    learner, otherwise it never caches."""

    def __init__(self, learner: Any, keep: bool) -> None:
        self.learner, self.keep = learner, keep

    def cache(self) -> Any:
        return self.learner.cache() if self.keep else np.zeros(0, dtype=np.int64)

    def observe(self, query: int, cost: float | None) -> None:
        SEEN.append(str(query))
        if self.keep:
            self.learner.observe(query, cost)


def probe(name: str, theorem: Theorem) -> Subject:
    """The test subject ``probe:NAME`` of ``theorem`` (see the module docstring)."""
    reference = theorem.reference_algorithm()
    spec = f"probe:{name}"
    if name.startswith("bad-"):
        return Subject(spec, _bad(name[4:], reference))

    def run(*args: Any) -> Any:
        result = reference(*args)
        if hasattr(result, "observe"):  # an online learner: the data are its queries
            return Recording(result, name == "record")
        SEEN.append(fingerprint(args[:2]))
        if name == "record":
            return result
        return np.arange(_action(result).size)

    return Subject(spec, run)


def first_items(dataset: Any, k: int, delta: float) -> np.ndarray:
    """A cascade ranking that ignores its data: items ``0..k-1`` (loadable as ``file:``)."""
    return np.arange(k)
