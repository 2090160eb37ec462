r"""The durable trial log behind ``--resume``.

``trials.jsonl`` starts with one header line (run seed and profile) and then holds
one JSON line per finished trial, written and flushed to the operating system as
soon as the trial completes, so a killed run loses only the trials still in flight.
``os.fsync`` (durability against a machine crash) runs at most every
``SYNC_SECONDS`` and when the log closes: one fsync per trial costs about 5 ms here,
more than most trials.  ``--resume`` reads the log, skips every key already present
and appends the rest.  A last line cut short by the kill is
ignored (that trial simply runs again, with the same seed and the same result).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from reference.errors import InputError

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


def read_log(path: Path) -> tuple[dict[str, Any] | None, dict[str, TrialRecord]]:
    """The header and the finished trials of a log (an unreadable last line is skipped)."""
    if not path.exists():
        return None, {}
    header: dict[str, Any] | None = None
    records: dict[str, TrialRecord] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):
                break  # cut short by a kill: that trial runs again
            raise InputError("resume", f"{path} is corrupt", number) from None
        if "header" in data:
            header = data["header"]
        else:
            record = TrialRecord.from_json(data)
            records[record.key] = record
    return header, records


class TrialLog:
    """Appends finished trials durably, one JSON line each."""

    def __init__(self, path: Path, header: dict[str, Any], resume: bool) -> None:
        self.path = path
        old_header, self.finished = read_log(path) if resume else (None, {})
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
            self._drop_partial_last_line()
        self._file: IO[str] = path.open("w" if fresh else "a", encoding="utf-8")
        self._synced = 0.0
        if fresh or old_header is None:
            self._write(json.dumps({"header": header}))

    def _drop_partial_last_line(self) -> None:
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            with self.path.open("r+b") as file:
                file.truncate(data.rfind(b"\n") + 1)

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
