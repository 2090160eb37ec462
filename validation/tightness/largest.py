r"""The largest gap an instance allows: a bound at least this large cannot be exceeded.

``largest_gap(bound_id, params, n)`` is exact for every searchable id:

k-path
    :math:`\max_j r(P_j) - \min_j r(P_j)` over the paths.
cascade
    :math:`r(S^*) - r(S_{\min})`, :math:`S_{\min}` the ``k`` smallest means (the
    cascade reward increases in each mean, so no list of ``k`` items does worse).
LLM cache (offline)
    :math:`c(\mathcal M_{\max}) - c(\mathcal M^*)`, :math:`\mathcal M_{\max}` the
    ``k`` queries of smallest :math:`p(q)c(q)` (the cost of a cache is the sum of
    :math:`p(q)c(q)` outside it).
LLM cache (online)
    ``T`` times the offline largest gap (the regret adds one per-round gap per round).
influence maximization
    :math:`\alpha\sigma(S^*) - \min_{|S|=k}\sigma(S)`, exact spreads over every seed set.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

import numpy as np


def largest_gap(bound_id: str, params: Mapping[str, Any], n: int) -> float:
    """The largest suboptimality gap (or regret over ``n`` rounds) ``params`` allow."""
    if bound_id in ("thm1-inf", "thm1-one", "cor1-cascade"):
        return _cmabt(params)
    if bound_id in ("lem-llm-std", "thm3-llm"):
        return _cache(params)
    if bound_id == "thm-llm-online":
        return n * _cache(params)
    if bound_id == "thm4-im":
        return _im(params)
    raise ValueError(f"id: no largest gap for {bound_id!r}")


def _cmabt(params: Mapping[str, Any]) -> float:
    from validation.scenarios import cmabt

    setup = cmabt.build(params)
    problem: Any = setup.problem  # a KPathProblem or a CascadeProblem
    best = setup.oracle.alpha * problem.reward(problem.optimal_action())
    if params["family"] == "kpath":
        worst = min(problem.reward(problem.path_arms(j)) for j in range(problem.paths))
    else:
        worst = problem.reward(np.argsort(problem.mu, kind="stable")[: problem.k])
    return float(best - worst)


def _cache(params: Mapping[str, Any]) -> float:
    from validation.scenarios import llm_instances

    problem = llm_instances.build(params).problem
    worst = np.argsort(problem.p * problem.c, kind="stable")[: problem.k]
    return float(problem.gap(worst))


def _im(params: Mapping[str, Any]) -> float:
    from validation.scenarios.im import build, exact_oracle

    problem = build(params)
    oracle = exact_oracle(problem.graph, problem.k)
    worst = min(problem.spread(np.array(seeds)).spread
                for seeds in combinations(range(problem.graph.nodes), problem.k))
    return float(oracle.alpha * problem.sigma_star - worst)
