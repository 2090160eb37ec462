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
    :class:`reference.dataset.OfflineDataset`.  Archives are always opened with
    ``allow_pickle=False``: a file holding pickled objects is rejected.

Every problem is reported as :class:`reference.errors.InputError` naming the
field and, for JSON Lines, the line.
"""

from __future__ import annotations

import json
import struct
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from reference.dataset import OfflineDataset, offsets_from_lengths
from reference.errors import InputError

NPZ_KEYS = ("m", "triggered_offsets", "triggered", "outcomes")
NPZ_OPTIONAL_KEYS = ("action_offsets", "actions")


def read_dataset(path: str | Path) -> OfflineDataset:
    """Read a dataset, choosing the format from the file suffix (``.npz`` or JSON Lines)."""
    path = Path(path)
    if path.suffix == ".npz":
        return read_npz(path)
    return read_jsonl(path)


def write_dataset(dataset: OfflineDataset, path: str | Path) -> None:
    """Write a dataset, choosing the format from the file suffix (``.npz`` or JSON Lines)."""
    path = Path(path)
    if path.suffix == ".npz":
        write_npz(dataset, path)
    else:
        write_jsonl(dataset, path)


def _open_text(path: Path) -> list[str]:
    try:
        with path.open("r", encoding="utf-8") as handle:
            return handle.read().splitlines()
    except FileNotFoundError:
        raise InputError("data", f"file not found: {path}") from None
    except UnicodeDecodeError:
        raise InputError("data", f"{path} is not UTF-8 text (is it an .npz file?)") from None
    except OSError as error:
        raise InputError("data", f"cannot read {path}: {error.strerror}") from None


def parse_json_line(text: str, line: int) -> dict[str, Any]:
    """Parse one JSON Lines record into a dict, or raise ``InputError`` naming the line."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError("json", f"malformed JSON ({error.msg})", line) from None
    if not isinstance(record, dict):
        raise InputError("json", "each line must be a JSON object", line)
    return record


def _int_list(record: dict[str, Any], key: str, line: int) -> list[int]:
    value = record.get(key)
    if not isinstance(value, list):
        raise InputError(key, "missing or not a list", line)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InputError(key, "must be a list of integers", line)
    return value


def _number_list(record: dict[str, Any], key: str, line: int) -> list[float]:
    value = record.get(key)
    if not isinstance(value, list):
        raise InputError(key, "missing or not a list", line)
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        raise InputError(key, "must be a list of numbers", line)
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
    return header, size


def read_jsonl(path: str | Path) -> OfflineDataset:
    """Read a JSON Lines dataset; see the module docstring for the format."""
    lines = _open_text(Path(path))
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
    with Path(path).open("w", encoding="utf-8") as handle:
        handle.write(json.dumps({"m": dataset.m}) + "\n")
        for t in range(dataset.n):
            record: dict[str, Any] = {}
            if dataset.actions is not None and dataset.action_offsets is not None:
                a, b = int(dataset.action_offsets[t]), int(dataset.action_offsets[t + 1])
                record["action"] = dataset.actions[a:b].tolist()
            record["triggered"] = ids[offsets[t] : offsets[t + 1]]
            record["outcomes"] = values[offsets[t] : offsets[t + 1]]
            handle.write(json.dumps(record) + "\n")


def _read_stored_arrays(path: Path) -> dict[str, np.ndarray] | None:
    """Read every member of an uncompressed archive with one ``np.fromfile`` each.

    ``np.load`` copies stored members through ``zipfile`` in small chunks; an
    uncompressed member is a plain ``.npy`` at a known offset, so reading it
    straight into its array is several times faster on large logs.  Returns None
    (the caller then uses ``np.load``) for compressed members, object dtypes
    (pickles, which are never loaded), ``.npy`` versions other than 1.0/2.0, or
    anything unexpected.  Like ``np.load`` on an ``.npy`` file, this does not
    check the member's CRC; a truncated member is detected by its size.
    """
    arrays: dict[str, np.ndarray] = {}
    with path.open("rb") as handle, zipfile.ZipFile(handle) as archive:
        for info in archive.infolist():
            if info.compress_type != zipfile.ZIP_STORED or not info.filename.endswith(".npy"):
                return None
            handle.seek(info.header_offset)
            local = handle.read(30)
            if len(local) != 30 or local[:4] != b"PK\x03\x04":
                return None
            name_length, extra_length = struct.unpack("<HH", local[26:30])
            handle.seek(info.header_offset + 30 + name_length + extra_length)
            version = np.lib.format.read_magic(handle)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(handle)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(handle)
            else:
                return None
            if dtype.hasobject:
                return None
            count = int(np.prod(shape, dtype=np.int64))
            data = np.fromfile(handle, dtype=dtype, count=count)
            if data.size != count:
                return None
            arrays[info.filename[:-4]] = data.reshape(shape, order="F" if fortran else "C")
    return arrays


def read_npz(path: str | Path) -> OfflineDataset:
    """Read a ``.npz`` dataset (never unpickling anything); see the module docstring."""
    path = Path(path)
    try:
        archive = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise InputError("data", f"file not found: {path}") from None
    except (ValueError, OSError, zipfile.BadZipFile) as error:
        raise InputError("data", f"{path} is not a valid .npz archive ({error})") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise InputError("data", f"{path} is a single array, not an .npz archive")
    with archive:
        missing = [key for key in NPZ_KEYS if key not in archive.files]
        if missing:
            raise InputError(missing[0], f"array missing from {path.name}")
        try:
            arrays = _read_stored_arrays(path) or {key: archive[key] for key in archive.files}
        except ValueError:
            raise InputError("data", "archive holds pickled objects, which are never loaded") \
                from None
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
    """Write a dataset as an uncompressed ``.npz`` archive (fast to load)."""
    arrays: dict[str, np.ndarray] = {
        "m": np.asarray(dataset.m, dtype=np.int64),
        "triggered_offsets": dataset.triggered_offsets,
        "triggered": dataset.triggered,
        "outcomes": dataset.outcomes,
    }
    if dataset.actions is not None and dataset.action_offsets is not None:
        arrays["action_offsets"] = dataset.action_offsets
        arrays["actions"] = dataset.actions
    with Path(path).open("wb") as handle:
        np.savez(handle, **arrays)  # type: ignore[arg-type]
