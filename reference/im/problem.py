r"""IM as CMAB-T problems, with everything the theory checker needs from one instance.

:class:`EdgeLevelIM` is the edge-level view (each edge a base arm, mean :math:`p_{uv}`,
triggered when its source is active) implementing
:class:`offcmab.reference.problems.base.CMABTProblem`;
:class:`ProductSeedLaw` is its data law (product seed distribution, edge-level feedback).
:class:`NodeLevelIM` gathers the quantities of ``thm:IM``: :math:`V`, :math:`E`,
:math:`d_{\max}`, :math:`S^*`, :math:`\sigma(S^*;G)`, :math:`\gamma`, :math:`\eta`, and runs
CLCB-IM-N on generated cascades.

Exact rewards and probabilities use live-edge enumeration and are available only for graphs with
at most :data:`~offcmab.reference.im.exact.MAX_EXACT_EDGES` edges; larger graphs use Monte-Carlo
estimates whose standard error is returned alongside (never silently).

References
----------
``app:OIM_node``, ``apdx_app:OIM_node``, ``thm:IM``, ``cond:TPM`` (:math:`B_1 \le V`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import FloatArray, IntArray, OfflineDataset
from offcmab.reference.errors import check_cardinality
from offcmab.reference.im.clcb_im_node import CLCBIMResult, clcb_im_node
from offcmab.reference.im.data import NodeCascades, sample_edge_feedback, sample_node_cascades
from offcmab.reference.im.diffusion import SpreadEstimate, estimate_spread
from offcmab.reference.im.exact import (
    MAX_EXACT_EDGES,
    activation_probabilities,
    brute_force_im,
    exact_spread,
    product_law_activation_probabilities,
)
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.one_step import AssumptionParameters, assumption_parameters
from offcmab.reference.im.oracles import IMMOracle, imm
from offcmab.reference.oracles import Oracle


@dataclass(frozen=True)
class EdgeLevelIM:
    r"""IM with edge-level feedback as a CMAB-T instance (needs ``E <= MAX_EXACT_EDGES``)."""

    graph: ICGraph
    k: int

    @property
    def m(self) -> int:
        return self.graph.edges

    @property
    def mu(self) -> FloatArray:
        return self.graph.p

    @property
    def smoothness_B1(self) -> float:
        r""":math:`B_1 = V` (Lemma 2 of Wang & Chen 2017, as used in the proof of ``thm:IM``)."""
        return float(self.graph.nodes)

    def oracle(self) -> Oracle:
        return IMMOracle(self.graph, self.k)

    def reward(self, action: IntArray, mu: npt.ArrayLike | None = None) -> float:
        graph = self.graph if mu is None else self.graph.with_probabilities(mu)
        return exact_spread(graph, action)

    def trigger_probabilities(self, action: IntArray) -> FloatArray:
        r""":math:`p^{\mathbb D_{\text{arm}},S}_{uv} = \Pr[u \in \Phi(S)]` for every edge."""
        return activation_probabilities(self.graph, action)[self.graph.sources]

    def optimal_action(self) -> IntArray:
        return brute_force_im(self.graph, self.k)[0]


@dataclass(frozen=True)
class ProductSeedLaw:
    r"""Seeds from the product law :math:`q`; logs edge-level feedback (an ``OfflineDataset``)."""

    graph: ICGraph
    q: FloatArray
    exact: bool = True

    def sample(self, n: int, rng: np.random.Generator) -> OfflineDataset:
        return sample_edge_feedback(self.graph, self.q, n, rng).dataset

    def data_trigger_probabilities(self) -> FloatArray:
        r""":math:`p^{\mathbb D_{\text{arm}},\mathbb D_{\mathcal S}}_{uv} = \Pr[u\in\Phi(S_0)]`."""
        return product_law_activation_probabilities(self.graph, self.q)[self.graph.sources]


@dataclass
class NodeLevelIM:
    r"""One node-level IM instance: the graph, the seed law ``q`` and the budget ``k``.

    ``optimal_seeds`` and ``sigma_star`` are exact (brute force) when the graph has at most
    ``MAX_EXACT_EDGES`` edges; otherwise :math:`S^*` is IMM's answer (``alpha`` applies) and
    :math:`\sigma(S^*)` a Monte-Carlo estimate.
    """

    graph: ICGraph
    q: FloatArray
    k: int
    spread_samples: int = 100000
    seed: int = 0
    _optimum: tuple[IntArray, float] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.k = check_cardinality(self.k, self.graph.nodes)
        self.q = np.broadcast_to(np.asarray(self.q, dtype=np.float64), (self.graph.nodes,)).copy()

    @property
    def exact(self) -> bool:
        return self.graph.edges <= MAX_EXACT_EDGES

    def _solve(self) -> tuple[IntArray, float]:
        if self._optimum is None:
            if self.exact:
                self._optimum = brute_force_im(self.graph, self.k)
            else:
                rng = np.random.default_rng(self.seed)
                seeds = imm(self.graph, self.k, 0.05, 1e-3, rng).seeds
                self._optimum = (seeds, self.spread(seeds).spread)
        return self._optimum

    @property
    def optimal_seeds(self) -> IntArray:
        return self._solve()[0]

    @property
    def sigma_star(self) -> float:
        return self._solve()[1]

    def spread(self, seeds: npt.ArrayLike) -> SpreadEstimate:
        r""":math:`\sigma(S;G)`: exact (stderr 0) on tiny graphs, else Monte-Carlo with stderr."""
        if self.exact:
            return SpreadEstimate(exact_spread(self.graph, seeds), 0.0, 0)
        rng = np.random.default_rng([self.seed, 1])
        return estimate_spread(self.graph, seeds, self.spread_samples, rng)

    def assumption(self) -> AssumptionParameters:
        r""":math:`\gamma`, :math:`\eta` of ``as:seed_activation_prob`` for :math:`S^*`."""
        return assumption_parameters(self.graph, self.q, self.optimal_seeds)

    def theorem_parameters(self, n: int, delta: float) -> dict[str, float]:
        r"""The parameters of bound ``thm4-im``: V, d_max, sigma_star, eta, gamma, E, n, delta."""
        params = self.assumption()
        return {"V": self.graph.nodes, "d_max": self.graph.d_max, "sigma_star": self.sigma_star,
                "eta": params.eta, "gamma": params.gamma, "E": self.graph.edges, "n": n,
                "delta": delta}

    def sample(self, n: int, rng: np.random.Generator) -> NodeCascades:
        """``n`` node-level cascades from the product seed law."""
        return sample_node_cascades(self.graph, self.q, n, rng)

    def run(self, cascades: NodeCascades, delta: float, estimator: str = "correct",
            eps: float = 0.1, delta_prime: float = 1e-3) -> CLCBIMResult:
        """CLCB-IM-N with an IMM oracle (``alpha = 1 - 1/e - eps``, failure ``delta_prime``)."""
        oracle = IMMOracle(self.graph, self.k, eps, delta_prime, self.seed)
        return clcb_im_node(self.graph, cascades, oracle, delta, estimator)
