r"""Logged datasets as CSV: one row per round, a fixed set of columns.

Layout (cascade and k-path logs, and any log of triggered arms with outcomes)::

    # m=8
    action_1,action_2,action_3,triggered_1,triggered_2,triggered_3,outcome_1,outcome_2,outcome_3
    3,1,4,3,1,,0,1,
    5,0,2,5,0,2,0,0,0

* line 1: ``# m=M``, the number of base arms (ids ``0`` to ``M-1``);
* line 2: the column names: ``triggered_1`` to ``triggered_L`` and ``outcome_1`` to
  ``outcome_L`` (the same ``L``: the most arms one round triggers), and optionally
  ``action_1`` to ``action_A`` (the action played), the groups in any order;
* every further row is one round: its triggered arms in the first cells of their group,
  each arm's outcome (a number in ``[0, 1]``) in the slot of the same number, and empty
  cells after the last arm.  Every row has one cell per column (empty ones included).

LLM cache logs (``offcmab solve llm-cache``) have their own columns, read by
:mod:`offcmab.reference.problems.llm_cache_csv` with the column readers of this module.

Parsing is by column: the ``csv`` module splits the rows, and every check and conversion
then runs on whole columns at once.  Every problem is an
:class:`~offcmab.reference.errors.InputError` naming the column and the file line, and
saying what was expected and what was found.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

from offcmab.reference.dataset import OfflineDataset, offsets_from_lengths
from offcmab.reference.dataset_io import check_file, open_text, read_dataset
from offcmab.reference.errors import InputError, check_size

T = TypeVar("T")
R = TypeVar("R")

#: The column groups: ids (``triggered``, ``action``) and numbers (``outcome``).
GROUPS = ("action", "triggered", "outcome")
#: Lines before the first round: ``# m=M`` and the column names.
PREAMBLE = 2
#: Most digits of an id a 64-bit integer holds for sure.
MAX_ID_DIGITS = 18

_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def is_csv(path: str | Path) -> bool:
    """Whether ``path`` names a CSV log (suffix ``.csv``, any case)."""
    return Path(path).suffix.lower() == ".csv"


def read_log(path: str | Path, actions: bool = True) -> OfflineDataset:
    """Read a logged dataset in any format ``offcmab solve`` takes: CSV (this module), or
    JSON Lines / ``.npz`` (:func:`offcmab.reference.dataset_io.read_dataset`)."""
    return read_csv_dataset(path) if is_csv(path) else read_dataset(path, actions)


def check_log(path: str | Path, check: Callable[[T], R], data: T) -> R:
    """``check(data)``, its error naming the file line of the offending round (any format)."""
    if not is_csv(path):
        return check_file(path, check, data)
    try:
        return check(data)
    except InputError as error:
        if error.sample is None or error.line is not None:
            raise
        line = int(_split(open_text(Path(path)))[1][error.sample])
        raise InputError(error.field, error.message, line, error.sample) from None


def _split(text: list[str]) -> tuple[list[list[str]], np.ndarray]:
    """The rounds' rows (blank lines skipped, as in JSON Lines) and each one's file line."""
    reader = csv.reader(text[PREAMBLE:])
    rows, lines = [], []
    for row in reader:  # the csv module's rows; every check after this runs on columns
        if row:
            rows.append(row)
            lines.append(PREAMBLE + reader.line_num)
    return rows, np.asarray(lines, dtype=np.int64)


def _read_size(lines: list[str], key: str, what: str) -> int:
    """The size on the first line, ``# KEY=SIZE`` (``what`` names it in messages)."""
    expected = f"a first line '# {key}=M' (the number of {what})"
    if not lines or not lines[0].strip():
        raise InputError(key, f"file is empty; expected {expected}, then the column names, "
                         "then one row per round", 1)
    match = re.fullmatch(rf"#\s*{key}\s*=\s*([0-9]+)\s*", lines[0].strip())
    if match is None:
        raise InputError(key, f"expected {expected}, found {lines[0].strip()[:40]!r}", 1)
    return check_size(int(match.group(1)), key, 1)


def _columns(header: list[str], slotted: tuple[str, ...], single: tuple[str, ...] = ()
             ) -> dict[str, list[int]]:
    """Column positions of each group, in slot order (``GROUP_1``, ``GROUP_2``, ...; a
    ``single`` column is its own group); checks the names on line 2."""
    pattern = re.compile(rf"({'|'.join(slotted)})_([1-9][0-9]*)|({'|'.join(single) or '$^'})")
    slots: dict[str, dict[int, int]] = {group: {} for group in (*slotted, *single)}
    for position, name in enumerate(header):
        match = pattern.fullmatch(name.strip())
        if match is None:
            known = ", ".join([*(f"{group}_J" for group in slotted), *single])
            raise InputError(name.strip() or f"column {position + 1}",
                             f"unknown column; expected {known} (J = 1, 2, ...)", PREAMBLE)
        group, slot = (match.group(1), int(match.group(2))) if match.group(1) else \
            (match.group(3), 1)
        if slot in slots[group]:
            raise InputError(name.strip(), "appears twice in the header", PREAMBLE)
        slots[group][slot] = position
    for group, found in slots.items():
        if found and sorted(found) != list(range(1, len(found) + 1)):
            missing = min(set(range(1, max(found) + 1)) - set(found))
            raise InputError(f"{group}_{missing}", f"missing from the header, which has "
                             f"{group}_{max(found)}", PREAMBLE)
    return {group: [found[slot] for slot in sorted(found)] for group, found in slots.items()}


def _dataset_columns(header: list[str]) -> dict[str, list[int]]:
    """The columns of a dataset: triggered and outcome slots in equal number, actions."""
    columns = _columns(header, GROUPS)
    if not columns["triggered"]:
        raise InputError("triggered_1", "missing from the header: a log needs triggered_J "
                         "and outcome_J columns", PREAMBLE)
    if len(columns["outcome"]) != len(columns["triggered"]):
        raise InputError("outcome", f"expected {len(columns['triggered'])} outcome columns "
                         f"(one per triggered column), found {len(columns['outcome'])}",
                         PREAMBLE)
    return columns


def _rows(path: Path, key: str = "m", what: str = "arms"
          ) -> tuple[int, list[str], np.ndarray, np.ndarray]:
    """The size, the header cells, the table of stripped cells and each row's file line."""
    text = open_text(path)
    m = _read_size(text, key, what)
    if len(text) < PREAMBLE or not text[1].strip():
        raise InputError("header", "expected the column names on line 2 (triggered_1, ..., "
                         "outcome_1, ...), found an empty line", PREAMBLE)
    header = next(csv.reader([text[1]]))
    rows, lines = _split(text)
    if not rows:
        raise InputError("data", f"no rounds after the header: expected one row per round "
                         f"from line {PREAMBLE + 1}, found none")
    widths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    ragged = np.flatnonzero(widths != len(header))
    if ragged.size:
        first = int(ragged[0])
        raise InputError("row", f"expected {len(header)} cells (one per column of the header, "
                         f"empty ones included), found {widths[first]}", int(lines[first]))
    table = np.char.strip(np.array(rows, dtype=str).reshape(len(rows), len(header)))
    return m, header, table, lines


def _first(bad: np.ndarray) -> tuple[int, int]:
    """Row and column of the first ``True`` of a 2-D mask, row by row."""
    row, column = np.argwhere(bad)[0]
    return int(row), int(column)


def _ascii(cells: np.ndarray, names: list[str], lines: np.ndarray) -> np.ndarray:
    """``cells`` as bytes, or an error naming the first cell that is not ASCII."""
    try:
        return cells.astype(np.bytes_)
    except UnicodeEncodeError:
        bad = np.vectorize(lambda cell: not cell.isascii(), otypes=[bool])(cells)
        row, column = _first(bad)
        raise InputError(names[column], f"expected ASCII digits, found "
                         f"{str(cells[row, column])!r}", int(lines[row])) from None


def _ids(table: np.ndarray, columns: list[int], names: list[str], lines: np.ndarray,
         m: int, what: str = "arm") -> tuple[np.ndarray, np.ndarray]:
    """The ids of one group (``-1`` where empty) and its mask of filled cells; ``what`` an
    id names (``arm``, ``query``) in messages."""
    cells = table[:, columns]
    filled = cells != ""
    _no_gaps(filled, names, lines)
    raw = _ascii(cells, names, lines)
    digits = np.char.isdigit(raw) | ~filled
    if not digits.all():
        row, column = _first(~digits)
        raise InputError(names[column], f"expected {article(what)} id (a whole number from 0 "
                         f"to {m - 1}), found {str(cells[row, column])!r}", int(lines[row]))
    long = np.char.str_len(raw) > MAX_ID_DIGITS
    if long.any():
        row, column = _first(long)
        raise InputError(names[column], f"expected {article(what)} id from 0 to {m - 1}, "
                         f"found {cells[row, column]} (too large)", int(lines[row]))
    ids = np.where(filled, raw, b"-1").astype(np.int64)
    unknown = filled & (ids >= m)
    if unknown.any():
        row, column = _first(unknown)
        raise InputError(names[column], f"unknown {what} id {ids[row, column]}: expected an "
                         f"id from 0 to {m - 1} ({m} {what} ids)", int(lines[row]))
    ordered = np.sort(ids, axis=1)
    twice = (ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0)
    if twice.any():
        row, column = _first(twice)
        raise InputError(names[0].rsplit("_", 1)[0], f"lists {what} "
                         f"{ordered[row, column + 1]} more than once in one round; expected "
                         f"distinct {what} ids", int(lines[row]))
    return ids, filled


def article(word: str) -> str:
    """``word`` with its indefinite article."""
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _no_gaps(filled: np.ndarray, names: list[str], lines: np.ndarray) -> None:
    gap = filled[:, 1:] & ~filled[:, :-1]
    if gap.any():
        row, column = _first(gap)
        raise InputError(names[column + 1], f"filled after an empty {names[column]}; expected "
                         "the round's arms in the first cells of the group", int(lines[row]))


def _numbers(cells: np.ndarray, present: np.ndarray, raw: np.ndarray) -> np.ndarray | None:
    """The numbers of the ``present`` cells (``nan`` elsewhere), parsed as whole arrays from
    their ASCII bytes ``raw``; None when some present cell is not a plain number (numpy
    would accept digit separators, the number pattern does not)."""
    values = np.full(cells.shape, np.nan)
    try:
        if (np.char.find(raw, b"_") >= 0).any():
            raise ValueError("digit separator")
        values[present] = raw[present].astype(np.float64)
    except ValueError:
        return None
    return values


def _not_numbers(cells: np.ndarray) -> np.ndarray:
    """Which cells are not plain numbers, cell by cell: used only to name a bad cell."""
    return np.vectorize(lambda cell: not _NUMBER.fullmatch(cell), otypes=[bool])(cells)


def _outcomes(table: np.ndarray, columns: list[int], names: list[str], lines: np.ndarray,
              filled: np.ndarray, triggered: list[str]) -> np.ndarray:
    """The outcomes (``nan`` where empty); each filled exactly where an arm was triggered."""
    cells = table[:, columns]
    present = cells != ""
    if (present != filled).any():
        row, column = _first(present != filled)
        found = "empty" if filled[row, column] else repr(str(cells[row, column]))
        expected = (f"the outcome of {triggered[column]} = {table[row, column]}"
                    if filled[row, column] else f"an empty cell ({triggered[column]} is empty)")
        raise InputError(names[column], f"expected {expected}, found {found}",
                         int(lines[row]))
    values = _numbers(cells, present, _ascii(cells, names, lines))
    if values is None:
        row, column = _first(present & _not_numbers(cells))  # the error path only
        raise InputError(names[column], f"expected a number in [0, 1], found "
                         f"{str(cells[row, column])!r}", int(lines[row])) from None
    outside = present & ~((values >= 0.0) & (values <= 1.0))
    if outside.any():
        row, column = _first(outside)
        raise InputError(names[column], f"expected a number in [0, 1], found "
                         f"{cells[row, column]}", int(lines[row]))
    return values


def read_csv_dataset(path: str | Path) -> OfflineDataset:
    """Read a CSV log; see the module docstring for the layout."""
    m, header, table, lines = _rows(Path(path))
    columns = _dataset_columns(header)
    names = {group: [header[i].strip() for i in where] for group, where in columns.items()}
    ids, filled = _ids(table, columns["triggered"], names["triggered"], lines, m)
    values = _outcomes(table, columns["outcome"], names["outcome"], lines, filled,
                       names["triggered"])
    action_offsets = actions = None
    if columns["action"]:
        played, chosen = _ids(table, columns["action"], names["action"], lines, m)
        action_offsets, actions = offsets_from_lengths(chosen.sum(axis=1)), played[chosen]
    return OfflineDataset(m, offsets_from_lengths(filled.sum(axis=1)), ids[filled],
                          values[filled], action_offsets, actions)


def _slots(offsets: np.ndarray, values: np.ndarray, prefix: str) -> tuple[list[str], np.ndarray]:
    """One group's column names and cells (rounds x slots; empty after each round's last)."""
    lengths = np.diff(offsets)
    width = max(int(lengths.max(initial=0)), 1)
    cells = np.full((lengths.size, width), "", dtype=object)
    rows = np.repeat(np.arange(lengths.size), lengths)
    whole = np.isfinite(values) & (np.abs(values) < 2**53) & (values == np.round(values))
    text = np.where(whole, np.where(whole, values, 0).astype(np.int64).astype(str),
                    values.astype(str))  # 1 and 0 for whole numbers, else the shortest exact
    cells[rows, np.arange(values.size) - offsets[rows]] = text
    return [f"{prefix}_{slot}" for slot in range(1, width + 1)], cells


def write_csv_dataset(dataset: OfflineDataset, path: str | Path) -> None:
    """Write a dataset in the CSV layout (shortest exact float text: reading it back gives
    the same arrays)."""
    groups = []
    if dataset.actions is not None and dataset.action_offsets is not None:
        groups.append(_slots(dataset.action_offsets, dataset.actions, "action"))
    groups.append(_slots(dataset.triggered_offsets, dataset.triggered, "triggered"))
    groups.append(_slots(dataset.triggered_offsets, dataset.outcomes, "outcome"))
    header = [name for names, _ in groups for name in names]
    table = np.hstack([cells for _, cells in groups])
    with Path(path).open("w", encoding="utf-8", newline="") as handle:
        handle.write(f"# m={dataset.m}\n")
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(table.tolist())
