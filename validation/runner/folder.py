r"""Owning an output folder: one run at a time, and files that are whole or absent.

Two ``offcmab validate`` runs appending to one ``trials.jsonl`` interleave their lines,
so the first run to start takes an exclusive lock on the folder (``fcntl.flock`` on the
file ``.offcmab.lock`` inside it, released by the kernel when the process ends, even on a
kill) and writes its process id there; a second run is refused with the holder's pid.
Report files are written to a temporary file in the same folder and renamed over the old
one (``os.replace`` is atomic on POSIX), so a reader never sees half a report; the file
gets the permissions the user's umask gives a new file (not the temporary file's 0600).
An operating-system error while writing (a full disk, a read-only folder) names the file.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from offcmab.reference.errors import InputError

LOCK_NAME = ".offcmab.lock"

Result = TypeVar("Result")


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


def named(path: Path, action: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
    """``action(*args, **kwargs)``; an ``OSError`` that names no file is raised again naming
    ``path`` (``write`` and ``fsync`` on a full disk name none)."""
    try:
        return action(*args, **kwargs)
    except OSError as error:
        if error.filename is not None or error.errno is None:
            raise
        raise _naming(error, path) from error


def _umask() -> int:
    mask = os.umask(0o022)  # reading the umask means setting it: put it back at once
    os.umask(mask)
    return mask


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Call ``write(temporary)`` on a file next to ``path``, then rename it to ``path``.

    The temporary file keeps ``path``'s suffix (writers that pick a format by suffix) and
    gets the mode the umask gives a new file.  An ``OSError`` names ``path``.
    """
    try:
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.",
                                        suffix=f".tmp{path.suffix}")
    except OSError as error:
        raise _naming(error, path) from error
    temporary = Path(name)
    try:
        os.fchmod(handle, 0o666 & ~_umask())
        os.close(handle)
        write(temporary)
        os.replace(temporary, path)
    except BaseException as error:
        temporary.unlink(missing_ok=True)
        if isinstance(error, OSError) and error.errno is not None:
            raise _naming(error, path) from error  # the target, not the temporary file
        raise


def _naming(error: OSError, path: Path) -> OSError:
    return type(error)(error.errno, error.strerror, str(path))


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that readers see the old or the new file only."""
    atomic_write(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))


@contextlib.contextmanager
def atomic_text(path: Path) -> Iterator[io.StringIO]:
    """A text buffer for the ``with`` block (``newline=""``, as :mod:`csv` wants), written
    to ``path`` atomically (UTF-8) when the block ends without an error."""
    buffer = io.StringIO(newline="")
    yield buffer
    atomic_write(path, lambda temporary: temporary.write_bytes(
        buffer.getvalue().encode("utf-8")))


def atomic_figure(figure: Any, path: Path, **options: Any) -> None:
    """Save a matplotlib ``figure`` to ``path`` atomically, in the format its suffix names."""
    atomic_write(path, lambda temporary: figure.savefig(
        temporary, format=path.suffix.lstrip("."), **options))
