r"""Optima at any id: CMAB-T instances relabeled by a seeded random permutation of their ids.

An algorithm can pass a check by accident when the optimum sits where a careless choice
looks first (the smallest ids, the first path).  Relabeling moves it: item ``i`` of a
cascade becomes item ``permutation[i]``, path ``j`` of a k-path instance becomes path
``permutation[j]``, node ``v`` of an influence graph becomes node ``permutation[v]``, and
the data law follows (list entries, path weights, seed probabilities).  The relabeled
parameters are concrete: they describe the permuted instance itself, and carry the
permutation under ``relabel`` so that a saved instance replays exactly and a reader can
map its ids back.  The scenarios build problems from the concrete parameters only;
``relabel`` is a record of where they came from (and how :mod:`offcmab.validation.regions`
recognizes a relabeled instance).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from offcmab.validation.parts.spec import Instance

#: The key holding the permutation in relabeled parameters.
RELABEL = "relabel"


def name_seed(name: str) -> int:
    """A fixed seed for the permutation of a named instance (its name, hashed)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")


def size(params: Mapping[str, Any]) -> int:
    """How many ids a permutation of ``params`` moves (items, paths or nodes)."""
    if params["family"] == "cascade":
        return len(params["mu"])
    if params["family"] == "kpath":
        return len(params["path_means"])
    return int(params["graph"]["nodes"])


def _moved(values: list[Any], permutation: np.ndarray) -> list[Any]:
    """``values`` with entry ``i`` moved to position ``permutation[i]``."""
    out: list[Any] = [None] * len(values)
    for old, new in enumerate(permutation.tolist()):
        out[new] = values[old]
    return out


def relabeled(params: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """``params`` with its ids permuted by a permutation drawn from ``seed``.

    The result holds the permutation under :data:`RELABEL`; an instance that was already
    relabeled is refused (``ValueError``): relabel the published order instead.
    """
    if RELABEL in params:
        raise ValueError(f"{RELABEL}: the instance is already relabeled")
    permutation = np.random.default_rng(seed).permutation(size(params))
    out = dict(params)
    law = dict(params["law"])
    family = params["family"]
    if family == "cascade":
        out["mu"] = _moved(list(params["mu"]), permutation)
        if law["kind"] == "mixture":
            law["lists"] = [[int(permutation[i]) for i in row] for row in law["lists"]]
    elif family == "kpath":
        out["path_means"] = _moved(list(params["path_means"]), permutation)
        law["weights"] = _moved(list(law["weights"]), permutation)
    else:  # im-edge: nodes move, edges keep their order
        graph = dict(params["graph"])
        graph["sources"] = [int(permutation[v]) for v in graph["sources"]]
        graph["targets"] = [int(permutation[v]) for v in graph["targets"]]
        out["graph"] = graph
        law["q"] = _moved(list(law["q"]), permutation)
    out["law"] = law
    out[RELABEL] = permutation.tolist()
    return out


def is_relabeled(params: Mapping[str, Any]) -> bool:
    """Whether ``params`` carry a permutation that moves some id."""
    permutation = params.get(RELABEL)
    return permutation is not None and list(permutation) != list(range(len(permutation)))


def check_permutation(params: Mapping[str, Any], field: str = RELABEL) -> None:
    """``ValueError`` naming ``field`` unless a stored permutation permutes the instance's ids."""
    permutation = params.get(RELABEL)
    if permutation is None:
        return
    if sorted(permutation) != list(range(size(params))):
        raise ValueError(f"{field}: must be a permutation of 0..{size(params) - 1}")


#: The origin of an experiment of the paper, whose published order is kept beside a copy.
PAPER = "paper"


def relabeled_instances(instances: Sequence[Instance], salt: str = "") -> list[Instance]:
    """Each instance relabeled by a permutation seeded by ``salt`` and its name.

    Without ``salt`` the permutation is the same in every run (named instances and traps);
    generated instances pass the run seed and bound id in ``salt``.  An instance of the
    paper (origin ``paper``) stays in its published order, and a relabeled copy
    ``<name>-relabeled`` follows it.
    """
    found: list[Instance] = []
    for instance in instances:
        seed = name_seed(salt + instance.name)
        moved = replace(instance, params=relabeled(instance.params, seed))
        if instance.origin == PAPER:
            found += [instance, replace(moved, name=f"{instance.name}-relabeled")]
        else:
            found.append(moved)
    return found
