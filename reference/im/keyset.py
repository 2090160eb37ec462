r"""A growing set of non-negative ``int64`` keys with vectorized insertion (a numpy hash set).

The IC simulators keep the visited ``(run, node)`` pairs of many cascades as integer keys (the
cells of :func:`~offcmab.reference.im.diffusion.diffuse`).  A dense ``runs x V`` array would cost
``runs * V`` however small the cascades are; the hash set costs memory and time proportional
to the keys actually inserted.

Layout: open addressing with linear probing in a power-of-two table kept at most half full
(``-1`` marks an empty slot), Fibonacci hashing ``(key * 0x9E3779B97F4A7C15) >> (64 - bits)``.
:meth:`KeySet.add` first reduces its keys to distinct ones (a sort, fast in numpy), then inserts
them in a few rounds of array operations; each round every still-unresolved key reads its
current slot and

* finds itself: it was present, not new;
* finds an empty slot: all such keys write themselves there and read back; the keys that
  survived the write are inserted (new), the others go on probing;
* finds another key: moves to the next slot.

:class:`DenseKeys` is the same interface over a byte per possible key, for batches whose
cascades cover a good share of the nodes: with cascades of mean size ``m`` on ``V`` nodes it
takes ``V`` bytes per run against 16 to 32 bytes per key for the hash set, so it is used only
when ``V <= DENSE_RATIO * m`` (at most 128 bytes per active pair: memory stays proportional to
the active pairs) and is then 20 to 50 times faster per key.  :class:`BitKeys` keeps a bit
per possible key, so the same 128-byte bound allows it up to ``V <= BIT_RATIO * m`` (8 times
further); it serves the small cascades and RR sets of graphs of a few thousand nodes.
:func:`store_kind` picks among the three and :class:`Store` builds the chosen one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeVar

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import IntArray

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_EMPTY = -1
_MIN_BITS = 10
_UINT32_KEYS = 1 << 32
_Key = TypeVar("_Key", np.int64, np.uint32)
#: A byte map is used once the keys are at least 1/DENSE_RATIO of the key range.
DENSE_RATIO = 128
#: A bit map is used once the keys are at least 1/BIT_RATIO of the key range (at most 128 bytes
#: per key, as for the byte map).
BIT_RATIO = 8 * DENSE_RATIO

StoreKind = Literal["hash", "bytes", "bits"]


def store_kind(capacity: float, keys: float) -> StoreKind:
    """The cheapest store for ``keys`` keys out of ``capacity`` whose memory stays within
    128 bytes per key: a byte map, a bit map, else the hash set."""
    if DENSE_RATIO * keys >= capacity:
        return "bytes"
    return "bits" if BIT_RATIO * keys >= capacity else "hash"


@dataclass(frozen=True)
class Store:
    """Which set keeps a batch's visited cells, and for the hash set its expected size."""

    kind: StoreKind = "hash"
    expected: int = 0

    def make(self, capacity: int, keys: int = 0) -> KeySet | DenseKeys | BitKeys:
        """An empty set of this kind for keys in ``[0, capacity)``, about to receive at least
        ``keys`` keys."""
        if self.kind == "bytes":
            return DenseKeys(capacity)
        if self.kind == "bits":
            return BitKeys(capacity)
        return KeySet(max(2 * keys, self.expected))


#: A hash set with no size hint.
HASH_SET = Store()


class KeySet:
    """A set of non-negative ``int64`` keys; :meth:`add` returns the keys that were new."""

    def __init__(self, expected: int = 0) -> None:
        self._bits = _MIN_BITS
        while (1 << self._bits) < 2 * expected:
            self._bits += 1
        self._table = np.full(1 << self._bits, _EMPTY, dtype=np.int64)
        self.size = 0

    def _slots(self, keys: IntArray) -> IntArray:
        hashed = keys.view(np.uint64) * _GOLDEN
        return (hashed >> np.uint64(64 - self._bits)).astype(np.int64)

    def _grow(self, needed: int) -> None:
        """Rehash into a table at most half full once ``needed`` keys are stored."""
        if 2 * needed <= self._table.size:
            return
        old = self._table[self._table != _EMPTY]
        while (1 << self._bits) < 2 * needed:
            self._bits += 1
        self._table = np.full(1 << self._bits, _EMPTY, dtype=np.int64)
        self.size = 0
        self._insert(old)

    def add(self, keys: IntArray) -> IntArray:
        """Insert ``keys`` (copies allowed); return each key that was absent, once, sorted."""
        distinct = _distinct(np.asarray(keys, dtype=np.int64))
        self._grow(self.size + distinct.size)  # room even if every key is new
        return self._insert(distinct)

    def _insert(self, keys: IntArray) -> IntArray:
        """Insert distinct keys (the table has room); return the new ones."""
        mask = np.int64(self._table.size - 1)
        table = self._table
        pending = np.arange(keys.size, dtype=np.int64)
        slot = self._slots(keys)
        is_new = np.zeros(keys.size, dtype=bool)
        while pending.size:
            key = keys[pending]
            found = table[slot]
            empty = np.flatnonzero(found == _EMPTY)
            table[slot[empty]] = key[empty]
            won = empty[table[slot[empty]] == key[empty]]  # others lost the slot to another key
            is_new[pending[won]] = True
            resolved = found == key
            resolved[won] = True
            pending, slot = pending[~resolved], (slot[~resolved] + 1) & mask
        fresh = keys[is_new]
        self.size += int(fresh.size)
        return fresh

    def __len__(self) -> int:
        return self.size


class DenseKeys:
    """The :class:`KeySet` interface over one byte per key in ``[0, capacity)``."""

    def __init__(self, capacity: int) -> None:
        self._unseen = np.ones(capacity, dtype=bool)  # (no negation pass when reading it)
        self.size = 0

    def add(self, keys: IntArray) -> IntArray:
        """Insert ``keys`` (copies allowed); return each key that was absent, once, sorted."""
        keys = np.asarray(keys, dtype=np.int64)
        fresh = _distinct_keys(keys[np.take(self._unseen, keys)], self._unseen.size)
        self._unseen[fresh] = False
        self.size += int(fresh.size)
        return fresh

    def __len__(self) -> int:
        return self.size


class BitKeys:
    """The :class:`KeySet` interface over one bit per key in ``[0, capacity)`` (key ``c`` is
    bit ``c & 7`` of byte ``c >> 3``): 8 times less memory than :class:`DenseKeys`."""

    def __init__(self, capacity: int) -> None:
        self._bytes = np.zeros((capacity + 7) >> 3, dtype=np.uint8)
        self._capacity = capacity
        self.size = 0

    def add(self, keys: IntArray) -> IntArray:
        """Insert ``keys`` (copies allowed); return each key that was absent, once, sorted."""
        keys = np.asarray(keys, dtype=np.int64)
        bit = (keys & 7).astype(np.uint8)
        unseen = ((np.take(self._bytes, keys >> 3) >> bit) & 1) == 0
        fresh = _distinct_keys(keys[unseen], self._capacity)
        if fresh.size:  # set the bits: one OR per distinct byte (fresh is sorted)
            byte = fresh >> 3
            first = np.flatnonzero(first_of_runs(byte))
            mask = np.left_shift(np.uint8(1), (fresh & 7).astype(np.uint8))
            self._bytes[byte[first]] |= np.bitwise_or.reduceat(mask, first)
        self.size += int(fresh.size)
        return fresh

    def __len__(self) -> int:
        return self.size


def _distinct_keys(keys: IntArray, capacity: int) -> IntArray:
    """Sorted distinct ``keys`` of a map of ``capacity`` keys: sorted as 32-bit integers when
    they fit (about twice as fast as 64-bit)."""
    if capacity <= _UINT32_KEYS:
        return _distinct(keys.astype(np.uint32)).astype(np.int64)
    return _distinct(keys)


def _distinct(keys: npt.NDArray[_Key]) -> npt.NDArray[_Key]:
    """Sorted distinct values of ``keys``."""
    ordered = np.sort(keys)
    return ordered[first_of_runs(ordered)] if ordered.size > 1 else ordered


def first_of_runs(values: npt.NDArray[np.integer]) -> npt.NDArray[np.bool_]:
    """Whether each element starts a run of equal values (``values`` non-empty)."""
    first = np.empty(values.size, dtype=bool)
    first[0] = True
    np.not_equal(values[1:], values[:-1], out=first[1:])
    return first
