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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from offcmab.reference.errors import InputError
from offcmab.reference.jsonsafe import read_json
from offcmab.validation.limits import check_cost
from offcmab.validation.parts.spec import Instance
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.folder import atomic_write_text
from offcmab.validation.runner.trial_cost import PROBE_ABOVE_N, trial_cost
from offcmab.validation.scenarios.relabel import check_permutation
from offcmab.validation.schema import (
    Checker,
    any_number,
    choice,
    integer,
    law,
    list_of,
    mapping,
    obj,
    open_probability,
    plain,
    probability,
    text,
)

#: A read file: its bound id, its instance and the whole document.
Saved = tuple[str, Instance, dict[str, Any]]


PROBABILITIES = list_of(probability)
#: A relabeled instance's permutation (:mod:`offcmab.validation.scenarios.relabel`).
RELABEL = {"relabel": list_of(integer(0))}
KPATH = obj({"family": choice("kpath"), "path_means": PROBABILITIES, "k": integer(1),
             "law": law({"paths": {"weights": PROBABILITIES}})}, RELABEL)
CASCADE = obj({"family": choice("cascade"), "mu": PROBABILITIES, "k": integer(1),
               "law": law({"uniform": {}, "ood": {},
                           "mixture": {"lists": list_of(list_of(integer(0))),
                                       "weights": PROBABILITIES}})}, RELABEL)
#: A relabelling of a cache or IM instance's ids, recorded with it (optional).
PERMUTATION = {"permutation": list_of(integer(0))}
CACHE = obj({"p": PROBABILITIES, "c": PROBABILITIES, "k": integer(1),
             "noise": choice("bernoulli", "uniform"),
             "law": law({"empty": {}, "ood": {}, "random": {"size": integer(0)},
                         "explicit": {"caches": list_of(list_of(integer(0), min_size=0)),
                                      "weights": PROBABILITIES}})}, PERMUTATION)
IM = obj({"nodes": integer(1), "sources": list_of(integer(0)),
          "targets": list_of(integer(0)), "p": PROBABILITIES, "q": PROBABILITIES,
          "k": integer(1)}, PERMUTATION)


def _cascade(value: Any, field: str) -> None:
    CASCADE(value, field)
    check_permutation(value, f"{field}.relabel" if field else "relabel")


def _cmabt(value: Any, field: str) -> None:
    family = value.get("family") if isinstance(value, dict) else None
    if family == "kpath":
        KPATH(value, field)
        check_permutation(value, f"{field}.relabel" if field else "relabel")
    else:
        _cascade(value, field)


#: Checkers of the instance parameters of each scenario family (theorem records name theirs).
CMABT_PARAMS: Checker = _cmabt
CASCADE_PARAMS: Checker = _cascade
CACHE_PARAMS: Checker = CACHE
IM_PARAMS: Checker = IM

#: The parameters of a searchable record that declares no checker of its own (a theorem
#: from outside the package): an object of plain JSON values, which its scenario must
#: then build (:func:`_check_builds`).
PLAIN_PARAMS: Checker = mapping(plain)

#: What the search measured: optional when reading (a hand-written instance has none).
MEASURED: dict[str, Checker] = {
    "ratio": any_number, "bound": any_number, "gap_quantile": any_number,
    "gap_mean": any_number, "largest_gap": any_number, "start_ratio": any_number,
    "seconds": any_number, "seed": integer(0), "budget": integer(1),
    "trials": integer(1), "evaluations": integer(0),
    "counts": obj({}, {"candidate": integer(0), "vacuous": integer(0),
                           "n/a": integer(0)}),
    "space": text, "statement": text,
    "profiles": list_of(choice("quick", "default", "full"), min_size=0),
    "objective": choice("stated", "certificate"),
}


def check_document(document: Any, theorems: Sequence[Theorem]) -> Theorem:
    """The theorem ``document`` is an instance of; ``ValueError`` naming the first field of
    ``document`` that is not valid."""
    if not isinstance(document, dict):
        raise ValueError("file: must be a JSON object")
    bound_id = document.get("bound_id")
    readable = {theorem.id: (theorem, theorem.check_params or PLAIN_PARAMS)
                for theorem in theorems if theorem.check_params is not None
                or theorem.space is not None or theorem.falsify_space is not None}
    if bound_id not in readable:
        raise ValueError(f"bound_id: must be one of {', '.join(readable)}, got {bound_id!r}")
    theorem, check_params = readable[bound_id]
    top = {"bound_id": text, "instance": check_params, "delta": open_probability,
           "n": integer(1)}
    obj(top, {"name": text, **MEASURED})(document, "")
    return theorem


def read_instance(path: Path, origin: str, theorems: Sequence[Theorem],
                  force: bool = False, field: str = "instances") -> Saved:
    """``(bound id, instance, document)`` of a saved instance file, checked strictly.

    Every error names ``field``, the option the file was given with.

    An instance of more than :data:`~offcmab.validation.runner.trial_cost.PROBE_ABOVE_N` samples is
    refused when one trial would need more memory than the limit of
    :mod:`offcmab.validation.limits` (unless ``force``): its ``n`` is named with the estimate.
    """
    document = read_json(path, field)
    try:
        theorem = check_document(document, theorems)
    except ValueError as error:
        raise ValueError(f"{field}: {path}: {error}") from None
    instance = Instance(document.get("name", "tightest"), document["instance"],
                        float(document["delta"]), (document["n"],), origin,
                        f"from {Path(path).name}")
    _check_builds(theorem, instance, path, field)
    if instance.n_grid[0] > PROBE_ABOVE_N:
        try:
            check_cost(trial_cost(theorem, instance, instance.n_grid[0]), force)
        except InputError as error:
            raise InputError(field, f"{path}: {error}") from None
    return document["bound_id"], instance, document


def _check_builds(theorem: Theorem, instance: Instance, path: Path, field: str) -> None:
    """Build the instance's problem and bound once, so inconsistent sizes fail here."""
    try:
        theorem.scenario.bound(instance, instance.n_grid[0], "stated")
    except (ValueError, IndexError, KeyError) as error:
        raise ValueError(f"{field}: {path}: instance: {error}") from None


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
