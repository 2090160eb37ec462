r"""What an offline subject returned, checked: a feasible action.

Offline subjects return the chosen action as a flat integer array or an object with an
``action``, ``cache`` or ``seeds`` attribute (the reference result objects);
:func:`as_action` checks it, and anything else is a ``ValueError`` naming the subject and
the problem.  (An online learner's caches are checked round by round as the scenario
feeds it: :mod:`offcmab.validation.scenarios.llm_online`.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from offcmab.reference.dataset import IntArray


def as_action(result: Any, m: int, k: int, name: str = "algorithm") -> IntArray:
    """The action a subject returned, checked: ``k`` distinct integer ids in ``[0, m)``.

    Accepts a flat array-like or an object with an ``action``, ``cache`` or ``seeds``
    attribute; anything else is a ``ValueError`` naming the problem.
    """
    for attribute in ("action", "cache", "seeds"):
        if hasattr(result, attribute):
            result = getattr(result, attribute)
            break
    where = f"action returned by {name}"
    try:
        values = np.asarray(result)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: not an array of ids ({error})") from None
    if values.ndim != 1:
        raise ValueError(f"{where}: must be a flat array of ids, got shape {values.shape}")
    if values.size != k:
        raise ValueError(f"{where}: wrong length, expected k={k} ids, got {values.size}")
    if values.dtype.kind == "b" or values.dtype.kind not in "iuf":
        raise ValueError(f"{where}: ids must be integers, got dtype {values.dtype}")
    if values.dtype.kind == "f":
        if np.isnan(values).any():
            raise ValueError(f"{where}: contains NaN")
        if not np.all(np.isfinite(values)) or np.any(values != np.round(values)):
            raise ValueError(f"{where}: ids must be integers, got {values.tolist()}")
    ids = values.astype(np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= m):
        raise ValueError(f"{where}: ids out of range, must lie in [0, {m}), "
                         f"got {ids.tolist()}")
    if np.unique(ids).size != ids.size:
        raise ValueError(f"{where}: duplicate ids in {ids.tolist()}")
    return ids
