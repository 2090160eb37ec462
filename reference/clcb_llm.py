r"""CLCB-LLM-C: the offline LLM cache from a log :math:`(\mathcal M_t, q_t, C_t)_{t \le n}`.

Both printed variants share the counters and the cost UCB:

.. math::

    N(q) = \sum_t 1\{q_t = q\}, \quad
    N_c(q) = \sum_t 1\{q_t = q,\ q_t \notin \mathcal M_t\}, \quad
    \hat p(q) = N(q)/n, \quad
    \hat c(q) = \frac{1}{N_c(q)} \sum_t 1\{q_t = q,\ q_t \notin \mathcal M_t\} C_t,

    \bar c(q) = \hat c(q) + \sigma \sqrt{\frac{2 \log(4mn/\delta)}{N_c(q)}}.

``"improved"`` (``alg:CLCB-LLM``, covered by ``thm:LLM_cache_main``) caches the top-k
queries by :math:`\hat p(q) \bar c(q)`; ``"standard"`` (``alg:CLCB-LLM_std``, covered by
the standard lemma) by :math:`\bar p(q) \bar c(q)` with
:math:`\bar p(q) = \hat p(q) + \sqrt{2\log(4mn/\delta)/n}`.

Choices the pseudo-code leaves open, and why they keep the theorems valid:

* The printed radius is the sub-Gaussian radius with variance proxy :math:`\sigma^2 = 1`
  (``sigma=1``, the default).  It also covers costs bounded in :math:`[0, 1]`
  (variance proxy 1/4); for Gaussian noise of standard deviation :math:`s` pass
  ``sigma=s``.
* Queries with :math:`N_c(q) = 0` have :math:`\bar c(q) = +\infty` (reported so).  For
  scoring, with ``clip=True`` (default) every cost UCB is clipped to 1 and every arrival
  UCB to 1 (:func:`~offcmab.reference.confidence.clip_bound`): the model has
  :math:`c(q), p(q) \in [0, 1]`, so the clipped value is still an upper bound and never
  further from the truth, which is all the proofs use (monotonicity and
  :math:`|\bar c - c| \le 2\rho`).  It also avoids :math:`0 \cdot \infty`.
  With ``clip=False`` the printed values are used and a score :math:`0 \cdot \infty`
  (never-arrived, never-observed query) is taken as 0.
* Ties in the top-k are broken toward smaller query ids (:func:`offcmab.reference.oracles.top_k`).

References
----------
``alg:CLCB-LLM`` lines ``line:LLM_counter``, ``line:LLM_empirical_mean``,
``line:LLM_UCB``, ``line:LLM_oracle``; ``alg:CLCB-LLM_std`` lines
``line:LLM_std_counter`` .. ``line:LLM_std_oracle``; ``thm:LLM_cache_main``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from offcmab.reference.certificates import Certificate, Certifier, cache_certifier
from offcmab.reference.confidence import clip_bound, log_over_delta
from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.errors import InputError, check_cardinality, check_probability
from offcmab.reference.oracles import top_k
from offcmab.reference.problems.llm_cache import QueryLog

#: Bound ids covering each variant (``bounds/registry.py``).
THEORY = ("thm3-llm", "lem-llm-std")
THEORY_BY_VARIANT = {"improved": ("thm3-llm",), "standard": ("lem-llm-std",)}

Variant = Literal["improved", "standard"]


@dataclass(frozen=True)
class CacheStatistics:
    r"""Counters of a log: :math:`N(q)`, :math:`N_c(q)` and the observed cost sums."""

    counts: IntArray
    cost_counts: IntArray
    cost_sums: FloatArray

    @property
    def c_hat(self) -> FloatArray:
        r""":math:`\hat c(q)`, ``NaN`` where :math:`N_c(q) = 0`."""
        means = np.full(self.counts.size, np.nan)
        np.divide(self.cost_sums, self.cost_counts, out=means, where=self.cost_counts > 0)
        return means


#: Rounds per block in :func:`cache_statistics`.
_BLOCK = 1 << 20


def cache_statistics(log: QueryLog) -> CacheStatistics:
    r"""Counters by ``bincount`` (no loop over rounds).

    References
    ----------
    ``alg:CLCB-LLM`` line ``line:LLM_counter``.
    """
    counts = np.bincount(log.queries, minlength=log.m).astype(np.int64)
    cost_counts = np.zeros(log.m, dtype=np.int64)
    cost_sums = np.zeros(log.m)
    for start in range(0, log.n, _BLOCK):  # blocks of rounds: small temporaries on big logs
        missed = ~log.hits[start:start + _BLOCK]
        queries = log.queries[start:start + _BLOCK][missed]
        cost_counts += np.bincount(queries, minlength=log.m)
        cost_sums += np.bincount(queries, weights=log.costs[start:start + _BLOCK][missed],
                                 minlength=log.m)
    return CacheStatistics(counts, cost_counts, cost_sums)


@dataclass(frozen=True)
class CLCBLLMResult:
    r"""Output of :func:`clcb_llm`: the cache and every intermediate quantity.

    ``certificate`` bounds the gap of ``cache`` from the log's counters alone, for costs in
    [0, 1] (:func:`offcmab.reference.certificates.cache_certifier`); it follows ``cache``
    when a result is copied with another one.
    """

    cache: IntArray
    counts: IntArray
    cost_counts: IntArray
    p_hat: FloatArray
    c_hat: FloatArray
    c_ucb: FloatArray
    p_ucb: FloatArray
    scores: FloatArray
    certifier: Certifier | None = field(default=None, compare=False, repr=False)

    @property
    def certificate(self) -> Certificate | None:
        """The certificate of :attr:`cache` (``None`` without a certifier)."""
        return None if self.certifier is None else self.certifier(self.cache)


def ucb_radius(counts: IntArray, n: int, m: int, delta: float, sigma: float = 1.0) -> FloatArray:
    r"""Printed radius :math:`\sigma\sqrt{2\log(4mn/\delta)/N}`, ``inf`` where :math:`N = 0`."""
    log_term = log_over_delta((4.0, m, n), check_probability(delta))
    radius = np.full(counts.shape, np.inf)
    seen = counts > 0
    radius[seen] = sigma * np.sqrt(2.0 * log_term / counts[seen])
    return radius


def clcb_llm(
    log: QueryLog,
    k: int,
    delta: float,
    variant: Variant = "improved",
    clip: bool = True,
    sigma: float = 1.0,
) -> CLCBLLMResult:
    r"""Run CLCB-LLM-C and return the cache of ``k`` queries with its statistics.

    Parameters
    ----------
    log
        The offline log.
    k
        Cache size, :math:`1 \le k \le m`.
    delta
        Failure probability in (0, 1).
    variant
        ``"improved"`` (:math:`\hat p \bar c`) or ``"standard"`` (:math:`\bar p \bar c`).
    clip
        Clip the UCBs to 1 for scoring (see the module docstring).
    sigma
        Sub-Gaussian scale of the cost noise; 1 reproduces the printed radius.
    """
    if variant not in THEORY_BY_VARIANT:
        raise InputError("variant", f"must be improved or standard, got {variant!r}")
    if not (np.isfinite(sigma) and sigma > 0):
        raise InputError("sigma", f"must be a positive finite number, got {sigma!r}")
    k = check_cardinality(k, log.m)
    n, m = log.n, log.m
    stats = cache_statistics(log)  # line:LLM_counter (line:LLM_std_counter)
    p_hat = stats.counts / n  # line:LLM_empirical_mean (line:LLM_std_empirical_mean)
    c_hat = stats.c_hat  # line:LLM_empirical_mean (line:LLM_std_empirical_mean)
    c_ucb = np.where(stats.cost_counts > 0, c_hat, np.inf) \
        + ucb_radius(stats.cost_counts, n, m, delta, sigma)  # line:LLM_UCB (line:LLM_std_UCB)
    if variant == "standard":
        p_ucb = p_hat + np.sqrt(2.0 * log_over_delta((4.0, m, n), delta) / n)  # line:LLM_std_UCB
    else:
        p_ucb = p_hat
    c_score = clip_bound(c_ucb, high=1.0) if clip else c_ucb
    p_score = clip_bound(p_ucb, high=1.0) if clip else p_ucb
    with np.errstate(invalid="ignore"):
        scores = np.where(p_score == 0, 0.0, p_score * c_score)
    cache = top_k(scores, k)  # line:LLM_oracle (line:LLM_std_oracle)
    certifier = cache_certifier(stats.counts, stats.cost_counts, c_hat, n, k, delta)
    return CLCBLLMResult(cache, stats.counts, stats.cost_counts, p_hat, c_hat, c_ucb,
                         p_ucb, scores, certifier)
