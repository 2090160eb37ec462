r"""The certificate of a seed set from node-level cascades: its spread gap, from the data.

On the interval events of ``apdx_lem:aux_IM`` every edge probability lies between the
LCB and the UCB that the node intervals give (:func:`~offcmab.reference.im.node_intervals.
edge_bounds`), and the spread :math:`\sigma(S; p)` increases in every edge probability.
Hence, for any seed set :math:`\hat S` (whatever chose it),

.. math::

    \sigma(S^*; p) - \sigma(\hat S; p) \le \max_{|S| = k}\sigma(S; \bar p)
    - \sigma(\hat S; \underline p).

* **Small graphs** (:func:`exact_certifiable`): both spreads are exact (live-edge
  enumeration) and the maximum runs over every seed set, so the certificate bounds the gap
  with :math:`\alpha = 1`, hence every :math:`\alpha`-gap too.  It fails only with the
  interval events of Theorem 4's proof (:func:`interval_failure` evaluates their union).
* **Large graphs**: IMM on the UCB graph stands in for the maximum, which is valid for the
  :math:`\alpha`-gap :math:`\alpha\sigma(S^*) - \sigma(\hat S)` with IMM's
  :math:`\alpha = 1 - 1/e - \varepsilon`, because :math:`\alpha\max_S\sigma(S;\bar p) \le
  \sigma(\text{IMM}(\bar p);\bar p)` when IMM keeps its promise (failure :math:`\delta/4`).
  Each spread is a mean of :data:`SPREAD_SAMPLES` cascades whose sizes lie in
  :math:`[k, V]`, moved outwards by Hoeffding's :math:`(V-k)\sqrt{\log(4/\delta)/(2R)}`
  (failure :math:`\delta/4` each).  The certificate's failure adds the oracle's and the
  two estimates' to the interval events'.
* **Very large graphs** (more than :data:`ESTIMATED_MAX_NODES` nodes): the maximum's upper
  end is :math:`V` itself, which always holds, so only the lower spread is estimated; the
  certificate is then loose, and its stated failure is the large-graph one (an upper bound
  on what it needs).

The derivation and these failure probabilities are the record
:data:`offcmab.bounds.certificates.IM_NODE_CERTIFICATE`; this module computes the numbers.

References
----------
``apdx_lem:aux_IM``, ``eq:puv``, ``eq:def_oracle``; Audibert, Munos and Szepesvari (2009),
Theorem 1 (the empirical Bernstein interval behind the radius).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from offcmab.reference.certificates import Certificate, clcb_event
from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.im.diffusion import cascade_sizes
from offcmab.reference.im.exact import MAX_EXACT_EDGES, brute_force_im, exact_spread
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.node_intervals import edge_bounds
from offcmab.reference.im.oracles import imm

#: Most (live-edge world, seed set) pairs the exact certificate enumerates.
EXACT_WORK = 2**16

#: Cascades per Monte-Carlo spread estimate on a large graph.
SPREAD_SAMPLES = 10000

#: IMM's slack on the UCB graph of a large graph.
ORACLE_EPS = 0.1

#: Above this many nodes the maximum's upper end is the node count itself: IMM on the UCB
#: graph (whose unobserved edges have UCB 1, so every reverse-reachable set is most of the
#: graph) and its cascades would cost minutes, far more than the solve they certify.
ESTIMATED_MAX_NODES = 2000


def interval_failure(n: int, edges: int, delta: float) -> float:
    r"""The union of the failures of Theorem 4's three interval events over ``edges`` edges
    (capped at 1), in plain floats; the record in :mod:`offcmab.bounds.certificates` holds
    the same union as a formula, and a test compares the two."""
    delta_prime = delta / (12.0 * n * max(edges, 1))
    return min(1.0, (4.0 + 2.0 * n) * max(edges, 1) * delta_prime)


def exact_certifiable(graph: ICGraph, k: int) -> bool:
    r"""Whether the exact certificate is affordable: :math:`E \le` ``MAX_EXACT_EDGES`` and
    :math:`2^E\binom Vk \le` :data:`EXACT_WORK`."""
    return (graph.edges <= MAX_EXACT_EDGES
            and math.comb(graph.nodes, k) * 2**graph.edges <= EXACT_WORK)


def spread_margin(nodes: int, k: int, samples: int, failure: float) -> float:
    r"""Hoeffding's one-sided margin :math:`(V-k)\sqrt{\log(1/\delta_s)/(2R)}` of a mean of
    ``samples`` cascade sizes in :math:`[k, V]`."""
    return (nodes - k) * math.sqrt(math.log(1.0 / failure) / (2.0 * samples))


@dataclass(frozen=True)
class SpreadCertifier:
    r"""The certificate of a seed set, from edge bounds that hold on the interval events.

    Attributes
    ----------
    graph
        The structure (its probabilities are not read).
    lcb, ucb
        Edge bounds in [0, 1], one per edge.
    delta
        The algorithm's :math:`\delta`.
    failure
        The failure of the events behind ``lcb`` and ``ucb``.
    event
        Those events, in words.
    seed
        Seeds IMM and the spread estimates on a large graph.
    """

    graph: ICGraph
    lcb: FloatArray = field(repr=False)
    ucb: FloatArray = field(repr=False)
    delta: float
    failure: float
    event: str
    seed: int = 0

    def __call__(self, seeds: npt.ArrayLike) -> Certificate:
        """The certificate of ``seeds``."""
        chosen = np.asarray(seeds, dtype=np.int64)
        if exact_certifiable(self.graph, chosen.size):
            return self._exact(chosen)
        return self._estimated(chosen)

    def _exact(self, seeds: IntArray) -> Certificate:
        _, best = brute_force_im(self.graph.with_probabilities(self.ucb), seeds.size)
        low = exact_spread(self.graph.with_probabilities(self.lcb), seeds)
        return Certificate(max(0.0, best - low), self.failure,
                           f"{self.event}; exact spreads, the maximum over every seed set "
                           "(alpha = 1)")

    def _estimated(self, seeds: IntArray) -> Certificate:
        share = self.delta / 4.0  # IMM's promise, the upper estimate, the lower estimate
        k, nodes = seeds.size, self.graph.nodes
        margin = spread_margin(nodes, k, SPREAD_SAMPLES, share)
        low = cascade_sizes(self.graph.with_probabilities(self.lcb), seeds, SPREAD_SAMPLES,
                            np.random.default_rng([self.seed, 3])).mean() - margin
        failure = min(1.0, self.failure + 3.0 * share)  # at least what either branch needs
        if nodes > ESTIMATED_MAX_NODES:  # sigma(S*) <= V always: no oracle, no upper estimate
            return Certificate(max(0.0, nodes - max(low, k)), failure,
                               f"{self.event}; bounds sigma(S*) - sigma(S_hat) by V minus the "
                               f"lower spread from {SPREAD_SAMPLES} cascades within "
                               f"-{margin:.4g} (Hoeffding, failure delta/4; a graph of more "
                               f"than {ESTIMATED_MAX_NODES} nodes is not searched)")
        upper_graph = self.graph.with_probabilities(self.ucb)
        best = imm(upper_graph, k, ORACLE_EPS, share, np.random.default_rng([self.seed, 1]))
        high = cascade_sizes(upper_graph, best.seeds, SPREAD_SAMPLES,
                             np.random.default_rng([self.seed, 2])).mean() + margin
        alpha = 1.0 - 1.0 / math.e - ORACLE_EPS
        return Certificate(max(0.0, min(high, nodes) - max(low, k)), failure,
                           f"{self.event}; bounds alpha sigma(S*) - sigma(S_hat) with alpha = "
                           f"{alpha:.4g} (IMM on the UCB graph, failure delta/4), spreads "
                           f"from {SPREAD_SAMPLES} cascades each within +-{margin:.4g} "
                           "(Hoeffding, failure delta/4 each)")


def edge_certifier(graph: ICGraph, counts: IntArray, means: FloatArray, n: int, delta: float,
                   constant: float) -> SpreadCertifier:
    r"""The certifier of CLCB on edge-level feedback: each edge a base arm, CLCB's Hoeffding
    arm event at constant :math:`c` (its radius and failure are
    :func:`~offcmab.reference.certificates.clcb_event`'s), spreads as for node-level data."""
    event = clcb_event(n, graph.edges, delta, constant)
    lcb, ucb = event.interval(counts, means)
    return SpreadCertifier(graph, lcb, ucb, delta, event.failure, event.describe())


def node_certifier(graph: ICGraph, n: int, q_hat: FloatArray, p_not_hat: FloatArray,
                   p_cond_hat: FloatArray, cond_count: IntArray, log_term: float,
                   delta: float, scale: float = 1.0, seed: int = 0) -> SpreadCertifier:
    r"""The certifier of CLCB-IM-N's statistics: node estimates, the conditional counts
    :math:`n_{0,\bar u}` per edge and :math:`L = \log(12nE/\delta)` (``scale`` narrows every
    radius: a negative control's mistake, not a guarantee)."""
    lcb, ucb = edge_bounds(graph.sources, graph.targets, n, q_hat, p_not_hat, p_cond_hat,
                           cond_count, log_term, scale)
    event = (f"E_arm,1-3 (apdx_lem:aux_IM): every q_u, p(v̄), p(v̄|ū) within "
             f"sqrt(6 x(1-x) L / N) + 9 L / N of its estimate, L = log(12 n E / delta) = "
             f"{log_term:.4g}, union over {graph.edges} edges")
    return SpreadCertifier(graph, lcb, ucb, delta, interval_failure(n, graph.edges, delta),
                           event, seed)
