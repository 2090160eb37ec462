r"""Reading and writing offline datasets: JSON Lines and ``.npz``.

JSON Lines (``*.jsonl``)
    The first line is a header object with at least ``{"m": M}``; other header
    keys are kept in ``header`` and otherwise ignored.  Every further non-blank
    line is one sample::

        {"action": [3, 1, 4], "triggered": [3, 1], "outcomes": [0, 1]}

    ``outcomes`` align with ``triggered``; ``action`` is optional but, when one
    sample has it, every sample must.

NumPy archive (``*.npz``)
    Arrays ``m`` (a scalar), ``triggered_offsets``, ``triggered``, ``outcomes``
    and optionally ``action_offsets`` and ``actions``, in the layout of
    :class:`offcmab.reference.dataset.OfflineDataset`.  Archives are always opened with
    ``allow_pickle=False``: a file holding pickled objects is rejected.

Every problem is reported as :class:`offcmab.reference.errors.InputError` naming the
field and, for JSON Lines, the line.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from offcmab.reference.dataset import OfflineDataset, offsets_from_lengths
from offcmab.reference.errors import InputError, check_size
from offcmab.reference.jsonsafe import loads, read_text, text_lines
from offcmab.reference.npz import read_npz_members, write_npz_aligned

T = TypeVar("T")
R = TypeVar("R")

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
#: Largest integer a float64 holds without overflow (the float just below 2**1024).
FLOAT_MAX_INT = int(sys.float_info.max)

NPZ_KEYS = ("m", "triggered_offsets", "triggered", "outcomes")
NPZ_OPTIONAL_KEYS = ("action_offsets", "actions")


def read_dataset(path: str | Path, actions: bool = True) -> OfflineDataset:
    """Read a dataset, choosing the format from the file suffix (``.npz`` or JSON Lines).

    ``actions=False`` leaves a ``.npz`` archive's logged actions unread (and unchecked), for
    algorithms that use only the triggered arms and outcomes; JSON Lines are read whole.
    """
    path = Path(path)
    if path.suffix == ".npz":
        return read_npz(path, actions)
    return read_jsonl(path)


def check_file(path: str | Path, check: Callable[[T], R], data: T) -> R:
    """``check(data)`` for data read from ``path``, its error naming the file line of the sample.

    Checks that run on loaded data
    (:func:`offcmab.reference.problems.cascade.check_cascade_log`, ...)
    know the offending sample (``InputError.sample``), not the line; for a JSON Lines file this
    maps it back, skipping the header and blank lines as the readers do.  Only the error path
    reads the file again.
    """
    try:
        return check(data)
    except InputError as error:
        path = Path(path)
        if error.sample is None or error.line is not None or path.suffix == ".npz":
            raise
        records = (number for number, text in enumerate(open_text(path)[1:], start=2)
                   if text.strip())
        line = next((number for t, number in enumerate(records) if t == error.sample), None)
        raise InputError(error.field, error.message, line, error.sample) from None


def write_dataset(dataset: OfflineDataset, path: str | Path) -> None:
    """Write a dataset, choosing the format from the file suffix (``.npz`` or JSON Lines)."""
    path = Path(path)
    if path.suffix == ".npz":
        write_npz(dataset, path)
    else:
        write_jsonl(dataset, path)


def open_text(path: Path) -> list[str]:
    """The lines of a UTF-8 text file (split at newlines only), or an ``InputError`` on field
    ``data`` saying why not."""
    return text_lines(read_text(path, "data"))


def parse_json_line(text: str, line: int) -> dict[str, Any]:
    """Parse one JSON Lines record into a dict, or raise ``InputError`` naming the line.

    Decoded by :mod:`offcmab.reference.jsonsafe`: a repeated key, a number no float holds or
    nesting deeper than its limit is refused naming the key (or ``json``) and the line.
    """
    try:
        record = loads(text, "json", line)
    except json.JSONDecodeError as error:
        found = "a CSV row" if "," in text and not text.lstrip().startswith(("{", "[")) else None
        what = (f"not JSON: it looks like {found}; logs are JSON Lines (one object per line) "
                "or .npz" if found else f"malformed JSON ({error.msg})")
        raise InputError("json", what, line) from None
    if not isinstance(record, dict):
        raise InputError("json", "each line must be a JSON object", line)
    return record


def _int_list(record: dict[str, Any], key: str, line: int) -> list[int]:
    value = record.get(key)
    if not isinstance(value, list):
        raise InputError(key, "missing or not a list", line)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InputError(key, "must be a list of integers", line)
    if any(not INT64_MIN <= v <= INT64_MAX for v in value):
        raise InputError(key, "holds an id too large for a 64-bit integer", line)
    return value


def is_float_number(value: Any) -> bool:
    """Whether a decoded JSON value is a number a float holds: not bool, not NaN or infinity,
    not an integer beyond the float range (JSON allows 400-digit integers)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, int):
        return abs(value) <= FLOAT_MAX_INT
    return math.isfinite(value)


def _number_list(record: dict[str, Any], key: str, line: int) -> list[float]:
    value = record.get(key)
    if not isinstance(value, list):
        raise InputError(key, "missing or not a list", line)
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        raise InputError(key, "must be a list of numbers", line)
    if any(isinstance(v, int) and abs(v) > FLOAT_MAX_INT for v in value):
        raise InputError(key, "holds a number too large for a 64-bit float", line)
    return value


def read_header(lines: list[str], key: str) -> tuple[dict[str, Any], int]:
    """Parse the header line of a JSON Lines file and return it with its positive ``key``."""
    if not lines or not lines[0].strip():
        raise InputError("header", "file is empty; the first line must be a header like "
                         f'{{"{key}": 10}}', 1)
    header = parse_json_line(lines[0], 1)
    size = header.get(key)
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise InputError(key, f'header must hold a positive integer "{key}"', 1)
    return header, check_size(size, key, 1)


def read_jsonl(path: str | Path) -> OfflineDataset:
    """Read a JSON Lines dataset; see the module docstring for the format."""
    lines = open_text(Path(path))
    _, m = read_header(lines, "m")
    triggered: list[int] = []
    outcomes: list[float] = []
    actions: list[int] = []
    triggered_lengths: list[int] = []
    action_lengths: list[int] = []
    lines_of_samples: list[int] = []
    has_action: bool | None = None
    for number, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        record = parse_json_line(text, number)
        arms = _int_list(record, "triggered", number)
        values = _number_list(record, "outcomes", number)
        if len(arms) != len(values):
            raise InputError(
                "outcomes", f"has {len(values)} entries but triggered has {len(arms)}", number
            )
        if has_action is None:
            has_action = "action" in record
        if has_action != ("action" in record):
            raise InputError("action", "present in some samples but not in others", number)
        if has_action:
            action = _int_list(record, "action", number)
            actions.extend(action)
            action_lengths.append(len(action))
        triggered.extend(arms)
        outcomes.extend(values)
        triggered_lengths.append(len(arms))
        lines_of_samples.append(number)
    if not triggered_lengths:
        raise InputError("data", "no samples after the header")
    try:
        return OfflineDataset(
            m,
            offsets_from_lengths(triggered_lengths),
            np.asarray(triggered, dtype=np.int64),
            np.asarray(outcomes, dtype=np.float64),
            offsets_from_lengths(action_lengths) if has_action else None,
            np.asarray(actions, dtype=np.int64) if has_action else None,
        )
    except InputError as error:
        raise _locate(error, triggered_lengths, action_lengths, triggered, outcomes, actions,
                      m, lines_of_samples) from None


def _locate(
    error: InputError,
    triggered_lengths: list[int],
    action_lengths: list[int],
    triggered: list[int],
    outcomes: list[float],
    actions: list[int],
    m: int,
    lines_of_samples: list[int],
) -> InputError:
    """Attach the file line of the first bad entry to a vectorized validation error."""
    field = error.field
    if field in ("triggered", "outcomes"):
        ids = np.asarray(triggered, dtype=np.int64)
        values = np.asarray(outcomes, dtype=np.float64)
        lengths = triggered_lengths
        if field == "outcomes":
            bad = ~np.isfinite(values) | (values < 0) | (values > 1)
        else:
            bad = (ids < 0) | (ids >= m)
    elif field == "actions":
        ids = np.asarray(actions, dtype=np.int64)
        lengths = action_lengths
        bad = (ids < 0) | (ids >= m)
    else:
        return error
    message = str(error).split(": ", 1)[1]
    if field == "triggered" and "more than once" in message:
        sample = int(message.split()[1])
        return InputError(field, "lists an arm more than once", lines_of_samples[sample])
    entries = np.flatnonzero(bad)
    if entries.size == 0:
        return error
    offsets = offsets_from_lengths(lengths)
    sample = int(np.searchsorted(offsets, entries[0], side="right") - 1)
    return InputError(field, message, lines_of_samples[sample])


def write_jsonl(dataset: OfflineDataset, path: str | Path) -> None:
    """Write a dataset as JSON Lines (header ``{"m": m}`` then one sample per line)."""
    ids = dataset.triggered.tolist()
    values = dataset.outcomes.tolist()
    offsets = dataset.triggered_offsets.tolist()
    has_actions = dataset.actions is not None and dataset.action_offsets is not None
    actions = dataset.actions.tolist() if dataset.actions is not None else []
    starts = dataset.action_offsets.tolist() if dataset.action_offsets is not None else []
    with Path(path).open("w", encoding="utf-8") as handle:
        handle.write(json.dumps({"m": dataset.m}) + "\n")
        for t in range(dataset.n):  # one line per sample: per sample by nature
            record: dict[str, Any] = {}
            if has_actions:
                record["action"] = actions[starts[t] : starts[t + 1]]
            record["triggered"] = ids[offsets[t] : offsets[t + 1]]
            record["outcomes"] = values[offsets[t] : offsets[t + 1]]
            handle.write(json.dumps(record) + "\n")


def load_npz_arrays(path: str | Path, required: tuple[str, ...],
                    optional: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
    """The arrays ``required`` and (those present of) ``optional`` of a ``.npz`` archive.

    Opened without ever unpickling (:func:`offcmab.reference.npz.read_npz_members`); other members
    are not read.

    Raises
    ------
    InputError
        If the file is missing, is not an archive, lacks one of ``required``, or holds
        pickled objects (which are never loaded).
    """
    return read_npz_members(path, required + optional, required)


def read_npz(path: str | Path, actions: bool = True) -> OfflineDataset:
    """Read a ``.npz`` dataset (never unpickling anything); see the module docstring.

    Only the members the dataset needs are read (the actions only with ``actions=True``),
    uncompressed ones straight into their arrays (:func:`offcmab.reference.npz.read_npz_members`).
    """
    arrays = load_npz_arrays(path, NPZ_KEYS, NPZ_OPTIONAL_KEYS if actions else ())
    m = arrays["m"]
    if m.shape != () or m.dtype.kind not in "iu":
        raise InputError("m", "must be a scalar integer")
    return OfflineDataset(
        int(m),
        arrays["triggered_offsets"],
        arrays["triggered"],
        arrays["outcomes"],
        arrays.get("action_offsets"),
        arrays.get("actions"),
    )


def write_npz(dataset: OfflineDataset, path: str | Path) -> None:
    """Write a dataset as an uncompressed ``.npz`` archive, members aligned (fast to load)."""
    arrays: dict[str, np.ndarray] = {
        "m": np.asarray(dataset.m, dtype=np.int64),
        "triggered_offsets": dataset.triggered_offsets,
        "triggered": dataset.triggered,
        "outcomes": dataset.outcomes,
    }
    if dataset.actions is not None and dataset.action_offsets is not None:
        arrays["action_offsets"] = dataset.action_offsets
        arrays["actions"] = dataset.actions
    write_npz_aligned(path, arrays)
