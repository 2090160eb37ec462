"""Test subjects under the prefix ``probe`` (registered on import, also in worker processes).

``probe:record`` runs the reference algorithm and keeps a fingerprint of the data it
was given; ``probe:first`` records too but returns the first ``k`` ids (ignores its
data); ``probe:bad-LENGTH|DUPLICATE|RANGE|NAN|FLOAT`` return one kind of bad action.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np

from offcmab.validation import subjects

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


def _bad(kind: str, bound_id: str) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        good = np.asarray(subjects.as_action(subjects.reference_algorithm(bound_id)(*args),
                                             10**9, _k(args, bound_id)))
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


def _k(args: tuple[Any, ...], bound_id: str) -> int:
    if bound_id in ("cor1-cascade", "lem-llm-std", "thm3-llm"):
        return int(args[1])
    result = subjects.reference_algorithm(bound_id)(*args)
    for attribute in ("action", "cache", "seeds"):
        if hasattr(result, attribute):
            return int(np.size(getattr(result, attribute)))
    raise AssertionError(bound_id)


def resolver(rest: str, bound_id: str) -> Callable[..., Any]:
    reference = subjects.reference_algorithm(bound_id)
    if rest.startswith("bad-"):
        return _bad(rest[4:], bound_id)

    def run(*args: Any) -> Any:
        SEEN.append(fingerprint(args[:2]))
        result = reference(*args)
        if rest == "record":
            return result
        if bound_id == "thm-llm-online":
            return np.zeros_like(result.caches)  # never caches anything
        action = subjects.as_action(result, 10**9, _k(args, bound_id))
        return np.arange(action.size)

    return run


subjects.register_prefix("probe", resolver)
