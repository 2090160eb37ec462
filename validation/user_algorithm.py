r"""Load a user's algorithm from a file or a module, by name, without evaluating any text.

``offcmab validate --algorithm TARGET``, :func:`offcmab.validation.check` and the pytest
fixture all reach a user's function through this module.  A target is

``path/to/file.py:FUNCTION``
    The file is imported with :func:`importlib.util.spec_from_file_location` under a
    private module name (it is run as Python code, as ``python file.py`` would, but no
    string is ever evaluated); ``FUNCTION`` may be a dotted qualified name
    (``Class.method``).
``package.module:FUNCTION``
    An importable module, imported with :func:`importlib.import_module`.

Worker processes rebuild the function from a plain string *spec*:
``file:<absolute path>:<qualified name>`` or ``module:<module>:<qualified name>``
(see :meth:`UserAlgorithm.spec`), so nothing but text crosses process boundaries.

Errors are :class:`AlgorithmError` (a ``ValueError``): one line naming the algorithm.
An exception raised inside the user's function is reported with the user's own
frames only (file, line, function), never the frames of this package.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from offcmab.validation import supervisor
from offcmab.validation.sandbox import (
    AlgorithmError,
    deadline,
    fault,
    leave_forked_copy,
    timeout,
    user_frames_text,
)

SourceKind = Literal["file", "module"]

#: Prefixes of subject specs this module resolves (registered with the subject registry).
PREFIXES: tuple[SourceKind, ...] = ("file", "module")


@dataclass(frozen=True)
class UserAlgorithm:
    r"""A user's function and where it came from.

    Attributes
    ----------
    kind
        ``file`` (a ``.py`` file) or ``module`` (an importable module).
    location
        The absolute file path, or the module's dotted name.
    qualname
        The function's qualified name inside that file or module.
    sha256
        Hex digest of the source file's bytes (``None`` for a module without a file).
    function
        The loaded function.
    """

    kind: SourceKind
    location: str
    qualname: str
    sha256: str | None
    function: Callable[..., Any]

    @property
    def spec(self) -> str:
        """The plain string a worker process resolves back into this function."""
        return f"{self.kind}:{self.location}:{self.qualname}"

    @property
    def label(self) -> str:
        """Short name used in messages: ``file.py:function`` or ``module:function``."""
        where = Path(self.location).name if self.kind == "file" else self.location
        return f"{where}:{self.qualname}"

    @property
    def roots(self) -> frozenset[str]:
        """Where the user's own source lives (the frames error messages keep)."""
        if self.kind == "file":
            return frozenset({self.location})
        return frozenset(_module_files(self.location))

    def guarded(self) -> Callable[..., Any]:
        """The function, its exceptions turned into one line naming the algorithm."""
        return guarded(self.function, self.label, self.roots)

    def describe(self) -> dict[str, str | None]:
        """What the report records about the algorithm (in place of the reference one)."""
        return {"kind": self.kind, "file" if self.kind == "file" else "module": self.location,
                "function": self.qualname, "sha256": self.sha256, "spec": self.spec}


def parse_target(target: str, field: str = "algorithm", what: str = "FUNCTION"
                 ) -> tuple[SourceKind, str, str]:
    """Split ``FILE.py:NAME`` or ``package.module:NAME`` (no import yet).

    ``field`` names the option in messages (``algorithm``, ``theorem``); ``what`` the
    kind of name expected (``FUNCTION``, ``NAME``).
    """
    where, colon, name = target.rpartition(":")
    if not colon or not where or not name:
        raise AlgorithmError(f"{field}: expected FILE.py:{what} or package.module:{what}, "
                             f"got {target!r}")
    if not all(part.isidentifier() for part in name.split(".")):
        noun = "function" if what == "FUNCTION" else "Python"
        raise AlgorithmError(f"{field} {target}: {name!r} is not a {noun} name")
    if where.endswith(".py") or "/" in where or "\\" in where:
        return "file", str(Path(where).expanduser().resolve()), name
    if not all(part.isidentifier() for part in where.split(".")):
        raise AlgorithmError(f"{field} {target}: {where!r} is neither a .py file nor a "
                             "module name")
    return "module", where, name


def load(target: str) -> UserAlgorithm:
    """Load ``FILE.py:FUNCTION`` or ``package.module:FUNCTION``."""
    kind, location, qualname = parse_target(target)
    return load_parts(kind, location, qualname)


def resolve_spec(spec: str) -> UserAlgorithm:
    """Rebuild a :class:`UserAlgorithm` from its :attr:`~UserAlgorithm.spec` string."""
    kind, _, rest = spec.partition(":")
    location, _, qualname = rest.rpartition(":")
    if not location or not qualname:
        raise AlgorithmError(f"algorithm: malformed spec {spec!r}")
    if kind == "file":
        return load_parts("file", location, qualname)
    if kind == "module":
        return load_parts("module", location, qualname)
    raise AlgorithmError(f"algorithm: spec {spec!r} starts with neither file: nor module:")


def load_parts(kind: SourceKind, location: str, qualname: str) -> UserAlgorithm:
    """Import the file or module and look the function up.

    A file is imported once per process, path and content: its module name carries
    a hash of both, so an edited or moved file is imported afresh.
    """
    function, digest = load_value(kind, location, qualname)
    label = f"{Path(location).name if kind == 'file' else location}:{qualname}"
    if not callable(function):
        raise AlgorithmError(f"algorithm {label}: {qualname} is not a function "
                             f"(it is a {type(function).__name__})")
    return UserAlgorithm(kind, location, qualname, digest, function)


def load_value(kind: SourceKind, location: str, qualname: str, field: str = "algorithm"
               ) -> tuple[Any, str | None]:
    """The value ``qualname`` names in the file or module, and the SHA-256 of its source.

    The one place where a user's file or module is imported (a function for
    ``--algorithm``, a theorem record for ``--theorem``); ``field`` names the option in
    messages.
    """
    digest: str | None
    if kind == "file":
        module, digest = _import_file(Path(location), qualname, field)
    else:
        module, digest = _import_module(location, qualname, field)
    label = f"{Path(location).name if kind == 'file' else location}:{qualname}"
    supervisor.note_user_code(label)  # from now on, a run that ends abruptly is its fault
    return _attribute(module, qualname, label, field), digest


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _import_file(path: Path, qualname: str, field: str) -> tuple[ModuleType, str]:
    label = f"{path.name}:{qualname}"
    if not path.is_file():
        raise AlgorithmError(f"{field} {label}: no such file {path}")
    digest = file_digest(path)
    where = hashlib.sha256(f"{path}\x1f{digest}".encode()).hexdigest()[:16]
    name = f"_offcmab_user_{where}_{''.join(c if c.isalnum() else '_' for c in path.stem)}"
    if name in sys.modules:
        return sys.modules[name], digest
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise AlgorithmError(f"{field} {label}: cannot import {path} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look the module up here
    try:
        spec.loader.exec_module(module)
    except BaseException as error:
        del sys.modules[name]
        if isinstance(error, KeyboardInterrupt):
            raise
        raise AlgorithmError(f"{field} {label}: importing {path.name} raised "
                             f"{user_frames_text(error, {str(path)})}") from None
    return module, digest


def _import_module(name: str, qualname: str, field: str) -> tuple[ModuleType, str | None]:
    label = f"{name}:{qualname}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        raise AlgorithmError(f"{field} {label}: no module named {error.name!r}") from None
    except Exception as error:
        raise AlgorithmError(f"{field} {label}: importing {name} raised "
                             f"{user_frames_text(error, _module_files(name))}") from None
    source = getattr(module, "__file__", None)
    return module, file_digest(Path(source)) if source else None


def _module_files(name: str) -> set[str]:
    """The user's source of module ``name``: its top-level package folder, or its file."""
    try:
        spec = importlib.util.find_spec(name.partition(".")[0])
    except (ImportError, ValueError):
        return set()
    if spec is None or not spec.origin:
        return set()
    origin = Path(spec.origin)
    return {str(origin.parent if origin.name == "__init__.py" else origin)}


def _attribute(module: ModuleType, qualname: str, label: str, field: str) -> Any:
    value: Any = module
    for part in qualname.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            noun = "function " if field == "algorithm" else ""
            raise AlgorithmError(f"{field} {label}: no {noun}{qualname!r} in "
                                 f"{getattr(module, '__file__', None) or module.__name__}"
                                 ) from None
    return value


def check_signature(function: Callable[..., Any], parameters: tuple[str, ...], label: str,
                    expected: str) -> None:
    """Raise unless ``function`` accepts exactly the positional arguments ``parameters``.

    ``expected`` is the call signature as printed in messages (``f(dataset, k, delta)``).
    Extra parameters with defaults are fine; missing or extra required ones are not.
    """
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return  # a builtin or C function without a signature: the call will tell
    try:
        signature.bind(*parameters)
    except TypeError as error:
        raise AlgorithmError(f"algorithm {label}: signature {function_name(function)}"
                             f"{signature} does not fit the call {expected} ({error})"
                             ) from None


def function_name(function: Callable[..., Any]) -> str:
    """The function's name (or its repr for other callables)."""
    return str(getattr(function, "__name__", repr(function)))


#: The context of an untimed call: reusable, and cheaper than an unarmed deadline.
NO_DEADLINE = contextlib.nullcontext()


def guarded(function: Callable[..., Any], label: str,
            files: frozenset[str], timed: bool = True) -> Callable[..., Any]:
    """``function`` under the call deadline (unless ``timed`` is false: a caller that
    times a whole loop of calls itself), whatever leaves it turned into one
    :class:`~offcmab.validation.sandbox.AlgorithmFault` line.

    A copy of the process that the function forked and that returns from it ends there
    (:func:`~offcmab.validation.sandbox.leave_forked_copy`): it never runs the rest of
    the run.  The message names the algorithm, what happened (an exception, ``sys.exit``, the
    timeout, a write into its read-only input) and the frames of the traceback that lie
    in ``files`` (the user's own source files or package folders).  A real interrupt
    passes through (:func:`offcmab.validation.sandbox.real_interrupt`).
    """

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        process = os.getpid()
        try:
            # a caller timing a loop itself (a learner called once per round) skips the timer
            with deadline(timeout()) if timed else NO_DEADLINE:
                return function(*args, **kwargs)
        except AlgorithmError:
            raise
        except BaseException as error:
            found = fault(error, label, set(files))
            if found is None:
                raise
            raise found from None
        finally:
            leave_forked_copy(process)

    return call


def source_files(function: Callable[..., Any]) -> frozenset[str]:
    """The file defining ``function`` (empty when unknown)."""
    code = getattr(inspect.unwrap(function), "__code__", None)
    return frozenset({str(Path(code.co_filename).resolve())}) if code is not None else frozenset()


# --- subjects: how a run names the user's function (validation.subjects specs) ------------

#: In-process functions (lambdas, closures) by their ``object:`` spec; serial runs only.
_OBJECTS: dict[str, Callable[..., Any]] = {}


def subject_spec(algorithm: UserAlgorithm) -> str:
    """The subject spec of ``algorithm``: its spec plus the file hash workers check."""
    digest = f"@{algorithm.sha256[:16]}" if algorithm.sha256 else ""
    return f"{algorithm.spec}{digest}"


def object_spec(function: Callable[..., Any]) -> str:
    """A spec for a function only this process can call (a lambda or closure)."""
    spec = f"object:{function_name(function)}#{len(_OBJECTS)}"
    _OBJECTS[spec] = function
    return spec


def call_parameters(call: str) -> tuple[str, ...]:
    """Parameter names of a printed call ``f(a, b, c)`` (text after its ``)`` is ignored)."""
    start = call.index("(") + 1
    inside = call[start: call.index(")", start)]
    return tuple(part.strip() for part in inside.split(",") if part.strip())


def checked_call(function: Callable[..., Any], call: str, label: str,
                 roots: frozenset[str]) -> Callable[..., Any]:
    """``function`` after its signature is checked against the printed ``call``, guarded."""
    check_signature(function, call_parameters(call), label, call)
    return guarded(function, label, roots)


def _resolve_source(kind: SourceKind, rest: str, call: str) -> Callable[..., Any]:
    target, at, digest = rest.rpartition("@")
    if not at:
        target, digest = rest, ""
    location, _, qualname = target.rpartition(":")
    algorithm = load_parts(kind, location, qualname)
    if digest and not (algorithm.sha256 or "").startswith(digest):
        raise AlgorithmError(f"algorithm {algorithm.label}: {location} changed during the run "
                             f"(sha256 {algorithm.sha256}, the run started with {digest}...)")
    return checked_call(algorithm.function, call, algorithm.label, algorithm.roots)


def _resolve_object(rest: str, call: str) -> Callable[..., Any]:
    spec = f"object:{rest}"
    if spec not in _OBJECTS:
        raise AlgorithmError(f"algorithm {rest}: a function defined inside another function "
                             "(or a lambda) can only run in the process that defined it; "
                             "use jobs=1 or define it at the top level of a file")
    function = _OBJECTS[spec]
    return checked_call(function, call, function_name(function), source_files(function))


#: Prefixes of the subject specs of users' functions.
SUBJECT_PREFIXES = (*PREFIXES, "object")


def resolve_subject(prefix: str, rest: str, call: str) -> Callable[..., Any]:
    """The user's function named by the subject spec ``prefix:rest``, checked against ``call``.
    """
    if prefix == "object":
        return _resolve_object(rest, call)
    if prefix == "file":
        return _resolve_source("file", rest, call)
    return _resolve_source("module", rest, call)
