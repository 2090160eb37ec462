r"""Independent cascade (IC) diffusion, vectorized across simulations.

Many cascades run at once.  The state of simulation ``r`` and node ``v`` lives at the flat
key ``r * V + v`` of one boolean array, and each diffusion step is a handful of array
operations over all simulations together:

1. gather the out-edges of every newly activated node (a CSR gather, :func:`out_edges_of`);
2. flip one coin per edge, ``U < p_uv`` (each newly active node tries each out-neighbour once);
3. keep the successful targets not yet active and deduplicate them (without sorting):
   they form :math:`S_h \setminus S_{h-1}`.

The cascade :math:`(S_0, S_1, \dots)` is recorded as the activation step of every active node,
so :math:`S_h = \{v : \text{step}(v) \le h\}` is cumulative, as the paper defines it.

References
----------
``apdx_app:OIM_node`` (the IC model, influence cascade, :math:`\sigma(S;G)`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reference.dataset import IntArray
from reference.errors import InputError
from reference.im.graph import ICGraph, out_edges_of

#: Most (simulation, node) cells one batch may hold (about 40 MB of scratch per batch).
BATCH_CELLS = 1 << 22

#: Most cascades one spread estimate may simulate (their sizes alone take 8 bytes each).
MAX_SAMPLES = 10**9


@dataclass(frozen=True)
class Diffusion:
    r"""The outcome of a batch of IC cascades, as flat arrays.

    Attributes
    ----------
    runs
        Number of simulated cascades ``R``.
    active_keys
        Keys ``r * V + v`` of every active node of every cascade, in activation order.
    steps
        Activation step of each entry of ``active_keys`` (0 for seeds).
    tried_keys, fired
        When edge feedback was recorded: keys ``r * E + e`` of every edge whose source became
        active (the edge was triggered), and whether it fired; otherwise empty arrays.
    """

    runs: int
    active_keys: IntArray
    steps: IntArray
    tried_keys: IntArray
    fired: npt.NDArray[np.bool_]


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


def diffuse(
    graph: ICGraph, seed_keys: IntArray, runs: int, rng: np.random.Generator,
    record_edges: bool = False,
) -> Diffusion:
    r"""Run ``runs`` IC cascades at once from the given seed cells.

    Parameters
    ----------
    graph
        The weighted digraph :math:`G(\mathcal V,\mathcal E,p)`.
    seed_keys
        Keys ``r * V + v`` of the seeds of every cascade (each key at most once).
    runs
        Number of cascades ``R``.
    rng
        Source of randomness.
    record_edges
        Also record every triggered edge and its outcome (edge-level feedback).
    """
    V = graph.nodes
    active = np.zeros(runs * V, dtype=bool)
    stamp = np.zeros(runs * V, dtype=np.int64)  # for deduplication without sorting
    frontier = np.unique(seed_keys)
    active[frontier] = True
    found_keys, found_steps = [frontier], [np.zeros(frontier.size, dtype=np.int64)]
    tried: list[IntArray] = []
    fired_parts: list[npt.NDArray[np.bool_]] = []
    step = 0
    while frontier.size:
        step += 1
        sims, nodes = np.divmod(frontier, V)
        edge, owner = out_edges_of(graph, nodes)
        success = rng.random(edge.size) < graph.p[edge]
        if record_edges:
            tried.append(sims[owner] * graph.edges + edge)
            fired_parts.append(success)
        reached = sims[owner[success]] * V + graph.targets[edge[success]]
        frontier = _first_occurrences(reached[~active[reached]], stamp)
        active[frontier] = True
        found_keys.append(frontier)
        found_steps.append(np.full(frontier.size, step, dtype=np.int64))
    empty = np.zeros(0, dtype=np.int64)
    tried_keys = np.concatenate(tried) if tried else empty
    fired = np.concatenate(fired_parts) if fired_parts else np.zeros(0, dtype=bool)
    edge_order = np.argsort(tried_keys, kind="stable")
    return Diffusion(runs, np.concatenate(found_keys), np.concatenate(found_steps),
                     tried_keys[edge_order], fired[edge_order])


def _first_occurrences(keys: IntArray, stamp: IntArray) -> IntArray:
    """The distinct values of ``keys`` (first occurrences), via a scratch array, without sorting.

    ``stamp`` has one cell per possible key; after writing each key's position into its cell,
    the position that survives for a value is the same for all its copies, so exactly one copy
    reads back its own position.  Cells are overwritten before being read, so ``stamp`` never
    needs clearing.
    """
    position = np.arange(keys.size, dtype=np.int64)
    stamp[keys] = position
    return keys[stamp[keys] == position]


def batches(total: int, nodes: int) -> Iterator[tuple[int, int]]:
    """Split ``total`` simulations into ``(start, size)`` batches of at most BATCH_CELLS cells."""
    size = max(1, BATCH_CELLS // max(nodes, 1))
    for start in range(0, total, size):
        yield start, min(size, total - start)


@dataclass(frozen=True)
class SpreadEstimate:
    r"""A Monte-Carlo estimate of :math:`\sigma(S;G)` and its standard error."""

    spread: float
    stderr: float
    samples: int


def cascade_sizes(
    graph: ICGraph, seeds: npt.ArrayLike, samples: int, rng: np.random.Generator
) -> IntArray:
    r"""Sizes :math:`|\Phi(S)|` of ``samples`` independent cascades from the seed set ``S``."""
    seed_set = check_seed_set(seeds, graph.nodes)
    if isinstance(samples, bool) or int(samples) != samples or samples < 1:
        raise InputError("samples", f"must be a positive integer, got {samples!r}")
    if samples > MAX_SAMPLES:  # checked before allocating one size per cascade
        raise InputError("samples", f"at most {MAX_SAMPLES:.0e} cascades are supported, "
                         f"got {samples}")
    sizes = np.zeros(int(samples), dtype=np.int64)
    V = graph.nodes
    for start, runs in batches(int(samples), V):
        keys = (np.arange(runs, dtype=np.int64)[:, None] * V + seed_set[None, :]).reshape(-1)
        outcome = diffuse(graph, keys, runs, rng)
        sizes[start : start + runs] = np.bincount(outcome.active_keys // V, minlength=runs)
    return sizes


def estimate_spread(
    graph: ICGraph, seeds: npt.ArrayLike, samples: int, rng: np.random.Generator
) -> SpreadEstimate:
    r"""Influence spread :math:`\sigma(S;G)=\mathbb E|\Phi(S)|` by Monte-Carlo, with its error.

    The standard error is the sample standard deviation over :math:`\sqrt R`.
    """
    sizes = cascade_sizes(graph, seeds, samples, rng).astype(np.float64)
    stderr = float(sizes.std(ddof=1) / np.sqrt(sizes.size)) if sizes.size > 1 else float("inf")
    return SpreadEstimate(float(sizes.mean()), stderr, int(sizes.size))
