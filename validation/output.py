r"""Printing command results: JSON for machines, aligned text for people."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np


def jsonable(value: Any) -> Any:
    """Convert numpy values to plain Python; non-finite floats become ``None`` (JSON null)."""
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, np.ndarray):
        return _array_to_list(value)
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        return number if math.isfinite(number) else None
    return value


def _array_to_list(array: np.ndarray) -> Any:
    """A numpy array as nested lists in one ``tolist`` call; non-finite floats become None."""
    if array.dtype.kind not in "biuf":
        return [jsonable(item) for item in array.tolist()]
    if array.ndim != 1:
        return [_array_to_list(row) for row in array]
    values = array.tolist()
    if array.dtype.kind == "f":
        for index in np.flatnonzero(~np.isfinite(array)).tolist():
            values[index] = None
    return values


def emit(payload: Mapping[str, Any], as_json: bool) -> None:
    """Print ``payload`` as one JSON object, or as ``key: value`` lines."""
    data = jsonable(payload)
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
        return
    width = max((len(key) for key in data), default=0)
    for key, item in data.items():
        text = json.dumps(item) if isinstance(item, list | dict) else str(item)
        sys.stdout.write(f"{key:<{width}}  {text}\n")
