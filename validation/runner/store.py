r"""The durable trial log behind ``--resume``: every line carries its own proof.

``trials.jsonl`` starts with a header line (format, package version, run seed, profile,
bound ids, subject, whether controls run, and a hash of each instance's parameters) and
then holds one JSON line per finished trial: its full key (bound id, instance, ``n``,
trial index, subject, the run seed, and a fingerprint of the random stream that seed
spawns for the key, :mod:`offcmab.validation.runner.seeding`), its gap, gap error,
extras and seconds.  Every line ends with ``check``, a truncated SHA-256 of the
canonical JSON of the rest of the line, so a garbled, edited or half-written line is
recognised wherever it sits.

Lines are written and flushed as soon as a trial finishes, so a killed run loses only the
trials still in flight.  ``os.fsync`` (durability against a machine crash) runs at most
every ``SYNC_SECONDS`` and when the log closes: one fsync per trial costs about 5 ms here,
more than most trials.

``--resume`` (:class:`TrialLog` with ``resume=True``) refuses a log whose header does not
match the run (other options, instances, version, or no header) unless told to resume
anyway, and keeps only the trial lines that check out: valid JSON with a valid checksum,
finite numbers, a key of the run's plan, the run's seed and its stream, and no second
line for one trial.  Dropped lines are reported by line number, moved to
``trials.dropped.jsonl`` (never deleted) and their trials run again with the same seeds.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeGuard

from offcmab.reference.errors import InputError
from offcmab.validation.parts.spec import Instance, TrialKey
from offcmab.validation.runner.folder import atomic_write, named
from offcmab.validation.runner.seeding import trial_stream

LOG_NAME = "trials.jsonl"

#: Where ``--resume`` moves the lines it drops (appended, never overwritten).
DROPPED_NAME = "trials.dropped.jsonl"

#: Version of the line format; a log of another format is refused by ``--resume``.
LOG_FORMAT = 2

#: Hex digits kept of each line's SHA-256 (64 bits: a random edit passes with odds 2^-64).
CHECK_DIGITS = 16

#: Longest time between two fsyncs of the log (a machine crash loses at most this much).
SYNC_SECONDS = 0.25

#: How many dropped line numbers the resume message lists.
SHOWN_LINES = 5


class BadLine(ValueError):
    """A log line that does not check out; the message is the reason, a few words."""


@dataclass
class TrialRecord:
    """One finished trial as stored: its key text, gap, gap error, extras and seconds.

    ``seed`` is the run seed the trial was drawn with (``None`` for a record not read
    from a log).
    """

    key: str
    gap: float
    gap_error: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0
    seed: int | None = None

    def payload(self) -> dict[str, Any]:
        """The measured fields, as stored."""
        return {"gap": self.gap, "gap_error": self.gap_error, "extra": self.extra,
                "seconds": round(self.seconds, 6)}

    def to_json(self) -> str:
        """The key and the measured fields as one JSON object (no seed, no checksum)."""
        return json.dumps({"key": self.key, **self.payload()}, allow_nan=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrialRecord:
        """A record from a decoded line; :class:`BadLine` for a missing or non-finite number."""
        extra = data.get("extra", {})
        if not isinstance(extra, dict):
            raise BadLine("extra is not an object")
        seed = data.get("seed")
        return cls(str(data["key"]), _finite(data.get("gap"), "gap"),
                   _finite(data.get("gap_error", 0.0), "gap_error"),
                   {str(k): _finite(v, f"extra {k}") for k, v in extra.items()},
                   _finite(data.get("seconds", 0.0), "seconds"),
                   seed if isinstance(seed, int) and not isinstance(seed, bool) else None)


def _finite(value: Any, name: str) -> float:
    """``value`` as a finite float; :class:`BadLine` for text, booleans, NaN, inf, overflow."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadLine(f"{name} is not a number")
    try:
        number = float(value)
    except OverflowError:
        raise BadLine(f"{name} is not finite") from None
    if not math.isfinite(number):
        raise BadLine(f"{name} is not finite")
    return number


def checksum(fields: Mapping[str, Any]) -> str:
    """The truncated SHA-256 of the canonical JSON (sorted keys, no spaces) of ``fields``."""
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:CHECK_DIGITS]


def sealed(fields: Mapping[str, Any]) -> str:
    """``fields`` and their checksum as one log line (without the newline)."""
    return json.dumps({**fields, "check": checksum(fields)}, allow_nan=False)


def instance_digest(instance: Instance) -> str:
    """A hash of what defines an instance's trials: its name, origin, delta, grid, parameters."""
    text = json.dumps({"name": instance.name, "origin": instance.origin,
                       "delta": instance.delta, "n_grid": list(instance.n_grid),
                       "params": instance.params}, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:CHECK_DIGITS]


def trial_line(record: TrialRecord, key: TrialKey, run_seed: int) -> str:
    """The log line of a finished trial: full key, seed, stream, measurements, checksum."""
    return sealed({"key": key.text(), "id": key.bound_id, "instance": key.instance,
                   "n": key.n, "trial": key.trial, "subject": key.subject, "seed": run_seed,
                   "stream": trial_stream(run_seed, key), **record.payload()})


def header_line(header: Mapping[str, Any]) -> str:
    """The first line of a log."""
    return sealed({"header": dict(header)})


def _reject_constant(name: str) -> None:
    raise BadLine(f"a number is not finite ({name})")


def _decode(raw: bytes) -> dict[str, Any]:
    """One line's object after checking its checksum (which it no longer holds)."""
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except BadLine:
        raise
    except (ValueError, RecursionError):  # JSONDecodeError, UnicodeDecodeError, digit limits
        raise BadLine("not JSON") from None
    if not isinstance(data, dict):
        raise BadLine("not a record")
    check = data.pop("check", None)
    if not isinstance(check, str):
        raise BadLine("no checksum")
    if check != checksum(data):
        raise BadLine("bad checksum")
    return data


def _key(data: Mapping[str, Any]) -> TrialKey:
    """The full key of a decoded trial line, checked against its text."""
    bound_id, instance, subject = (data.get(name) for name in ("id", "instance", "subject"))
    n, trial = (data.get(name) for name in ("n", "trial"))
    if not (isinstance(bound_id, str) and isinstance(instance, str)
            and isinstance(subject, str) and _count(n) and _count(trial)):
        raise BadLine("incomplete key")
    key = TrialKey(bound_id, instance, n, trial, subject)
    if key.text() != data.get("key"):
        raise BadLine("key text does not match its fields")
    return key


def _count(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def parse_trial(raw: bytes, run_seed: int | None) -> tuple[TrialKey, TrialRecord]:
    """A trial line's key and record; :class:`BadLine` saying why when it does not check out.

    With ``run_seed`` the line must carry that seed; its stream must always be the
    :func:`~offcmab.validation.runner.seeding.trial_stream` its seed spawns for its key.
    """
    data = _decode(raw)
    if "header" in data:
        raise BadLine("header after the first line")
    key = _key(data)
    record = TrialRecord.from_json(data)
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise BadLine("no seed")
    if run_seed is not None and seed != run_seed:
        raise BadLine("other seed")
    if data.get("stream") != trial_stream(seed, key):
        raise BadLine("seed stream does not match the key")
    return key, record


@dataclass
class LogScan:
    """What reading a log found.

    ``header`` is ``None`` when the first line is not a valid header; ``records`` and
    ``keys`` hold the trials that check out (by key text), ``kept`` their raw lines in file
    order; ``dropped`` lists ``(line number, reason, raw line)`` of every other line, line
    numbers counted from 1 (the header's).
    """

    header: dict[str, Any] | None
    records: dict[str, TrialRecord] = field(default_factory=dict)
    keys: dict[str, TrialKey] = field(default_factory=dict)
    kept: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    dropped: list[tuple[int, str, bytes]] = field(default_factory=list)

    def drop(self, text: str, reason: str) -> None:
        """Move the kept line of trial ``text`` to ``dropped``."""
        number, raw = self.kept.pop(text)
        del self.records[text], self.keys[text]
        self.dropped.append((number, reason, raw))


def _header(raw: bytes) -> dict[str, Any] | None:
    try:
        data = _decode(raw)
    except BadLine:
        return None
    header = data.get("header")
    return header if set(data) == {"header"} and isinstance(header, dict) else None


def scan(path: Path, run_seed: int | None = None,
         known: Callable[[TrialKey], bool] | None = None) -> LogScan:
    """Read and check every line of a log (see :func:`parse_trial`).

    ``run_seed`` defaults to the header's seed; ``known`` (when given) says which keys belong
    to the run.  A second line for a trial is dropped when it repeats the first's
    measurements; when it contradicts them, both are dropped (the trial runs again).
    """
    data = named(path, path.read_bytes)
    lines = data.split(b"\n")
    complete, tail = lines[:-1], lines[-1]  # the piece after the last newline is cut short
    header = _header(complete[0]) if complete else None
    found = LogScan(header)
    if run_seed is None and header is not None and isinstance(header.get("seed"), int):
        run_seed = header["seed"]
    contradicted: set[str] = set()
    for number, raw in enumerate(complete, start=1):
        if number == 1 and header is not None:
            continue
        try:
            key, record = parse_trial(raw, run_seed)
        except BadLine as bad:
            found.dropped.append((number, str(bad), raw))
            continue
        text = key.text()
        if known is not None and not known(key):
            found.dropped.append((number, "not a trial of this run", raw))
        elif text in contradicted:
            found.dropped.append((number, "contradicting duplicate", raw))
        elif text in found.records:
            if found.records[text].payload() | {"seconds": 0} == \
                    record.payload() | {"seconds": 0}:
                found.dropped.append((number, "duplicate", raw))
            else:
                contradicted.add(text)
                found.drop(text, "contradicting duplicate")
                found.dropped.append((number, "contradicting duplicate", raw))
        else:
            found.records[text], found.keys[text] = record, key
            found.kept[text] = (number, raw)
    if tail:
        found.dropped.append((len(complete) + 1, "cut short", tail))
    found.dropped.sort(key=lambda item: item[0])
    return found


def read_log(path: Path) -> tuple[dict[str, Any] | None, dict[str, TrialRecord]]:
    """The header and the trials that check out (by key text) of a log (see :func:`scan`)."""
    found = scan(path)
    return found.header, found.records


def mismatch(old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> str | None:
    """Why a log with header ``old`` cannot be resumed by a run with header ``new``, or None."""
    if old is None:
        return "has no valid header line, so nothing says which run wrote its trials"
    for name, value in new.items():
        if name != "instances" and old.get(name) != value:
            return (f"was written with {name}={_shown(old.get(name))}, this run has "
                    f"{name}={_shown(value)}")
    before, now = old.get("instances"), new.get("instances", {})
    if not isinstance(before, dict) or before != now:
        for bound_id, names in now.items():
            mine = before.get(bound_id, {}) if isinstance(before, dict) else {}
            for name, digest in names.items():
                if not isinstance(mine, dict) or mine.get(name) != digest:
                    return (f"holds instance {name!r} of {bound_id} with other parameters "
                            "(or not at all): the instance changed since the log was written")
        return "holds instances this run does not have"
    return None


def _shown(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def changed_instances(old: Mapping[str, Any] | None, new: Mapping[str, Any]
                      ) -> set[tuple[str, str]]:
    """(bound id, instance) pairs whose parameter hash differs between two headers."""
    before = old.get("instances") if old is not None else None
    if not isinstance(before, dict):
        return set()
    return {(bound_id, name) for bound_id, names in new.get("instances", {}).items()
            for name, digest in names.items()
            if isinstance(before.get(bound_id), dict) and name in before[bound_id]
            and before[bound_id][name] != digest}


def dropped_message(path: Path, found: LogScan) -> str:
    """One line: how many lines a resume dropped, why, the first line numbers, what happens."""
    reasons = Counter(reason for _, reason, _ in found.dropped)
    numbers = [str(number) for number, _, _ in found.dropped]
    shown = ", ".join(numbers[:SHOWN_LINES]) + (", ..." if len(numbers) > SHOWN_LINES else "")
    why = ", ".join(f"{count} {reason}" for reason, count in reasons.most_common())
    return (f"offcmab validate: resume: {path}: dropped {len(numbers)} line(s) ({why}) at "
            f"line(s) {shown}; kept {len(found.records)} trials; the dropped lines are saved "
            f"in {path.with_name(DROPPED_NAME)} and their trials run again\n")


class TrialLog:
    """Appends finished trials durably, one sealed JSON line each.

    ``keys`` maps the key text of every planned trial to its key.  With ``resume`` an
    existing log is checked (:func:`scan`, :func:`mismatch`): a header that does not match
    ``header`` raises :class:`InputError` on ``resume`` unless ``resume_anyway``; the
    trials that check out are in ``finished``, and a log that had anything to drop is
    rewritten (atomically) with this run's header and the kept lines.
    """

    def __init__(self, path: Path, header: dict[str, Any], keys: Mapping[str, TrialKey],
                 resume: bool = False, resume_anyway: bool = False) -> None:
        self.path, self.seed, self.keys = path, int(header["seed"]), keys
        self.finished: dict[str, TrialRecord] = {}
        path.parent.mkdir(parents=True, exist_ok=True)
        if (resume or resume_anyway) and path.exists() and path.stat().st_size:
            self._resume(header, resume_anyway)
        else:
            atomic_write(path, lambda temporary: temporary.write_text(
                header_line(header) + "\n", encoding="utf-8"))
        self._file: IO[str] = named(path, path.open, "a", encoding="utf-8")
        self._synced = 0.0

    def _resume(self, header: dict[str, Any], anyway: bool) -> None:
        cells = {(key.bound_id, key.instance, key.n, key.subject) for key in self.keys.values()}
        found = scan(self.path, self.seed,
                     lambda key: (key.bound_id, key.instance, key.n, key.subject) in cells)
        problem = mismatch(found.header, header)
        if problem is not None and not anyway:
            raise InputError("resume", f"{self.path} {problem}; rerun with the options that "
                             "wrote it, add --resume-anyway to keep the trials that still "
                             "check out, or use --overwrite to start over")
        changed = changed_instances(found.header, header)
        for text, key in list(found.keys.items()):
            if (key.bound_id, key.instance) in changed:
                found.drop(text, "instance changed")
        found.dropped.sort(key=lambda item: item[0])
        self.finished = found.records
        if found.dropped or found.header != header:
            self._rewrite(header, found)

    def _rewrite(self, header: dict[str, Any], found: LogScan) -> None:
        """Save the dropped lines aside, then replace the log by its header and kept lines."""
        if found.dropped:
            aside = self.path.with_name(DROPPED_NAME)
            before = named(aside, aside.read_bytes) if aside.exists() else b""
            lost = b"".join(raw + b"\n" for _, _, raw in found.dropped)
            atomic_write(aside, lambda temporary: temporary.write_bytes(before + lost))
            sys.stderr.write(dropped_message(self.path, found))
        kept = b"".join(raw + b"\n" for _, raw in sorted(found.kept.values()))
        atomic_write(self.path, lambda temporary: temporary.write_bytes(
            (header_line(header) + "\n").encode("utf-8") + kept))

    def _write(self, line: str) -> None:
        named(self.path, self._file.write, line + "\n")
        named(self.path, self._file.flush)
        now = time.monotonic()
        if now - self._synced >= SYNC_SECONDS:
            named(self.path, os.fsync, self._file.fileno())
            self._synced = now

    def append(self, record: TrialRecord) -> None:
        """Write one finished trial; it is in the operating system's hands on return."""
        self._write(trial_line(record, self.keys[record.key], self.seed))
        record.seed = self.seed
        self.finished[record.key] = record

    def close(self) -> None:
        """Sync and close the file."""
        try:
            named(self.path, self._file.flush)
            named(self.path, os.fsync, self._file.fileno())
        finally:
            with contextlib.suppress(OSError):  # a failed flush above is the error reported
                self._file.close()
