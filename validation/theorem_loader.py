r"""Load a theorem record of one's own: ``--theorem FILE.py:NAME`` or ``module:NAME``.

Every command that runs records (validate, tightness, calibrate, mutation, falsify,
compare), :func:`offcmab.validation.check` and the pytest fixture accept such targets.
The file or module is imported the way a user's algorithm is
(:func:`offcmab.validation.user_algorithm.load_value`: run as Python code, as
``python file.py`` would, but no text is ever evaluated), and ``NAME`` must be a
:class:`~offcmab.validation.parts.theorem.Theorem`.

The loaded record remembers where it came from (:attr:`Theorem.source`, with the SHA-256
of the file), so worker processes load it again from there rather than unpickle it
(:func:`from_source`), and reports name the file and its hash (:func:`provenance`).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.user_algorithm import (
    AlgorithmError,
    SourceKind,
    file_digest,
    load_value,
    parse_target,
)

#: The option's name in messages.
FIELD = "theorem"


def load_theorem(target: str) -> Theorem:
    """The record ``FILE.py:NAME`` or ``package.module:NAME`` names, with its source noted.

    ``ValueError`` (an :class:`~offcmab.validation.sandbox.AlgorithmError`) in one line
    naming the field: a malformed target, a missing file or name, an import that raised,
    a value that is not a :class:`Theorem`.
    """
    if not isinstance(target, str):
        raise AlgorithmError(f"{FIELD}: must be 'FILE.py:NAME', 'package.module:NAME' or a "
                             f"Theorem, got {type(target).__name__}")
    kind, location, name = parse_target(target, FIELD, "NAME")
    return _loaded(kind, location, name, None)


def from_source(source: str) -> Theorem:
    """A worker's copy of a loaded record, from its :attr:`~Theorem.source`; refused when
    the file changed since the run loaded it."""
    kind, _, rest = source.partition(":")
    target, _, digest = rest.rpartition("@") if "@" in rest else (rest, "", "")
    location, _, name = target.rpartition(":")
    if kind not in ("file", "module") or not location or not name:
        raise AlgorithmError(f"{FIELD}: malformed source {source!r}")
    return _loaded("file" if kind == "file" else "module", location, name, digest or None)


def _loaded(kind: SourceKind, location: str, name: str, expected: str | None) -> Theorem:
    value, digest = load_value(kind, location, name, FIELD)
    label = f"{Path(location).name if kind == 'file' else location}:{name}"
    if not isinstance(value, Theorem):
        raise AlgorithmError(f"{FIELD} {label}: {name} is not a Theorem (it is a "
                             f"{type(value).__name__}; build it with "
                             "offcmab.validation.extend.Theorem)")
    if expected is not None and digest != expected:
        raise AlgorithmError(f"{FIELD} {label}: {location} changed during the run (sha256 "
                             f"{digest}, the run started with {expected})")
    return replace(value, source=f"{kind}:{location}:{name}" + (f"@{digest}" if digest else ""))


def records(targets: Sequence[str | Theorem], known: Sequence[Theorem]
            ) -> tuple[tuple[Theorem, ...], tuple[str, ...]]:
    """``known`` (the package's records, :data:`offcmab.validation.theorems.THEOREMS`)
    followed by the records ``targets`` name (targets are loaded, records kept), and the
    ids of the latter.

    ``ValueError`` naming the field when a target does not load or an id is taken twice.
    """
    added = [load_theorem(target) if isinstance(target, str) else target
             for target in targets]
    ids = [theorem.id for theorem in known]
    for theorem in added:
        if not isinstance(theorem, Theorem):
            raise AlgorithmError(f"{FIELD}: must be 'FILE.py:NAME', 'package.module:NAME' or "
                                 f"a Theorem, got {type(theorem).__name__}")
        if theorem.id in ids:
            raise AlgorithmError(f"{FIELD}: id {theorem.id!r} is taken (by the package's "
                                 "theorems or another --theorem); give the record its own id")
        ids.append(theorem.id)
    return (*known, *added), tuple(theorem.id for theorem in added)


def provenance(theorem: Theorem) -> dict[str, Any]:
    """Where a record from outside the package is defined: its id, the defining module's
    path (or module name) and that file's SHA-256."""
    if theorem.source:
        kind, _, rest = theorem.source.partition(":")
        target, _, digest = rest.rpartition("@") if "@" in rest else (rest, "", "")
        location, _, name = target.rpartition(":")
        module = inspect.getmodule(theorem.signature.reference)
        path = location if kind == "file" else getattr(module, "__file__", None)
        return {"id": theorem.id, "source": theorem.source, "name": name,
                "module": location if kind == "module" else None, "path": path,
                "sha256": digest or None}
    module = inspect.getmodule(type(theorem.scenario)) if theorem.scenario is not None else None
    if module is None or module.__name__.startswith("offcmab."):
        module = inspect.getmodule(theorem.signature.reference)
    path = getattr(module, "__file__", None)
    return {"id": theorem.id, "source": None, "name": None,
            "module": getattr(module, "__name__", None), "path": path,
            "sha256": file_digest(Path(path)) if path and Path(path).is_file() else None}
