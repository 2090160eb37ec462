r"""The main theorems as wholes: seeded simulations of the algorithms (from the problem
helpers' code) against the stated bounds, with exact binomial tests of the failure rate.
Each area module lists its theorem's claim first (Theorem 4's, ``thm:IM``, is defined
in :mod:`offcmab.bounds.claims.im` with the steps its check reads).

A step-level failure in the proof does not make a theorem false; these checks look for a
direct violation of the stated inequality.  They are statistical (``slow``): each runs
``TRIALS`` independent datasets and rejects "P(gap > bound) <= delta" only when an exact
one-sided binomial test says so at false-alarm level ``FALSE_ALARM``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from offcmab.bounds.claims._tools import FALSE_ALARM, binomial_rejects, refuted, unchecked
from offcmab.bounds.claims.record import Claim, Outcome
from offcmab.reference.clcb import clcb
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.clcb_llm import clcb_llm
from offcmab.reference.confidence import log_over_delta
from offcmab.reference.oracles import TopK
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
from offcmab.reference.problems.llm_cache import EmptyCaches, LLMCacheProblem, sample_log

TRIALS, DELTA = 300, 0.1


def _statistical(name: str, seed: int, trial: Callable[[np.random.Generator], tuple[float,
                 float]]) -> Outcome:
    rng = np.random.default_rng(seed)
    gaps, bounds = zip(*(trial(rng) for _ in range(TRIALS)), strict=True)
    exceed = int(np.sum(np.array(gaps) > np.array(bounds)))
    evidence = {"seed": seed, "trials": TRIALS, "delta": DELTA, "exceed": exceed,
                "max_gap": float(max(gaps)), "bound": float(min(bounds))}
    if binomial_rejects(exceed, TRIALS, DELTA):
        return refuted(f"{name}: the gap exceeded the bound in {exceed}/{TRIALS} trials",
                       evidence, lambda: _statistical(name, seed, trial).status ==
                       "counterexample", "statistical")
    return Outcome("verified-statistical", "statistical",
                   f"{name}: gap above the stated bound in {exceed}/{TRIALS} seeded trials "
                   f"(largest gap {max(gaps):.3g}, bound {min(bounds):.3g}); the exact one-sided "
                   f"binomial test of P(exceed) <= delta = {DELTA} does not reject (false-alarm "
                   f"{FALSE_ALARM}).", evidence)


def _cascade_setup() -> tuple[CascadeProblem, UniformListsLaw, float, float, float]:
    problem = CascadeProblem(np.array([0.5, 0.45, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1]), 3)
    law = UniformListsLaw(problem)
    p_star = problem.trigger_probabilities(problem.optimal_action())
    p_data = law.data_trigger_probabilities()
    kbar = float(p_star.sum())
    c_one = float(np.sum(p_star[p_star > 0] / p_data[p_star > 0]))
    return problem, law, kbar, c_one, float(np.min(p_data[p_star > 0]))


def check_theorem1() -> Outcome:
    problem, law, kbar, c_one, p_min = _cascade_setup()
    n, m = 2000, 8
    if n < 8 * log_over_delta((m,), DELTA) / p_min:
        return unchecked("instance violates the stated precondition")
    bound = 2 * np.sqrt(2 * kbar * c_one * log_over_delta((2, m, n), DELTA) / n)

    def trial(rng: np.random.Generator) -> tuple[float, float]:
        result = clcb(law.sample(n, rng), TopK(3), DELTA, "alg1")
        return problem.gap(result.action), bound

    return _statistical("CLCB (alg1 radius) on a cascade instance (m=8, k=3, n=2000, uniform "
                        "lists), eq. gap_c_1 as stated", 41, trial)


def check_corollary1() -> Outcome:
    problem, law, _, c_one, _ = _cascade_setup()
    n, m, k = 2000, 8, 3
    bound = 2 * np.sqrt(2 * k * log_over_delta((2, m, n), DELTA) / n * c_one)

    def trial(rng: np.random.Generator) -> tuple[float, float]:
        result = clcb_cascade(law.sample(n, rng), k, DELTA)
        return problem.gap(result.action), bound

    return _statistical("CLCB-Cascade as printed (m=8, k=3, n=2000, uniform lists), "
                        "eq:app_ranking_eq1 with the exact C_1* (below the corollary's "
                        "expression, so the test is conservative)", 42, trial)


def check_theorem3() -> Outcome:
    rng0 = np.random.default_rng(43)
    m, k, n = 10, 3, 3000
    p = rng0.dirichlet(np.ones(m))
    problem = LLMCacheProblem(p, rng0.uniform(0.2, 1.0, m), k)
    law = EmptyCaches(m)
    nu_inv_sum = problem.nu_inv_sum(law)
    bound = 2 * np.sqrt(2 * nu_inv_sum * log_over_delta((6, m, n), DELTA) / n) \
        + 2 * np.sqrt(2 * m * log_over_delta((3,), DELTA) / n)

    def trial(rng: np.random.Generator) -> tuple[float, float]:
        log = sample_log(problem, law, n, rng)
        return problem.gap(clcb_llm(log, k, DELTA).cache), bound

    return _statistical("CLCB-LLM-C (m=10, k=3, n=3000, empty caches, Bernoulli costs), "
                        "eq:app_llm_improve_gap", 43, trial)


UPPER_BOUND = Claim(
    "thm:upper_bound", "thm:upper_bound", (496, 509),
    "With probability >= 1 - delta, SubOpt <= 2 alpha B1 K2bar* sqrt(2 C_inf* log(2mn/delta)/n) "
    "and <= 2 alpha B1 sqrt(2 Kbar* C_1* log(2mn/delta)/n).", "theorem", check_theorem1,
    slow=True)
CASCADE = Claim(
    "thm:app_ranking", "thm:app_ranking", (615, 631),
    "CLCB-Cascade's gap is at most eq:app_ranking_eq1 with probability >= 1 - delta.",
    "corollary", check_corollary1, slow=True)
LLM = Claim(
    "thm:LLM_cache_main", "thm:LLM_cache_main", (699, 710),
    "CLCB-LLM-C's gap is at most eq:app_llm_improve_gap with probability >= 1 - delta.",
    "theorem", check_theorem3, slow=True)
