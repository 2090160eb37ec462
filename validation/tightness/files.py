r"""Saved instances: the JSON that ``offcmab tightness`` writes and ``validate --instances`` reads.

A file holds one instance of one bound id and what the search measured on it::

    {"bound_id": "thm1-inf", "name": "tightest", "instance": {...params...},
     "delta": 0.01, "n": 3000, "trials": 20, "seed": 2025, "budget": 60,
     "ratio": 0.03, "bound": 2.6, "gap_quantile": 0.08, ...}

Reading is strict, because a replayed instance must be the one that was searched and
the file may come from anyone: every number finite (``NaN`` and ``Infinity``, which
Python's ``json`` accepts, are refused by field), every key known, every value of the
expected type (a boolean is not a number), probabilities in [0, 1], sizes in range,
and the problem must build.  The first problem found raises ``ValueError`` naming its
field (the CLI's exit 2).  Nothing is evaluated.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from offcmab.reference.errors import InputError
from offcmab.reference.jsonsafe import read_json
from offcmab.validation.limits import check_cost
from offcmab.validation.runner.folder import atomic_write_text
from offcmab.validation.runner.spec import Instance
from offcmab.validation.runner.trial_cost import PROBE_ABOVE_N, trial_cost
from offcmab.validation.theorem import Theorem

Checker = Callable[[Any, str], None]
#: A read file: its bound id, its instance and the whole document.
Saved = tuple[str, Instance, dict[str, Any]]


def _number(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{field}: must be a number, got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{field}: must be finite, got {value}")
    return float(value)


def _integer(low: int, high: int | None = None) -> Checker:
    def check(value: Any, field: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{field}: must be an integer, got {type(value).__name__}")
        if value < low or (high is not None and value > high):
            span = f"[{low}, {high}]" if high is not None else f">= {low}"
            raise ValueError(f"{field}: must be an integer {span}, got {value}")
    return check


def _probability(value: Any, field: str) -> None:
    if not 0.0 <= _number(value, field) <= 1.0:
        raise ValueError(f"{field}: must lie in [0, 1], got {value}")


def _open_probability(value: Any, field: str) -> None:
    if not 0.0 < _number(value, field) < 1.0:
        raise ValueError(f"{field}: must lie strictly between 0 and 1, got {value}")


def _any_number(value: Any, field: str) -> None:
    _number(value, field)


def _text(value: Any, field: str) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{field}: must be a non-empty string")


def _choice(*options: str) -> Checker:
    def check(value: Any, field: str) -> None:
        if value not in options:
            raise ValueError(f"{field}: must be one of {', '.join(options)}, got {value!r}")
    return check


def _list(item: Checker, min_size: int = 1) -> Checker:
    def check(value: Any, field: str) -> None:
        if not isinstance(value, list) or len(value) < min_size:
            raise ValueError(f"{field}: must be a list of at least {min_size} entries")
        for j, entry in enumerate(value):
            item(entry, f"{field}[{j}]")
    return check


def _object(required: Mapping[str, Checker], optional: Mapping[str, Checker] | None = None
            ) -> Checker:
    def check(value: Any, field: str) -> None:
        optional_keys = optional or {}
        prefix = f"{field}." if field else ""
        if not isinstance(value, dict):
            raise ValueError(f"{field or 'file'}: must be a JSON object")
        for key in value:
            if key not in required and key not in optional_keys:
                raise ValueError(f"{prefix}{key}: unknown key")
        for key, checker in required.items():
            if key not in value:
                raise ValueError(f"{prefix}{key}: missing")
            checker(value[key], f"{prefix}{key}")
        for key, checker in optional_keys.items():
            if key in value:
                checker(value[key], f"{prefix}{key}")
    return check


def _law(kinds: Mapping[str, Mapping[str, Checker]]) -> Checker:
    """A ``law`` object whose further keys depend on its ``kind``."""
    def check(value: Any, field: str) -> None:
        if not isinstance(value, dict):
            raise ValueError(f"{field}: must be a JSON object")
        _choice(*kinds)(value.get("kind"), f"{field}.kind")
        _object({"kind": _text, **kinds[value["kind"]]})(value, field)
    return check


PROBABILITIES = _list(_probability)
KPATH = _object({"family": _choice("kpath"), "path_means": PROBABILITIES, "k": _integer(1),
                 "law": _law({"paths": {"weights": PROBABILITIES}})})
CASCADE = _object({"family": _choice("cascade"), "mu": PROBABILITIES, "k": _integer(1),
                   "law": _law({"uniform": {}, "ood": {},
                                "mixture": {"lists": _list(_list(_integer(0))),
                                            "weights": PROBABILITIES}})})
#: A relabelling of an instance's ids, recorded with it (optional).
PERMUTATION = {"permutation": _list(_integer(0))}
CACHE = _object({"p": PROBABILITIES, "c": PROBABILITIES, "k": _integer(1),
                 "noise": _choice("bernoulli", "uniform"),
                 "law": _law({"empty": {}, "ood": {}, "random": {"size": _integer(0)},
                              "explicit": {"caches": _list(_list(_integer(0), min_size=0)),
                                           "weights": PROBABILITIES}})}, PERMUTATION)
IM = _object({"nodes": _integer(1), "sources": _list(_integer(0)),
              "targets": _list(_integer(0)), "p": PROBABILITIES, "q": PROBABILITIES,
              "k": _integer(1)}, PERMUTATION)


def _cmabt(value: Any, field: str) -> None:
    family = value.get("family") if isinstance(value, dict) else None
    (KPATH if family == "kpath" else CASCADE)(value, field)


#: Checkers of the instance parameters of each scenario family (theorem records name theirs).
CMABT_PARAMS: Checker = _cmabt
CASCADE_PARAMS: Checker = CASCADE
CACHE_PARAMS: Checker = CACHE
IM_PARAMS: Checker = IM

#: What the search measured: optional when reading (a hand-written instance has none).
MEASURED: dict[str, Checker] = {
    "ratio": _any_number, "bound": _any_number, "gap_quantile": _any_number,
    "gap_mean": _any_number, "largest_gap": _any_number, "start_ratio": _any_number,
    "seconds": _any_number, "seed": _integer(0), "budget": _integer(1),
    "trials": _integer(1), "evaluations": _integer(0),
    "counts": _object({}, {"candidate": _integer(0), "vacuous": _integer(0),
                           "n/a": _integer(0)}),
    "space": _text, "statement": _text,
    "profiles": _list(_choice("quick", "default", "full"), min_size=0),
}


def check_document(document: Any, theorems: Sequence[Theorem]) -> Theorem:
    """The theorem ``document`` is an instance of; ``ValueError`` naming the first field of
    ``document`` that is not valid."""
    if not isinstance(document, dict):
        raise ValueError("file: must be a JSON object")
    bound_id = document.get("bound_id")
    readable = {theorem.id: (theorem, theorem.check_params) for theorem in theorems
                if theorem.check_params is not None}
    if bound_id not in readable:
        raise ValueError(f"bound_id: must be one of {', '.join(readable)}, got {bound_id!r}")
    theorem, check_params = readable[bound_id]
    top = {"bound_id": _text, "instance": check_params, "delta": _open_probability,
           "n": _integer(1)}
    _object(top, {"name": _text, **MEASURED})(document, "")
    return theorem


def read_instance(path: Path, origin: str, theorems: Sequence[Theorem],
                  force: bool = False) -> Saved:
    """``(bound id, instance, document)`` of a saved instance file, checked strictly.

    An instance of more than :data:`~offcmab.validation.runner.trial_cost.PROBE_ABOVE_N` samples is
    refused when one trial would need more memory than the limit of
    :mod:`offcmab.validation.limits` (unless ``force``): its ``n`` is named with the estimate.
    """
    document = read_json(path, "instances")
    try:
        theorem = check_document(document, theorems)
    except ValueError as error:
        raise ValueError(f"instances: {path}: {error}") from None
    instance = Instance(document.get("name", "tightest"), document["instance"],
                        float(document["delta"]), (document["n"],), origin,
                        f"from {Path(path).name}")
    _check_builds(theorem, instance, path)
    if instance.n_grid[0] > PROBE_ABOVE_N:
        try:
            check_cost(trial_cost(theorem, instance, instance.n_grid[0]), force)
        except InputError as error:
            raise InputError("instances", f"{path}: {error}") from None
    return document["bound_id"], instance, document


def _check_builds(theorem: Theorem, instance: Instance, path: Path) -> None:
    """Build the instance's problem and bound once, so inconsistent sizes fail here."""
    try:
        theorem.scenario.bound(instance, instance.n_grid[0], "stated")
    except (ValueError, IndexError, KeyError) as error:
        raise ValueError(f"instances: {path}: instance: {error}") from None


def read_instances(paths: Sequence[Path], origin: str, theorems: Sequence[Theorem],
                   force: bool = False) -> list[Saved]:
    """Every file's instance; two instances of one bound id may not share a name."""
    found = [read_instance(path, origin, theorems, force) for path in paths]
    seen: set[tuple[str, str]] = set()
    for (bound_id, instance, _), path in zip(found, paths, strict=True):
        if (bound_id, instance.name) in seen:
            raise ValueError(f"instances: {path}: a second {bound_id} instance named "
                             f"{instance.name!r} (give it another \"name\")")
        seen.add((bound_id, instance.name))
    return found


def write_instance(document: Mapping[str, Any], path: Path,
                   theorems: Sequence[Theorem]) -> None:
    """Write a saved instance (checked first: what is written can be read back)."""
    check_document(json.loads(json.dumps(document)), theorems)
    atomic_write_text(Path(path), json.dumps(document, indent=2) + "\n")
