r"""Search spaces: a box of reals (some integral) decoded into a scenario's instance parameters.

Each upper-bound id gets one :class:`Space`.  A point ``x`` of the box decodes into
the plain ``params`` its scenario reads, a ``delta`` and a dataset size ``n``; every
decoded instance lies within the theorem's model (means and costs in [0, 1], a
probability vector for arrivals and path weights, at least one query outside the
cache, ...).  Whether the theorem's sample-size condition holds is left to the bound
itself (the search treats a failed precondition as a non-candidate).

Sizes that vary (``m``, ``k``, number of paths) are integral coordinates; the
coordinates of items beyond the decoded size are ignored.  Values are rounded
(means to 1e-4, probability vectors to 1e-12) so that a saved instance is the
instance that was evaluated.  ``start`` is a point decoding to a hand-picked
instance that is a candidate (bound applies, not vacuous) where one exists: the
search starts from it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from offcmab.validation.parts.space import Decoded, Space
from offcmab.validation.scenarios.common import rounded
from offcmab.validation.scenarios.im import permuted as permuted_graph
from offcmab.validation.scenarios.im import star_and_chain
from offcmab.validation.scenarios.llm_instances import permuted
from offcmab.validation.scenarios.permutations import moving_permutation

#: Largest number of items (cascade items, queries, paths) a space lets vary.
MAX_ITEMS = 10
MAX_PATHS = 6
DELTAS = (0.01, 0.05, 0.1, 0.2)

class _Box:
    """Collects coordinates while a space is declared, then reads them back by name."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.integral: list[bool] = []

    def add(self, name: str, low: float, high: float, integral: bool = False,
            count: int | None = None) -> None:
        for label in ([name] if count is None else [f"{name}[{j}]" for j in range(count)]):
            self.names.append(label)
            self.lower.append(low)
            self.upper.append(high)
            self.integral.append(integral)

    def space(self, decode: Callable[[np.ndarray], Decoded], start: Sequence[float],
              family: str) -> Space:
        if len(start) != len(self.names):
            raise ValueError(f"start: {len(start)} coordinates for {len(self.names)}")
        return Space(tuple(self.names), tuple(self.lower), tuple(self.upper),
                     tuple(self.integral), decode, tuple(float(s) for s in start), family)


class _Reader:
    """Reads a point coordinate by coordinate, in declaration order."""

    def __init__(self, x: np.ndarray) -> None:
        self.x = np.asarray(x, dtype=float)
        self.at = 0

    def take(self, count: int = 1) -> np.ndarray:
        part = self.x[self.at : self.at + count]
        self.at += count
        return part

    def integer(self) -> int:
        return int(np.rint(self.take()[0]))


def _simplex(raw: np.ndarray) -> list[float]:
    """A probability vector from positive weights (rounded, the last entry closes the sum)."""
    weights = rounded(raw / raw.sum(), 12)
    return [*weights[:-1], 1.0 - sum(weights[:-1])]


def _n_delta(box: _Box, grid: tuple[int, ...]) -> None:
    box.add("n_index", 0, len(grid) - 1, integral=True)
    box.add("delta_index", 0, len(DELTAS) - 1, integral=True)


def _read_n_delta(reader: _Reader, grid: tuple[int, ...]) -> tuple[float, int]:
    n = grid[reader.integer()]
    return DELTAS[reader.integer()], n


# -- Theorem 1: k-path instances ------------------------------------------------------------

KPATH_GRID = (300, 1000, 3000, 10000)


def kpath_space() -> Space:
    r"""k-path: 2-6 paths of 1-4 arms, path means in [0, 1], a path law logging every path."""
    box = _Box()
    box.add("paths", 2, MAX_PATHS, integral=True)
    box.add("k", 1, 4, integral=True)
    box.add("path_mean", 0.0, 1.0, count=MAX_PATHS)
    box.add("path_weight", 0.01, 1.0, count=MAX_PATHS)
    _n_delta(box, KPATH_GRID)

    def decode(x: np.ndarray) -> Decoded:
        reader = _Reader(x)
        paths, k = reader.integer(), reader.integer()
        means = rounded(reader.take(MAX_PATHS)[:paths])
        weights = _simplex(reader.take(MAX_PATHS)[:paths])
        delta, n = _read_n_delta(reader, KPATH_GRID)
        params = {"family": "kpath", "path_means": means, "k": k,
                  "law": {"kind": "paths", "weights": weights}}
        return params, delta, n

    # a good and a poor path, equally logged, n = 10000, delta = 0.05
    start = [2, 4, 0.9, 0.1, *[0.5] * 4, *[1] * MAX_PATHS, 3, 1]
    return box.space(decode, start, "k-path (paths, k, path means, path law)")


# -- Corollary 1: cascades ------------------------------------------------------------------

CASCADE_GRID = (300, 1000, 3000, 10000)
CASCADE_LAWS = ("uniform", "ood", "windows")


def windows(m: int, k: int) -> list[list[int]]:
    """The ``m`` cyclic windows ``[j, j+1, ..., j+k-1] mod m``: every item at every position."""
    return [[(j + i) % m for i in range(k)] for j in range(m)]


def cascade_space() -> Space:
    r"""Cascades: 3-10 items, lists of 1-4, means in [0, 1]; uniform, ood or window-mixture law."""
    box = _Box()
    box.add("m", 3, MAX_ITEMS, integral=True)
    box.add("k", 1, 4, integral=True)
    box.add("mu", 0.0, 1.0, count=MAX_ITEMS)
    box.add("law", 0, len(CASCADE_LAWS) - 1, integral=True)
    box.add("window_weight", 0.01, 1.0, count=MAX_ITEMS)
    _n_delta(box, CASCADE_GRID)

    def decode(x: np.ndarray) -> Decoded:
        reader = _Reader(x)
        m, k = reader.integer(), reader.integer()
        k = min(k, m - 1)
        mu = rounded(reader.take(MAX_ITEMS)[:m])
        kind = CASCADE_LAWS[reader.integer()]
        raw = reader.take(MAX_ITEMS)[:m]
        law: dict[str, Any] = {"kind": kind}
        if kind == "windows":
            law = {"kind": "mixture", "lists": windows(m, k), "weights": _simplex(raw)}
        delta, n = _read_n_delta(reader, CASCADE_GRID)
        return {"family": "cascade", "mu": mu, "k": k, "law": law}, delta, n

    # one good item among four, uniform lists of one, n = 10000, delta = 0.05
    start = [4, 1, 0.9, *[0.1] * (MAX_ITEMS - 1), 0, *[1] * MAX_ITEMS, 3, 1]
    return box.space(decode, start, "cascade (m, k, means, law: uniform, ood or window mixture)")


# -- LLM cache, offline and online ----------------------------------------------------------

CACHE_GRID = (100, 500, 2000, 8000, 32000)  # 100: a few samples per query (many-arms)
#: Online horizons: the regret bound is below T times the largest per-round gap only
#: for T of a few tens of thousands (see the docs' tightness page).
ONLINE_GRID = (40000, 80000)
CACHE_LAWS = ("empty", "random", "ood", "pinned", "rare")
#: Seeds of the relabelling coordinate (a permutation of the ids drawn from each).
RELABEL_SEEDS = 1000
NOISES = ("bernoulli", "uniform")


def _cache_box(box: _Box) -> None:
    box.add("m", 3, MAX_ITEMS, integral=True)
    box.add("k", 1, MAX_ITEMS - 1, integral=True)
    box.add("p_weight", 0.01, 1.0, count=MAX_ITEMS)
    box.add("c", 0.0, 1.0, count=MAX_ITEMS)
    box.add("noise", 0, len(NOISES) - 1, integral=True)


def _read_cache(reader: _Reader) -> dict[str, Any]:
    m, k = reader.integer(), reader.integer()
    p = _simplex(reader.take(MAX_ITEMS)[:m])
    c = rounded(np.round(20 * reader.take(MAX_ITEMS)[:m]) / 20)  # 0.05 steps: ties, 0 and 1
    noise = NOISES[reader.integer()]
    return {"p": p, "c": c, "k": min(k, m - 1), "noise": noise}


def _cache_start(p: Sequence[float], c: Sequence[float], k: int) -> list[float]:
    """The cache coordinates of a hand-picked instance (unused items padded)."""
    pad = MAX_ITEMS - len(p)
    return [len(p), k, *p, *[0.01] * pad, *c, *[0.0] * pad, 0]


def _logged_law(kind: str, params: dict[str, Any], size: int, rare_nu: float
                ) -> dict[str, Any]:
    """The logging law ``kind`` of a cache instance (``size``: logged cache size or how
    many queries the explicit laws hold).

    ``pinned``: the ``size`` (at least 1) optimal queries of largest :math:`p(q)c(q)` sit in
    every logged cache, so their costs are never observed; ``rare``: the ``size`` queries
    outside the optimal cache of largest :math:`p(q)c(q)` sit in the logged cache but in a
    fraction ``rare_nu`` of rounds.
    """
    m, k = len(params["p"]), params["k"]
    if kind == "random":
        return {"kind": kind, "size": min(size, m - 1)}
    if kind not in ("pinned", "rare"):
        return {"kind": kind}
    order = np.argsort(-np.asarray(params["p"]) * np.asarray(params["c"]), kind="stable")
    if kind == "pinned":
        pinned = sorted(int(q) for q in order[:max(1, min(size, k))])
        return {"kind": "explicit", "caches": [pinned], "weights": [1.0]}
    hidden = sorted(int(q) for q in order[k:k + max(1, min(size, m - k))])
    return {"kind": "explicit", "caches": [hidden, []], "weights": [1.0 - rare_nu, rare_nu]}


def _relabeled(params: dict[str, Any], seed: int) -> dict[str, Any]:
    """``params`` with the ids relabelled by the permutation drawn from ``seed``."""
    labels = moving_permutation(len(params["p"]), np.random.default_rng(seed))
    return permuted(params, labels)


def cache_space() -> Space:
    r"""Offline LLM cache: 3-10 queries, arrivals, costs, cache size, noise, logging law
    (empty, random, out-of-distribution, optimal queries never observed, queries outside
    the optimum rarely observed), the ids relabelled by a seeded permutation."""
    box = _Box()
    _cache_box(box)
    box.add("law", 0, len(CACHE_LAWS) - 1, integral=True)
    box.add("logged_size", 0, MAX_ITEMS - 1, integral=True)
    box.add("rare_nu", 0.02, 0.25)
    box.add("relabel", 0, RELABEL_SEEDS - 1, integral=True)
    _n_delta(box, CACHE_GRID)

    def decode(x: np.ndarray) -> Decoded:
        reader = _Reader(x)
        params = _read_cache(reader)
        kind = CACHE_LAWS[reader.integer()]
        size = reader.integer()
        rare_nu = round(float(reader.take()[0]), 3)
        seed = reader.integer()
        params = _relabeled(params | {"law": _logged_law(kind, params, size, rare_nu)}, seed)
        delta, n = _read_n_delta(reader, CACHE_GRID)
        return params, delta, n

    # one frequent costly query among three, empty logged caches, n = 32000, delta = 0.05
    start = [*_cache_start([0.8, 0.1, 0.1], [1.0, 0.1, 0.1], 1), 0, 0, 0.1, 0, 4, 1]
    return box.space(decode, start, "LLM cache (m, k, arrivals, costs, noise, logging law "
                                    "incl. unobserved and rarely observed queries, ids)")


def online_space() -> Space:
    r"""Online LLM cache: the offline space without a logging law, horizons ``ONLINE_GRID``,
    the ids relabelled by a seeded permutation."""
    box = _Box()
    _cache_box(box)
    box.add("relabel", 0, RELABEL_SEEDS - 1, integral=True)
    _n_delta(box, ONLINE_GRID)

    def decode(x: np.ndarray) -> Decoded:
        reader = _Reader(x)
        params = _read_cache(reader) | {"law": {"kind": "empty"}}
        params = _relabeled(params, reader.integer())
        delta, n = _read_n_delta(reader, ONLINE_GRID)
        return params, delta, n

    # one very frequent costly query among three, T = 40000, delta = 0.2
    start = [*_cache_start([1.0, 0.01, 0.01], [1.0, 0.5, 0.5], 1), 0, 0, 3]
    return box.space(decode, start, "LLM cache, online (m, k, arrivals, costs, noise, ids)")


# -- Theorem 4: influence maximization with node-level feedback -----------------------------

IM_GRID = (45000, 60000)
IM_DELTAS = (0.05, 0.1)


def im_space() -> Space:
    r"""The six-node star-and-chain graph (node 2 has two parents): edge probabilities, seed
    law ``q`` (0 and 1 allowed: a node never or always seeded leaves its out-edges
    unobserved), ``k``, the node ids relabelled by a seeded permutation."""
    graph = star_and_chain()
    edges, nodes = len(graph["p"]), graph["nodes"]
    box = _Box()
    box.add("edge_p", 0.05, 1.0, count=edges)
    box.add("q", 0.0, 1.0, count=nodes)
    box.add("k", 1, 2, integral=True)
    box.add("relabel", 0, RELABEL_SEEDS - 1, integral=True)
    box.add("n_index", 0, len(IM_GRID) - 1, integral=True)
    box.add("delta_index", 0, len(IM_DELTAS) - 1, integral=True)

    def decode(x: np.ndarray) -> Decoded:
        reader = _Reader(x)
        p, q = rounded(reader.take(edges), 2), rounded(reader.take(nodes), 2)
        k = reader.integer()
        labels = moving_permutation(nodes, np.random.default_rng(reader.integer()))
        n, delta = IM_GRID[reader.integer()], IM_DELTAS[reader.integer()]
        return permuted_graph(graph | {"p": p, "q": q, "k": k}, labels), delta, n

    start = [*graph["p"], *graph["q"], graph["k"], 0, 0, 0]  # the node-level IM scenario's graph
    return box.space(decode, start, "influence maximization on the star-and-chain graph "
                                    "(edge probabilities, seed law, k, node ids)")
