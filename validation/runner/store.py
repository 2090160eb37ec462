r"""The durable trial log behind ``--resume``.

``trials.jsonl`` starts with one header line (run seed and profile) and then holds
one JSON line per finished trial, written and flushed to the operating system as
soon as the trial completes, so a killed run loses only the trials still in flight.
``os.fsync`` (durability against a machine crash) runs at most every
``SYNC_SECONDS`` and when the log closes: one fsync per trial costs about 5 ms here,
more than most trials.  ``--resume`` reads the log, skips every key already present
and appends the rest.  A damaged log (a line cut short by a kill, or garbled) is cut
to its valid prefix, reporting how many lines that drops; those trials simply run
again, with the same seeds and the same results.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from offcmab.reference.errors import InputError

LOG_NAME = "trials.jsonl"

#: Longest time between two fsyncs of the log (a machine crash loses at most this much).
SYNC_SECONDS = 0.25


@dataclass
class TrialRecord:
    """One finished trial as stored: its key text, gap, gap error, extras and seconds."""

    key: str
    gap: float
    gap_error: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> str:
        """One line of the log."""
        return json.dumps(
            {"key": self.key, "gap": self.gap, "gap_error": self.gap_error,
             "extra": self.extra, "seconds": round(self.seconds, 6)},
            allow_nan=False,
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrialRecord:
        """Parse one log line (already decoded)."""
        return cls(str(data["key"]), float(data["gap"]), float(data.get("gap_error", 0.0)),
                   {str(k): float(v) for k, v in data.get("extra", {}).items()},
                   float(data.get("seconds", 0.0)))


@dataclass
class LogPrefix:
    """The longest undamaged start of a log: its header, trials, byte length, lines after it."""

    header: dict[str, Any] | None
    records: dict[str, TrialRecord]
    size: int
    dropped: int


def _parse_line(raw: bytes, first: bool) -> dict[str, Any] | TrialRecord:
    """One complete log line as a header (first line only) or a trial; ``ValueError`` if bad."""
    data = json.loads(raw.decode("utf-8"))  # JSONDecodeError and UnicodeDecodeError: ValueError
    if first and isinstance(data, dict) and set(data) == {"header"}:
        if not isinstance(data["header"], dict):
            raise ValueError("header is not an object")
        return data["header"]
    if not isinstance(data, dict) or not isinstance(data.get("key"), str):
        raise ValueError("not a trial record")
    try:
        return TrialRecord.from_json(data)
    except (TypeError, KeyError, AttributeError) as error:
        raise ValueError(str(error)) from None


def read_prefix(path: Path) -> LogPrefix:
    """The valid prefix of a log: every line up to the first damaged one.

    A line is damaged when it is not valid UTF-8 JSON, is not a trial record (or the header,
    on the first line), or lacks its newline (cut short by a kill).  That line and all after
    it are counted in ``dropped``; their trials run again with the same seeds.
    """
    if not path.exists():
        return LogPrefix(None, {}, 0, 0)
    data = path.read_bytes()
    header: dict[str, Any] | None = None
    records: dict[str, TrialRecord] = {}
    lines = data.split(b"\n")  # the piece after the last newline is incomplete or empty
    complete, tail = lines[:-1], lines[-1]
    size = 0
    for number, raw in enumerate(complete):
        try:
            item = _parse_line(raw, number == 0)
        except (ValueError, RecursionError):
            return LogPrefix(header, records, size, len(complete) - number + bool(tail))
        if isinstance(item, TrialRecord):
            records[item.key] = item
        else:
            header = item
        size += len(raw) + 1
    return LogPrefix(header, records, size, int(bool(tail)))


def read_log(path: Path) -> tuple[dict[str, Any] | None, dict[str, TrialRecord]]:
    """The header and the finished trials of the valid prefix of a log (see :func:`read_prefix`)."""
    prefix = read_prefix(path)
    return prefix.header, prefix.records


class TrialLog:
    """Appends finished trials durably, one JSON line each."""

    def __init__(self, path: Path, header: dict[str, Any], resume: bool) -> None:
        self.path = path
        prefix = read_prefix(path) if resume else LogPrefix(None, {}, 0, 0)
        old_header, self.finished = prefix.header, prefix.records
        if resume and old_header is not None:
            for name in ("seed", "profile"):
                if old_header.get(name) != header.get(name):
                    raise InputError(
                        "resume",
                        f"{path} was written with {name}={old_header.get(name)!r}, "
                        f"this run has {name}={header.get(name)!r}",
                    )
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not (resume and path.exists())
        if not fresh:
            self._keep_prefix(prefix)
        self._file: IO[str] = path.open("w" if fresh else "a", encoding="utf-8")
        self._synced = 0.0
        if fresh or old_header is None:
            self._write(json.dumps({"header": header}))

    def _keep_prefix(self, prefix: LogPrefix) -> None:
        """Cut the log to its valid prefix, saying how many damaged lines that drops."""
        with self.path.open("r+b") as file:
            file.truncate(prefix.size)
        if prefix.dropped:
            sys.stderr.write(f"offcmab validate: resume: {self.path} was damaged; kept "
                             f"{len(prefix.records)} trials, dropped {prefix.dropped} "
                             "line(s) from the first damaged one on (those trials run "
                             "again)\n")

    def _write(self, line: str) -> None:
        self._file.write(line + "\n")
        self._file.flush()
        now = time.monotonic()
        if now - self._synced >= SYNC_SECONDS:
            os.fsync(self._file.fileno())
            self._synced = now

    def append(self, record: TrialRecord) -> None:
        """Write one finished trial; it is in the operating system's hands on return."""
        self._write(record.to_json())
        self.finished[record.key] = record

    def close(self) -> None:
        """Sync and close the file."""
        os.fsync(self._file.fileno())
        self._file.close()
