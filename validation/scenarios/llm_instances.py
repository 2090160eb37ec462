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
    Logged cache ``caches[j]`` with probability ``weights[j]`` (the trap instances, and the
    generated instances whose data never show a query of the optimal cache or rarely show
    one outside it).

An optional ``permutation`` records a relabelling: query ``i`` of the instance as first
drawn (or as published) is query ``permutation[i]`` here.  The other fields already hold
the relabelled instance, so a saved instance replays as it is; :func:`unpermuted` gives
back the instance in its first order.
"""

from __future__ import annotations

import dataclasses
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
from offcmab.validation.parts.scenario import MaxGap
from offcmab.validation.parts.spec import Instance
from offcmab.validation.regions import (
    MANY_ARMS,
    RARE_OPTIMUM,
    RELABELED,
    TIES_AND_EXTREMES,
    UNOBSERVED_ARMS,
)
from offcmab.validation.scenarios import permutations
from offcmab.validation.scenarios.common import rounded
from offcmab.validation.scenarios.permutations import composed, is_relabeled, moving_permutation


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
    """Generated instances: 3-15 queries, random arrivals and costs, any law, delta, the ids
    relabelled by a random permutation.

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
        return permuted({"p": p, "c": c, "k": k, "noise": noise, "law": law},
                        moving_permutation(m, np.random.default_rng(
                            draw(st.integers(0, 2**32 - 1)))))

    return st.tuples(draw_instance().filter(positive_gap), st.sampled_from((0.01, 0.05, 0.1, 0.2)))


def rate_factor(instance: Instance, n: int) -> float:
    r"""The logarithmic factor of the offline cache bounds, :math:`\sqrt{\log(4mn/\delta)}`
    (the rate rows' :attr:`~offcmab.validation.parts.theorem.Rate.log_factor`)."""
    return float(np.sqrt(np.log(4 * len(instance.params["p"]) * n / instance.delta)))


# -- relabelling and the regions of the theorems' hypotheses --------------------------------


def permuted(params: Mapping[str, Any], permutation: Any) -> dict[str, Any]:
    """``params`` with query ``i`` renamed ``permutation[i]`` (recorded under ``permutation``).

    Arrivals, costs and the logged caches of an ``explicit`` law move with their query; the
    ``empty`` and ``random`` laws treat every query alike, and the ``ood`` law is built from
    the relabelled problem.  A permutation already recorded is composed with the new one.
    """
    labels = [int(j) for j in permutation]
    out = dict(params)
    out["p"] = relabel(np.asarray(params["p"], dtype=float), labels).tolist()
    out["c"] = relabel(np.asarray(params["c"], dtype=float), labels).tolist()
    law = dict(params["law"])
    if law["kind"] == "explicit":
        law["caches"] = [sorted(labels[q] for q in cache) for cache in law["caches"]]
    out["law"] = law
    out["permutation"] = composed(params.get("permutation"), labels)
    return out


def unpermuted(params: Mapping[str, Any]) -> dict[str, Any]:
    """The instance in the order it had before :func:`permuted` (``params`` if never)."""
    return permutations.unpermuted(params, permuted)


def shuffled(params: Mapping[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """``params`` relabelled by a random permutation drawn from ``rng``
    (:func:`moving_permutation`)."""
    return permuted(params, moving_permutation(len(params["p"]), rng))


#: A query outside the optimal cache counts as rarely observed when the logged cache holds
#: it at least this often (:math:`\nu(q) \le` 1/4: it adds at least 4 to the coverage sum).
RARE_NU = 0.25
#: Many queries against few samples: the smallest ``n`` of the grid is below this many
#: samples per query.
SAMPLES_PER_QUERY = 20


def ties_or_extremes(params: Mapping[str, Any]) -> bool:
    """Some cost at 0 or 1, or two queries with the same cost or the same arrival probability."""
    c = np.asarray(params["c"], dtype=float)
    p = np.asarray(params["p"], dtype=float)
    return bool(np.any((c == 0.0) | (c == 1.0)) or np.unique(c).size < c.size
                or np.unique(p).size < p.size)


def offline_regions(params: Mapping[str, Any], grid: tuple[int, ...]) -> frozenset[str]:
    r"""The regions of :mod:`offcmab.validation.regions` an offline cache instance lies in.

    Read from the instance itself: ``unobserved-arms`` when the cost of some query is never
    observed (:math:`p(q)\nu(q) = 0`); ``rare-optimum`` when some query outside the optimal
    cache (whose cost the bounds need) has :math:`0 < \nu(q) \le` :data:`RARE_NU`;
    ``many-arms`` when the smallest ``n`` gives fewer than :data:`SAMPLES_PER_QUERY`
    samples per query; ``ties-and-extremes`` (:func:`ties_or_extremes`); ``relabeled``
    when the ids were permuted.
    """
    setup = build({key: value for key, value in params.items() if key != "permutation"})
    problem, nu = setup.problem, setup.law.nu()
    outside = np.ones(problem.m, dtype=bool)
    outside[problem.optimal_cache()] = False
    found = set(online_regions(params, grid))
    if np.any(problem.p * nu == 0.0):
        found.add(UNOBSERVED_ARMS)
    if np.any(outside & (nu > 0.0) & (nu <= RARE_NU)):
        found.add(RARE_OPTIMUM)
    return frozenset(found)


def online_regions(params: Mapping[str, Any], grid: tuple[int, ...]) -> frozenset[str]:
    """The regions a cache instance lies in without its logging law: relabelled, ties or
    extremes, many queries against the smallest ``n`` (or horizon) of ``grid``."""
    found = set()
    if is_relabeled(params):
        found.add(RELABELED)
    if ties_or_extremes(params):
        found.add(TIES_AND_EXTREMES)
    if min(grid) < SAMPLES_PER_QUERY * len(params["p"]):
        found.add(MANY_ARMS)
    return frozenset(found)


def arrival_probabilities(weights: np.ndarray) -> list[float]:
    """Arrival probabilities from positive weights (rounded; the last closes the sum)."""
    p = rounded(weights / weights.sum(), 6)
    return [*p[:-1], round(1.0 - sum(p[:-1]), 6)]


def unobserved_cache(rng: np.random.Generator) -> dict[str, Any]:
    r"""The optimal query sits in every logged cache: its cost is never seen.

    Three queries, cache of one.  Query 0 (before relabelling) costs 1 and arrives with
    probability 0.45; the logger always caches it, so the data never shows its cost.
    Query 1 costs 0.48-0.52 and arrives with probability 0.5: it is the best query the
    data shows, worth 0.24-0.26 against query 0's 0.45.  Query 2 is rare and cheap.  A
    pessimistic cache takes the unknown cost at the top of its range and keeps query 0; a
    cost guessed at the middle of the range (1/2), at the largest observed cost, at 0 or
    at an observed average gives query 0 a score of at most 0.225 and caches query 1
    instead, a gap of about 0.2 in every dataset.  The theorems allow this: they need
    :math:`\nu(q) > 0` outside the optimal cache only.
    """
    c_seen = round(float(rng.uniform(0.48, 0.52)), 3)
    return {"p": [0.45, 0.5, 0.05], "c": [1.0, c_seen, round(float(rng.uniform(0.0, 0.1)), 3)],
            "k": 1, "noise": "bernoulli",
            "law": {"kind": "explicit", "caches": [[0]], "weights": [1.0]}}


def rare_outside(rng: np.random.Generator) -> dict[str, Any]:
    r"""The logger usually caches queries outside the optimal cache.

    Three or four queries, cache of one; the optimal query is frequent and costly, and the
    logged cache holds one or two of the others in all but a fraction 0.15-0.25 of rounds,
    so their costs (which the bounds need) are rarely observed: :math:`\nu(q)` of
    0.15-0.25, a coverage sum of 5-15.
    """
    m = int(rng.integers(3, 5))
    p = np.concatenate([[rng.uniform(0.45, 0.6)], rng.uniform(0.05, 0.2, m - 1)])
    c = np.concatenate([[rng.uniform(0.8, 1.0)], rng.uniform(0.05, 0.9, m - 1)])
    hidden = sorted(int(q) for q in 1 + rng.choice(m - 1, int(rng.integers(1, 3)),
                                                   replace=False))
    seen = round(float(rng.uniform(0.15, 0.25)), 3)
    return {"p": arrival_probabilities(p), "c": rounded(c, 3), "k": 1, "noise": "bernoulli",
            "law": {"kind": "explicit", "caches": [hidden, []], "weights": [1 - seen, seen]}}


def many_queries(rng: np.random.Generator) -> dict[str, Any]:
    r"""Six to eight queries with Zipf arrivals, cache of two, empty logged caches, on a grid
    that starts at :data:`FEW_SAMPLES` samples (a few per cost); the popular queries cost
    most.  (More queries would leave the standard-view bound vacuous at affordable ``n``.)"""
    m = int(rng.integers(6, 9))
    c = np.sort(rng.uniform(0.0, 1.0, m))[::-1]
    return {"p": arrival_probabilities(zipf_probabilities(m, 1.2)), "c": rounded(c, 3), "k": 2,
            "noise": "uniform", "law": {"kind": "empty"}}


def ties_and_extremes(rng: np.random.Generator) -> dict[str, Any]:
    """Four queries with costs 0, 1/2 and 1 (each at least once, so two tie),
    arrival weights in pairs of equal ones (the frequent queries costlier), cache of one or
    two, uniform random logged caches of one query."""
    m = 4
    c = np.sort(np.concatenate([[0.0, 0.5, 1.0], rng.choice([0.0, 0.5, 1.0], m - 3)]))[::-1]
    w = np.repeat(np.sort(rng.uniform(1.0, 4.0, (m + 1) // 2))[::-1], 2)[:m]
    return {"p": arrival_probabilities(w), "c": c.tolist(), "k": int(rng.integers(1, 3)),
            "noise": "bernoulli", "law": {"kind": "random", "size": 1}}


#: The region instances: name -> how to draw one.
REGION_FAMILIES = {"unobserved-in-optimum": unobserved_cache,
                   "rare-outside-optimum": rare_outside,
                   "many-queries": many_queries,
                   "ties-and-extremes": ties_and_extremes}

#: The smallest ``n`` of the many-queries instance (ten to twenty samples per query).
FEW_SAMPLES = 100
def region_instances(grid: tuple[int, ...], seed: int) -> list[Instance]:
    """One instance of each family of :data:`REGION_FAMILIES`, drawn from ``seed`` and
    relabelled by a permutation drawn from it (origin ``generated``), on ``grid``."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    instances = []
    for name, make in REGION_FAMILIES.items():
        params = shuffled(make(rng), rng)
        sizes = (FEW_SAMPLES, *grid) if make is many_queries else grid
        instances.append(Instance(name, params, 0.05, sizes, "generated"))
    return instances


def relabeled_named(instances: list[Instance], seed: int) -> list[Instance]:
    """Each named instance relabelled by a permutation drawn from ``seed`` and its name; a
    paper instance keeps its published order and gains a relabelled copy (``-relabeled``)."""
    out = []
    for instance in instances:
        rng = np.random.default_rng([seed, *instance.name.encode()])
        moved = shuffled(instance.params, rng)
        if instance.origin == "paper":
            out += [instance, dataclasses.replace(instance, name=f"{instance.name}-relabeled",
                                                  params=moved)]
        else:
            out.append(dataclasses.replace(instance, params=moved))
    return out
