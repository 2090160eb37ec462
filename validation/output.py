r"""Printing command results: JSON for machines, aligned text for people."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np


def non_finite(number: float, words: bool) -> str | None:
    """How a non-finite float is written: ``None`` (JSON null) or the words ``"inf"``,
    ``"-inf"``, ``"nan"`` (``words=True``, what the command line prints: ``null`` would not
    say which, and ``float()`` reads the words back)."""
    return str(number) if words else None


def jsonable(value: Any, words: bool = False) -> Any:
    """Convert numpy values to plain Python; non-finite floats become :func:`non_finite`."""
    if isinstance(value, Mapping):
        return {str(key): jsonable(item, words) for key, item in value.items()}
    if isinstance(value, np.ndarray):
        return _array_to_list(value, words)
    if isinstance(value, list | tuple):
        return [jsonable(item, words) for item in value]
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        return number if math.isfinite(number) else non_finite(number, words)
    return value


def _array_to_list(array: np.ndarray, words: bool = False) -> Any:
    """A numpy array as nested lists in one ``tolist`` call; non-finite floats as in jsonable."""
    if array.dtype.kind not in "biuf":
        return [jsonable(item, words) for item in array.tolist()]
    if array.ndim != 1:
        return [_array_to_list(row, words) for row in array]
    values = array.tolist()
    if array.dtype.kind == "f":
        for index in np.flatnonzero(~np.isfinite(array)).tolist():
            values[index] = non_finite(values[index], words)
    return values


def to_json(data: Any) -> str:
    """JSON text of already :func:`jsonable` data.

    ``orjson`` writes the long number arrays of ``offcmab solve`` several times faster than
    the standard library (the largest cost of the command after loading); the parsed content
    is the same.  Integers beyond 64 bits, which ``orjson`` refuses, fall back to :mod:`json`.
    """
    import orjson

    try:
        return orjson.dumps(data).decode()
    except orjson.JSONEncodeError:
        return json.dumps(data)


def emit(payload: Mapping[str, Any], as_json: bool) -> None:
    """Print ``payload`` as one JSON object, or as aligned ``key  value`` lines.

    In the lines, a nested object becomes one line per field (``precondition.holds``), so
    no JSON object is shown to a reader; a list stays on one line.  A non-finite number is
    printed as ``"inf"``, ``"-inf"`` or ``"nan"``, never as ``null``.
    """
    data = jsonable(payload, words=True)
    if as_json:
        sys.stdout.write(to_json(data) + "\n")
        return
    flat = _flatten(data)
    width = max((len(key) for key in flat), default=0)
    for key, item in flat.items():
        text = json.dumps(item) if isinstance(item, list) else str(item)
        sys.stdout.write(f"{key:<{width}}  {text}\n")


def short(value: Any) -> str:
    """A parameter value for a reader: floats to 4 significant digits, lists in brackets,
    objects as ``key=value`` pairs."""
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return "[" + ", ".join(short(item) for item in value) + "]"
    if isinstance(value, dict):
        return ", ".join(f"{key}={short(item)}" for key, item in value.items())
    return str(value)


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested objects as dotted keys: ``{"a": {"b": 1}}`` -> ``{"a.b": 1}``."""
    flat: dict[str, Any] = {}
    for key, item in data.items():
        if isinstance(item, dict) and item:
            flat.update(_flatten(item, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = item
    return flat
