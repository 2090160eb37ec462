r"""Influence-maximization oracles: RIS/IMM with a stated guarantee, greedy, brute force.

**IMM** (Tang, Shi, Xiao 2015) samples random reverse-reachable (RR) sets: pick a root
:math:`v` uniformly, keep each edge live with probability :math:`p_{uv}` and collect every node
that reaches :math:`v` through live edges.  For any seed set :math:`S`,
:math:`\sigma(S;G) = V \cdot \Pr[S \cap R \ne \emptyset]`, so a greedy maximum coverage of
enough RR sets is a :math:`(1 - 1/e - \varepsilon)`-approximation.  With

.. math::

    \varepsilon' = \sqrt2\,\varepsilon,\quad
    \lambda' = \frac{(2 + \tfrac23\varepsilon')\bigl(\ln\binom Vk + \ln\tfrac{2}{\delta'} +
    \ln\log_2 V\bigr) V}{\varepsilon'^2},\quad
    \lambda^* = \frac{2V\bigl((1-\tfrac1e)a + b\bigr)^2}{\varepsilon^2},

:math:`a = \sqrt{\ln(4/\delta')}`, :math:`b = \sqrt{(1-\frac1e)(\ln\binom Vk + \ln(4/\delta'))}`,
the sampling phase finds a lower bound :math:`LB \le \sigma(S^*)` and the selection phase
uses :math:`\theta = \lambda^*/LB` RR sets; each phase fails with probability at most
:math:`\delta'/2` (IMM's :math:`n^{-\ell}` replaced by :math:`\delta'/2`).  Following Chen's
note on the martingale analysis of IMM (arXiv:1808.09363), the selection phase draws *fresh*
RR sets, independent of those that produced :math:`LB`; this is what makes the stated
guarantee hold.  Hence the oracle declares ``alpha = 1 - 1/e - eps`` with failure probability
``delta_prime``.

Why the sampling phase's sets are not reused (the IMM paper reuses them, which would save
roughly the sampling phase's share of the sets): with reuse, the selection phase's number of
sets :math:`\theta = \lambda^*/LB` is a function of the very sets it is then applied to, while
the selection phase's concentration bound is proved for a number of independent sets fixed in
advance; Chen's note shows that the published argument does not cover this dependence.  A
sound reuse needs a bound that holds simultaneously for every number of sets the sampling
phase can end with (a union bound over its :math:`\lceil\log_2 V\rceil` rounds, splitting
:math:`\delta'`), which changes the constants of :math:`\lambda^*`; those constants are not
re-derived here, so the sets stay fresh and the declared ``(alpha, delta_prime)`` is exactly
the proved one.

RR sets are reverse IC diffusions run by the sparse simulator of
:mod:`~offcmab.reference.im.diffusion` (keys ``set * V + node``, live edges by coins or geometric
skips), so their cost follows the sets' sizes, and greedy maximum coverage updates node
coverage counts with ``bincount`` over the newly covered sets (a Python loop over the ``k``
picks only).

References
----------
``apdx_app:OIM_node`` (the solver ``IM`` of ``line:IM_oracle``), ``eq:def_oracle``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from offcmab.reference.confidence import clip_bound
from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.errors import InputError, check_cardinality, check_probability
from offcmab.reference.im.diffusion import BATCH_ACTIVE, BatchPlan, diffuse
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.ranges import expand_ranges

#: Most RR sets IMM may sample (each holds at least one 8-byte node id and one offset).
MAX_RR_SETS = 10**8


@dataclass(frozen=True)
class RRSets:
    r"""RR sets in CSR layout (set ``j`` owns ``nodes[offsets[j]:offsets[j+1]]``)."""

    nodes_total: int
    offsets: IntArray
    nodes: IntArray

    @property
    def count(self) -> int:
        return int(self.offsets.size - 1)


def sample_rr_sets(reverse: ICGraph, count: int, rng: np.random.Generator) -> RRSets:
    r"""``count`` random RR sets of the graph whose transpose is ``reverse``.

    Each set is a reverse IC diffusion from a uniform root, run by the same sparse simulator as
    forward cascades (:func:`~offcmab.reference.im.diffusion.diffuse`): live edges by coins or
    skips, visited (set, node) keys in a hash set or, for graphs of at most 1024 times the mean
    set size, a bit per cell, so time and memory follow the sets' total size and the edges tried,
    not ``count * V``.
    """
    V = reverse.nodes
    node_parts: list[IntArray] = []
    size_parts: list[IntArray] = []
    plan = BatchPlan(count, V, 1.0)
    for _, runs in plan:
        roots = np.arange(runs, dtype=np.int64) * V + rng.integers(0, V, size=runs)
        keys = diffuse(reverse, roots, runs, rng, store=plan.store(runs)).active_keys
        plan.record(runs, keys.size)
        keys.sort()  # grouped by set, in place
        size_parts.append(np.bincount(keys // V, minlength=runs))
        keys %= V  # the nodes, in place: memory stays about the sets' total size
        node_parts.append(keys)
    nodes = np.concatenate(node_parts) if node_parts else np.zeros(0, dtype=np.int64)
    del node_parts
    offsets = np.zeros(count + 1, dtype=np.int64)
    if size_parts:
        np.cumsum(np.concatenate(size_parts), out=offsets[1:])
    return RRSets(V, offsets, nodes)


def max_coverage(rr: RRSets, k: int) -> tuple[IntArray, float]:
    r"""Greedy maximum coverage of RR sets: ``k`` nodes and the fraction of sets they cover.

    Ties go to the smaller node id; once nothing more can be covered, the remaining picks are
    the smallest unused ids (so exactly ``k`` distinct seeds are always returned).
    """
    greedy = greedy_coverage(rr, k)
    return greedy.seeds, greedy.covered / rr.count if rr.count else 0.0


@dataclass(frozen=True)
class GreedyCoverage:
    r"""Greedy's ``k`` seeds on a collection of RR sets, the sets they cover and, when asked
    for, an upper bound on the most sets any ``k`` nodes cover.

    The bound (``upper``) is :math:`\min_{0 \le i < k}\bigl(\Lambda(S_i) +
    \sum_{v \in \mathrm{top}_k} \Delta(v \mid S_i)\bigr)`, over greedy's prefixes
    :math:`S_i` and the ``k`` largest marginal coverages at each: for any set :math:`T` of
    ``k`` nodes, submodularity gives :math:`\Lambda(T) \le \Lambda(S_i) +
    \sum_{v\in T}\Delta(v \mid S_i)`.  It is at most :math:`\Lambda(S_k)/(1-(1-1/k)^k)`,
    greedy's own certificate, and is a fact about the collection (no probability).
    ``nan`` when not computed.
    """

    seeds: IntArray
    covered: int
    upper: float


def greedy_coverage(rr: RRSets, k: int, upper_bound: bool = False) -> GreedyCoverage:
    r"""Greedy maximum coverage of RR sets, with the upper bound of :class:`GreedyCoverage`
    on the best coverage when ``upper_bound`` (one partial sort of ``V`` counts per pick)."""
    V = rr.nodes_total
    counts = np.bincount(rr.nodes, minlength=V)
    coverage = counts.astype(np.int64)  # a copy: counts stays the CSR layout's sizes
    # The sets containing each node, node after node (sets in increasing order): one sort of
    # the keys node * 2^s + set (several times faster than a stable argsort of the nodes).
    shift = max(rr.count - 1, 0).bit_length()
    sets_by_node = np.repeat(np.arange(rr.count, dtype=np.int64), np.diff(rr.offsets))
    sets_by_node |= rr.nodes << shift
    sets_by_node.sort()
    sets_by_node &= (1 << shift) - 1
    node_offsets = np.zeros(V + 1, dtype=np.int64)
    np.cumsum(counts, out=node_offsets[1:])
    covered = np.zeros(rr.count, dtype=bool)
    chosen = np.zeros(k, dtype=np.int64)
    total, upper = 0, math.inf if upper_bound else math.nan
    for j in range(k):
        if upper_bound:  # Lambda(S_j) + the k largest marginal coverages given S_j
            upper = min(upper, total + _top_sum(coverage, k))
        u = int(np.argmax(coverage))
        chosen[j] = u
        sets = sets_by_node[node_offsets[u] : node_offsets[u + 1]]
        sets = sets[~covered[sets]]
        covered[sets] = True
        total += int(sets.size)
        entries, _ = expand_ranges(rr.offsets[sets], rr.offsets[sets + 1] - rr.offsets[sets])
        members = rr.nodes[entries]
        coverage -= np.bincount(members, minlength=V)
        coverage[chosen[: j + 1]] = -1  # never pick a node twice
    return GreedyCoverage(chosen, total, upper)


def _top_sum(values: IntArray, k: int) -> float:
    """The sum of the ``k`` largest positive entries of ``values`` (integers), from their
    histogram: a partial sort slows down on the many ties of coverage counts."""
    histogram = np.bincount(values[values > 0])
    if histogram.size == 0:
        return 0.0
    count = np.cumsum(histogram[::-1])  # entries of value >= each value, from the top
    last = int(np.searchsorted(count, k))  # the value of the k-th largest, from the top
    if last >= count.size:  # fewer than k positive entries
        return float(np.dot(histogram, np.arange(histogram.size)))
    value = histogram.size - 1 - last
    above = histogram[value + 1 :]
    taken = int(above.sum())
    return float(np.dot(above, np.arange(value + 1, histogram.size))) + (k - taken) * value


def covered_sets(rr: RRSets, seeds: IntArray) -> int:
    r""":math:`\Lambda_R(S)`: how many sets of ``rr`` contain a node of ``seeds``."""
    member = np.zeros(rr.nodes_total, dtype=bool)
    member[seeds] = True
    hits = np.flatnonzero(member[rr.nodes])
    sets = np.searchsorted(rr.offsets, hits, side="right") - 1
    return int(np.count_nonzero(np.diff(sets, prepend=-1)))  # hits are sorted by set


@dataclass(frozen=True)
class IMMResult:
    r"""Seeds chosen by IMM, the RR-set estimate of their spread and the work done."""

    seeds: IntArray
    spread: float
    rr_sets: int
    lower_bound: float


def log_binomial(n: int, k: int) -> float:
    r""":math:`\ln\binom nk`."""
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def rr_set_count(theta: float, who: str = "IMM") -> int:
    r"""``ceil(theta)`` RR sets; beyond :data:`MAX_RR_SETS` (eps or delta' too small) refused,
    naming the algorithm (``who``) that would need them."""
    if not theta <= MAX_RR_SETS:  # also catches inf and NaN
        raise InputError("eps", f"{who} would need {theta:.3g} RR sets, more than the "
                         f"{MAX_RR_SETS:.0e} supported; use a larger eps or delta_prime, or "
                         "a graph with fewer isolated nodes")
    return max(math.ceil(theta), 0)


def selection_rr_sets_floor(nodes: int, edge_mass: float, k: int, eps: float,
                            delta_prime: float) -> float:
    r"""The fewest RR sets IMM's selection phase can draw on a graph of this size.

    The phase draws :math:`2V((1-1/e)a+b)^2/(\varepsilon^2\,LB)` sets with
    :math:`LB \le OPT \le \min(V, k+\sum_e p_e)` (``edge_mass`` is :math:`\sum_e p_e`: each
    edge activates at most one node, with probability at most :math:`p_e`), so this is a
    lower bound on its work, known before any set is drawn (a cost estimate).
    """
    log_fail = -math.log(delta_prime)
    e_factor = 1.0 - 1.0 / math.e
    a = math.sqrt(math.log(4.0) + log_fail)
    b = math.sqrt(e_factor * (log_binomial(nodes, k) + math.log(4.0) + log_fail))
    return 2.0 * nodes * (e_factor * a + b) ** 2 / eps / eps / min(nodes, k + edge_mass)


def imm(
    graph: ICGraph, k: int, eps: float, delta_prime: float, rng: np.random.Generator
) -> IMMResult:
    r"""IMM with fresh selection-phase RR sets: a :math:`(1-1/e-\varepsilon)`-approximation
    with probability at least :math:`1-\delta'` (module docstring)."""
    V = graph.nodes
    k = check_cardinality(k, V)
    if not (0.0 < eps < 1.0 - 1.0 / math.e):
        raise InputError("eps", f"must lie in (0, 1 - 1/e), got {eps!r}")
    delta_prime = check_probability(delta_prime, "delta_prime")
    reverse = graph.reversed()
    log_choose = log_binomial(V, k)
    eps1 = math.sqrt(2.0) * eps
    log_steps = math.log(max(math.log2(V), 1.0))
    log_fail = -math.log(delta_prime)  # log(1/delta') is finite for every float delta' > 0
    lam1 = (2.0 + 2.0 * eps1 / 3.0) * (log_choose + math.log(2.0) + log_fail + log_steps) \
        * V / eps1 / eps1  # inf (then refused) rather than a division by an underflowed 0
    # refuse at once what would be refused after minutes
    rr_set_count(selection_rr_sets_floor(V, float(graph.p.sum()), k, eps, delta_prime))
    e_factor = 1.0 - 1.0 / math.e
    a = math.sqrt(math.log(4.0) + log_fail)
    b = math.sqrt(e_factor * (log_choose + math.log(4.0) + log_fail))
    # Sampling phase: find LB <= OPT (failure <= delta'/2 over all rounds).
    lower = 1.0
    rr = RRSets(V, np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64))
    for i in range(1, max(math.ceil(math.log2(V)), 1)):
        x = V / 2.0**i
        theta = rr_set_count(lam1 / x)
        rr = extend_rr_sets(rr, sample_rr_sets(reverse, theta - rr.count, rng))
        _, fraction = max_coverage(rr, k)
        if V * fraction >= (1.0 + eps1) * x:
            lower = V * fraction / (1.0 + eps1)
            break
    # Selection phase on fresh RR sets (Chen 2018), failure <= delta'/2.
    theta = rr_set_count(2.0 * V * (e_factor * a + b) ** 2 / eps / eps / lower)
    final = sample_rr_sets(reverse, theta, rng)
    seeds, fraction = max_coverage(final, k)
    return IMMResult(seeds, V * fraction, theta, lower)


def extend_rr_sets(rr: RRSets, more: RRSets) -> RRSets:
    """``rr`` followed by ``more`` (one collection)."""
    if more.count <= 0:
        return rr
    offsets = np.concatenate([rr.offsets, more.offsets[1:] + rr.offsets[-1]])
    return RRSets(rr.nodes_total, offsets, np.concatenate([rr.nodes, more.nodes]))


@dataclass(frozen=True)
class IMMOracle:
    r"""The IM solver of ``line:IM_oracle`` as an :class:`~offcmab.reference.oracles.Oracle`.

    Called with a weight vector (one probability per edge of ``structure``, e.g. the LCBs
    :math:`\underline p`), it runs IMM on :math:`\underline G` and returns ``k`` seeds.  Weights
    are clipped to [0, 1] (an unobserved edge's LCB of :math:`-\infty` becomes 0).  Each call
    uses a fresh generator seeded by ``seed``, so equal weights give equal seeds.

    Attributes
    ----------
    alpha
        :math:`1 - 1/e - \varepsilon`, holding with probability at least ``1 - delta_prime``.
    """

    structure: ICGraph
    k: int
    eps: float = 0.1
    delta_prime: float = 0.01
    seed: int = 0

    @property
    def alpha(self) -> float:
        return 1.0 - 1.0 / math.e - self.eps

    def __call__(self, weights: npt.NDArray[np.float64]) -> IntArray:
        w = clip_bound(weights, 0.0, 1.0, undefined=0.0)  # edge probabilities for IMM
        graph = self.structure.with_probabilities(w)
        return self.solve(graph, np.random.default_rng(self.seed))

    def solve(self, graph: ICGraph, rng: np.random.Generator) -> IntArray:
        """The seeds on the weighted graph (IMM; a subclass runs another solver)."""
        return imm(graph, self.k, self.eps, self.delta_prime, rng).seeds


def greedy_monte_carlo(
    graph: ICGraph, k: int, samples: int, rng: np.random.Generator
) -> tuple[IntArray, FloatArray]:
    r"""Plain greedy (Kempe et al. 2003) with Monte-Carlo marginal gains: a baseline.

    Each round simulates ``samples`` cascades from :math:`S \cup \{v\}` for every candidate
    :math:`v` in one vectorized batch and adds the best.  No guarantee is claimed here (the
    Monte-Carlo error is not controlled); use :func:`imm` for that.

    Returns the seeds and the estimated spread after each pick.
    """
    V = graph.nodes
    k = check_cardinality(k, V)
    chosen: list[int] = []
    values = np.zeros(k)
    for j in range(k):
        candidates = np.setdiff1d(np.arange(V), chosen)
        totals = np.zeros(candidates.size)
        per_batch = max(1, BATCH_ACTIVE // (64 * samples * (j + 1)))
        for start in range(0, candidates.size, per_batch):
            block = candidates[start : start + per_batch]
            runs = block.size * samples
            base = np.arange(runs, dtype=np.int64) * V
            extra = np.repeat(block, samples)
            keys = np.concatenate([base + extra] + [base + c for c in chosen])
            outcome = diffuse(graph, keys, runs, rng)
            sizes = np.bincount(outcome.active_keys // V, minlength=runs)
            totals[start : start + block.size] = sizes.reshape(block.size, samples).mean(axis=1)
        best = int(np.argmax(totals))
        chosen.append(int(candidates[best]))
        values[j] = totals[best]
    return np.asarray(chosen, dtype=np.int64), values


__all__ = ["GreedyCoverage", "IMMOracle", "IMMResult", "RRSets", "covered_sets",
           "extend_rr_sets", "greedy_coverage", "greedy_monte_carlo", "imm", "log_binomial",
           "max_coverage", "sample_rr_sets"]
