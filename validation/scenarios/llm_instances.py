r"""LLM cache instances as plain data, shared by the offline and online scenarios.

``params``: arrival law ``p``, mean costs ``c``, cache size ``k``, cost ``noise``
(``bernoulli`` or ``uniform``: bounded in [0, 1], as the proofs' Hoeffding steps need)
and a cache-collecting ``law``:

``empty``
    Every logged cache is empty (:math:`\nu \equiv 1`, Zhu et al.'s offline data).
``random``
    Uniform caches of ``size`` queries (:math:`\nu = 1 - \text{size}/m`).
``ood``
    The empty cache and, for each query of the optimal cache, the optimal cache with
    that query swapped for another one (a different one each time), equally likely: the
    log never shows an optimal cache, yet every query is sometimes outside the cache.
``explicit``
    Logged cache ``caches[j]`` with probability ``weights[j]`` (the trap instances).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from offcmab.bounds.coefficients import llm_coefficients
from offcmab.reference.problems.llm_cache import (
    CacheLaw,
    EmptyCaches,
    ExplicitCacheLaw,
    LLMCacheProblem,
    UniformRandomCaches,
    power_probabilities,
    relabel,
    zipf_probabilities,
)
from offcmab.validation.evaluator import cache
from offcmab.validation.evaluator.crosscheck import agree
from offcmab.validation.evaluator.extremes import Extremes
from offcmab.validation.runner.scenario import MaxGap
from offcmab.validation.runner.spec import Instance
from offcmab.validation.scenarios.common import rounded


@dataclass(frozen=True)
class CacheSetup:
    """The problem and the cache-collecting law of an instance."""

    problem: LLMCacheProblem
    law: CacheLaw


_CACHE: dict[str, CacheSetup] = {}
_EVALUATION: dict[str, Extremes] = {}


def build(params: Mapping[str, Any]) -> CacheSetup:
    """Problem and law of an instance (cached)."""
    key = json.dumps(params, sort_keys=True)
    if key not in _CACHE:
        problem = LLMCacheProblem(np.asarray(params["p"], dtype=float),
                                  np.asarray(params["c"], dtype=float), params["k"])
        _CACHE[key] = CacheSetup(problem, _law(problem, params["law"]))
    return _CACHE[key]


def _law(problem: LLMCacheProblem, law: Mapping[str, Any]) -> CacheLaw:
    m = problem.m
    if law["kind"] == "empty":
        return EmptyCaches(m)
    if law["kind"] == "random":
        return UniformRandomCaches(m, law["size"])
    if law["kind"] == "explicit":
        return ExplicitCacheLaw(m, tuple(tuple(cache) for cache in law["caches"]),
                                np.asarray(law["weights"], dtype=float))
    best = problem.optimal_cache().tolist()
    others = [q for q in np.argsort(-(problem.p * problem.c), kind="stable").tolist()
              if q not in best]
    swapped = [best[:j] + best[j + 1 :] + [others[j % len(others)]] for j in range(len(best))]
    caches = ((), *(tuple(cache) for cache in swapped))
    return ExplicitCacheLaw(m, caches, np.full(len(caches), 1.0 / len(caches)))


def coefficients(params: Mapping[str, Any]) -> dict[str, float]:
    r"""Exact :math:`\sum_{q\notin\mathcal M^*}1/\nu(q)` and :math:`p^*` of an instance.

    From :func:`offcmab.bounds.coefficients.llm_coefficients` for the empty and random laws; the
    out-of-distribution and explicit laws are not among its named laws, so their
    :math:`\nu` is taken from the law itself (exact) through the problem's ``nu_inv_sum``
    and ``min_data_probability``.
    """
    law = params["law"]
    if law["kind"] in ("empty", "random"):
        named = "empty" if law["kind"] == "empty" else "random"
        found = llm_coefficients(params["p"], params["c"], params["k"], named, law.get("size"))
        return {"nu_inv_sum": found["nu_inv_sum"], "p_star": found["p_star"]}
    setup = build(params)
    return {"nu_inv_sum": setup.problem.nu_inv_sum(setup.law),
            "p_star": setup.problem.min_data_probability(setup.law)}


def evaluation(params: Mapping[str, Any]) -> Extremes:
    r"""The independent evaluator's cheapest and dearest cache, checked once per instance.

    The first call compares the problem's ``gap`` with the evaluator's
    (:mod:`offcmab.validation.evaluator.cache`) on the cheapest, the dearest and the first
    ``k`` queries; a disagreement is an
    :class:`~offcmab.validation.evaluator.crosscheck.InternalError`.
    """
    key = json.dumps(params, sort_keys=True)
    if key not in _EVALUATION:
        problem = build(params).problem
        found = cache.extremes(params)
        for action in (found.best_action, found.worst_action, tuple(range(params["k"]))):
            ids = np.asarray(action, dtype=np.int64)
            agree(f"gap of cache {list(action)}", problem.gap(ids),
                  found.gap(-float(cache.costs(params, ids[None, :])[0])))
        _EVALUATION[key] = found
    return _EVALUATION[key]


def max_gap(params: Mapping[str, Any]) -> MaxGap:
    r"""Exact :math:`\max_{|\mathcal M| = k} c(\mathcal M) - c(\mathcal M^*)` (the evaluator's)."""
    found = evaluation(params)
    return MaxGap(found.max_gap, True, f"the dearest cache minus the cheapest, {found.how}",
                  found.smallest_positive)


def positive_gap(params: Mapping[str, Any]) -> bool:
    """Whether some cache of ``k`` costs more than the cheapest (else nothing can fail)."""
    return cache.extremes(params).max_gap > 0.0


def paper_fig3a() -> dict[str, Any]:
    """Figure 3(a): 100 queries, cache 40, power-law arrivals (0.9), Bernoulli(0.5) costs."""

    labels = np.random.default_rng(13).permutation(100)  # ids not ordered by popularity
    p = power_probabilities(100, 0.9, labels)
    c = relabel(np.random.default_rng(2025).binomial(1, 0.5, 100).astype(float), labels)
    return {"p": p.tolist(), "c": c.tolist(), "k": 40, "noise": "bernoulli",
            "law": {"kind": "empty"}}


def zipf_random() -> dict[str, Any]:
    """Twenty queries with Zipf(1) arrivals, graded costs, uniform random caches of 5."""

    labels = np.random.default_rng(13).permutation(20)  # ids not ordered by p or c
    return {"p": zipf_probabilities(20, 1.0, labels).tolist(),
            "c": rounded(relabel(np.linspace(0.9, 0.1, 20), labels)), "k": 5, "noise": "uniform",
            "law": {"kind": "random", "size": 5}}


def small_ood() -> dict[str, Any]:
    """Eight queries, cache 3, logged caches that are never optimal."""
    p = np.array([0.25, 0.2, 0.15, 0.12, 0.1, 0.08, 0.06, 0.04])
    return {"p": p.tolist(), "c": [0.3, 0.6, 0.5, 0.9, 0.4, 0.8, 0.2, 0.7], "k": 3,
            "noise": "bernoulli", "law": {"kind": "ood"}}


def wide_cache(m: int = 800) -> dict[str, Any]:
    r"""Many equally frequent queries with Bernoulli costs of mean near 1/2, no logged cache.

    Costs :math:`0.5 + 0.1\sin q` (three decimals) in [0.4, 0.6], where Hoeffding's
    inequality is nearly tight; arrivals uniform over ``m`` queries and every logged cache
    empty, so every arrival is a miss and each cost is observed about :math:`n/m` times.
    The confidence events over all ``m`` costs at once are tested hardest here (the
    ``cache-wide`` event rows).
    """
    c = np.round(0.5 + 0.1 * np.sin(np.arange(m)), 3)
    return {"p": [1.0 / m] * m, "c": c.tolist(), "k": m // 10, "noise": "bernoulli",
            "law": {"kind": "empty"}}


def wide_stream(m: int = 50) -> dict[str, Any]:
    """:func:`wide_cache` with ``m`` queries and a cache of one (most rounds miss), the
    instance of the streaming cache's ``stream-wide`` LCB row."""
    return wide_cache(m) | {"k": 1}


def named(grid: tuple[int, ...], paper_grid: tuple[int, ...] | None = None) -> list[Instance]:
    """The hand-picked instances, and Figure 3(a)'s when ``paper_grid`` is given."""
    instances = [Instance("ood-small", small_ood(), 0.05, grid),
                 Instance("zipf-random", zipf_random(), 0.05, grid)]
    if paper_grid is not None:
        instances.append(Instance("paper-fig3a", paper_fig3a(), 0.05, paper_grid, "paper"))
    return instances


def strategy() -> Any:
    """Generated instances: 3-15 queries, random arrivals and costs, any law, delta.

    Instances where every cache of ``k`` costs the same (for example all costs 0) are
    left out: no gap could exceed 0 there.
    """

    @st.composite
    def draw_instance(draw: Any) -> dict[str, Any]:
        m = draw(st.integers(3, 15))
        k = draw(st.integers(1, m - 1))
        raw = draw(st.lists(st.integers(1, 100), min_size=m, max_size=m)
                   .filter(lambda w: sum(w) > 0))
        p = [w / sum(raw) for w in raw]
        c = draw(st.lists(st.integers(0, 1000).map(lambda x: x / 1000), min_size=m,
                          max_size=m))
        kind = draw(st.sampled_from(["empty", "random", "ood"]))
        law: dict[str, Any] = {"kind": kind}
        if kind == "random":
            law["size"] = draw(st.integers(0, m - 1))
        noise = draw(st.sampled_from(["bernoulli", "uniform"]))
        return {"p": p, "c": c, "k": k, "noise": noise, "law": law}

    return st.tuples(draw_instance().filter(positive_gap), st.sampled_from((0.01, 0.05, 0.1, 0.2)))


def rate_factor(instance: Instance, n: int) -> float:
    r"""The logarithmic factor of the offline cache bounds, :math:`\sqrt{\log(4mn/\delta)}`
    (the rate rows' :attr:`~offcmab.validation.theorem.Rate.log_factor`)."""
    return float(np.sqrt(np.log(4 * len(instance.params["p"]) * n / instance.delta)))
