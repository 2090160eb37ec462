r"""Exact one-step quantities of node-level IM data under a product seed distribution.

Seeds are drawn independently, node ``u`` with probability :math:`q_u`.  The paper's cascade
sets are cumulative, :math:`S_0 \subseteq S_1`, so a node is outside :math:`S_1` when it is not a
seed *and* no seed in-neighbour activates it in the first step:

.. math::

    p(\bar v) = \Pr[v \notin S_1] = (1-q_v) \prod_{u \in N(v)} (1 - q_u p_{uv}),\qquad
    p(\bar v\mid\bar u) = \Pr[v\notin S_1 \mid u \notin S_0]
        = (1-q_v) \prod_{w \in N(v)\setminus\{u\}} (1 - q_w p_{wv}).

(Independence of the seeds makes each factor a separate event.)  Therefore
:math:`p(\bar v) = (1-q_u p_{uv})\, p(\bar v\mid\bar u)`, i.e. the paper's identity
``eq:puv``, :math:`p_{uv} = \frac{1}{q_u}\bigl(1 - p(\bar v)/p(\bar v\mid\bar u)\bigr)`, holds
*with* the cumulative reading of :math:`S_1`: the factor :math:`(1-q_v)` appears in both
probabilities and cancels.  (With :math:`S_1` read as the newly activated nodes only, the
identity would fail, since :math:`v \in S_0` would then count as "not activated".)

The printed estimator of ``line:IM_empirical_mean``, :math:`n_{1,\bar u,\bar v}/n_{1,\bar v}`,
estimates instead
:math:`\Pr[u \notin S_0 \mid v \notin S_1] = (1-q_u)\,p(\bar v\mid\bar u)/p(\bar v)` (Bayes),
given here as :func:`printed_estimand`.

Assumption ``as:seed_activation_prob`` asks, for every edge :math:`(u,v)` that the optimal seed
set can trigger (its source is activated by :math:`S^*` with positive probability), that
:math:`q_u \in [\gamma, 1-\gamma]` and :math:`p(\bar v) \ge \eta`.
:func:`assumption_parameters` returns the largest such :math:`\gamma` and :math:`\eta`.

References
----------
``apdx_app:OIM_node`` (``eq:puv``, ``as:seed_activation_prob``), ``apdx_sec:app_IM_node``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import FloatArray
from offcmab.reference.im.exact import reachable_nodes
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.seeds import check_seed_probabilities


@dataclass(frozen=True)
class OneStepProbabilities:
    r"""Exact :math:`q_u`, :math:`p(\bar v)` per node and :math:`p(\bar v\mid\bar u)` per edge.

    Attributes
    ----------
    q
        :math:`q_u` for every node.
    p_not
        :math:`p(\bar v)` for every node.
    p_not_given_not
        :math:`p(\bar v\mid\bar u)` for every edge ``(u, v)`` (edge order of the graph).
    """

    q: FloatArray
    p_not: FloatArray
    p_not_given_not: FloatArray


def one_step_probabilities(graph: ICGraph, q: npt.ArrayLike) -> OneStepProbabilities:
    r"""Exact one-step probabilities (module docstring) by products over in-edges.

    The product over :math:`N(v)\setminus\{u\}` is computed without dividing by a factor that
    may be zero: factors equal to zero are counted separately from the log of the others.
    """
    q = check_seed_probabilities(q, graph.nodes)
    factor = 1.0 - q[graph.sources] * graph.p  # 1 - q_u p_uv, per edge
    zero = factor <= 0.0
    logs = np.log(np.where(zero, 1.0, factor))
    log_in = np.bincount(graph.targets, weights=logs, minlength=graph.nodes)
    zeros_in = np.bincount(graph.targets, weights=zero, minlength=graph.nodes)
    p_not = (1.0 - q) * np.exp(log_in) * (zeros_in == 0)
    v = graph.targets
    others_zero = zeros_in[v] - zero
    p_cond = (1.0 - q[v]) * np.exp(log_in[v] - logs) * (others_zero == 0)
    return OneStepProbabilities(q, p_not, p_cond)


def printed_estimand(graph: ICGraph, q: npt.ArrayLike) -> FloatArray:
    r"""What the printed :math:`n_{1,\bar u,\bar v}/n_{1,\bar v}` converges to, per edge.

    :math:`\Pr[u\notin S_0 \mid v\notin S_1] = (1-q_u)\,p(\bar v\mid\bar u)/p(\bar v)`
    (``NaN`` where :math:`p(\bar v)=0`).
    """
    exact = one_step_probabilities(graph, q)
    p_not_v = exact.p_not[graph.targets]
    out = np.full(graph.edges, np.nan)
    np.divide((1.0 - exact.q[graph.sources]) * exact.p_not_given_not, p_not_v, out=out,
              where=p_not_v > 0)
    return out


def edge_probability_identity(exact: OneStepProbabilities, graph: ICGraph) -> FloatArray:
    r"""Right-hand side of ``eq:puv``, :math:`\frac{1}{q_u}(1 - p(\bar v)/p(\bar v\mid\bar u))`."""
    q_u = exact.q[graph.sources]
    ratio = exact.p_not[graph.targets] / exact.p_not_given_not
    return np.asarray((1.0 - ratio) / q_u, dtype=np.float64)


@dataclass(frozen=True)
class AssumptionParameters:
    r"""Largest :math:`\gamma`, :math:`\eta` for which ``as:seed_activation_prob`` holds.

    Attributes
    ----------
    gamma
        :math:`\min_{(u,v)\in\tilde{\mathcal E}(S^*)} \min(q_u, 1-q_u)`.
    eta
        :math:`\min_{(u,v)\in\tilde{\mathcal E}(S^*)} p(\bar v)`.
    triggerable
        Boolean mask of the edges in :math:`\tilde{\mathcal E}(S^*)`.
    holds
        Whether :math:`\gamma>0` and :math:`\eta>0` (the assumption holds for some values;
        the paper also requires :math:`\gamma \le 1/2`, which is automatic here).
    """

    gamma: float
    eta: float
    triggerable: npt.NDArray[np.bool_]
    holds: bool


def assumption_parameters(
    graph: ICGraph, q: npt.ArrayLike, optimal_seeds: npt.ArrayLike
) -> AssumptionParameters:
    r"""The tightest :math:`\gamma, \eta` of ``as:seed_activation_prob`` for ``S*``.

    :math:`\tilde{\mathcal E}(S^*)` is the set of edges whose source is activated by
    :math:`S^*` with positive probability (reachable through edges with :math:`p > 0`): these are
    exactly the base arms with :math:`p^{\mathbb D_{\text{arm}},S^*}_{uv} > 0`.
    """
    exact = one_step_probabilities(graph, q)
    triggerable = reachable_nodes(graph, optimal_seeds)[graph.sources]
    if not triggerable.any():
        return AssumptionParameters(0.5, 1.0, triggerable, True)
    q_u = exact.q[graph.sources[triggerable]]
    gamma = float(np.minimum(q_u, 1.0 - q_u).min())
    eta = float(exact.p_not[graph.targets[triggerable]].min())
    return AssumptionParameters(gamma, eta, triggerable, gamma > 0 and eta > 0)

