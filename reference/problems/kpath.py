r"""The stochastic k-path problem and the two-instance family of the lower bound.

There are :math:`m` arms split into :math:`m/k` disjoint paths of :math:`k`
consecutive arms (path ``j``, 0-based, holds arms ``j*k, ..., j*k+k-1``).  The
feasible actions are the paths.  All arms of path ``j`` share one Bernoulli
outcome with mean :math:`\mu_j` (fully dependent within a path); feedback is
semi-bandit (every arm of the played path is observed), and the reward is the
sum of the outcomes:

.. math::

    r(S;\mu) = \sum_{i \in S} \mu_i, \qquad
    p_i^{\mathbb{D}_{\text{arm}},S} = \mathbb{1}\{i \in S\}, \qquad B_1 = 1.

A data law draws path ``j`` with probability :math:`w_j`, so
:math:`p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}} = w_{j(i)}`.

The lower-bound proof (``apdx_sec:lower_bound``) uses two instances
:math:`\mathcal P_1, \mathcal P_2` that share :math:`\mathbb{D}_{\mathcal S}`
:math:`= (1/C_\infty^*, 1-1/C_\infty^*, 0, \dots)`.  Its KL step
:math:`\mathrm{KL} \le n\,\mathrm{KL}(\mathbb{P}_{\mu_1}\|\mathbb{P}_{\mu_2})/C_\infty^*`
needs the instances to differ only on the path observed with probability
:math:`1/C_\infty^*`.  As printed they differ on the *other* path (observed with
probability :math:`1-1/C_\infty^*`).  :func:`lower_bound_family` builds both:
``variant="printed"`` and ``variant="proved"`` (perturbation moved to path 0).

References
----------
``thm:lower_bound``, ``apdx_sec:lower_bound``, ``apdx_lem:hard_test``; Kveton et
al. 2015 ("Tight regret bounds for stochastic combinatorial semi-bandits").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import FloatArray, IntArray, OfflineDataset
from offcmab.reference.errors import InputError, check_cardinality
from offcmab.reference.oracles import KPathOracle
from offcmab.reference.problems.cascade import check_means


@dataclass(frozen=True)
class KPathProblem:
    r"""A k-path instance: ``path_means[j]`` is the common mean of the arms of path ``j``.

    Attributes
    ----------
    path_means
        :math:`\mu_j \in [0,1]` for each of the :math:`m/k` paths.
    k
        Number of arms per path.
    """

    path_means: FloatArray
    k: int
    smoothness_B1: float = field(default=1.0, init=False)

    def __post_init__(self) -> None:
        means = check_means(self.path_means, "path_means")
        object.__setattr__(self, "path_means", means)
        if isinstance(self.k, bool) or int(self.k) != self.k or int(self.k) < 1:
            raise InputError("k", f"must be a positive integer, got {self.k!r}")
        object.__setattr__(self, "k", int(self.k))

    @property
    def m(self) -> int:
        """Number of arms, ``k`` times the number of paths."""
        return int(self.path_means.size * self.k)

    @property
    def paths(self) -> int:
        """Number of paths :math:`m/k`."""
        return int(self.path_means.size)

    @property
    def mu(self) -> FloatArray:
        r"""Per-arm means (each path's mean repeated ``k`` times)."""
        return np.repeat(self.path_means, self.k)

    def oracle(self) -> KPathOracle:
        """The exact best-path oracle (``alpha = 1``)."""
        return KPathOracle(self.m, self.k)

    def path_arms(self, j: int) -> IntArray:
        """Arms of path ``j`` (0-based)."""
        if not 0 <= j < self.paths:
            raise InputError("path", f"must lie in [0, {self.paths}), got {j}")
        return np.arange(j * self.k, (j + 1) * self.k, dtype=np.int64)

    def _arms(self, action: npt.ArrayLike) -> IntArray:
        ids = np.asarray(action)
        if ids.ndim != 1 or ids.size == 0 or ids.dtype.kind not in "iu":
            raise InputError("action", "must be a non-empty flat list of arm ids")
        ids = ids.astype(np.int64)
        if ids.min() < 0 or ids.max() >= self.m or np.unique(ids).size != ids.size:
            raise InputError("action", f"must list distinct arm ids in [0, {self.m})")
        return ids

    def reward(self, action: IntArray, mu: npt.ArrayLike | None = None) -> float:
        r"""Exact :math:`r(S;\mu) = \sum_{i \in S} \mu_i` (``mu`` per arm; true means if None).

        Infinite weights follow the extended reals (a sum mixing both signs of
        infinity is reported as :math:`-\infty`, as :class:`KPathOracle` ranks it).
        """
        ids = self._arms(action)
        weights = self.mu if mu is None else np.asarray(mu, dtype=np.float64)
        if weights.shape != (self.m,) or np.any(np.isnan(weights)):
            raise InputError("mu", f"must be a vector of length m={self.m} without NaN")
        chosen = weights[ids]
        if np.isposinf(chosen).any() and np.isneginf(chosen).any():
            return -math.inf
        return float(chosen.sum())

    def trigger_probabilities(self, action: IntArray) -> FloatArray:
        r"""Semi-bandit: :math:`p_i^{\mathbb{D}_{\text{arm}},S} = \mathbb{1}\{i \in S\}`."""
        p = np.zeros(self.m)
        p[self._arms(action)] = 1.0
        return p

    def optimal_path(self) -> int:
        """Index of the best path, ties toward the smaller index."""
        return int(np.argmax(self.path_means))

    def optimal_action(self) -> IntArray:
        r""":math:`S^*`, the arms of the best path."""
        return self.path_arms(self.optimal_path())

    def gap(self, action: IntArray) -> float:
        r"""Suboptimality gap :math:`g(S;\mu) = r(S^*;\mu) - r(S;\mu)` (lower-bound proof)."""
        return self.reward(self.optimal_action()) - self.reward(action)


@dataclass(frozen=True)
class PathLaw:
    r"""Data law drawing path ``j`` with probability ``path_probabilities[j]``, i.i.d.

    Each sample logs the path (as the action and as the triggered arms) and the
    path's common Bernoulli outcome for each of its ``k`` arms.  Exact:
    :math:`p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}} = w_{j(i)}`.
    """

    problem: KPathProblem
    path_probabilities: FloatArray
    exact: bool = field(default=True, init=False)

    def __post_init__(self) -> None:
        w = np.asarray(self.path_probabilities, dtype=np.float64)
        if w.shape != (self.problem.paths,) or not np.all(np.isfinite(w)):
            raise InputError("path_probabilities", f"must be {self.problem.paths} finite numbers")
        if w.min() < 0 or w.max() > 1.0 or abs(w.sum() - 1.0) > 1e-9:  # max first: no overflow
            raise InputError("path_probabilities", "must be non-negative and sum to 1")
        object.__setattr__(self, "path_probabilities", w / w.sum())

    def sample(self, n: int, rng: np.random.Generator) -> OfflineDataset:
        """Draw ``n`` paths and their outcomes (array operations only)."""
        if isinstance(n, bool) or int(n) != n or int(n) < 1:
            raise InputError("n", f"must be a positive integer, got {n!r}")
        n, k = int(n), self.problem.k
        paths = rng.choice(self.problem.paths, size=n, p=self.path_probabilities)
        outcomes = rng.random(n) < self.problem.path_means[paths]
        arms = (paths[:, None] * k + np.arange(k)).reshape(-1).astype(np.int64)
        offsets = np.arange(0, n * k + 1, k, dtype=np.int64)
        return OfflineDataset(self.problem.m, offsets, arms,
                              np.repeat(outcomes, k).astype(np.float64), offsets, arms)

    def data_trigger_probabilities(self) -> FloatArray:
        r"""Exact :math:`p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}} = w_{j(i)}`."""
        return np.repeat(self.path_probabilities, self.problem.k)

    def coverage_inf(self) -> float:
        r""":math:`C_\infty^* = \max_i p_i^{S^*}/p_i^{\mathbb{D}_{\mathcal S}}` (inf: uncovered)."""
        w = self.path_probabilities[self.problem.optimal_path()]
        return math.inf if w == 0 else 1.0 / float(w)

    def kl_divergence(self, other: PathLaw, n: int) -> float:
        r"""Exact KL divergence between the laws of ``n``-sample logs of ``self`` and ``other``.

        One sample is the pair (path, common outcome); the ``k`` copies of the
        outcome add no information.  Hence

        .. math::

            \mathrm{KL} = n \sum_j w_j \Big[\log\frac{w_j}{w'_j}
                + \mathrm{kl}(\mu_j, \mu'_j)\Big],

        with :math:`\mathrm{kl}` the Bernoulli divergence (:math:`+\infty` when
        ``self`` puts mass where ``other`` has none).
        """
        if other.problem.paths != self.problem.paths or other.problem.k != self.problem.k:
            raise InputError("other", "must be a law over the same paths")
        total = 0.0
        for w, w2, a, b in zip(self.path_probabilities, other.path_probabilities,
                               self.problem.path_means, other.problem.path_means, strict=True):
            if w == 0:
                continue
            if w2 == 0:
                return math.inf
            total += w * (math.log(w / w2) + bernoulli_kl(float(a), float(b)))
        return n * total


def bernoulli_kl(a: float, b: float) -> float:
    r"""Exact Bernoulli divergence :math:`a\log\frac{a}{b} + (1-a)\log\frac{1-a}{1-b}`.

    Uses :math:`0 \log 0 = 0`; :math:`+\infty` when ``a`` puts mass where ``b`` has none.
    """
    total = 0.0
    for p, q in ((a, b), (1.0 - a, 1.0 - b)):
        if p > 0:
            if q <= 0:
                return math.inf
            total += p * math.log(p / q)
    return total


Variant = Literal["printed", "proved"]


@dataclass(frozen=True)
class LowerBoundFamily:
    r"""The two instances :math:`(\mathcal P_1, \mathcal P_2)` of the lower-bound proof.

    Attributes
    ----------
    first, second
        The data laws of :math:`\mathcal P_1` and :math:`\mathcal P_2` (same
        :math:`\mathbb{D}_{\mathcal S}`, different means).
    gap_parameter
        :math:`\Delta \in [0, 1/4]`.
    C_inf
        The target coverage :math:`C_\infty^* \ge 2`.
    variant
        ``"printed"`` or ``"proved"``.
    """

    first: PathLaw
    second: PathLaw
    gap_parameter: float
    C_inf: float
    variant: Variant

    def kl_divergence(self, n: int) -> float:
        r"""Exact KL divergence of the n-sample log laws of the first and second instance."""
        return self.first.kl_divergence(self.second, n)

    def proof_kl_bound(self, n: int) -> float:
        r"""The proof's claimed bound :math:`20 n \Delta^2 / C_\infty^*`."""
        return 20.0 * n * self.gap_parameter**2 / self.C_inf

    def certified_lower_bound(self, n: int) -> float:
        r"""Le Cam's certified bound for this pair, :math:`\frac{k\Delta}{8} e^{-\mathrm{KL}_n}`.

        For every algorithm, :math:`\max_{\ell} \mathbb{E}_{\mathcal P_\ell}[g] \ge
        \frac12 \sum_\ell \mathbb{E}_{\mathcal P_\ell}[g] \ge \frac{k\Delta}{8}
        e^{-\mathrm{KL}}` (``apdx_lem:hard_test``, with :math:`g_1 + g_2 \ge k\Delta`),
        evaluated with the exact KL of :meth:`kl_divergence` and the exact
        :meth:`min_gap_sum` in place of :math:`k\Delta`.
        """
        return self.min_gap_sum() / 8.0 * math.exp(-self.kl_divergence(n))

    def coverages(self) -> tuple[float, float]:
        r""":math:`C_\infty^*` of :math:`\mathcal P_1` and of :math:`\mathcal P_2`."""
        return self.first.coverage_inf(), self.second.coverage_inf()

    def gaps(self, action: IntArray) -> tuple[float, float]:
        r""":math:`(g(S;\mu_1), g(S;\mu_2))` for one action."""
        return self.first.problem.gap(action), self.second.problem.gap(action)

    def min_gap_sum(self) -> float:
        r""":math:`\min_S [g(S;\mu_1) + g(S;\mu_2)]` over paths (the proof needs k Delta)."""
        problem = self.first.problem
        return min(sum(self.gaps(problem.path_arms(j))) for j in range(problem.paths))


def lower_bound_family(
    m: int, k: int, C_inf: float, gap_parameter: float, variant: Variant = "proved"
) -> LowerBoundFamily:
    r"""Build the lower-bound pair of k-path instances.

    ``"printed"`` (``apdx_sec:lower_bound`` as written): path means
    :math:`\mu_1 = (\tfrac12, \tfrac12-\Delta, 0, \dots)`,
    :math:`\mu_2 = (\tfrac12, \tfrac12+\Delta, 0, \dots)`; the perturbed path is
    observed with probability :math:`1 - 1/C_\infty^*`, so the exact KL is
    :math:`n(1-1/C_\infty^*)\,\mathrm{kl}(\tfrac12-\Delta, \tfrac12+\Delta)`,
    not at most :math:`n\,\mathrm{kl}/C_\infty^*`.

    ``"proved"``: :math:`\mu_1 = (\tfrac12-\Delta, \tfrac12, 0, \dots)`,
    :math:`\mu_2 = (\tfrac12+\Delta, \tfrac12, 0, \dots)`; the perturbed path 0
    is observed with probability :math:`1/C_\infty^*`, the KL is
    :math:`n\,\mathrm{kl}(\tfrac12-\Delta,\tfrac12+\Delta)/C_\infty^*`, and both
    instances still satisfy the coverage condition with :math:`C_\infty^*`
    (:math:`\mathcal P_1`'s best path is path 1, ratio
    :math:`1/(1-1/C_\infty^*) \le C_\infty^*`; :math:`\mathcal P_2`'s is path 0,
    ratio :math:`C_\infty^*`).  Both variants use
    :math:`\mathbf p = (1/C_\infty^*, 1-1/C_\infty^*, 0, \dots)`.
    """
    k = check_cardinality(k, m)
    if m % k or m // k < 2:
        raise InputError("m", f"must be a multiple of k={k} with at least two paths, got {m}")
    if not (math.isfinite(C_inf) and C_inf >= 2):
        raise InputError("C_inf", f"must be a finite number of at least 2, got {C_inf!r}")
    if not 0.0 <= gap_parameter <= 0.25:
        raise InputError("gap_parameter", f"must lie in [0, 1/4], got {gap_parameter!r}")
    if variant not in ("printed", "proved"):
        raise InputError("variant", f"must be 'printed' or 'proved', got {variant!r}")
    paths = m // k
    perturbed = 1 if variant == "printed" else 0
    means = []
    for sign in (-1.0, 1.0):
        mu = np.zeros(paths)
        mu[:2] = 0.5
        mu[perturbed] = 0.5 + sign * gap_parameter
        means.append(mu)
    w = np.zeros(paths)
    w[0], w[1] = 1.0 / C_inf, 1.0 - 1.0 / C_inf
    first, second = (PathLaw(KPathProblem(mu, k), w) for mu in means)
    return LowerBoundFamily(first, second, float(gap_parameter), float(C_inf), variant)


def lower_bound_gap_parameter(C_inf: float, n: int) -> float:
    r"""The proof's choice :math:`\Delta = \min(1/4, \sqrt{C_\infty^*/(20n)})`."""
    return min(0.25, math.sqrt(C_inf / (20.0 * n)))


def check_kpath_log(dataset: OfflineDataset, k: int) -> OfflineDataset:
    r"""Return ``dataset`` after checking its logged actions are paths of ``k`` arms.

    A feasible action is a path: the ``k`` consecutive arms ``j*k, ..., j*k+k-1``.  Feedback
    is semi-bandit, so every arm of the played path is triggered: the triggered arms of a
    sample are its action.  Checked by array operations on the CSR layout.

    Raises
    ------
    InputError
        Naming the field and the first offending sample (``InputError.sample``); on
        ``actions`` when the log records none (there is nothing to check).
    """
    if dataset.actions is None or dataset.action_offsets is None:
        raise InputError("actions", "the log records no actions to check (JSON Lines: an "
                         "\"action\" list per sample; .npz: actions and action_offsets)")
    KPathOracle(dataset.m, k)  # k must divide m
    for name, offsets in (("actions", dataset.action_offsets),
                          ("triggered", dataset.triggered_offsets)):
        wrong = np.flatnonzero(np.diff(offsets) != k)
        if wrong.size:
            t = int(wrong[0])
            raise InputError(name, f"lists {int(offsets[t + 1] - offsets[t])} arms; a path "
                             f"has k={k}", sample=t)
    paths = np.sort(dataset.actions.reshape(-1, k), axis=1)
    starts = paths[:, 0] - paths[:, 0] % k
    not_path = ~(paths == starts[:, None] + np.arange(k)).all(axis=1)
    if not_path.any():
        t = int(np.argmax(not_path))
        raise InputError("actions", f"{paths[t].tolist()} is not a path (k={k} consecutive "
                         f"arms from a multiple of k)", sample=t)
    other = ~(np.sort(dataset.triggered.reshape(-1, k), axis=1) == paths).all(axis=1)
    if other.any():
        raise InputError("triggered", "must be the arms of the logged path (every arm of "
                         "the played path is observed)", sample=int(np.argmax(other)))
    return dataset
