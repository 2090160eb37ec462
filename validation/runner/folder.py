r"""Owning what a command writes: checked first, never another's file, whole or absent.

Every command that writes a file or a folder (``validate --out`` and ``--junit-xml``,
``tightness --out``, ``falsify --out`` and ``--database``, ``reproduce --out``,
``solve --out``) checks its destinations with :func:`check_output_file` or
:func:`check_output_folder` before any work, so a mistake costs nothing: an empty or blank
path, a device, a pipe or a folder where a file goes (``--out /dev/null`` would otherwise be
replaced by a regular file), a file where a folder goes, or a folder no file may be created
in is refused (exit 2 naming the option).  A file that is already there, which this command
did not write in this invocation (another run's trial log or report, a saved counterexample,
the user's own script), is never replaced unless the user passes ``--overwrite``; ``validate
--resume`` continues its own run folder instead.

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
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from offcmab.reference.errors import InputError

LOCK_NAME = ".offcmab.lock"

#: How a refused existing file or folder entry can be replaced on purpose.
OVERWRITE_HINT = "add --overwrite to replace it, or choose another path"

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
        if not _locked(fcntl, descriptor):
            raise InputError(field, f"{folder} is in use by another offcmab run (pid "
                             f"{_holder(lock_path)}); wait for it to end or choose "
                             "another --out")
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode("ascii"))
        yield
    finally:
        os.close(descriptor)  # releases the lock


#: How long a lock held by another process is waited for before the folder is refused: a
#: run killed a moment ago may still be ending (its supervised process is killed with its
#: parent, but the kernel delivers that asynchronously).
LOCK_GRACE_SECONDS = 1.0


def _locked(fcntl: Any, descriptor: int) -> bool:
    """Take the exclusive lock, retrying for :data:`LOCK_GRACE_SECONDS`; whether it was taken."""
    deadline = time.monotonic() + LOCK_GRACE_SECONDS
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)


def check_blank(path: Path | str, option: str) -> None:
    """``InputError`` on ``option`` for an empty or blank path (``Path("")`` is the current
    folder: the output would be scattered among whatever is there)."""
    if not str(path).strip():
        raise InputError(option, f"must name a file or folder, got {str(path)!r}")


def _kind(path: Path) -> str | None:
    """What sits at ``path`` (links followed): "file", "folder", "other" or ``None``."""
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):  # the caller checks the folders above
        return None
    except OSError as error:  # a loop of links, a component that is a file, no permission
        raise InputError("path", f"{path}: {error.strerror}") from None
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other"


def _check_creatable(path: Path, option: str) -> None:
    """The nearest existing folder above ``path`` is a folder this process may write in."""
    parent = path.absolute().parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise InputError(option, f"cannot create {path}: {parent} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(option, f"cannot create {path}: {parent} is not writable")


def check_output_file(path: Path, option: str, overwrite: bool = False) -> None:
    """Refuse ``path`` as a file this command is about to write (``InputError`` on ``option``).

    Refused: an empty or blank path; anything that is not a regular file (a folder, a
    device such as ``/dev/null``, a pipe); a file that already exists, unless ``overwrite``;
    a path whose folder cannot be created or written.  Called before any work.
    """
    check_blank(path, option)
    kind = _named_kind(path, option)
    if kind == "folder":
        raise InputError(option, f"{path} is a folder, not a file")
    if kind == "other":
        raise InputError(option, f"{path} is not a regular file (a device, a pipe or a "
                         "socket); offcmab writes regular files only")
    if kind == "file":
        if not overwrite:
            raise InputError(option, f"{path} already exists and was not written by this "
                             f"command; {OVERWRITE_HINT}")
        if not os.access(path.absolute().parent, os.W_OK | os.X_OK):
            raise InputError(option, f"cannot replace {path}: its folder is not writable")
        return
    _check_creatable(path, option)


def check_output_folder(folder: Path, option: str, claimed: Sequence[str] = (),
                        overwrite: bool = False, hint: str = OVERWRITE_HINT) -> None:
    """Refuse ``folder`` as the folder this command is about to write into.

    ``claimed`` are the names (glob patterns) of the entries the command writes in it: one
    that exists already is refused unless ``overwrite`` (``hint`` says what to do), and one
    that is neither a regular file nor a folder is refused always.  Also refused: an empty or
    blank path, a path that exists and is not a folder, a folder that cannot be created or
    written.  Called before any work.
    """
    check_blank(folder, option)
    kind = _named_kind(folder, option)
    if kind is None:
        _check_creatable(folder, option)
        return
    if kind != "folder":
        raise InputError(option, f"{folder} exists and is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(option, f"{folder} is not writable")
    found = list(dict.fromkeys(entry for pattern in claimed  # in the order claimed
                               for entry in sorted(folder.glob(pattern))))
    strange = [entry for entry in found if _named_kind(entry, option) == "other"]
    if strange:
        raise InputError(option, f"{strange[0]} is not a regular file (a device, a pipe or "
                         "a socket); offcmab writes regular files only")
    if found and not overwrite:
        raise InputError(option, f"{folder} already holds {found[0].name}, which this "
                         f"command writes and did not write in this run; {hint}")


def _named_kind(path: Path, option: str) -> str | None:
    try:
        return _kind(path)
    except InputError as error:
        raise InputError(option, error.message) from None


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
    gets the mode the umask gives a new file.  An ``OSError`` names ``path``.  Nothing but a
    regular file (or nothing) at ``path`` is ever replaced: ``InputError`` otherwise.
    """
    import tempfile  # here, not at the top: start-up of every command that may write a file

    _refuse_special(path)
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
        _refuse_special(path)  # again: a device or folder may have appeared meanwhile
        os.replace(temporary, path)
    except BaseException as error:
        temporary.unlink(missing_ok=True)
        if isinstance(error, OSError) and error.errno is not None:
            raise _naming(error, path) from error  # the target, not the temporary file
        raise


def _refuse_special(path: Path) -> None:
    if _kind(path) not in (None, "file"):
        raise InputError("path", f"{path} is not a regular file; offcmab writes regular files "
                         "only")


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
