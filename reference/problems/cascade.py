r"""Cascading bandits: ranked lists of ``k`` items, a click ends the user's scan.

The user scans the list :math:`S = (a_1, \dots, a_k)` from the top and clicks the
first attractive item; item :math:`i` is attractive with probability
:math:`\mu_i`, independently.  The items up to and including the click (all
``k`` items when nothing is clicked) are observed:

.. math::

    r(S;\mu) = 1 - \prod_{i \in S} (1 - \mu_i), \qquad
    p_{a_j}^{\mathbb{D}_{\text{arm}},S} = \prod_{l < j} (1 - \mu_{a_l}).

The data laws below draw ranked lists i.i.d. from :math:`\mathbb{D}_{\mathcal S}`
(uniform ordered lists, explicit mixtures of lists, any position matrix
:math:`q_{ij}`) and, for the paper's Figure 2, adaptively (UCB-, LCB- and
mean-based lists).  Their data triggering probabilities
:math:`p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}}` are exact where the
data are i.i.d.

References
----------
``sec:app_ranking``, ``apdx_sec:app_ranking`` (``apdx_eq:ranking_p*``,
``apdx_eq:ranking_p_S``), ``app:extended`` (``sec:Cascading``), ``fig:multiple``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import permutations
from typing import Literal

import numpy as np
import numpy.typing as npt

from offcmab.reference.confidence import clip_bound, hoeffding_radius
from offcmab.reference.dataset import FloatArray, IntArray, OfflineDataset
from offcmab.reference.errors import InputError, check_cardinality, check_probability
from offcmab.reference.oracles import TopK, top_k
from offcmab.reference.problems.cascade_log import check_cascade_log


def check_means(mu: npt.ArrayLike, field: str = "mu") -> FloatArray:
    """Return ``mu`` as a flat float array after checking it is non-empty, finite, in [0, 1]."""
    array = np.asarray(mu, dtype=np.float64)
    if array.ndim != 1 or array.size == 0:
        raise InputError(field, f"must be a non-empty flat vector, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise InputError(field, "must be finite (found NaN or infinity)")
    if array.min() < 0.0 or array.max() > 1.0:
        raise InputError(field, "must lie in [0, 1]")
    return array


def check_ranked_list(action: npt.ArrayLike, m: int, field: str = "action") -> IntArray:
    """Return ``action`` as ``int64`` after checking it lists distinct arm ids in ``[0, m)``."""
    array = np.asarray(action)
    if array.ndim != 1 or array.size == 0:
        raise InputError(field, "must be a non-empty flat list of arm ids")
    if array.dtype.kind not in "iu":
        raise InputError(field, f"must contain integers, got dtype {array.dtype}")
    ids = array.astype(np.int64)
    if ids.min() < 0 or ids.max() >= m:
        raise InputError(field, f"arm ids must lie in [0, {m})")
    if np.unique(ids).size != ids.size:
        raise InputError(field, "lists an arm more than once")
    return ids


@dataclass(frozen=True)
class CascadeProblem:
    r"""A cascading bandit instance: ``m`` items with click probabilities ``mu``, lists of ``k``.

    Attributes
    ----------
    mu
        Click (attraction) probabilities :math:`\mu_i \in [0, 1]`.
    k
        Length of the ranked list, :math:`1 \le k \le m`.
    """

    mu: FloatArray
    k: int
    smoothness_B1: float = field(default=1.0, init=False)

    def __post_init__(self) -> None:
        mu = check_means(self.mu)
        object.__setattr__(self, "mu", mu)
        object.__setattr__(self, "k", check_cardinality(self.k, mu.size))

    @property
    def m(self) -> int:
        """Number of items (base arms)."""
        return int(self.mu.size)

    def oracle(self) -> TopK:
        r"""Top-``k`` by weight: exact for :math:`1-\prod(1-w_i)` (``alpha = 1``)."""
        return TopK(self.k)

    def reward(self, action: IntArray, mu: npt.ArrayLike | None = None) -> float:
        r"""Exact :math:`r(S;\mu) = 1 - \prod_{i \in S}(1-\mu_i)`.

        ``mu`` may be any weight vector without NaN, e.g. LCBs (:math:`-\infty`
        for unobserved arms) or UCBs (:math:`+\infty`): weights are first clipped
        to the means' range [0, 1].  Clipping is monotone, so the top-``k`` list
        still maximizes the clipped reward and the value is always in [0, 1].
        """
        ids = check_ranked_list(action, self.m)
        weights = self.mu if mu is None else np.asarray(mu, dtype=np.float64)
        if weights.shape != (self.m,) or np.any(np.isnan(weights)):
            raise InputError("mu", f"must be a vector of length m={self.m} without NaN")
        return float(1.0 - np.prod(1.0 - clip_bound(weights[ids], 0.0, 1.0)))

    def trigger_probabilities(self, action: IntArray) -> FloatArray:
        r"""Exact :math:`p_{a_j}^{\mathbb{D}_{\text{arm}},S} = \prod_{l<j}(1-\mu_{a_l})`; 0 off S.

        References
        ----------
        ``apdx_eq:ranking_p*`` (for :math:`S = S^*`).
        """
        ids = check_ranked_list(action, self.m)
        survive = np.concatenate([[1.0], np.cumprod(1.0 - self.mu[ids])[:-1]])
        p = np.zeros(self.m)
        p[ids] = survive
        return p

    def optimal_action(self) -> IntArray:
        r""":math:`S^*`: the ``k`` largest means in decreasing order, ties toward smaller ids."""
        return top_k(self.mu, self.k)

    def gap(self, action: IntArray) -> float:
        r"""Suboptimality gap :math:`r(S^*;\mu) - r(S;\mu)` (``eq:def_reg`` with alpha 1)."""
        return self.reward(self.optimal_action()) - self.reward(action)


def cascade_feedback(
    mu: FloatArray, lists: IntArray, rng: np.random.Generator
) -> OfflineDataset:
    r"""Simulate the user on each ranked list (one row of ``lists`` per sample).

    Draws :math:`X_{t,a} \sim \text{Bernoulli}(\mu_a)` for the listed items, finds
    the first click by ``argmax`` and keeps the prefix through it (the whole list
    when there is no click).  Built with array operations only.
    """
    clicks = rng.random(lists.shape) < mu[lists]
    return _log_from_clicks(int(mu.size), lists, clicks)


def uniform_ranked_lists(
    n: int, m: int, k: int, rng: np.random.Generator,
    method: Literal["auto", "keys", "rejection"] = "auto",
) -> IntArray:
    r"""``n`` ordered ``k``-lists of distinct items, each uniform over all :math:`m!/(m-k)!` lists.

    Small ``m``: the ``k`` smallest of ``m`` i.i.d. uniform keys, ordered by key
    (a uniformly random permutation's prefix).  Large ``m`` (``k <= m/2``):
    uniform draws with replacement, rows with a repeated item redrawn until none
    remain (exact rejection sampling; a row is accepted with probability at
    least :math:`\prod_{j<k}(1-j/m) \ge 2^{-k}`, each round is vectorized).
    ``method`` forces one of the two ("auto" picks as described).
    """
    if method == "keys" or (method == "auto" and (n * m <= 20_000_000 or 2 * k > m)):
        keys = rng.random((n, m))
        chosen = np.argpartition(keys, k - 1, axis=1)[:, :k] if k < m else \
            np.tile(np.arange(m), (n, 1))
        order = np.argsort(np.take_along_axis(keys, chosen, axis=1), axis=1)
        return np.take_along_axis(chosen, order, axis=1).astype(np.int64)
    lists = rng.integers(0, m, size=(n, k), dtype=np.int64)
    redo = _rows_with_repeats(lists)
    while redo.size:
        lists[redo] = rng.integers(0, m, size=(redo.size, k), dtype=np.int64)
        redo = redo[_rows_with_repeats(lists[redo])]
    return lists


def _rows_with_repeats(lists: IntArray) -> IntArray:
    ordered = np.sort(lists, axis=1)
    return np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))


def _elementary_symmetric_prefix(x: FloatArray, degree: int) -> FloatArray:
    r"""``E[j, i]`` = :math:`e_j(x_0, \dots, x_{i-1})` for ``j <= degree``, ``i <= m``.

    Uses :math:`e_j(x_{<i+1}) = \sum_{l \le i} x_l\, e_{j-1}(x_{<l})`, a cumulative
    sum of non-negative terms (numerically stable), one pass per degree.
    """
    m = x.size
    table = np.zeros((degree + 1, m + 1))
    table[0] = 1.0
    for j in range(1, degree + 1):
        table[j, 1:] = np.cumsum(x * table[j - 1, :-1])
    return table


def leave_one_out_elementary(x: FloatArray, degree: int) -> FloatArray:
    r"""``out[j, i]`` = :math:`e_j(x_{-i})`, the elementary symmetric polynomial without item ``i``.

    Computed as the product of the prefix and suffix generating polynomials,
    truncated at ``degree``: :math:`e_j(x_{-i}) = \sum_{a+b=j} e_a(x_{<i})\,
    e_b(x_{>i})`.  All terms are non-negative, so no cancellation occurs.
    """
    prefix = _elementary_symmetric_prefix(x, degree)[:, :-1]  # e_a(x_{<i})
    suffix = _elementary_symmetric_prefix(x[::-1], degree)[:, :-1][:, ::-1]  # e_b(x_{>i})
    out = np.zeros((degree + 1, x.size))
    for j in range(degree + 1):
        for a in range(j + 1):
            out[j] += prefix[a] * suffix[j - a]
    return out


@dataclass(frozen=True)
class UniformListsLaw:
    r"""Ranked lists drawn uniformly from all ordered ``k``-lists of distinct items.

    This is the synthetic data of the paper's Figure 1(a) (``sec:Cascading``).
    Item :math:`i` sits at position :math:`j` with probability :math:`1/m`; given
    that, the items above it form a uniformly random :math:`(j-1)`-subset of the
    other items, so

    .. math::

        p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}}
        = \frac{1}{m} \sum_{j=0}^{k-1}
          \frac{e_j\big((1-\mu_l)_{l \ne i}\big)}{\binom{m-1}{j}},

    with :math:`e_j` the elementary symmetric polynomial of degree :math:`j`.
    The paper only states the lower bound ``apdx_eq:ranking_p_S``; this is exact.
    """

    problem: CascadeProblem
    exact: bool = field(default=True, init=False)

    def sample(self, n: int, rng: np.random.Generator) -> OfflineDataset:
        """Draw ``n`` uniform ordered lists and the cascade feedback on each."""
        n = _check_size(n)
        lists = uniform_ranked_lists(n, self.problem.m, self.problem.k, rng)
        return cascade_feedback(self.problem.mu, lists, rng)

    def data_trigger_probabilities(self) -> FloatArray:
        r"""Exact :math:`p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}}` (formula above)."""
        m, k = self.problem.m, self.problem.k
        with np.errstate(over="ignore", invalid="ignore"):
            e = leave_one_out_elementary(1.0 - self.problem.mu, k - 1)
            weights = np.array([math.exp(-_log_comb(m - 1, j)) for j in range(k)])
            p = np.asarray(weights @ e / m, dtype=np.float64)
        if not np.all(np.isfinite(p)):
            raise InputError("k", f"k={k} is too large for the exact formula with m={m} "
                             "(floating-point overflow)")
        return p

    def position_matrix(self) -> FloatArray:
        r""":math:`q_{ij} = 1/m` for every item and position."""
        return np.full((self.problem.m, self.problem.k), 1.0 / self.problem.m)


def _log_comb(n: int, j: int) -> float:
    r""":math:`\log \binom{n}{j}` without forming the (possibly huge) integer."""
    return math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)


def _check_size(n: int) -> int:
    if isinstance(n, bool) or int(n) != n or int(n) < 1:
        raise InputError("n", f"must be a positive integer, got {n!r}")
    return int(n)


@dataclass(frozen=True)
class ListMixtureLaw:
    r"""An explicit mixture of ranked lists: ``lists[l]`` with probability ``weights[l]``.

    Exact quantities, summing over the listed lists:

    .. math::

        p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}}
        = \sum_l w_l\, p_i^{\mathbb{D}_{\text{arm}},S_l}, \qquad
        q_{ij} = \sum_l w_l\, \mathbb{1}\{S_l(j) = i\}.
    """

    problem: CascadeProblem
    lists: IntArray
    weights: FloatArray
    exact: bool = field(default=True, init=False)

    def __post_init__(self) -> None:
        m, k = self.problem.m, self.problem.k
        lists = np.asarray(self.lists)
        if lists.ndim != 2 or lists.shape[1] != k or lists.shape[0] == 0:
            raise InputError("lists", f"must be a non-empty (L, k={k}) array of arm ids")
        lists = np.stack([check_ranked_list(row, m, "lists") for row in lists])
        weights = np.asarray(self.weights, dtype=np.float64)
        if weights.shape != (lists.shape[0],) or not np.all(np.isfinite(weights)):
            raise InputError("weights", f"must be {lists.shape[0]} finite numbers")
        if weights.min() < 0 or abs(weights.sum() - 1.0) > 1e-9:
            raise InputError("weights", "must be non-negative and sum to 1")
        object.__setattr__(self, "lists", lists)
        object.__setattr__(self, "weights", weights / weights.sum())

    def sample(self, n: int, rng: np.random.Generator) -> OfflineDataset:
        """Draw ``n`` lists i.i.d. from the mixture and the cascade feedback on each."""
        n = _check_size(n)
        index = rng.choice(self.weights.size, size=n, p=self.weights)
        return cascade_feedback(self.problem.mu, self.lists[index], rng)

    def data_trigger_probabilities(self) -> FloatArray:
        r"""Exact :math:`\sum_l w_l p_i^{\mathbb{D}_{\text{arm}},S_l}`."""
        survive = np.cumprod(1.0 - self.problem.mu[self.lists], axis=1)
        reach = np.hstack([np.ones((self.lists.shape[0], 1)), survive[:, :-1]])
        p = np.zeros(self.problem.m)
        np.add.at(p, self.lists, self.weights[:, None] * reach)
        return p

    def position_matrix(self) -> FloatArray:
        r"""Exact :math:`q_{ij}`, the probability that item ``i`` is at position ``j``."""
        q = np.zeros((self.problem.m, self.problem.k))
        positions = np.broadcast_to(np.arange(self.problem.k), self.lists.shape)
        np.add.at(q, (self.lists, positions), np.broadcast_to(self.weights[:, None],
                                                               self.lists.shape))
        return q

    @classmethod
    def from_position_matrix(
        cls, problem: CascadeProblem, q: npt.ArrayLike, tol: float = 1e-9
    ) -> ListMixtureLaw:
        r"""A mixture of ranked lists whose position matrix is exactly ``q``.

        ``q`` is ``m x k`` with non-negative entries, column sums 1 and row sums at
        most 1.  A Birkhoff--von Neumann style peeling writes it as a convex
        combination of ordered lists: with :math:`\lambda` the common remaining
        column sum, each step finds a matching that fills every position and every
        *tight* row (remaining row sum :math:`= \lambda`), subtracts the largest
        multiple :math:`\theta` that keeps all entries non-negative and no row
        sum above :math:`\lambda - \theta`, and records the list with weight
        :math:`\theta`.  Each step zeroes an entry or makes a row tight, so there
        are at most :math:`mk + m` steps.

        ``q`` does not determine :math:`p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}}`
        (which depends on which items share a list), so the returned mixture is
        one law with position matrix ``q``, and its probabilities are exact for
        that law.  Every such law satisfies the paper's lower bound
        :math:`p_i \ge \sum_j q_{ij}(1-\mu_1)^{j-1}` (``apdx_eq:ranking_p_S``).
        """
        matrix = _check_position_matrix(q, problem.m, problem.k, tol)
        lists, weights = _peel_position_matrix(matrix, tol)
        law = cls(problem, np.asarray(lists, dtype=np.int64), np.asarray(weights))
        error = np.abs(law.position_matrix() - matrix).max()
        if error > 1e-7:
            raise InputError("q", f"decomposition failed (max error {error:.2e})")
        return law


def _check_position_matrix(q: npt.ArrayLike, m: int, k: int, tol: float) -> FloatArray:
    matrix = np.array(q, dtype=np.float64)
    if matrix.shape != (m, k):
        raise InputError("q", f"must have shape (m, k) = ({m}, {k}), got {matrix.shape}")
    if not np.all(np.isfinite(matrix)) or matrix.min() < -tol:
        raise InputError("q", "must hold finite non-negative probabilities")
    if np.abs(matrix.sum(axis=0) - 1.0).max() > 1e-6:
        raise InputError("q", "every column (position) must sum to 1")
    if matrix.sum(axis=1).max() > 1.0 + 1e-6:
        raise InputError("q", "every row (item) must sum to at most 1")
    return np.clip(matrix, 0.0, None)


def _peel_position_matrix(
    matrix: FloatArray, tol: float
) -> tuple[list[list[int]], list[float]]:
    q = matrix.copy()
    lists: list[list[int]] = []
    weights: list[float] = []
    lam = 1.0
    while lam > tol:
        rows = q.sum(axis=1)
        tight = np.flatnonzero(rows >= lam - tol)
        match = _matching(q > tol, tight)
        if match is None:
            raise InputError("q", "cannot be written as a mixture of ranked lists")
        chosen = q[match, np.arange(q.shape[1])]
        free = np.setdiff1d(np.arange(q.shape[0]), match)
        theta = min(float(chosen.min()), lam)
        if free.size:
            theta = min(theta, float((lam - rows[free]).min()))
        theta = max(theta, tol)
        q[match, np.arange(q.shape[1])] -= theta
        q[q < tol] = 0.0
        lam -= theta
        lists.append(match.tolist())
        weights.append(theta)
    total = sum(weights)
    return lists, [w / total for w in weights]


def _matching(support: npt.NDArray[np.bool_], tight: IntArray) -> IntArray | None:
    """Rows matched to each column, covering all columns and all ``tight`` rows, or None.

    Augmenting paths (Kuhn's algorithm) never unmatch a matched vertex, so
    augmenting first from the tight rows and then from the columns keeps both.
    """
    m, k = support.shape
    row_of = np.full(k, -1)
    col_of = np.full(m, -1)
    neighbours_of_col = [np.flatnonzero(support[:, j]) for j in range(k)]
    neighbours_of_row = [np.flatnonzero(support[i]) for i in range(m)]

    def augment_from_column(j: int, seen: set[int]) -> bool:
        for i in neighbours_of_col[j]:
            if i in seen:
                continue
            seen.add(int(i))
            if col_of[i] < 0 or augment_from_column(int(col_of[i]), seen):
                col_of[i], row_of[j] = j, i
                return True
        return False

    def augment_from_row(i: int, seen: set[int]) -> bool:
        for j in neighbours_of_row[i]:
            if j in seen:
                continue
            seen.add(int(j))
            if row_of[j] < 0 or augment_from_row(int(row_of[j]), seen):
                row_of[j], col_of[i] = i, j
                return True
        return False

    for i in tight:
        if col_of[i] < 0 and not augment_from_row(int(i), set()):
            return None
    for j in range(k):
        if row_of[j] < 0 and not augment_from_column(j, set()):
            return None
    return row_of.astype(np.int64)


AdaptiveRule = Literal["ucb", "lcb", "mean"]


@dataclass(frozen=True)
class AdaptiveListsLaw:
    r"""Adaptively collected lists of the paper's Figure 2: top-``k`` by UCB, LCB or mean.

    The paper says only "select the top K=5 arms with the largest UCB, LCB, and
    empirical reward means" (``fig:multiple``).  Precisely, for rounds
    :math:`t = 1, \dots, n`, with :math:`N_i(t)` and :math:`\hat\mu_i(t)` the
    counter and empirical mean of item ``i`` over the cascade feedback of rounds
    :math:`< t`:

    * ``"ucb"``: :math:`S_t` = top-``k`` of :math:`\hat\mu_i(t) + \rho_i(t)`;
    * ``"lcb"``: :math:`S_t` = top-``k`` of :math:`\hat\mu_i(t) - \rho_i(t)`;
    * ``"mean"``: :math:`S_t` = top-``k`` of :math:`\hat\mu_i(t)`;

    with :math:`\rho_i(t) = \sqrt{\log(2mn/\delta)/(2N_i(t))}` (the radius of
    CLCB-Cascade, ``line:LCB_cascade``, so that ``"ucb"`` is the online CUCB
    learner and ``"lcb"`` its pessimistic twin), ``delta`` defaulting to 0.05.
    Unobserved items (:math:`N_i(t)=0`) have UCB :math:`+\infty` (explored
    first), LCB :math:`-\infty` (never preferred to an observed item) and mean
    ``unobserved_mean`` (default 0, as an all-zeros initialization gives).  The
    list is ordered by decreasing index; ties go to smaller ids (:func:`top_k`).
    The feedback on :math:`S_t` is the cascade feedback.

    These data are not i.i.d.: :math:`S_t` depends on earlier rounds, so the
    paper's :math:`p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}}` is not
    defined.  :meth:`data_trigger_probabilities` returns instead the expected
    per-round observation frequency :math:`\mathbb{E}[N_i(n+1)]/n` over a
    horizon of ``horizon`` rounds, by Monte-Carlo (``exact = False``), and
    :meth:`observation_frequency` also returns its standard error.  Generating
    a dataset loops over rounds (the data are sequential by definition), each
    round costing :math:`O(m + k)` array work.
    """

    problem: CascadeProblem
    rule: AdaptiveRule
    delta: float = 0.05
    unobserved_mean: float = 0.0
    horizon: int = 100
    replications: int = 200
    seed: int = 0
    exact: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        if self.rule not in ("ucb", "lcb", "mean"):
            raise InputError("rule", f"must be 'ucb', 'lcb' or 'mean', got {self.rule!r}")
        check_probability(self.delta)
        _check_size(self.horizon)
        _check_size(self.replications)

    def _index(self, counts: IntArray, sums: FloatArray, n: int) -> FloatArray:
        means = np.divide(sums, counts, out=np.full(counts.size, np.nan), where=counts > 0)
        if self.rule == "mean":
            return np.where(counts > 0, means, self.unobserved_mean)
        radius = hoeffding_radius(counts, n, counts.size, self.delta, "cascade")
        if self.rule == "ucb":
            return np.where(counts > 0, means + radius, np.inf)
        return np.where(counts > 0, means - radius, -np.inf)

    def sample(self, n: int, rng: np.random.Generator) -> OfflineDataset:
        """Run ``n`` adaptive rounds and return their log (sequential by definition)."""
        n = _check_size(n)
        m, k, mu = self.problem.m, self.problem.k, self.problem.mu
        counts = np.zeros(m, dtype=np.int64)
        sums = np.zeros(m)
        lists = np.empty((n, k), dtype=np.int64)
        clicks = rng.random((n, k))
        for t in range(n):
            lists[t] = top_k(self._index(counts, sums, n), k)
            outcome = clicks[t] < mu[lists[t]]
            seen = int(outcome.argmax()) + 1 if outcome.any() else k
            counts[lists[t, :seen]] += 1
            sums[lists[t, :seen]] += outcome[:seen]
        observed = clicks < mu[lists]
        return _log_from_clicks(m, lists, observed)

    def observation_frequency(
        self, n: int, replications: int, rng: np.random.Generator
    ) -> tuple[FloatArray, FloatArray]:
        r"""Monte-Carlo :math:`\mathbb{E}[N_i]/n` over ``n`` rounds and its standard error.

        The standard error is the sample standard deviation of the per-replication
        frequencies over :math:`\sqrt{\text{replications}}`.
        """
        replications = _check_size(replications)
        freq = np.empty((replications, self.problem.m))
        for r in range(replications):
            data = self.sample(n, rng)
            freq[r] = np.bincount(data.triggered, minlength=self.problem.m) / n
        spread = freq.std(axis=0, ddof=1) if replications > 1 else np.full(freq.shape[1], np.inf)
        return freq.mean(axis=0), spread / math.sqrt(replications)

    def data_trigger_probabilities(self) -> FloatArray:
        """Monte-Carlo observation frequency at ``horizon`` rounds (seeded by ``seed``)."""
        mean, _ = self.observation_frequency(
            self.horizon, self.replications, np.random.default_rng(self.seed)
        )
        return mean


def _log_from_clicks(m: int, lists: IntArray, clicks: npt.NDArray[np.bool_]) -> OfflineDataset:
    """CSR log of cascade feedback: each row's prefix through its first click (all if none)."""
    n, k = lists.shape
    clicked = clicks.any(axis=1)
    lengths = np.where(clicked, clicks.argmax(axis=1) + 1, k)
    observed = np.arange(k) < lengths[:, None]
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return OfflineDataset(
        m,
        offsets,
        lists[observed].astype(np.int64),
        clicks[observed].astype(np.float64),
        np.arange(0, n * k + 1, k, dtype=np.int64),
        lists.reshape(-1).astype(np.int64),
    )


def ranked_lists(problem: CascadeProblem) -> list[tuple[int, ...]]:
    """Every ordered ``k``-list of distinct items (for brute force on small instances)."""
    return list(permutations(range(problem.m), problem.k))


__all__ = [
    "AdaptiveListsLaw",
    "CascadeProblem",
    "ListMixtureLaw",
    "UniformListsLaw",
    "cascade_feedback",
    "check_cascade_log",
    "check_means",
    "check_ranked_list",
    "leave_one_out_elementary",
    "ranked_lists",
    "uniform_ranked_lists",
]
