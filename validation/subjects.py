r"""Subjects: the algorithm a validation trial runs, named by a plain string.

A trial of bound id ``ID`` runs the reference algorithm that ``ID``'s theorem covers,
or any other function with the same call signature (a broken variant used as a
negative control, or a user's own algorithm).  The subject travels to worker
processes and dask workers as a string *spec*, never as a pickled function; each
worker rebuilds the callable with :func:`resolve`.

Specs
    ``"reference"``
        The reference algorithm named by the theorem's signature (the default).
    ``"control:NAME"``
        The theorem's negative control ``NAME``.
    ``"file:..."``, ``"module:..."``, ``"object:..."``
        A user's own function (:mod:`offcmab.validation.user_algorithm`), checked
        against the theorem's call signature.

Pairing
    The subject is part of every trial key but not of its seed
    (:mod:`offcmab.validation.runner.seeding`), so the reference and any other subject see the
    same dataset on the same (instance, n, trial): their gaps are paired.

Sandbox
    A user's function is called on read-only views of its arguments, with the global
    random generators seeded per call, under the call deadline; whatever goes wrong inside
    it becomes one fault line (:mod:`offcmab.validation.sandbox`).  The reference is called
    on the same read-only views with the same seeding, so a reference run and a run of the
    same function given as a user's get the same rows; a fault of the reference, the
    package's own code, is raised as it is.

Results
    What a subject returns is checked by :mod:`offcmab.validation.actions`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePath
from typing import Any

from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.sandbox import sandboxed
from offcmab.validation.user_algorithm import SUBJECT_PREFIXES, resolve_subject

#: The subject every run uses unless told otherwise.
REFERENCE = "reference"

#: Prefix of the subject specs that name a negative control of the theorem.
CONTROL = "control"

#: Resolved users' functions of this process, by (spec, bound id): a worker loads a user's
#: file once.  The reference and the controls are read from the record at every call, so a
#: record of the same id with another signature (a variant's keywords) is never served
#: another record's function.
_RESOLVED: dict[tuple[str, str], Callable[..., Any]] = {}


def control_spec(name: str) -> str:
    """The subject spec of control ``name``."""
    return f"{CONTROL}:{name}"


def resolve(spec: str, theorem: Theorem) -> Callable[..., Any]:
    """The callable a trial of ``theorem`` runs for the subject ``spec`` (a user's function
    is cached).

    For ``"reference"`` it is the function ``theorem``'s signature names, with the
    signature's keywords bound; every row of a reference run calls it as a user's function
    given to ``validate --algorithm`` is called and reads what it returns.
    """
    if not is_user(spec):
        return _resolve(spec, theorem)
    key = (spec, theorem.id)
    if key not in _RESOLVED:
        _RESOLVED[key] = _resolve(spec, theorem)
    return _RESOLVED[key]


def _resolve(spec: str, theorem: Theorem) -> Callable[..., Any]:
    if spec == REFERENCE:  # on read-only views of its inputs, as a user's function is called
        return sandboxed(theorem.reference_algorithm())
    prefix, colon, rest = spec.partition(":")
    if not colon or not rest:
        raise ValueError(f"subject: must be {REFERENCE!r} or PREFIX:NAME, got {spec!r}")
    if prefix == CONTROL:
        if rest not in theorem.controls:
            raise ValueError(f"algorithm: no control {rest!r} for {theorem.id}; known: "
                             f"{', '.join(theorem.controls) or 'none'}")
        return theorem.controls[rest]
    if prefix in SUBJECT_PREFIXES:
        return sandboxed(resolve_subject(prefix, rest, theorem.signature.call))
    raise ValueError(f"subject: unknown prefix {prefix!r} in {spec!r}; known: "
                     f"{', '.join((CONTROL, *SUBJECT_PREFIXES))}")


def is_user(spec: str) -> bool:
    """Whether ``spec`` names a user's own function (not the reference nor a control)."""
    return spec.partition(":")[0] in SUBJECT_PREFIXES


def label(spec: str) -> str:
    """How messages name the subject ``spec`` (``file.py:function`` for a user's file)."""
    prefix, _, rest = spec.partition(":")
    if prefix not in SUBJECT_PREFIXES:
        return spec
    if prefix == "object":
        return rest.partition("#")[0]
    head, at, _ = rest.rpartition("@")
    location, _, qualname = (head if at else rest).rpartition(":")
    return f"{PurePath(location).name if prefix == 'file' else location}:{qualname}"
