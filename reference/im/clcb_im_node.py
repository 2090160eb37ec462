r"""CLCB-IM-N: offline influence maximization from node-level feedback (``alg:CLCB-IM``).

Pseudo-code (``alg:CLCB-IM``), beside the code that implements each line::

    for edge (u, v) in E:
        n_{0,u}, n_{1,v̄}, n_{1,ū,v̄}  (and n_{0,ū} = n - n_{0,u})           # line:IM_counter
        q̂_u = n_{0,u}/n,  p̂(v̄) = n_{1,v̄}/n,  p̂(v̄|ū) = n_{1,ū,v̄}/n_{0,ū}    # line:IM_empirical_mean
        rho_u, rho(v̄), rho(v̄|ū): sqrt(6 x(1-x) L / N) + 9 L / N,
            L = log(12 n E / delta), N = n, n, n_{0,ū}                       # line:IM_intervals
        q̄_u = min(q̂_u + rho_u, 1), p̄(v̄) = min(p̂(v̄) + rho(v̄), 1),
            p̲(v̄|ū) = max(p̂(v̄|ū) - rho(v̄|ū), 0)                              # line:IM_inter_LCB
        p̲_uv = min(1, max(0, (1/q̄_u)(1 - p̄(v̄)/p̲(v̄|ū))))                    # line:IM_LCB
    Ŝ = IM(G(V, E, p̲), k)                                                   # line:IM_oracle

Estimator of :math:`p(\bar v\mid\bar u)` (claim ``im-conditional-estimator``): the printed
``line:IM_empirical_mean`` divides by :math:`n_{1,\bar v}`, which estimates
:math:`\Pr[u\notin S_0\mid v\notin S_1]`, not :math:`p(\bar v\mid\bar u)`; the proof
(``apdx_sec:app_IM_node``) and the interval ``rho(v̄|ū)`` (which uses :math:`n_{0,\bar u}`)
both use :math:`n_{1,\bar u,\bar v}/n_{0,\bar u}`.  The default ``estimator="correct"`` follows
the proof; ``estimator="printed"`` reproduces the pseudo-code.

Counters are vectorized (:func:`~offcmab.reference.im.data.step_counts`, one pass over runs of
records): node counts are ``bincount`` calls, and the joint count
:math:`\#\{t: u\in S_{t,0}, v\in S_{t,1}\}` per edge gathers the out-edges of every seed and
looks the target up among the sorted ``(t, v)`` keys of the cascade's active nodes; then
:math:`n_{1,\bar u,\bar v} = n - n_{0,u} - n_{1,v} + \#\{u\in S_0, v\in S_1\}`.

Edges with :math:`\underline p(\bar v\mid\bar u) = 0` (or never observed with
:math:`u\notin S_0`) get :math:`\underline p_{uv}=0`, the value of the clipped formula.

Theory: ``thm:IM`` / ``apdx_thm:IM`` (bound id ``thm4-im``).

References
----------
``alg:CLCB-IM``, ``apdx_thm:IM``, ``apdx_sec:app_IM_node``, ``apdx_lem:aux_IM``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from offcmab.reference.certificates import Certificate
from offcmab.reference.confidence import clip_bound, log_over_delta
from offcmab.reference.dataset import FloatArray, IntArray
from offcmab.reference.errors import InputError, check_probability
from offcmab.reference.im.certificate import SpreadCertifier, node_certifier
from offcmab.reference.im.data import NodeCascades, step_counts
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.node_intervals import bernstein_radius, edge_formula
from offcmab.reference.oracles import Oracle

#: Bound ids (see ``bounds``) whose guarantees cover this algorithm.
THEORY = ("thm4-im",)

ESTIMATORS: tuple[str, ...] = ("correct", "printed")


@dataclass(frozen=True)
class NodeCounters:
    r"""The counters of ``line:IM_counter``.

    Attributes
    ----------
    n
        Number of cascades.
    seeded
        :math:`n_{0,u}` per node.
    not_active_1
        :math:`n_{1,\bar v}` per node.
    neither
        :math:`n_{1,\bar u,\bar v}` per edge.
    """

    n: int
    seeded: IntArray
    not_active_1: IntArray
    neither: IntArray

    @property
    def unseeded(self) -> IntArray:
        r""":math:`n_{0,\bar u} = n - n_{0,u}` per node."""
        return self.n - self.seeded


def node_counters(graph: ICGraph, cascades: NodeCascades, check_graph: bool = False
                  ) -> NodeCounters:
    r"""Counters of ``line:IM_counter`` from the cascades' :math:`S_0` and :math:`S_1` only.

    :func:`~offcmab.reference.im.data.step_counts` counts :math:`n_{0,u}`, :math:`n - n_{1,\bar v}`
    and :math:`\#\{t: u\in S_{t,0}, v\in S_{t,1}\}`; with ``check_graph=True`` also checks
    that every activation follows an edge of ``graph`` (the input check of ``solve im-node``,
    done in the same pass).
    """
    n = cascades.n
    seeded, active_1, both = step_counts(graph, cascades, check_graph)
    neither = n - seeded[graph.sources] - active_1[graph.targets] + both
    return NodeCounters(n, seeded, n - active_1, neither)


@dataclass(frozen=True)
class NodeEstimates:
    r"""Empirical means (``line:IM_empirical_mean``) and the plug-in edge estimate.

    ``p_not_given_not`` is ``NaN`` where its denominator is 0; ``p_hat`` (the plug-in
    :math:`\hat p_{uv} = \frac1{\hat q_u}(1-\hat p(\bar v)/\hat p(\bar v\mid\bar u))`, clipped
    to [0, 1]) is ``NaN`` where undefined.
    """

    q: FloatArray
    p_not: FloatArray
    p_not_given_not: FloatArray
    p_hat: FloatArray


def node_estimates(
    graph: ICGraph, counters: NodeCounters, estimator: str = "correct"
) -> NodeEstimates:
    r"""Empirical :math:`\hat q_u`, :math:`\hat p(\bar v)`, :math:`\hat p(\bar v\mid\bar u)`."""
    if estimator not in ESTIMATORS:
        raise InputError("estimator", f"must be one of {list(ESTIMATORS)}, got {estimator!r}")
    n = counters.n
    q = counters.seeded / n
    p_not = counters.not_active_1 / n
    if estimator == "correct":  # the proof's n_{1,ū,v̄} / n_{0,ū}
        denominator = counters.unseeded[graph.sources]
    else:  # as printed in line:IM_empirical_mean: n_{1,ū,v̄} / n_{1,v̄}
        denominator = counters.not_active_1[graph.targets]
    cond = np.full(graph.edges, np.nan)
    np.divide(counters.neither, denominator, out=cond, where=denominator > 0)
    p_hat = edge_formula(q[graph.sources], p_not[graph.targets], cond)
    return NodeEstimates(q, p_not, cond, p_hat)


@dataclass(frozen=True)
class CLCBIMResult:
    r"""What CLCB-IM-N computed.

    Attributes
    ----------
    seeds
        :math:`\hat S`.
    counters, estimates
        ``line:IM_counter`` and ``line:IM_empirical_mean``.
    q_ucb, p_not_ucb, p_cond_lcb
        :math:`\bar q_u`, :math:`\bar p(\bar v)` (per node), :math:`\underline p(\bar v\mid\bar u)`
        (per edge).
    lcb
        :math:`\underline p_{uv}` per edge (``line:IM_LCB``).
    log_term
        :math:`L = \log(1/\delta')` at the proof's :math:`\delta'`.
    certifier
        What :attr:`certificate` needs besides the seeds (set by :func:`clcb_im_node`).
    """

    seeds: IntArray
    counters: NodeCounters
    estimates: NodeEstimates
    q_ucb: FloatArray
    p_not_ucb: FloatArray
    p_cond_lcb: FloatArray
    lcb: FloatArray
    log_term: float
    certifier: SpreadCertifier | None = field(default=None, kw_only=True, compare=False,
                                              repr=False)

    @property
    def certificate(self) -> Certificate | None:
        r"""With what probability the seeds' spread gap is at most what, from the data
        (:mod:`offcmab.reference.im.certificate`); ``None`` without a certifier."""
        return None if self.certifier is None else self.certifier(self.seeds)


def edge_lcbs(
    graph: ICGraph, cascades: NodeCascades, delta: float, estimator: str = "correct",
    check_graph: bool = False,
) -> CLCBIMResult:
    r"""Lines ``line:IM_counter`` to ``line:IM_LCB``: the LCB graph's edge probabilities.

    ``seeds`` of the result is empty; :func:`clcb_im_node` adds the oracle call.
    ``check_graph=True`` checks the cascades follow ``graph`` while counting
    (:func:`~offcmab.reference.im.data.check_cascades_follow_graph`, at no extra pass).
    """
    delta = check_probability(delta)
    counters = node_counters(graph, cascades, check_graph)  # line:IM_counter
    est = node_estimates(graph, counters, estimator)  # line:IM_empirical_mean
    n, E = counters.n, max(graph.edges, 1)
    log_term = log_over_delta((12.0, n, E), delta)
    rho_u = bernstein_radius(est.q, np.full(graph.nodes, n), log_term)  # line:IM_intervals
    rho_v = bernstein_radius(est.p_not, np.full(graph.nodes, n), log_term)
    cond_count = counters.unseeded[graph.sources]
    rho_cond = bernstein_radius(np.nan_to_num(est.p_not_given_not), cond_count, log_term)
    q_ucb = clip_bound(est.q + rho_u, high=1.0)  # line:IM_inter_LCB
    p_not_ucb = clip_bound(est.p_not + rho_v, high=1.0)
    p_cond_lcb = clip_bound(np.nan_to_num(est.p_not_given_not) - rho_cond, low=0.0)
    lcb = clip_bound(  # line:IM_LCB; undefined (p̲(v̄|ū) = 0) means the clipped value 0
        edge_formula(q_ucb[graph.sources], p_not_ucb[graph.targets], p_cond_lcb), 0.0, 1.0,
        undefined=0.0)
    empty = np.zeros(0, dtype=np.int64)
    return CLCBIMResult(empty, counters, est, q_ucb, p_not_ucb, p_cond_lcb, lcb, log_term)


def clcb_im_node(
    graph: ICGraph, cascades: NodeCascades, oracle: Oracle, delta: float,
    estimator: str = "correct",
) -> CLCBIMResult:
    r"""Run CLCB-IM-N (``alg:CLCB-IM``) on node-level cascades.

    Parameters
    ----------
    graph
        The known structure :math:`(\mathcal V,\mathcal E)` (its probabilities are ignored).
    cascades
        The offline node-level data.
    oracle
        An IM solver over ``graph``'s edges (e.g. :class:`~offcmab.reference.im.oracles.IMMOracle`),
        called with :math:`\underline p` (``line:IM_oracle``).
    delta
        Failure probability in (0, 1).
    estimator
        ``"correct"`` (default, as in the proof) or ``"printed"`` (``line:IM_empirical_mean``).
    """
    result = edge_lcbs(graph, cascades, delta, estimator)
    seeds = oracle(result.lcb)  # line:IM_oracle
    return CLCBIMResult(seeds, result.counters, result.estimates, result.q_ucb,
                        result.p_not_ucb, result.p_cond_lcb, result.lcb, result.log_term,
                        certifier=certifier_of(graph, result, delta))


def certifier_of(graph: ICGraph, result: CLCBIMResult, delta: float, scale: float = 1.0,
                 seed: int = 0) -> SpreadCertifier:
    r"""The certifier of CLCB-IM-N's statistics (:func:`offcmab.reference.im.certificate.
    node_certifier`; ``scale`` narrows its radii, for a negative control; ``seed`` seeds
    the estimates of a large graph's certificate)."""
    est = result.estimates
    return node_certifier(graph, result.counters.n, est.q, est.p_not, est.p_not_given_not,
                          result.counters.unseeded[graph.sources], result.log_term, delta,
                          scale, seed)


def plug_in_node(graph: ICGraph, cascades: NodeCascades, oracle: Oracle) -> IntArray:
    r"""Baseline of Chen et al. (2021): the oracle on the plug-in :math:`\hat p_{uv}`.

    No pessimism.

    Undefined estimates (``NaN``) are replaced by 0.
    """
    est = node_estimates(graph, node_counters(graph, cascades), "correct")
    return oracle(np.nan_to_num(est.p_hat, nan=0.0))
