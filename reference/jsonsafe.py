r"""Strict JSON reading: every JSON and JSON Lines file the package reads goes through here.

Python's :func:`json.loads` accepts more than a data file should hold, and fails in ways a
user cannot act on:

* a key given twice in one object silently keeps the last value: refused, naming the key;
* nesting a few thousand brackets deep raises ``RecursionError``: the bracket depth is
  measured first (without recursion) and more than :data:`MAX_DEPTH` levels are refused;
* a 400-digit number or ``1e999`` decodes to an integer no float holds, or to infinity, and
  fails later with ``OverflowError`` far from its field: refused while decoding, naming the
  key that holds it (``NaN`` and ``Infinity`` decode as floats: every reader checks its
  numbers are finite, naming the entry, e.g. ``instance.path_means[0]``);
* :meth:`str.splitlines` also breaks lines at U+2028, U+0085 and other separators that may
  sit inside a JSON string: JSON Lines are split at ``\n`` only (:func:`text_lines`).

Every refusal is an :class:`~offcmab.reference.errors.InputError` naming the field (the key,
or the caller's field when no key holds the value) and, for JSON Lines, the line.  Syntax
errors stay :class:`json.JSONDecodeError` (a ``ValueError``), which readers word for their
format.  Nothing is evaluated.
"""

from __future__ import annotations

import json
import math
import re
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from offcmab.reference.errors import InputError

#: Deepest nesting of arrays and objects accepted (data files need a handful of levels).
MAX_DEPTH = 64
#: Largest integer a float64 holds without overflow (the float just below 2**1024).
FLOAT_MAX_INT = int(sys.float_info.max)
#: Integers of at most this many digits are below :data:`FLOAT_MAX_INT` (309 digits).
_SAFE_DIGITS = len(str(FLOAT_MAX_INT)) - 1

#: The refusal of a number no float holds (``1e999``, a 400-digit integer).
TOO_LARGE = "holds a number too large for a 64-bit float"

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class _Refused:
    """A number that no float holds, kept until the key holding it is known."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


def nesting_depth(text: str) -> tuple[int, int]:
    """``(depth, offset)``: the deepest bracket nesting of ``text`` and where it is reached.

    Strings are blanked first, so brackets inside them do not count; a loop, not recursion.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0, 0  # cannot be deeper than the limit (the common case: no scan)
    blanked = _STRING.sub(lambda found: " " * len(found.group()), text)
    depth = deepest = where = 0
    for found in _BRACKET.finditer(blanked):
        depth += 1 if found.group() in "[{" else -1
        if depth > deepest:
            deepest, where = depth, found.start()
            if deepest > MAX_DEPTH:
                break
    return deepest, where


def check_depth(text: str, field: str, line: int | None = None) -> None:
    """Refuse ``text`` when its arrays and objects nest deeper than :data:`MAX_DEPTH`.

    ``line`` is the file line of ``text`` (JSON Lines); without it the line is counted.
    """
    depth, where = nesting_depth(text)
    if depth > MAX_DEPTH:
        at = line if line is not None else text.count("\n", 0, where) + 1
        raise InputError(field, f"nested too deeply (more than {MAX_DEPTH} levels of arrays "
                         "and objects)", at)


class Decoder:
    """A JSON decoder with the checks of this module (it keeps state: one per thread)."""

    def __init__(self, field: str) -> None:
        self.field = field
        self.refused: list[_Refused] = []
        self.line: int | None = None
        self._decoder = json.JSONDecoder(object_pairs_hook=self._object,
                                         parse_float=self._float, parse_int=self._int)

    def decode(self, text: str, line: int | None = None) -> Any:
        """The value of ``text`` (depth checked first); ``InputError`` or ``JSONDecodeError``."""
        check_depth(text, self.field, line)
        self.refused.clear()
        self.line = line
        value = self._decoder.decode(text)
        if self.refused:  # a number outside every object (a bare number or array)
            raise InputError(self.field, self.refused[0].why, line)
        return value

    def _float(self, text: str) -> float | _Refused:
        value = float(text)
        if math.isfinite(value):
            return value
        return self._refuse(TOO_LARGE)

    def _int(self, text: str) -> int | _Refused:
        if len(text) <= _SAFE_DIGITS or (len(text.lstrip("-")) <= _SAFE_DIGITS + 1
                                         and abs(int(text)) <= FLOAT_MAX_INT):
            return int(text)
        return self._refuse(TOO_LARGE)

    def _refuse(self, why: str) -> _Refused:
        refused = _Refused(why)
        self.refused.append(refused)
        return refused

    def _object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            raise InputError(_repeated(pairs), "given twice in one object (JSON keys must "
                             "be unique)", self.line)
        if self.refused:
            for key, value in pairs:
                why = _refused_in(value)
                if why is not None:
                    raise InputError(key, why, self.line)
        return result


def _repeated(pairs: list[tuple[str, Any]]) -> str:
    """The first key of ``pairs`` that appears a second time."""
    counts = Counter(key for key, _ in pairs)
    return next(key for key, _ in pairs if counts[key] > 1)


def _refused_in(value: Any) -> str | None:
    """The reason of the first refused number in ``value`` (lists searched, depth-bounded)."""
    if isinstance(value, _Refused):
        return value.why
    if isinstance(value, list):
        for item in value:
            why = _refused_in(item)
            if why is not None:
                return why
    return None


#: One decoder per thread and field, reused: building one costs as much as decoding a line.
_DECODERS = threading.local()


def loads(text: str, field: str, line: int | None = None) -> Any:
    """``text`` decoded strictly (module docstring); errors name a key or ``field``."""
    decoders = _DECODERS.__dict__.setdefault("by_field", {})
    decoder = decoders.get(field)
    if decoder is None:
        decoder = decoders[field] = Decoder(field)
    return decoder.decode(text, line)


def read_text(path: str | Path, field: str) -> str:
    """A UTF-8 text file, or an ``InputError`` on ``field`` saying why it cannot be read."""
    path = Path(path)
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise InputError(field, f"file not found: {path}") from None
    except IsADirectoryError:
        raise InputError(field, f"{path} is a folder, not a file") from None
    except UnicodeDecodeError:
        raise InputError(field, f"{path} is not UTF-8 text (is it an .npz file?)") from None
    except OSError as error:
        raise InputError(field, f"cannot read {path}: {error.strerror}") from None


def text_lines(text: str) -> list[str]:
    r"""The lines of ``text``, split at ``\n`` only (a final ``\r`` of each is dropped).

    Not :meth:`str.splitlines`: it also splits at U+2028 and other separators a JSON string
    may hold, cutting one record in two.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_json(path: str | Path, field: str) -> Any:
    """The JSON document in ``path``, decoded strictly.

    Every error is an ``InputError`` on ``field`` naming the file, then the line and key when
    known.
    """
    text = read_text(path, field)
    try:
        return loads(text, field)
    except json.JSONDecodeError as error:
        raise InputError(field, f"{path} is not JSON ({error.msg}, line {error.lineno})"
                         ) from None
    except InputError as error:
        where = f"line {error.line}: " if error.line is not None else ""
        what = error.message if error.field == field else f"{error.field}: {error.message}"
        raise InputError(field, f"{path}: {where}{what}") from None
