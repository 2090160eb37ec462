r"""Owning an output folder: one run at a time, and files that are whole or absent.

Two ``offcmab validate`` runs appending to one ``trials.jsonl`` interleave their lines,
so the first run to start takes an exclusive lock on the folder (``fcntl.flock`` on the
file ``.offcmab.lock`` inside it, released by the kernel when the process ends, even on a
kill) and writes its process id there; a second run is refused with the holder's pid.
Report files are written to a temporary file in the same folder and renamed over the old
one (``os.replace`` is atomic on POSIX), so a reader never sees half a report.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from offcmab.reference.errors import InputError

LOCK_NAME = ".offcmab.lock"


def _holder(lock_path: Path) -> str:
    """The pid written by the lock's holder, or "unknown" when it has not written it yet."""
    try:
        text = lock_path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return "unknown"
    return text if text.isascii() and text.isdigit() else "unknown"


@contextlib.contextmanager
def folder_lock(folder: Path, field: str = "out") -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` (created if missing) for the ``with`` block.

    Raises :class:`InputError` on ``field`` when the path is not a folder or another
    process holds the lock.  Without ``fcntl`` (Windows) no lock is taken.
    """
    if folder.exists() and not folder.is_dir():
        raise InputError(field, f"{folder} exists and is not a folder")
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    lock_path = folder / LOCK_NAME
    descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError(field, f"{folder} is in use by another offcmab run (pid "
                             f"{_holder(lock_path)}); wait for it to end or choose "
                             "another --out") from None
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode("ascii"))
        yield
    finally:
        os.close(descriptor)  # releases the lock


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Call ``write(temporary)`` on a file next to ``path``, then rename it to ``path``."""
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    temporary = Path(name)
    try:
        write(temporary)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that readers see the old or the new file only."""
    atomic_write(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))
