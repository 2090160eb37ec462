r"""OPIM-C: influence maximization that stops as soon as its RR sets prove the guarantee.

Tang, Tang, Xiao and Yuan, *Online Processing Algorithms for Influence Maximization*
(SIGMOD 2018), Algorithm 2 (OPIM-C), with the greedy upper bound of their Section 4.

**What it promises.**  For a graph with :math:`V` nodes, ``k`` seeds, slack
:math:`\varepsilon \in (0, 1-1/e)` and failure probability :math:`\delta`, the returned seeds
satisfy :math:`\sigma(S^*) \ge (1 - 1/e - \varepsilon)\,\mathrm{OPT}_k` with probability at
least :math:`1 - \delta` (over the oracle's own randomness), the same promise as
:func:`~offcmab.reference.im.oracles.imm` at :math:`\delta' = \delta`.

**How.**  Two independent collections of random RR sets: :math:`\mathcal R_1` to choose
seeds (greedy maximum coverage) and :math:`\mathcal R_2` to check them.  Round
:math:`i = 1, \dots, i_{\max}` holds :math:`\theta_i = \theta_0 2^{i-1}` sets in each
(doubling, sizes fixed in advance) and computes, with :math:`a = \ln(3 i_{\max}/\delta)`:

.. math::

    \sigma^l(S^*) = \Bigl(\bigl(\sqrt{\Lambda_2(S^*) + 2a/9} - \sqrt{a/2}\bigr)^2 -
    \frac{a}{18}\Bigr)\frac{V}{\theta_i},\qquad
    \sigma^u(S^\circ) = \Bigl(\sqrt{\Lambda_1^u + a/2} + \sqrt{a/2}\Bigr)^2\frac{V}{\theta_i},

where :math:`\Lambda_2(S^*)` counts the sets of :math:`\mathcal R_2` that greedy's seeds
cover and :math:`\Lambda^u_1` bounds the most sets of :math:`\mathcal R_1` any ``k`` nodes
cover (:class:`~offcmab.reference.im.oracles.GreedyCoverage`).  It stops when
:math:`\sigma^l(S^*)/\sigma^u(S^\circ) \ge 1 - 1/e - \varepsilon`.

**Why the failure probability is** :math:`\delta`.  The two formulas invert the martingale
tails of IMM (Tang, Shi and Xiao 2015, Corollaries 1 and 2) for a *fixed* number of sets
and a *fixed* seed set: for :math:`\mathcal R_2` and :math:`S^*` (chosen on
:math:`\mathcal R_1`, independent of :math:`\mathcal R_2`),
:math:`\Pr[\sigma(S^*) < \sigma^l(S^*)] \le \delta/(3 i_{\max})`; for an optimal set
:math:`S^\circ` (fixed, unknown) and :math:`\mathcal R_1`,
:math:`\Pr[\mathrm{OPT} > \sigma^u(S^\circ)] \le \delta/(3 i_{\max})` since
:math:`\Lambda_1(S^\circ) \le \Lambda_1^u`.  A union bound covers both bounds of
every one of the :math:`i_{\max}` rounds.  If no round stops early, the last one holds
:math:`\theta_{i_{\max}} \ge \theta_{\max}` sets, with

.. math::

    \theta_{\max} = \frac{2V\bigl((1-1/e)\sqrt{\ln(6/\delta)} +
    \sqrt{(1-1/e)(\ln\binom Vk + \ln(6/\delta))}\bigr)^2}{\varepsilon^2 k},

IMM's selection-phase count with :math:`\mathrm{OPT} \ge k` and failure :math:`\delta/3`,
so greedy on :math:`\mathcal R_1` meets the ratio except with probability :math:`\delta/3`:
:math:`\delta` in all.  The round sizes are fixed before any set is drawn, which is what the
union bound needs (the dependence Chen 2018 found in IMM's reuse of sets does not arise).
Here :math:`\theta_0 = \theta_{\max}\varepsilon^2 k/V` and :math:`i_{\max} =
\lceil\log_2(\theta_{\max}/\theta_0)\rceil + 1` (so the last round reaches
:math:`\theta_{\max}`).

RR sets come from :func:`~offcmab.reference.im.oracles.sample_rr_sets`, whose live in-edges
are drawn by subset sampling where probabilities allow (:mod:`~offcmab.reference.im.live_edges`:
geometric skips over the in-edges of one node that share a probability level, as
SUBSIM (Guo, Li, Li and Xiao, SIGMOD 2020) does for the weighted cascade), so the draws per
RR set follow its live edges rather than every in-edge tried.

References
----------
``apdx_app:OIM_node`` (the solver ``IM`` of ``line:IM_oracle``), ``eq:def_oracle``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from offcmab.reference.dataset import IntArray
from offcmab.reference.errors import InputError, check_cardinality, check_probability
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.oracles import (
    IMMOracle,
    RRSets,
    covered_sets,
    extend_rr_sets,
    greedy_coverage,
    log_binomial,
    rr_set_count,
    sample_rr_sets,
)

E_FACTOR = 1.0 - 1.0 / math.e


@dataclass(frozen=True)
class Schedule:
    r"""OPIM-C's round sizes and per-bound failure probability, fixed before sampling.

    Attributes
    ----------
    theta_max
        :math:`\theta_{\max}` (module docstring): sets of :math:`\mathcal R_1` after which
        greedy alone carries the guarantee with failure :math:`\delta/3`.
    theta_0
        Sets in each collection in round 1.
    rounds
        :math:`i_{\max}`; round ``i`` (from 1) holds ``theta_0 * 2**(i - 1)`` sets in each.
    bound_failure
        :math:`\delta/(3 i_{\max})`, the failure probability of each round's lower and of
        each round's upper bound.
    """

    theta_max: float
    theta_0: int
    rounds: int
    bound_failure: float

    @classmethod
    def of(cls, nodes: int, k: int, eps: float, delta: float) -> Schedule:
        log6 = math.log(6.0) - math.log(delta)
        root = E_FACTOR * math.sqrt(log6) + math.sqrt(E_FACTOR * (log_binomial(nodes, k) + log6))
        theta_0 = max(math.ceil(2.0 * root * root), 1)  # theta_max eps^2 k / V
        # log2(theta_max / theta_0) = log2(V / (eps^2 k)), finite for every float eps > 0
        log_ratio = math.log2(nodes) - 2.0 * math.log2(eps) - math.log2(k)
        rounds = max(math.ceil(log_ratio - math.log2(theta_0 / (2.0 * root * root))), 0) + 1
        theta_max = 2.0 * nodes * root * root / eps / eps / k  # inf (not 1/0) for a tiny eps
        return cls(theta_max, theta_0, rounds, delta / (3.0 * rounds))

    def size(self, round_: int) -> int:
        """Sets in each collection in round ``round_`` (from 1)."""
        return rr_set_count(self.theta_0 * 2.0 ** (round_ - 1), "OPIM-C")

    @property
    def failure(self) -> float:
        r"""The union of every event the guarantee rests on: both bounds of every round and
        the last round's guarantee (it equals :math:`\delta`; a test checks it)."""
        return 2.0 * self.rounds * self.bound_failure + self.rounds * self.bound_failure


def early_stop_rr_sets(nodes: int, edge_mass: float, k: int, eps: float, delta: float) -> float:
    r"""About how many RR sets (both collections) OPIM-C draws before it can stop early: an
    estimate of its work known before any set is drawn, not a bound.

    Ignoring the small :math:`a/18` and :math:`2a/9` terms, the ratio test needs
    :math:`(\sqrt{\Lambda} - \sqrt{a/2}) \ge \sqrt\alpha(\sqrt{\Lambda} + \sqrt{a/2})`
    with :math:`\Lambda_2 \approx \Lambda^u_1 \approx \Lambda`, i.e. a coverage
    :math:`\Lambda \ge \tfrac a2\bigl((1+\sqrt\alpha)/(1-\sqrt\alpha)\bigr)^2`;
    in expectation :math:`\Lambda \le \theta\,\mathrm{OPT}/V` and
    :math:`\mathrm{OPT} \le \min(V, k + \sum_e p_e)` (``edge_mass``: each edge activates at
    most one node).  Capped by the last round, which always stops.
    """
    schedule = Schedule.of(nodes, k, eps, delta)
    a = -math.log(schedule.bound_failure)
    root_alpha = math.sqrt(E_FACTOR - eps)
    coverage = a / 2.0 * ((1.0 + root_alpha) / (1.0 - root_alpha)) ** 2
    early = coverage * nodes / min(nodes, k + edge_mass)
    last = schedule.theta_0 * 2.0 ** min(schedule.rounds - 1, 1000)  # no float overflow
    return 2.0 * min(max(early, schedule.theta_0), last)


def spread_lower(covered: int, sets: int, nodes: int, failure: float) -> float:
    r""":math:`\sigma^l(S)`: below :math:`\sigma(S)` with probability at least
    :math:`1-\text{failure}`, for ``S`` fixed independently of the ``sets`` RR sets of which it
    covers ``covered``.  Zero when :math:`\Lambda \le 2a/3` (the bound's root is at 0)."""
    a = -math.log(failure)
    if covered <= 2.0 * a / 3.0:
        return 0.0
    root = math.sqrt(covered + 2.0 * a / 9.0) - math.sqrt(a / 2.0)
    return max(root * root - a / 18.0, 0.0) * nodes / sets


def optimum_upper(covered_upper: float, sets: int, nodes: int, failure: float) -> float:
    r""":math:`\sigma^u(S^\circ)`: above OPT with probability at least :math:`1-\text{failure}`,
    given that no ``k`` nodes cover more than ``covered_upper`` of ``sets`` RR sets."""
    a = -math.log(failure)
    root = math.sqrt(covered_upper + a / 2.0) + math.sqrt(a / 2.0)
    return root * root * nodes / sets


@dataclass(frozen=True)
class OPIMResult:
    r"""OPIM-C's seeds and the evidence behind them.

    Attributes
    ----------
    seeds
        The ``k`` seeds (greedy on :math:`\mathcal R_1` in the last round).
    spread
        :math:`V\Lambda_2(S^*)/\theta`, the validation collection's unbiased estimate.
    lower, upper
        :math:`\sigma^l(S^*)` and :math:`\sigma^u(S^\circ)` of the last round.
    rounds
        Rounds run (1 to :math:`i_{\max}`).
    rr_sets
        RR sets drawn, both collections together.
    stopped_early
        Whether the ratio test passed (else the last round's size carries the guarantee).
    """

    seeds: IntArray
    spread: float
    lower: float
    upper: float
    rounds: int
    rr_sets: int
    stopped_early: bool


def check_eps(eps: float) -> float:
    """``eps`` as a float in (0, 1 - 1/e); an :class:`InputError` naming it otherwise."""
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0.0 < eps < E_FACTOR:
        raise InputError("eps", f"must lie in (0, 1 - 1/e), got {eps!r}")
    return float(eps)


def opim_c(graph: ICGraph, k: int, eps: float, delta: float,
           rng: np.random.Generator) -> OPIMResult:
    r"""OPIM-C: a :math:`(1-1/e-\varepsilon)`-approximation with probability at least
    :math:`1-\delta` (module docstring; Algorithm 2 of Tang et al. 2018, lines noted)."""
    V = graph.nodes
    k = check_cardinality(k, V)
    eps = check_eps(eps)
    delta = check_probability(delta, "delta")
    schedule = Schedule.of(V, k, eps, delta)  # lines 1-4
    reverse = graph.reversed()
    target = E_FACTOR - eps
    select = check = RRSets(V, np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64))
    for i in range(1, schedule.rounds + 1):
        size = schedule.size(i)  # line 3, then doubled (line 10); refused beyond MAX_RR_SETS
        # both collections' new sets in one batch of independent sets, split in halves
        first, second = _halves(sample_rr_sets(reverse, 2 * (size - select.count), rng))
        select, check = extend_rr_sets(select, first), extend_rr_sets(check, second)
        greedy = greedy_coverage(select, k, upper_bound=True)  # line 6
        covered = covered_sets(check, greedy.seeds)
        lower = spread_lower(covered, size, V, schedule.bound_failure)  # line 7
        upper = optimum_upper(greedy.upper, size, V, schedule.bound_failure)
        if lower >= target * upper or i == schedule.rounds:  # lines 8-9
            return OPIMResult(greedy.seeds, V * covered / size, lower, upper, i, 2 * size,
                              lower >= target * upper)
    raise AssertionError("unreachable: the last round returns")  # pragma: no cover


def _halves(rr: RRSets) -> tuple[RRSets, RRSets]:
    """The first and the second half of an even number of sets."""
    half = rr.count // 2
    cut = int(rr.offsets[half])
    return (RRSets(rr.nodes_total, rr.offsets[: half + 1], rr.nodes[:cut]),
            RRSets(rr.nodes_total, rr.offsets[half:] - cut, rr.nodes[cut:]))


@dataclass(frozen=True)
class OPIMOracle(IMMOracle):
    r"""OPIM-C as the IM solver of ``line:IM_oracle``: an
    :class:`~offcmab.reference.im.oracles.IMMOracle` (same fields, same clipping of the
    weights, same :math:`\alpha = 1 - 1/e - \varepsilon` with probability at least
    ``1 - delta_prime``) that runs :func:`opim_c` instead of IMM."""

    def solve(self, graph: ICGraph, rng: np.random.Generator) -> IntArray:
        return opim_c(graph, self.k, self.eps, self.delta_prime, rng).seeds


__all__ = ["OPIMOracle", "OPIMResult", "Schedule", "early_stop_rr_sets", "opim_c",
           "optimum_upper", "spread_lower"]
