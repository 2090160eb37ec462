r"""Offline datasets of CMAB-T feedback, stored as flat (CSR) arrays.

A dataset is :math:`\mathcal{D} = \{(S_t, \tau_t, (X_{t,i})_{i \in \tau_t})\}_{t=1}^n`:
for each sample the action played, the arms it triggered and their outcomes.
Sample :math:`t` (0-based here) owns the slice
``triggered[triggered_offsets[t]:triggered_offsets[t+1]]`` of arm ids and the
aligned slice of ``outcomes``; actions, when recorded, are stored the same way.
Nothing in hot code loops over samples: statistics are ``bincount`` calls on the
flat arrays.

References
----------
Paper, Section 2.2 ("Offline dataset"), the definition of :math:`\mathcal{D}`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from offcmab.reference.errors import InputError, check_dense, check_size

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def _offsets_from_lengths(lengths: npt.ArrayLike) -> IntArray:
    lengths = np.asarray(lengths, dtype=np.int64)
    offsets = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


def _as_int_array(values: npt.ArrayLike, field: str) -> IntArray:
    array = np.asarray(values)
    if array.ndim != 1:
        raise InputError(field, f"must be a flat array, got shape {array.shape}")
    if array.size == 0:
        return np.zeros(0, dtype=np.int64)
    if array.dtype.kind == "f":
        if not np.all(np.isfinite(array)) or np.any(array != np.floor(array)):
            raise InputError(field, "must contain integers only")
        if np.any(np.abs(array) >= 2.0**63):
            bad = array[np.abs(array) >= 2.0**63][0]
            raise InputError(field, f"id {bad:.0f} is too large for a 64-bit integer")
    elif array.dtype.kind not in "iu":
        raise InputError(field, f"must contain integers, got dtype {array.dtype}")
    elif array.dtype.kind == "u" and array.dtype.itemsize == 8 and array.max() > 2**63 - 1:
        bad = array[array > 2**63 - 1][0]  # would wrap to a negative int64
        raise InputError(field, f"id {int(bad)} is too large for a 64-bit signed integer")
    return array.astype(np.int64, copy=False)


def as_real_array(values: npt.ArrayLike, field: str) -> FloatArray:
    """``values`` as ``float64``, refusing complex, string and object data (never cast)."""
    array = np.asarray(values)
    if array.size and array.dtype.kind not in "biuf":
        raise InputError(field, f"must contain real numbers, got dtype {array.dtype}")
    return array.astype(np.float64, copy=False)


def _check_offsets(offsets: IntArray, total: int, field: str) -> None:
    if offsets.size == 0 or offsets[0] != 0:
        raise InputError(field, "must start with 0")
    if offsets[-1] != total:
        raise InputError(field, f"must end with the number of entries ({total}), got {offsets[-1]}")
    if (offsets[1:] < offsets[:-1]).any():  # no np.diff: one comparison, no int64 copy
        raise InputError(field, "must be non-decreasing")


def _check_ids(ids: IntArray, m: int, field: str) -> None:
    if ids.size and (ids.min() < 0 or ids.max() >= m):
        bad = ids[(ids < 0) | (ids >= m)][0]
        raise InputError(field, f"arm id {bad} is outside [0, {m})")


#: Entries per block of the duplicate check on short samples: its temporaries stay in cache.
_DISTINCT_BLOCK = 1 << 16


def _check_distinct_per_sample(ids: IntArray, offsets: IntArray, field: str) -> None:
    """Reject a sample that lists the same arm twice (tau_t is a set).

    Short samples (the usual case: ranked lists, paths) are checked by comparing
    each entry with the entry ``d`` places before it, one vectorized pass per shift
    ``d`` (linear time), block by block (:func:`_first_repeat`); only the few equal pairs
    found are then asked whether they lie in the same sample.  Long samples fall back to
    one ``lexsort``.  The error names the first offending sample either way.
    """
    if ids.size < 2:
        return
    lengths = np.diff(offsets)
    longest = int(lengths.max())
    if longest <= 16:
        first_bad = _first_repeat(ids, offsets, longest)
        if first_bad is not None:
            sample = int(np.searchsorted(offsets, first_bad, side="right") - 1)
            raise InputError(field, f"sample {sample} lists an arm more than once")
        return
    owner = np.repeat(np.arange(offsets.size - 1), lengths)
    order = np.lexsort((ids, owner))
    same = (owner[order][1:] == owner[order][:-1]) & (ids[order][1:] == ids[order][:-1])
    if np.any(same):
        sample = int(owner[order][1:][same][0])
        raise InputError(field, f"sample {sample} lists an arm more than once")


def _first_repeat(ids: IntArray, offsets: IntArray, longest: int,
                  block: int = _DISTINCT_BLOCK) -> int | None:
    """The first entry that repeats an earlier entry of its own sample, or None.

    Entry ``e`` repeats entry ``e - d`` of its sample when ``ids[e] == ids[e - d]`` and
    ``e - d`` is not before the sample's first entry; with samples of at most ``longest``
    entries, ``d`` runs from 1 to ``longest - 1``.  The entries are compared in blocks of
    ``block`` entries, every shift within a block before the next block, so that the array
    is read from memory once rather than once per shift, and the first block that holds a
    repeat holds the first one.
    """
    for start in range(0, ids.size, block):
        stop = min(start + block, ids.size)
        first: int | None = None
        for d in range(1, longest):
            low = max(start, d)
            if low >= stop:
                continue
            pairs = ids[low:stop] == ids[low - d:stop - d]
            if not pairs.any():  # the usual case: no equal pair at all at this shift
                continue
            equal = np.flatnonzero(pairs) + low
            owner = np.searchsorted(offsets, equal, side="right") - 1
            same = equal[equal - offsets[owner] >= d]
            if same.size and (first is None or same[0] < first):
                first = int(same[0])
        if first is not None:
            return first
    return None


@dataclass(frozen=True)
class OfflineDataset:
    r"""An offline CMAB-T dataset in CSR layout.

    Attributes
    ----------
    m
        Number of base arms; arm ids lie in ``[0, m)``.
    triggered_offsets
        ``int64`` array of length ``n + 1``; sample ``t`` triggered the arms
        ``triggered[triggered_offsets[t]:triggered_offsets[t + 1]]``.
    triggered
        ``int64`` arm ids of all triggered arms, sample after sample.
    outcomes
        ``float64`` outcomes :math:`X_{t,i} \in [0, 1]`, aligned with ``triggered``.
    action_offsets, actions
        The played actions :math:`S_t` in the same layout (ordered where order
        matters, e.g. ranked lists), or ``None`` when the log does not record them.
    """

    m: int
    triggered_offsets: IntArray
    triggered: IntArray
    outcomes: FloatArray
    action_offsets: IntArray | None = None
    actions: IntArray | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "m", check_size(self.m, "m"))
        triggered = _as_int_array(self.triggered, "triggered")
        offsets = _as_int_array(self.triggered_offsets, "triggered_offsets")
        outcomes = as_real_array(self.outcomes, "outcomes")
        if outcomes.ndim != 1:
            raise InputError("outcomes", f"must be a flat array, got shape {outcomes.shape}")
        if outcomes.size != triggered.size:
            raise InputError(
                "outcomes",
                f"must align with triggered ({triggered.size} entries), got {outcomes.size}",
            )
        _check_offsets(offsets, triggered.size, "triggered_offsets")
        if offsets.size < 2:
            raise InputError("dataset", "is empty: it needs at least one sample")
        _check_ids(triggered, self.m, "triggered")
        # min and max propagate NaN, so two passes also catch non-finite values
        if outcomes.size and not (outcomes.min() >= 0.0 and outcomes.max() <= 1.0):
            if not np.all(np.isfinite(outcomes)):
                raise InputError("outcomes", "must be finite (found NaN or infinity)")
            raise InputError("outcomes", "must lie in [0, 1]")
        _check_distinct_per_sample(triggered, offsets, "triggered")
        object.__setattr__(self, "triggered", triggered)
        object.__setattr__(self, "triggered_offsets", offsets)
        object.__setattr__(self, "outcomes", outcomes)
        if (self.actions is None) != (self.action_offsets is None):
            raise InputError("actions", "actions and action_offsets must be given together")
        if self.actions is not None and self.action_offsets is not None:
            actions = _as_int_array(self.actions, "actions")
            action_offsets = _as_int_array(self.action_offsets, "action_offsets")
            _check_offsets(action_offsets, actions.size, "action_offsets")
            if action_offsets.size != offsets.size:
                raise InputError(
                    "action_offsets",
                    f"describes {action_offsets.size - 1} samples but triggered_offsets "
                    f"describes {offsets.size - 1}",
                )
            _check_ids(actions, self.m, "actions")
            object.__setattr__(self, "actions", actions)
            object.__setattr__(self, "action_offsets", action_offsets)
        check_dense(self.m, triggered.size + (0 if self.actions is None else self.actions.size),
                    "m")

    @property
    def n(self) -> int:
        """Number of samples."""
        return int(self.triggered_offsets.size - 1)

    def sample_of_entry(self) -> IntArray:
        """Sample index of every entry of ``triggered`` (for vectorized per-sample work)."""
        return np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.triggered_offsets))

    def head(self, n: int) -> OfflineDataset:
        """The first ``n`` samples, as a new dataset (cheap slicing, no copy of logic)."""
        if not 1 <= n <= self.n:
            raise InputError("n", f"must lie in [1, {self.n}], got {n}")
        end = int(self.triggered_offsets[n])
        actions = action_offsets = None
        if self.actions is not None and self.action_offsets is not None:
            action_offsets = self.action_offsets[: n + 1]
            actions = self.actions[: int(action_offsets[-1])]
        return OfflineDataset(
            self.m,
            self.triggered_offsets[: n + 1],
            self.triggered[:end],
            self.outcomes[:end],
            action_offsets,
            actions,
        )

    @classmethod
    def from_records(
        cls,
        m: int,
        triggered: Sequence[Sequence[int]],
        outcomes: Sequence[Sequence[float]],
        actions: Sequence[Sequence[int]] | None = None,
    ) -> OfflineDataset:
        r"""Build a dataset from per-sample lists (for tests and small hand-made logs).

        Raises
        ------
        InputError
            If the lists are ragged (a sample's outcomes do not align with its
            triggered arms) or any value is invalid.
        """
        if len(triggered) != len(outcomes):
            raise InputError(
                "outcomes", f"has {len(outcomes)} samples but triggered has {len(triggered)}"
            )
        for t, (arms, values) in enumerate(zip(triggered, outcomes, strict=True)):
            if len(arms) != len(values):
                raise InputError("outcomes", f"sample {t} has {len(values)} outcomes "
                                 f"for {len(arms)} triggered arms")
        flat_ids = np.fromiter((i for arms in triggered for i in arms), dtype=np.int64)
        flat_x = np.fromiter((x for values in outcomes for x in values), dtype=np.float64)
        offsets = _offsets_from_lengths([len(arms) for arms in triggered])
        action_offsets = flat_actions = None
        if actions is not None:
            if len(actions) != len(triggered):
                raise InputError(
                    "actions", f"has {len(actions)} samples but triggered has {len(triggered)}"
                )
            flat_actions = np.fromiter((i for a in actions for i in a), dtype=np.int64)
            action_offsets = _offsets_from_lengths([len(a) for a in actions])
        return cls(m, offsets, flat_ids, flat_x, action_offsets, flat_actions)


def offsets_from_lengths(lengths: npt.ArrayLike) -> IntArray:
    """CSR offsets (length ``len(lengths) + 1``, starting at 0) from per-sample lengths."""
    return _offsets_from_lengths(lengths)
