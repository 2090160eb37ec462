r"""Input checks for seeds: a seed set :math:`S` and a product seed law :math:`q`.

Every influence quantity starts from one of the two: a set of distinct node ids (the action
of the IM problem, ``apdx_app:OIM_node``) or one seeding probability :math:`q_u` per node (the
data collecting distribution of node-level data, ``as:seed_activation_prob``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.errors import InputError


def check_seed_set(seeds: npt.ArrayLike, nodes: int, field: str = "seeds") -> IntArray:
    """Return a seed set as sorted distinct ``int64`` node ids, rejecting bad ids."""
    array = np.asarray(seeds)
    if array.size and array.dtype.kind not in "iu":
        raise InputError(field, "must be integer node ids")
    array = array.astype(np.int64).reshape(-1)
    if array.size and (array.min() < 0 or array.max() >= nodes):
        bad = int(array[(array < 0) | (array >= nodes)][0])
        raise InputError(field, f"node id {bad} is outside [0, {nodes})")
    unique = np.unique(array)
    if unique.size != array.size:
        raise InputError(field, "lists a node more than once")
    return unique


def check_seed_probabilities(q: npt.ArrayLike, nodes: int) -> FloatArray:
    r"""Return :math:`q` as a float vector of length ``V`` with entries in [0, 1]."""
    array = np.asarray(q, dtype=np.float64)
    if array.ndim == 0:
        array = np.full(nodes, float(array))
    if array.shape != (nodes,):
        raise InputError("q", f"needs one probability per node ({nodes}), got shape {array.shape}")
    if np.any(~np.isfinite(array)) or np.any((array < 0) | (array > 1)):
        raise InputError("q", "seed probabilities must lie in [0, 1]")
    return array
