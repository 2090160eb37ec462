r"""Checkers of the JSON files offcmab reads back: one vocabulary for every schema.

A checker is a function ``check(value, field)`` that returns nothing for a valid value and
raises ``ValueError`` whose message starts with ``field`` (a dotted path such as
``rows[3].verdict``) for the first problem it finds.  Checkers compose: :func:`obj` checks
an object's keys with a checker each, :func:`list_of` every entry of a list.  The saved
instances of :mod:`offcmab.validation.tightness.files` and the run reports of
:mod:`offcmab.validation.runner.report_schema` are written in it, so both say what is
wrong in the same words.  Nothing is evaluated.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

Checker = Callable[[Any, str], None]


def number(value: Any, field: str) -> float:
    """``value`` as a float: a finite JSON number (a boolean is not one)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{field}: must be a number, got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{field}: must be finite, got {value}")
    return float(value)


def integer(low: int, high: int | None = None) -> Checker:
    """An integer in ``[low, high]`` (``high`` ``None``: no upper end)."""
    def check(value: Any, field: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{field}: must be an integer, got {type(value).__name__}")
        if value < low or (high is not None and value > high):
            span = f"[{low}, {high}]" if high is not None else f">= {low}"
            raise ValueError(f"{field}: must be an integer {span}, got {value}")
    return check


def probability(value: Any, field: str) -> None:
    """A number in ``[0, 1]``."""
    if not 0.0 <= number(value, field) <= 1.0:
        raise ValueError(f"{field}: must lie in [0, 1], got {value}")


def open_probability(value: Any, field: str) -> None:
    """A number strictly between 0 and 1."""
    if not 0.0 < number(value, field) < 1.0:
        raise ValueError(f"{field}: must lie strictly between 0 and 1, got {value}")


def any_number(value: Any, field: str) -> None:
    """A finite number."""
    number(value, field)


def text(value: Any, field: str) -> None:
    """A non-empty string."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"{field}: must be a non-empty string")


def any_text(value: Any, field: str) -> None:
    """A string, perhaps empty."""
    if not isinstance(value, str):
        raise ValueError(f"{field}: must be a string, got {_kind(value)}")


def scalar(value: Any, field: str) -> None:
    """A string, number, boolean or null: a value that names or counts, never a container."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{field}: must be finite, got {value}")
    if value is not None and not isinstance(value, str | int | float):
        raise ValueError(f"{field}: must be a string, number or null, got {_kind(value)}")


def nullable(checker: Checker) -> Checker:
    """checker, or JSON null."""
    def check(value: Any, field: str) -> None:
        if value is not None:
            checker(value, field)
    return check


def mapping(values: Checker) -> Checker:
    """An object of any keys whose every value passes values."""
    def check(value: Any, field: str) -> None:
        if not isinstance(value, dict):
            raise ValueError(f"{field}: must be a JSON object, got {_kind(value)}")
        for key, item in value.items():
            values(item, f"{field}.{key}")
    return check


#: How deep :func:`plain` follows nested lists and objects.
PLAIN_DEPTH = 8


def plain(value: Any, field: str, depth: int = PLAIN_DEPTH) -> None:
    """Any JSON value made of strings, finite numbers, booleans, nulls, and lists and
    objects of them (at most :data:`PLAIN_DEPTH` deep)."""
    if isinstance(value, list | dict):
        if depth == 0:
            raise ValueError(f"{field}: nested more than {PLAIN_DEPTH} levels deep")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            plain(item, f"{field}.{key}" if isinstance(value, dict) else f"{field}[{key}]",
                  depth - 1)
        return
    scalar(value, field)


def _kind(value: Any) -> str:
    """The JSON name of a decoded value's type, for messages."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def choice(*options: str) -> Checker:
    """One of ``options``."""
    def check(value: Any, field: str) -> None:
        if value not in options:
            raise ValueError(f"{field}: must be one of {', '.join(options)}, got {value!r}")
    return check


def list_of(item: Checker, min_size: int = 1) -> Checker:
    """A list of at least ``min_size`` entries, each passing ``item``."""
    def check(value: Any, field: str) -> None:
        if not isinstance(value, list) or len(value) < min_size:
            raise ValueError(f"{field}: must be a list of at least {min_size} entries, got "
                             f"{_kind(value) if not isinstance(value, list) else len(value)}")
        for j, entry in enumerate(value):
            item(entry, f"{field}[{j}]")
    return check


def obj(required: Mapping[str, Checker], optional: Mapping[str, Checker] | None = None,
        others: bool = False) -> Checker:
    """An object with the required keys and perhaps the optional ones; any other key
    is refused unless others (a file that holds more than its readers use)."""
    def check(value: Any, field: str) -> None:
        optional_keys = optional or {}
        prefix = f"{field}." if field else ""
        if not isinstance(value, dict):
            raise ValueError(f"{field or 'file'}: must be a JSON object, got {_kind(value)}")
        for key in value if not others else ():
            if key not in required and key not in optional_keys:
                raise ValueError(f"{prefix}{key}: unknown key")
        for key, checker in required.items():
            if key not in value:
                raise ValueError(f"{prefix}{key}: missing")
            checker(value[key], f"{prefix}{key}")
        for key, checker in optional_keys.items():
            if key in value:
                checker(value[key], f"{prefix}{key}")
    return check


def law(kinds: Mapping[str, Mapping[str, Checker]]) -> Checker:
    """A ``law`` object whose further keys depend on its ``kind``."""
    def check(value: Any, field: str) -> None:
        if not isinstance(value, dict):
            raise ValueError(f"{field}: must be a JSON object")
        choice(*kinds)(value.get("kind"), f"{field}.kind")
        obj({"kind": text, **kinds[value["kind"]]})(value, field)
    return check

