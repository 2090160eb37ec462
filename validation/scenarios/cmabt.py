r"""CMAB-T instances as plain data: cascade and k-path problems with their data laws.

An instance's ``params`` name a problem family and a data law; :func:`build` turns
them into the reference objects of :mod:`offcmab.reference.problems` (cached per parameter
set, so a worker builds each instance once).  The laws:

``uniform``
    Cascade lists drawn uniformly (the paper's Figure 1(a) data).
``mixture``
    An explicit mixture of ranked lists (``lists``, ``weights``).
``ood``
    An out-of-distribution mixture: every list leaves out one item of the optimal
    list and puts the best other item in its place, so the data never play an
    optimal action, yet every optimal item is observed.
``paths``
    k-path data drawing path ``j`` with probability ``weights[j]``.
``seeds``
    Influence maximization with edge-level feedback (family ``im-edge``): seeds from a
    product law ``q``, every edge out of an active node observed
    (:class:`offcmab.reference.im.problem.EdgeLevelIM`,
    :class:`~offcmab.reference.im.problem.ProductSeedLaw`).

Every setup carries the oracle the algorithm uses: the problem's own exact oracle, and
for ``im-edge`` an exact brute-force one (:math:`\alpha = 1`; the problem's IMM oracle
is only :math:`(1-1/e-\varepsilon)`-approximate with a failure probability of its own).

:func:`coverage` asks :mod:`offcmab.bounds.coefficients` for the exact coefficients.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from offcmab.bounds.coefficients import problem_coverage
from offcmab.reference.im.problem import EdgeLevelIM, ProductSeedLaw
from offcmab.reference.problems.base import CMABTProblem
from offcmab.reference.problems.cascade import (
    CascadeProblem,
    ListMixtureLaw,
    UniformListsLaw,
)
from offcmab.reference.problems.kpath import KPathProblem, PathLaw
from offcmab.validation import regions as region
from offcmab.validation.actions import as_action
from offcmab.validation.evaluator import cmab as evaluator
from offcmab.validation.evaluator.crosscheck import agree
from offcmab.validation.evaluator.extremes import Extremes
from offcmab.validation.parts.scenario import MaxGap
from offcmab.validation.parts.spec import Instance
from offcmab.validation.scenarios.common import rounded
from offcmab.validation.scenarios.im import exact_oracle, ic_graph
from offcmab.validation.scenarios.relabel import is_relabeled


@dataclass(frozen=True)
class Setup:
    """A problem and its data law, built from an instance's parameters."""

    problem: CMABTProblem
    oracle: Any  # an Oracle
    law: Any  # a DataLaw (frozen laws declare ``exact`` read-only, which the protocol's
    #           plain attribute does not accept under mypy)


_CACHE: dict[str, Setup] = {}
_COVERAGE: dict[str, dict[str, Any]] = {}
_EVALUATION: dict[str, Extremes] = {}


def ood_lists(mu: np.ndarray, k: int) -> list[list[int]]:
    """Lists that each replace one optimal item by the best other item (never optimal)."""
    order = np.argsort(-mu, kind="stable")
    best, filler = [int(i) for i in order[:k]], int(order[k])
    lists = []
    for j in range(k):
        items = best[:j] + best[j + 1 :]
        lists.append([*items[j:], filler, *items[:j]])  # the filler moves through positions
    return lists


#: Items and list length of :func:`wide_cascade`, and the dataset size its event rows use.
WIDE_ITEMS, WIDE_K, WIDE_N = 600, 2, 12000


def wide_cascade(m: int = WIDE_ITEMS, k: int = WIDE_K) -> dict[str, Any]:
    r"""A cascade with many items whose attraction is near 1/2, every item shown often.

    The means :math:`0.5 + 0.1\sin i` (three decimals) lie in [0.4, 0.6], where a
    Bernoulli outcome has nearly its largest variance, so Hoeffding's inequality is close to
    tight for each item; the law draws uniformly one of the ``m`` rotations
    :math:`(j, j+1, \dots, j+k-1) \bmod m`, so every item is first in one list and shown in
    about :math:`1.5\,n/m` rounds of ``n`` (for ``k = 2``).  A confidence event that
    promises every interval covers *at once* is tested hardest here: with hundreds of
    items, a radius that lets each interval miss with probability :math:`10^{-3}` makes
    the event fail in most datasets.
    """
    mu = np.round(0.5 + 0.1 * np.sin(np.arange(m)), 3)
    lists = (np.arange(m)[:, None] + np.arange(k)[None, :]) % m
    return {"family": "cascade", "mu": mu.tolist(), "k": k,
            "law": {"kind": "mixture", "lists": lists.tolist(), "weights": [1.0 / m] * m}}


#: Sources, targets and logged rounds of :func:`wide_im_edge`.
WIDE_SOURCES, WIDE_TARGETS, WIDE_ROUNDS = 20, 25, 40


def wide_im_edge(sources: int = WIDE_SOURCES, targets: int = WIDE_TARGETS) -> dict[str, Any]:
    r"""Edge-level IM on a complete bipartite graph whose every edge is tried in every round.

    ``sources * targets`` edges (500) with probabilities :math:`0.5 + 0.1\sin e` (three
    decimals) in [0.4, 0.6]; every source is seeded in every logged round (``q = 1``;
    targets have no out-edges and are never seeds), so each round observes every edge once
    and after ``n`` rounds every arm has :math:`N_i = n`.  The union over hundreds of arms
    near 1/2, each seen as often as the data allow, is where a confidence radius too narrow
    for the union bound shows (the ``im-edge-wide`` event row).
    """
    edges = sources * targets
    p = np.round(0.5 + 0.1 * np.sin(np.arange(edges)), 3)
    graph = {"nodes": sources + targets,
             "sources": np.repeat(np.arange(sources), targets).tolist(),
             "targets": (sources + np.tile(np.arange(targets), sources)).tolist(),
             "p": p.tolist()}
    return {"family": "im-edge", "graph": graph, "k": 1,
            "law": {"kind": "seeds", "q": [1.0] * sources + [0.0] * targets}}


def build(params: Mapping[str, Any]) -> Setup:
    """The problem and data law an instance describes (cached)."""
    key = json.dumps(params, sort_keys=True)
    if key not in _CACHE:
        _CACHE[key] = _build(params)
    return _CACHE[key]


def _build(params: Mapping[str, Any]) -> Setup:
    law = params["law"]
    if params["family"] == "im-edge":
        graph = ic_graph(params["graph"])
        return Setup(EdgeLevelIM(graph, params["k"]), exact_oracle(graph, params["k"]),
                     ProductSeedLaw(graph, np.asarray(law["q"], dtype=float)))
    if params["family"] == "kpath":
        path_problem = KPathProblem(np.asarray(params["path_means"], dtype=float), params["k"])
        return Setup(path_problem, path_problem.oracle(),
                     PathLaw(path_problem, np.asarray(law["weights"], dtype=float)))
    problem = CascadeProblem(np.asarray(params["mu"], dtype=float), params["k"])
    if law["kind"] == "uniform":
        return Setup(problem, problem.oracle(), UniformListsLaw(problem))
    if law["kind"] == "ood":
        lists = ood_lists(problem.mu, problem.k)
        weights = np.full(len(lists), 1.0 / len(lists))
        return Setup(problem, problem.oracle(),
                     ListMixtureLaw(problem, np.asarray(lists), weights))
    return Setup(problem, problem.oracle(),
                 ListMixtureLaw(problem, np.asarray(law["lists"]),
                                np.asarray(law["weights"], dtype=float)))


def coverage(params: Mapping[str, Any]) -> dict[str, Any]:
    """Exact coefficients (``C_inf``, ``C_one``, ``Kbar``, ``K2bar``, ``p_star``, ``B1``,
    ``alpha``) of an instance, from :func:`offcmab.bounds.coefficients.problem_coverage`."""

    key = json.dumps(params, sort_keys=True)
    if key not in _COVERAGE:
        setup = build(params)
        found = problem_coverage(setup.problem, setup.law)
        _COVERAGE[key] = found | {"alpha": float(setup.oracle.alpha)}  # the oracle CLCB uses
    return _COVERAGE[key]


def checked_action(problem: CMABTProblem, result: Any, name: str) -> np.ndarray:
    """The action a subject returned, checked for this problem (``ValueError`` if infeasible).

    Ids index items (cascade), arms (k-path) or nodes (``im-edge``, a seed set); a
    k-path action must be the arms of one path.
    """

    if isinstance(problem, KPathProblem):
        action = as_action(result, problem.m, problem.k, name)
        if np.unique(action // problem.k).size != 1:
            raise ValueError(f"action returned by {name}: arms {action.tolist()} are not "
                             f"one path (path j holds arms j*{problem.k} .. "
                             f"j*{problem.k}+{problem.k - 1})")
        return action
    if isinstance(problem, CascadeProblem):
        return as_action(result, problem.m, problem.k, name)
    graph = problem.graph  # type: ignore[attr-defined]
    return as_action(result, graph.nodes, problem.k, name)  # type: ignore[attr-defined]


def evaluation(params: Mapping[str, Any]) -> Extremes:
    r"""The independent evaluator's extremes of an instance, checked against :func:`gap` once.

    The first call per instance compares this module's gap (the reference problem's
    rewards and optimum) with the evaluator's (:mod:`offcmab.validation.evaluator`) on the
    best, the worst and the first feasible action; a disagreement beyond float rounding is
    an :class:`~offcmab.validation.evaluator.crosscheck.InternalError`.
    """
    key = json.dumps(params, sort_keys=True)
    if key not in _EVALUATION:
        setup = build(params)
        found = evaluator.extremes(params, float(setup.oracle.alpha))
        first = np.arange(params["k"], dtype=np.int64)
        for action in (found.best_action, found.worst_action, tuple(first.tolist())):
            ids = np.asarray(action, dtype=np.int64)
            agree(f"gap of action {list(action)}", gap(setup, ids),
                  found.gap(float(evaluator.rewards(params, ids[None, :])[0])))
        _EVALUATION[key] = found
    return _EVALUATION[key]


def max_gap(params: Mapping[str, Any]) -> MaxGap:
    r"""Exact :math:`\alpha r(S^*) - \min_S r(S)` over the feasible actions (the evaluator's)."""
    found = evaluation(params)
    return MaxGap(found.max_gap, True, f"alpha r* - r_min over {found.how}",
                  found.smallest_positive)


def gap_range(params: Mapping[str, Any]) -> tuple[float, float]:
    r"""Where every trial's gap lies: :math:`[(\alpha-1)r^*, \alpha r^* - r_{\min}]`."""
    return evaluation(params).gap_range()


def gap(setup: Setup, action: np.ndarray) -> float:
    r"""Exact :math:`\alpha r(S^*;\mu) - r(\hat S;\mu)` (closed-form rewards)."""
    problem = setup.problem
    best = problem.reward(problem.optimal_action())
    return float(setup.oracle.alpha * best - problem.reward(action))


def positive_gap(params: Mapping[str, Any]) -> bool:
    """Whether an instance allows a positive gap (a degenerate one never can fail a bound)."""
    return evaluator.extremes(params, 1.0).max_gap > 0.0


# -- regions of the hypotheses (what an instance is, computed from its parameters) ---------

#: An instance has many arms when its smallest dataset logs fewer rounds than this per base
#: arm: a Hoeffding interval from 50 samples is still about 0.4 wide.
ROUNDS_PER_ARM = 50
#: An optimum is rarely observed when :math:`C_\infty^*` is at least this (an optimal arm
#: logged in at most a tenth of the rounds in which the optimal action triggers it).
RARE_COVERAGE = 10.0


def base_means(params: Mapping[str, Any]) -> np.ndarray:
    """The means of the base arms' outcomes: item means, path means or edge probabilities."""
    if params["family"] == "cascade":
        return np.asarray(params["mu"], dtype=float)
    if params["family"] == "kpath":
        return np.asarray(params["path_means"], dtype=float)
    return np.asarray(params["graph"]["p"], dtype=float)


def regions(instance: Instance) -> frozenset[str]:
    r"""The regions of :mod:`offcmab.validation.regions` a CMAB-T instance falls in.

    Computed from the problem and its exact data law: an arm that :math:`S^*` never
    triggers with :math:`p_i^{\mathbb D_{\text{arm}},\mathbb D_{\mathcal S}} = 0`
    (``unobserved-arms``); a finite :math:`C_\infty^* \ge` :data:`RARE_COVERAGE`
    (``rare-optimum``); fewer than :data:`ROUNDS_PER_ARM` rounds per base arm at the
    smallest size (``many-arms``); tied means or a mean at 0 or 1 (``ties-and-extremes``);
    a stored permutation that moves some id (``relabeled``).
    """
    params = instance.params
    setup = build(params)
    found: set[str] = set()
    problem = setup.problem
    outside = problem.trigger_probabilities(problem.optimal_action()) == 0.0
    if np.any((setup.law.data_trigger_probabilities() == 0.0) & outside):
        found.add(region.UNOBSERVED_ARMS)
    c_inf = float(coverage(params)["C_inf"])
    if np.isfinite(c_inf) and c_inf >= RARE_COVERAGE:
        found.add(region.RARE_OPTIMUM)
    if min(instance.n_grid) < ROUNDS_PER_ARM * problem.m:
        found.add(region.MANY_ARMS)
    means = base_means(params)
    if np.unique(means).size < means.size or np.any((means == 0.0) | (means == 1.0)):
        found.add(region.TIES_AND_EXTREMES)
    if is_relabeled(params):
        found.add(region.RELABELED)
    return frozenset(found)


#: The regions a CMAB-T scenario's instances span (Theorem 1 and Corollary 1 allow all).
CMABT_REGIONS = (region.UNOBSERVED_ARMS, region.RARE_OPTIMUM, region.MANY_ARMS,
                 region.TIES_AND_EXTREMES, region.RELABELED)


# -- hypothesis strategies of generated instances -----------------------------------------

def cascade_params() -> Any:
    """Cascade instances: 3-12 items, lists of 1-4, means on a 1/1000 grid, any law kind.

    Instances where every list has the same reward (all means tied, or a mean of 1 in
    both the best and the worst list) are left out: no gap could exceed 0 there.
    """

    probability = st.integers(0, 1000).map(lambda x: x / 1000)

    @st.composite
    def draw_cascade(draw: Any) -> dict[str, Any]:
        m = draw(st.integers(3, 12))
        k = draw(st.integers(1, min(4, m - 1)))
        mu = draw(st.lists(probability, min_size=m, max_size=m))
        kind = draw(st.sampled_from(["uniform", "ood", "mixture"]))
        law: dict[str, Any] = {"kind": kind}
        if kind == "mixture":
            rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
            count = draw(st.integers(1, 6))
            weights = rounded(rng.dirichlet(np.ones(count)), 12)
            law["lists"] = [rng.permutation(m)[:k].tolist() for _ in range(count)]
            law["weights"] = [*weights[:-1], 1.0 - sum(weights[:-1])]
        return {"family": "cascade", "mu": mu, "k": k, "law": law}

    return draw_cascade().filter(positive_gap)


def kpath_params() -> Any:
    """k-path instances: 2-6 paths of 1-4 arms, path weights from integers (zeros allowed).

    Paths that all share one mean are left out (no gap could exceed 0).
    """

    probability = st.integers(0, 1000).map(lambda x: x / 1000)

    @st.composite
    def draw_kpath(draw: Any) -> dict[str, Any]:
        paths = draw(st.integers(2, 6))
        k = draw(st.integers(1, 4))
        means = draw(st.lists(probability, min_size=paths, max_size=paths))
        raw = draw(st.lists(st.integers(0, 10), min_size=paths, max_size=paths)
                   .filter(lambda w: sum(w) > 0))
        return {"family": "kpath", "path_means": means, "k": k,
                "law": {"kind": "paths", "weights": [w / sum(raw) for w in raw]}}

    return draw_kpath().filter(positive_gap)


def rate_factor(instance: Any, n: int) -> float:
    r"""The logarithmic factor of Theorem 1's bounds, :math:`\sqrt{\log(2mn/\delta)}` (the rate
    rows' :attr:`~offcmab.validation.parts.theorem.Rate.log_factor`)."""
    m = build(instance.params).problem.m
    return float(np.sqrt(np.log(2 * m * n / instance.delta)))
