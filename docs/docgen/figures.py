r"""Measured figures and settings the pages quote, never typed: ``figure`` and ``value``.

A time, a count, a score or a ratio written into a page by hand is a snapshot of one run on
one machine at one commit, and nothing says which.  Every such figure comes instead from a
*run record*: a JSON file under ``docs/assets/runs/`` that holds

``command``
    the command that was run (``offcmab ...``), as typed;
``commit``
    the git commit the run was made at (forty hex digits);
``date``
    when it ran (``YYYY-MM-DD``, optionally followed by a time);
``machine``
    a summary of the machine (``cores``, ``python``, ``platform``), or the sentence
    ``"not recorded"`` for a run stored before records had one;
``result``
    what the command printed (its ``--json`` output), or
``file``
    the path, from the repository root, of a stored output the run wrote (for example
    ``docs/assets/performance/bench.json``), read in place of ``result``.

``python docs/record_run.py NAME -- offcmab ... --json`` runs a command and writes its record.

``{{ figure("record", "path.in.result", unit="s", digits=3) }}`` renders the value at that
path (keys and list indices joined by dots) followed by its provenance, for example
``200 runs (offcmab calibrate ..., commit 6ddd777, 2026-11-28)``; ``{{ provenance("record") }}``
renders the full provenance line once (command, commit, date and machine); after it, figures
of that record may leave their own out (``beside=False``).

``{{ value("name") }}`` renders a setting of the package, not a measurement (a profile's trial
count, the false-alarm budget): :data:`VALUES` maps each name to the constant it reads.
A missing record, a path that leads nowhere or an unknown name stops the build.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "docs" / "assets" / "runs"

COMMIT = re.compile(r"[0-9a-f]{40}")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class FigureError(ValueError):
    """A figure names no record, a path the record lacks, or a record misses its provenance."""


@dataclass(frozen=True)
class Record:
    """One stored run: what was run, where and when, and what it printed."""

    name: str
    command: str
    commit: str
    date: str
    machine: str
    result: Any


def _machine(machine: Any) -> str:
    if isinstance(machine, dict):
        parts = [f"{machine['cores']} cores"] if "cores" in machine else []
        parts += [f"Python {machine['python']}"] if "python" in machine else []
        parts += [str(machine["platform"])] if "platform" in machine else []
        return ", ".join(parts) or "not recorded"
    return str(machine)


def load(name: str, runs: Path | None = None) -> Record:
    """The run record ``name`` (``docs/assets/runs/NAME.json``), checked for its provenance."""
    path = (runs or RUNS) / f"{name}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise FigureError(f"figure: no run record {name!r} ({path}): {error}") from None
    for key in ("command", "commit", "date", "machine"):
        if key not in data:
            raise FigureError(f"figure: run record {name!r} has no {key!r}")
    if not COMMIT.fullmatch(str(data["commit"])):
        raise FigureError(f"figure: run record {name!r}: commit must be 40 hex digits")
    if not DATE.match(str(data["date"])):
        raise FigureError(f"figure: run record {name!r}: date must start YYYY-MM-DD")
    if "file" in data:
        try:
            result = json.loads((ROOT / data["file"]).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise FigureError(f"figure: run record {name!r}: {error}") from None
    elif "result" in data:
        result = data["result"]
    else:
        raise FigureError(f"figure: run record {name!r} has neither 'result' nor 'file'")
    return Record(name, str(data["command"]), str(data["commit"]), str(data["date"])[:10],
                  _machine(data["machine"]), result)


def lookup(record: Record, path: str) -> Any:
    """The value at ``path`` (dotted keys, list indices as digits) in the record's result."""
    value = record.result
    for key in path.split(".") if path else ():
        try:
            value = value[int(key)] if isinstance(value, list) else value[key]
        except (KeyError, IndexError, ValueError, TypeError):
            raise FigureError(f"figure: run record {record.name!r} has no {path!r} "
                              f"(stops at {key!r})") from None
    return value


def short(record: Record) -> str:
    """The provenance printed beside a figure: command, short commit, date."""
    return f"`{record.command}`, commit `{record.commit[:7]}`, {record.date}"


def provenance(name: str, runs: Path | None = None) -> str:
    """The full provenance of a record, as one sentence."""
    record = load(name, runs)
    return (f"Run record `{name}`: `{record.command}` at commit `{record.commit}` on "
            f"{record.date} (machine: {record.machine}).")


def _format(value: Any, digits: int | None) -> str:
    if isinstance(value, str):
        return value  # a verdict or a name the run printed
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FigureError(f"figure: not a number or a word: {value!r}")
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:.{digits}g}" if digits is not None else f"{value:g}"


def figure(name: str, path: str, unit: str = "", digits: int | None = None,
           scale: float = 1.0, beside: bool = True, runs: Path | None = None) -> str:
    """The number at ``path`` in record ``name``, with its unit and its provenance.

    ``beside=False`` leaves the provenance out, for a paragraph that quotes several numbers
    of one record after a ``provenance`` directive naming it (the docs test checks that one
    stands before it on the page).
    """
    record = load(name, runs)
    value = lookup(record, path)
    if scale != 1.0:
        value = float(value) * scale
    shown = _format(value, digits)
    space = "" if unit in ("%", "x", "×") else " "
    shown = f"{shown}{space}{unit}".rstrip()
    return shown + f" <small>({short(record)})</small>" if beside else shown


def _false_alarm_budget() -> float:
    from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET

    return FALSE_ALARM_BUDGET


def _calibration_percent() -> int:
    from offcmab.validation.calibration import LEVEL

    return round(100 * LEVEL)


def _runs_to_confirm() -> int:
    from offcmab.validation.calibration import runs_to_confirm

    return runs_to_confirm(_false_alarm_budget())


def _profile(name: str, field: str) -> Any:
    from offcmab.validation.parts.spec import PROFILES

    return getattr(PROFILES[name], field)


def _falsify(field: str) -> int:
    from offcmab.validation.falsify import confirm, search

    return {"search": search.SEARCH_TRIALS, "screen": search.SCREEN_TRIALS,
            "confirm": confirm.CONFIRM_TRIALS}[field]


def _paired_margin(search: bool) -> float:
    from offcmab.validation.falsify import paired

    return paired.SEARCH_MARGIN if search else paired.MARGIN


def _limits(name: str) -> float:
    from offcmab.reference.errors import DENSE_FACTOR
    from offcmab.validation.limits import SECONDS_LIMIT

    return {"id entries factor": DENSE_FACTOR, "time limit seconds": SECONDS_LIMIT}[name]


def _tightness_trials() -> int:
    from offcmab.validation.tightness.search import TRIALS

    return TRIALS


def _corpus_default_seconds() -> float:
    from offcmab.validation.commands.tightness_run import DEFAULT_PROFILE_SECONDS

    return DEFAULT_PROFILE_SECONDS


def _stop_grace_seconds() -> float:
    from offcmab.validation.supervisor import GRACE_SECONDS

    return GRACE_SECONDS


#: Every setting a page may quote: name -> the constant of the package it reads.
VALUES: dict[str, Callable[[], Any]] = {
    "false-alarm budget": _false_alarm_budget,
    "calibration confidence %": _calibration_percent,
    "runs to confirm the budget": _runs_to_confirm,
    "default trials cap": lambda: _profile("default", "max_trials"),
    "full trials cap": lambda: _profile("full", "max_trials"),
    "falsify search trials": lambda: _falsify("search"),
    "falsify screen trials": lambda: _falsify("screen"),
    "falsify confirm trials": lambda: _falsify("confirm"),
    "falsify paired margin": lambda: _paired_margin(False),
    "falsify paired search margin": lambda: _paired_margin(True),
    "tightness trials": _tightness_trials,
    "id entries factor": lambda: _limits("id entries factor"),
    "time limit seconds": lambda: _limits("time limit seconds"),
    "corpus default-profile seconds": _corpus_default_seconds,
    "stop grace seconds": _stop_grace_seconds,
}


def value(name: str) -> str:
    """The setting ``name`` as the page shows it."""
    try:
        function = VALUES[name]
    except KeyError:
        raise FigureError(f"value: unknown setting {name!r}; known: {', '.join(VALUES)}") from None
    return _format(function(), None)
