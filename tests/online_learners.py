"""Online cache learners for the tests of the online door (loadable as ``file:`` subjects).

:func:`inverted` is the printed CUCB-LLM-S with its replacement rule inverted (evict the
best cached query, when it beats the newcomer); :func:`never_caches` and :func:`first_k`
ignore their feedback; :class:`Peeker` records everything the door hands it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from offcmab.reference.cucb_llm_stream import StreamingCache


class InvertedCache(StreamingCache):
    """The printed learner, but a miss into a full cache evicts the *best* cached query."""

    def observe(self, query: int, cost: float | None) -> None:
        before = self.cache()
        super().observe(query, cost)
        if cost is None or before.sum() < self.k:
            return
        scores = self.scores()
        cached = np.flatnonzero(before)
        best = int(cached[np.argmax(scores[cached])])
        after = before.copy()
        if scores[best] >= scores[query]:
            after[best], after[query] = False, True
        self._in_cache = after


def inverted(m: int, k: int, delta: float) -> InvertedCache:
    """A factory of :class:`InvertedCache`."""
    return InvertedCache(m, k)


class Fixed:
    """A learner whose cache never changes (it exposes no LCBs)."""

    def __init__(self, ids: np.ndarray) -> None:
        self.ids = ids

    def cache(self) -> np.ndarray:
        return self.ids

    def observe(self, query: int, cost: float | None) -> None:
        return None


def never_caches(m: int, k: int, delta: float) -> Fixed:
    """The empty cache in every round."""
    return Fixed(np.zeros(0, dtype=np.int64))


def first_k(m: int, k: int, delta: float) -> Fixed:
    """Queries ``0..k-1`` in every round, whatever the feedback."""
    return Fixed(np.arange(k))


class Peeker:
    """Caches query 0 and keeps every object the door hands it, to show what it can see."""

    def __init__(self, *arguments: Any) -> None:
        self.seen: list[Any] = list(arguments)
        self.feedback: list[tuple[int, float | None]] = []

    def cache(self) -> np.ndarray:
        return np.array([0])

    def observe(self, query: int, cost: float | None) -> None:
        self.seen += [query, cost]
        self.feedback.append((query, cost))
