r"""The durable trial log behind ``--resume``.

``trials.jsonl`` starts with one header line (run seed and profile) and then holds
one JSON line per finished trial, written as soon as the trial completes and made
durable with ``flush`` and ``os.fsync``.  A run killed at any moment therefore
loses at most the trials still in flight; ``--resume`` reads the log, skips every
key already present and appends the rest.  A last line cut short by the kill is
ignored (that trial simply runs again, with the same seed and the same result).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from reference.errors import InputError

LOG_NAME = "trials.jsonl"


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
        os.fsync(self._file.fileno())

    def append(self, record: TrialRecord) -> None:
        """Write one finished trial and make it durable before returning."""
        self._write(record.to_json())
        self.finished[record.key] = record

    def close(self) -> None:
        """Close the file (every line is already on disk)."""
        self._file.close()
