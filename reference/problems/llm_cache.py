r"""The LLM cache bandit: arrival laws, cost noise, cache-collecting laws and the log type.

There are :math:`m` distinct queries.  Query :math:`q` arrives with probability
:math:`p(q)` (:math:`\sum_q p(q) = 1`) and, when it misses the cache, costs a random
:math:`C_t(q)` with mean :math:`c(q) \in [0, 1]`.  A cache :math:`\mathcal M` holds
:math:`k` queries and has expected cost

.. math::

    c(\mathcal M; \mathbf c, \mathbf p) = \sum_{q \notin \mathcal M} p(q)\, c(q),

minimised by the top-:math:`k` queries by :math:`p(q) c(q)` (ties toward smaller ids).
Caches are stored as ``int64`` arrays of query ids.  The paper's super arm is the
complement :math:`S = \mathcal Q - \mathcal M`; here every function takes the cache.

Two CMAB-T views feed the theory checker (:mod:`offcmab.bounds.coefficients`):

* standard view (``apdx_sec:app_LLM_cache_std``): :math:`2m` base arms, the costs
  :math:`c(q)` (ids ``0..m-1``) then the arrival probabilities :math:`p(q)` (ids
  ``m..2m-1``).  :math:`p^{D_{arm},S}_{q,c} = p(q) 1\{q \notin \mathcal M\}`,
  :math:`p^{D_{arm},S}_{q,p} = 1`; with the data law,
  :math:`p^{D_{arm},D_S}_{q,c} = p(q)\nu(q)` and :math:`p^{D_{arm},D_S}_{q,p} = 1`.
* improved view (the vector-valued concentration subsection): the :math:`m` cost arms
  plus one full-feedback vector arm (id ``m``, triggered with probability 1).  The
  paper's improved :math:`C_1^* = \sum_{q \notin \mathcal M^*} 1/\nu(q)` counts only
  the cost arms; the vector arm is handled by its own event :math:`\mathcal E_{arv}`.

:math:`\nu(q) = \Pr_{\mathcal M \sim D_S}[q \notin \mathcal M]` is exact for every
cache law here.

Arrival laws: Zipf (:func:`zipf_probabilities`) and the "power-law" request sampler of
Zhu et al.'s released code (:func:`sample_power_queries`, exact law
:func:`power_probabilities`).  The paper's Figure 3 ("a power-law frequency distribution
(alpha = 0.9) as in Zhu et al.") means the latter, which is close to uniform (largest over
smallest probability 1.76 for m = 100), not a Zipf law (ratio 100^0.9 = 63 for m = 100).
Both list the queries from the commonest down unless given ``labels``
(:func:`relabel`): the reproductions renumber the queries at random in every trial, so
that tie-breaking toward smaller ids cannot pick popular queries for free.

References
----------
``app:LLM_cache``, ``apdx_sec:app_LLM_cache_std``, ``thm:LLM_cache_main``;
Zhu et al. (2023), "Optimal caching and model multiplexing for large model inference",
released code ``inferband/trace.py`` (the power-law request sampler).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, Literal, Protocol

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import (
    FloatArray,
    IntArray,
    _as_int_array,
    _check_distinct_per_sample,
    _check_ids,
    _check_offsets,
    as_real_array,
    offsets_from_lengths,
)
from offcmab.reference.errors import InputError, check_cardinality, check_dense, check_size
from offcmab.reference.oracles import top_k

View = Literal["standard", "improved"]
CostNoise = Literal["bernoulli", "uniform", "gaussian", "none"]

#: Tolerance on ``sum(p) == 1`` (floating-point rounding of user input).
SUM_TOLERANCE = 1e-9


def _check_vector(values: npt.ArrayLike, field: str, m: int | None = None) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or array.size == 0:
        raise InputError(field, f"must be a non-empty flat array, got shape {array.shape}")
    if m is not None and array.size != m:
        raise InputError(field, f"must have {m} entries, got {array.size}")
    if not np.all(np.isfinite(array)):
        raise InputError(field, "must be finite (no NaN or infinity)")
    if np.any(array < 0) or np.any(array > 1):
        raise InputError(field, "entries must lie in [0, 1]")
    return array


def _cache_mask(cache: npt.ArrayLike, m: int) -> npt.NDArray[np.bool_]:
    ids = _as_int_array(np.asarray(cache).reshape(-1), "cache")
    _check_ids(ids, m, "cache")
    if np.unique(ids).size != ids.size:
        raise InputError("cache", "lists a query more than once")
    mask = np.zeros(m, dtype=bool)
    mask[ids] = True
    return mask


# --------------------------------------------------------------------------- arrival laws


def check_labels(labels: npt.ArrayLike, m: int, field: str = "labels") -> IntArray:
    """Return ``labels`` as ``int64`` ids, rejecting anything but a permutation of ``0..m-1``."""
    array = np.asarray(labels)
    ids = _as_int_array(array.reshape(-1), field)
    if array.ndim != 1 or ids.size != m or not np.array_equal(np.sort(ids), np.arange(m)):
        raise InputError(field, f"must be a permutation of 0..{m - 1}")
    return ids


def relabel(ranked: FloatArray, labels: npt.ArrayLike | None) -> FloatArray:
    r"""Give the ``i``-th entry of ``ranked`` the id ``labels[i]`` (``None``: keep the order).

    The generators below list their queries from the commonest down, so query 0 is the
    most popular, and an algorithm that breaks ties toward smaller ids picks popular
    queries without any data.  Pass ``labels=rng.permutation(m)``, drawn from the trial's
    seed, to present the same law under a uniformly random numbering, so that ids carry no
    information.  A relabelling changes no coverage coefficient and no bound.
    """
    if labels is None:
        return ranked
    out = np.empty_like(ranked)
    out[check_labels(labels, ranked.size)] = ranked
    return out


def zipf_probabilities(m: int, alpha: float, labels: npt.ArrayLike | None = None
                       ) -> FloatArray:
    r"""Zipf law :math:`p(q_i) \propto i^{-\alpha}`, :math:`i = 1..m`.

    Query 0 is the commonest unless ``labels`` renumbers the queries (:func:`relabel`).
    """
    if not np.isfinite(alpha) or alpha < 0:
        raise InputError("alpha", f"must be a finite number >= 0, got {alpha!r}")
    weights = np.arange(1, check_cardinality(m, m, "m") + 1, dtype=np.float64) ** -alpha
    return relabel(weights / weights.sum(), labels)


def power_probabilities(m: int, alpha: float, labels: npt.ArrayLike | None = None
                        ) -> FloatArray:
    r"""Exact query law of Zhu et al.'s "power-law" sampler ``floor(m * power(alpha))``.

    ``numpy``'s power distribution has CDF :math:`x^\alpha` on :math:`[0, 1]`, so query
    :math:`i` has probability :math:`((i+1)/m)^\alpha - (i/m)^\alpha`.  For
    :math:`\alpha < 1` query 0 is the commonest, but the law is close to uniform: for
    :math:`m = 100, \alpha = 0.9` the ratio of largest to smallest probability is
    :math:`0.01^{0.9} / (1 - 0.99^{0.9}) \approx 1.76`.  ``labels`` renumbers the
    queries (:func:`relabel`); pass the same ``labels`` to :func:`sample_power_queries`.
    """
    if not np.isfinite(alpha) or alpha <= 0:
        raise InputError("alpha", f"must be a finite number > 0, got {alpha!r}")
    edges = (np.arange(check_cardinality(m, m, "m") + 1, dtype=np.float64) / m) ** alpha
    return relabel(np.diff(edges), labels)


def sample_power_queries(m: int, alpha: float, n: int, rng: np.random.Generator,
                         labels: npt.ArrayLike | None = None) -> IntArray:
    r"""Zhu et al.'s request sampler with a ``Generator``: ``floor(m * rng.power(alpha, n))``.

    Their code (``inferband/trace.py``) computes ``(np.random.power(alpha, n) *
    num_query).astype(int)``; the draw 1.0 (probability zero) is mapped to ``m - 1``.
    With ``labels`` the query of popularity rank ``i`` is reported as ``labels[i]``, so the
    draws follow ``power_probabilities(m, alpha, labels)``.
    """
    draws = rng.power(alpha, size=n)
    ranks = np.minimum((draws * m).astype(np.int64), m - 1)
    return ranks if labels is None else check_labels(labels, m)[ranks]


def sample_queries(p: FloatArray, n: int, rng: np.random.Generator) -> IntArray:
    r"""``n`` i.i.d. queries from the categorical law ``p`` (inverse CDF, vectorized)."""
    cdf = np.cumsum(p)
    return np.minimum(np.searchsorted(cdf, rng.random(n) * cdf[-1], side="right"),
                      p.size - 1).astype(np.int64)


# --------------------------------------------------------------------------- cost noise


def sample_costs(
    means: FloatArray, rng: np.random.Generator, noise: CostNoise = "bernoulli",
    sigma: float = 1.0,
) -> FloatArray:
    r"""One random cost per entry of ``means`` (the mean cost of each missed query).

    ``"bernoulli"``: :math:`C \sim \mathrm{Bernoulli}(c)`.
    ``"uniform"``: :math:`C \sim U[c - w, c + w]`, :math:`w = \min(c, 1 - c)`: bounded in
    :math:`[0, 1]` with mean :math:`c`.
    ``"gaussian"``: :math:`C = c + \sigma Z`, :math:`Z \sim N(0, 1)`: sub-Gaussian with
    variance proxy :math:`\sigma^2` and unbounded (the paper's noise model
    :math:`C_t(q) = c(q) + \epsilon_t(q)`).
    ``"none"``: :math:`C = c` (deterministic costs, e.g. token counts of a fixed prompt).
    """
    if noise == "none":
        return means.astype(np.float64, copy=True)
    if noise == "bernoulli":
        return (rng.random(means.size) < means).astype(np.float64)
    if noise == "uniform":
        half = np.minimum(means, 1.0 - means)
        return means + half * (2.0 * rng.random(means.size) - 1.0)
    if noise == "gaussian":
        return means + sigma * rng.standard_normal(means.size)
    raise InputError("noise", f"must be bernoulli, uniform, gaussian or none, got {noise!r}")


# --------------------------------------------------------------------------- the problem


@dataclass(frozen=True)
class LLMCacheProblem:
    r"""An LLM cache instance: arrival law ``p``, mean costs ``c`` and cache size ``k``.

    Attributes
    ----------
    p
        Arrival probabilities :math:`p(q)`, non-negative, summing to 1.
    c
        Mean costs :math:`c(q) \in [0, 1]`.
    k
        Cache size, :math:`1 \le k \le m`.
    """

    p: FloatArray
    c: FloatArray
    k: int

    def __post_init__(self) -> None:
        p = _check_vector(self.p, "p")
        if abs(p.sum() - 1.0) > SUM_TOLERANCE:
            raise InputError("p", f"must sum to 1, sums to {float(p.sum())!r}")
        object.__setattr__(self, "p", p)
        object.__setattr__(self, "c", _check_vector(self.c, "c", p.size))
        object.__setattr__(self, "k", check_cardinality(self.k, p.size))

    @property
    def m(self) -> int:
        """Number of distinct queries."""
        return int(self.p.size)

    @property
    def smoothness_B1(self) -> float:
        r""":math:`B_1 = 1` (``apdx_eq:LLM_cache_TPM_smooth``)."""
        return 1.0

    def expected_cost(self, cache: npt.ArrayLike, p: npt.ArrayLike | None = None,
                      c: npt.ArrayLike | None = None) -> float:
        r""":math:`c(\mathcal M; \mathbf c, \mathbf p) = \sum_{q \notin \mathcal M} p(q) c(q)`."""
        pp = self.p if p is None else np.asarray(p, dtype=np.float64)
        cc = self.c if c is None else np.asarray(c, dtype=np.float64)
        outside = ~_cache_mask(cache, self.m)
        return float(np.sum(pp[outside] * cc[outside]))

    def optimal_cache(self) -> IntArray:
        r"""The top-:math:`k` queries by :math:`p(q)c(q)`, ties toward smaller ids."""
        return top_k(self.p * self.c, self.k)

    def optimal_cost(self) -> float:
        r""":math:`c(\mathcal M^*)`."""
        return self.expected_cost(self.optimal_cache())

    def gap(self, cache: npt.ArrayLike) -> float:
        r"""Suboptimality :math:`c(\hat{\mathcal M}) - c(\mathcal M^*) \ge 0`."""
        return self.expected_cost(cache) - self.optimal_cost()

    def trigger_probabilities(self, cache: npt.ArrayLike, view: View = "standard") -> FloatArray:
        r""":math:`p^{D_{arm},S}` of the super arm :math:`S = \mathcal Q - \mathcal M`.

        Standard view: length :math:`2m` (cost arms, then arrival arms, all 1).
        Improved view: length :math:`m + 1` (cost arms, then the vector arm, 1).
        """
        cost_arms = self.p * ~_cache_mask(cache, self.m)
        return np.concatenate([cost_arms, np.ones(self.m if view == "standard" else 1)])

    def data_trigger_probabilities(self, law: CacheLaw, view: View = "standard") -> FloatArray:
        r""":math:`p^{D_{arm},D_S}`: :math:`p(q)\nu(q)` for cost arms, 1 for arrival arm(s)."""
        cost_arms = self.p * law.nu()
        return np.concatenate([cost_arms, np.ones(self.m if view == "standard" else 1)])

    def nu_inv_sum(self, law: CacheLaw) -> float:
        r""":math:`\sum_{q \notin \mathcal M^*} 1/\nu(q)` (``inf`` if some :math:`\nu(q) = 0`)."""
        outside = ~_cache_mask(self.optimal_cache(), self.m)
        nu = law.nu()[outside]
        return float("inf") if np.any(nu == 0) else float(np.sum(1.0 / nu))

    def min_data_probability(self, law: CacheLaw) -> float:
        r""":math:`p^* = \min_{q \notin \mathcal M^*} p(q)\nu(q)` (the theorems' condition on n)."""
        outside = ~_cache_mask(self.optimal_cache(), self.m)
        return float(np.min((self.p * law.nu())[outside])) if np.any(outside) else 1.0


# --------------------------------------------------------------------------- cache laws


class CacheLaw(Protocol):
    r"""A data-collecting distribution :math:`D_S` over caches (exact :math:`\nu`)."""

    #: True: ``nu`` is exact (every law in this module).
    exact: ClassVar[bool]

    @property
    def m(self) -> int:
        """Number of queries."""
        ...

    def nu(self) -> FloatArray:
        r""":math:`\nu(q) = \Pr[q \notin \mathcal M]` for every query."""
        ...

    def sample(self, n: int, rng: np.random.Generator) -> tuple[IntArray, IntArray]:
        """``n`` caches in CSR layout: ``(offsets, ids)``."""
        ...


@dataclass(frozen=True)
class EmptyCaches:
    r"""Every logged cache is empty, so :math:`\nu \equiv 1` (Zhu et al.'s offline setting)."""

    exact: ClassVar[bool] = True

    m: int

    def nu(self) -> FloatArray:
        return np.ones(self.m)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[IntArray, IntArray]:
        return np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class UniformRandomCaches:
    r"""Caches drawn uniformly among the subsets of a fixed ``size``: :math:`\nu = 1 - s/m`."""

    exact: ClassVar[bool] = True

    m: int
    size: int

    def __post_init__(self) -> None:
        if isinstance(self.size, bool) or int(self.size) != self.size \
                or not 0 <= self.size <= self.m:
            raise InputError("size", f"must be an integer in [0, {self.m}], got {self.size!r}")

    def nu(self) -> FloatArray:
        return np.full(self.m, 1.0 - self.size / self.m)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[IntArray, IntArray]:
        # The first `size` entries of each row's random permutation (argsort of uniforms).
        ids = np.argsort(rng.random((n, self.m)), axis=1)[:, : self.size]
        return np.arange(n + 1, dtype=np.int64) * self.size, ids.reshape(-1).astype(np.int64)


@dataclass(frozen=True)
class ExplicitCacheLaw:
    r"""Any finite law: cache ``caches[j]`` with probability ``probabilities[j]``.

    :math:`\nu(q) = 1 - \sum_j \Pr[\mathcal M_j]\, 1\{q \in \mathcal M_j\}`, exactly.
    """

    exact: ClassVar[bool] = True

    m: int
    caches: tuple[tuple[int, ...], ...]
    probabilities: FloatArray

    def __post_init__(self) -> None:
        probabilities = _check_vector(self.probabilities, "probabilities", len(self.caches))
        if abs(probabilities.sum() - 1.0) > SUM_TOLERANCE:
            raise InputError("probabilities",
                             f"must sum to 1, sums to {float(probabilities.sum())!r}")
        for cache in self.caches:
            _cache_mask(np.asarray(cache, dtype=np.int64), self.m)
        object.__setattr__(self, "probabilities", probabilities)
        object.__setattr__(self, "caches", tuple(tuple(int(q) for q in c) for c in self.caches))

    def nu(self) -> FloatArray:
        inside = np.zeros(self.m)
        for cache, probability in zip(self.caches, self.probabilities, strict=True):
            inside[list(cache)] += probability
        return np.clip(1.0 - inside, 0.0, 1.0)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[IntArray, IntArray]:
        choice = sample_queries(self.probabilities, n, rng)
        lengths = np.array([len(c) for c in self.caches], dtype=np.int64)
        flat = np.array([q for c in self.caches for q in c], dtype=np.int64)
        starts = offsets_from_lengths(lengths)[:-1]
        offsets = offsets_from_lengths(lengths[choice])
        position = np.arange(offsets[-1]) - np.repeat(offsets[:-1], lengths[choice])
        return offsets, flat[np.repeat(starts[choice], lengths[choice]) + position]


# --------------------------------------------------------------------------- the log


@dataclass(frozen=True)
class CacheLog:
    r"""An offline LLM cache log :math:`(\mathcal M_t, q_t, C_t)_{t \le n}` in flat arrays.

    Attributes
    ----------
    m
        Number of queries; ids lie in ``[0, m)``.
    cache_offsets, caches
        CSR layout: round ``t`` used cache ``caches[cache_offsets[t]:cache_offsets[t+1]]``.
    queries
        :math:`q_t`, length ``n``.
    costs
        :math:`C_t`, ``NaN`` exactly where :math:`q_t \in \mathcal M_t` (a hit: unobserved).
    bounded
        When True, observed costs must lie in :math:`[0, 1]`; otherwise any finite value
        (sub-Gaussian noise) is accepted.
    """

    m: int
    cache_offsets: IntArray
    caches: IntArray
    queries: IntArray
    costs: FloatArray
    bounded: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "m", check_size(self.m, "queries"))
        queries, costs = _checked_rounds(self.m, self.queries, self.costs)
        caches = _as_int_array(self.caches, "cache")
        offsets = _as_int_array(self.cache_offsets, "cache_offsets")
        if offsets.size != queries.size + 1:
            raise InputError("cache_offsets", f"must have n + 1 = {queries.size + 1} entries, "
                             f"got {offsets.size}")
        _check_offsets(offsets, caches.size, "cache_offsets")
        _check_ids(caches, self.m, "cache")
        check_dense(self.m, queries.size + caches.size, "queries")
        _check_distinct_per_sample(caches, offsets, "cache")
        object.__setattr__(self, "queries", queries)
        object.__setattr__(self, "caches", caches)
        object.__setattr__(self, "cache_offsets", offsets)
        object.__setattr__(self, "costs", costs)
        _check_costs(costs, self.hits, self.bounded)

    @property
    def n(self) -> int:
        """Number of rounds."""
        return int(self.queries.size)

    @cached_property
    def hits(self) -> npt.NDArray[np.bool_]:
        r""":math:`1\{q_t \in \mathcal M_t\}` per round (vectorized over the CSR layout)."""
        return cache_hits(self.cache_offsets, self.caches, self.queries)


def _checked_rounds(m: int, queries: npt.ArrayLike, costs: npt.ArrayLike
                    ) -> tuple[IntArray, FloatArray]:
    """The per-round queries (non-empty, ids below ``m``) and costs (one per round)."""
    query_ids = _as_int_array(queries, "query")
    if query_ids.size == 0:
        raise InputError("data", "the log is empty")
    _check_ids(query_ids, m, "query")
    cost_values = as_real_array(costs, "cost")
    if cost_values.shape != query_ids.shape:
        raise InputError("cost", f"must have the shape of the queries {query_ids.shape}, got "
                                 f"shape {cost_values.shape}")
    return query_ids, cost_values


def _check_costs(costs: FloatArray, hits: npt.NDArray[np.bool_], bounded: bool) -> None:
    """Costs null exactly on hits; observed ones finite, and in [0, 1] when ``bounded``."""
    unobserved = np.isnan(costs)
    if not np.array_equal(unobserved, hits):
        t = int(np.flatnonzero(unobserved != hits)[0])
        raise InputError("cost", f"round {t}: must be null exactly when the query is in the "
                         "cache")
    _check_observed_costs(costs, bounded)


def _check_observed_costs(costs: FloatArray, bounded: bool) -> None:
    """Observed (non-NaN) costs finite, and in [0, 1] when ``bounded``."""
    if np.isnan(costs).all():
        return
    # fmin/fmax skip NaN (the hits), so no copy of the observed costs is made; inf shows here
    low, high = np.fmin.reduce(costs), np.fmax.reduce(costs)
    if not (np.isfinite(low) and np.isfinite(high)):
        raise InputError("cost", "observed costs must be finite")
    if bounded and (low < 0 or high > 1):
        raise InputError("cost", "observed costs must lie in [0, 1] (or pass bounded=False)")


@dataclass(frozen=True)
class HitLog:
    r"""A cache log without its caches: per round the query :math:`q_t` and :math:`C_t`.

    What the offline algorithms (CLCB-LLM-C, LFU, LEC) use of a :class:`CacheLog`: the
    counts come from the queries, and a round was a hit exactly when its cost is ``NaN``
    (unobserved), so the caches themselves are not needed.  Reading a large log this way
    skips its largest array (:func:`offcmab.reference.problems.llm_cache_io.read_cache_log` with
    ``caches=False``); the costs' consistency with the caches is then not checked.

    Attributes
    ----------
    m, queries, costs, bounded
        As in :class:`CacheLog`.
    """

    m: int
    queries: IntArray
    costs: FloatArray
    bounded: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "m", check_size(self.m, "queries"))
        queries, costs = _checked_rounds(self.m, self.queries, self.costs)
        object.__setattr__(self, "queries", queries)
        object.__setattr__(self, "costs", costs)
        _check_observed_costs(costs, self.bounded)  # hits are the NaN costs by definition

    @property
    def n(self) -> int:
        """Number of rounds."""
        return int(self.queries.size)

    @cached_property
    def hits(self) -> npt.NDArray[np.bool_]:
        r""":math:`1\{q_t \in \mathcal M_t\}` per round: the rounds whose cost is unobserved."""
        return np.isnan(self.costs)


#: What the offline cache algorithms read: a full log or one without its caches.
QueryLog = CacheLog | HitLog


def cache_hits(offsets: IntArray, caches: IntArray, queries: IntArray) -> npt.NDArray[np.bool_]:
    r""":math:`1\{q_t \in \mathcal M_t\}` for caches in CSR layout, without a loop over rounds."""
    size = int(offsets[1] - offsets[0]) if offsets.size > 1 else 0
    if caches.size == size * queries.size and np.all(np.diff(offsets) == size):
        # caches of one size (the usual log): a rounds x size table, no index arrays
        return (caches.reshape(queries.size, size) == queries[:, None]).any(axis=1)
    rounds = np.repeat(np.arange(queries.size), np.diff(offsets))
    hit = np.zeros(queries.size, dtype=bool)
    hit[rounds[caches == queries[rounds]]] = True
    return hit


def sample_log(
    problem: LLMCacheProblem,
    law: CacheLaw,
    n: int,
    rng: np.random.Generator,
    noise: CostNoise = "bernoulli",
    sigma: float = 1.0,
    queries: IntArray | None = None,
) -> CacheLog:
    r"""Draw a log of ``n`` rounds: caches from ``law``, queries from ``problem.p``
    (or the given ``queries``, e.g. from :func:`sample_power_queries`), costs by ``noise``."""
    if n < 1:
        raise InputError("n", f"must be at least 1, got {n}")
    offsets, caches = law.sample(n, rng)
    if queries is None:
        queries = sample_queries(problem.p, n, rng)
    costs = sample_costs(problem.c[queries], rng, noise, sigma)
    costs[cache_hits(offsets, caches, queries)] = np.nan
    return CacheLog(problem.m, offsets, caches, queries, costs, bounded=noise != "gaussian")
