r"""Random relabellings of an instance's ids, so that optima sit at any id.

A scenario draws a permutation for each instance from a seed, applies it to the instance's
parameters and records it in them (``permutation``: id ``i`` as first drawn is id
``permutation[i]``), so a saved instance replays exactly and its first order can be
recovered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np


def moving_permutation(size: int, rng: np.random.Generator) -> list[int]:
    """A random permutation of ``range(size)`` that moves some id (for ``size >= 2``).

    The identity, drawn with probability ``1/size!``, is replaced by a rotation by one, so
    that every relabelled instance is relabelled.
    """
    labels = [int(j) for j in rng.permutation(size)]
    return labels[1:] + labels[:1] if labels == list(range(size)) else labels


def composed(first: list[int] | None, labels: list[int]) -> list[int]:
    """The permutation ``labels`` applied after ``first`` (``None``: the identity)."""
    return [labels[j] for j in (range(len(labels)) if first is None else first)]


def is_relabeled(params: Mapping[str, Any]) -> bool:
    """Whether ``params`` record a permutation that moves some id."""
    labels = params.get("permutation")
    return labels is not None and list(labels) != list(range(len(labels)))


def unpermuted(params: Mapping[str, Any],
               permuted: Callable[[Mapping[str, Any], Any], dict[str, Any]]) -> dict[str, Any]:
    """``params`` in the order they had before ``permuted`` (the family's relabelling, which
    records the permutation) was applied; ``params`` as they are if never relabelled."""
    if "permutation" not in params:
        return dict(params)
    inverse = np.argsort(np.asarray(params["permutation"], dtype=np.int64)).tolist()
    out = permuted({key: value for key, value in params.items() if key != "permutation"},
                   inverse)
    del out["permutation"]
    return out
