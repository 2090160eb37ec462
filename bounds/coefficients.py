r"""Coverage coefficients computed exactly from the two triggering-probability vectors.

Given :math:`p_i^{\mathbb D_{\text{arm}},S^*}` (``p_opt``) and
:math:`p_i^{\mathbb D_{\text{arm}},\mathbb D_{\mathcal S}}` (``p_data``):

.. math::

    C_\infty^* = \max_i \frac{p_i^{S^*}}{p_i^{D}},\quad
    C_1^* = \sum_i \frac{p_i^{S^*}}{p_i^{D}},\quad
    \bar K^* = \sum_i p_i^{S^*},\quad
    \bar K_2^* = \sum_i \sqrt{p_i^{S^*}},\quad
    K^* = |\{i: p_i^{S^*} > 0\}|,\quad
    p^* = \min_{i: p_i^{S^*}>0} p_i^{D},

the sums and maxima running over the arms :math:`S^*` can trigger.  Where :math:`S^*`
triggers an arm the data never observe, :math:`C_\infty^* = C_1^* = +\infty` and
:math:`p^* = 0`.  No Monte-Carlo is involved: the values are exact up to float rounding
of the inputs.  The problem wrappers take a problem (``CMABTProblem``) and a data law
(``DataLaw``) from :mod:`offcmab.reference.problems` and add the paper's closed-form upper bounds
as separate fields.

References
----------
``cond:inf_norm_cov``, ``cond:1_norm_cov``, Remark ``rmk:thm_dis`` (:math:`C_1^* \le
K^*C_\infty^*`, :math:`\bar K^* \ge \bar K_2^{*2}/K^*`), ``apdx_eq:ranking_C*``,
``apdx_sec:app_LLM_cache_std``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from offcmab.reference.errors import InputError
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
from offcmab.reference.problems.kpath import KPathProblem, PathLaw
from offcmab.reference.problems.llm_cache import EmptyCaches, LLMCacheProblem, UniformRandomCaches


@dataclass(frozen=True)
class Coverage:
    r"""The coverage coefficients of one (problem, data law) pair; see the module doc.

    ``uncovered`` lists the arms :math:`S^*` triggers that the data never observe
    (then ``C_inf`` and ``C_one`` are infinite; JSON prints them as ``null``).
    """

    C_inf: float
    C_one: float
    Kbar: float
    K2bar: float
    K_star: int
    p_star: float
    uncovered: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """Plain dict (JSON-ready apart from infinities)."""
        return asdict(self)


def _probability_vector(values: npt.ArrayLike, field: str) -> npt.NDArray[np.float64]:
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(field, "must be a list of numbers") from None
    if array.ndim != 1 or array.size == 0:
        raise InputError(field, f"must be a non-empty 1-d vector, got shape {array.shape}")
    if not np.all(np.isfinite(array)) or np.any(array < 0) or np.any(array > 1):
        raise InputError(field, "entries must be probabilities in [0, 1]")
    return array


def coverage(p_opt: npt.ArrayLike, p_data: npt.ArrayLike) -> Coverage:
    r"""Exact :math:`C_\infty^*, C_1^*, \bar K^*, \bar K_2^*, K^*, p^*` from the two vectors.

    Parameters
    ----------
    p_opt
        :math:`p_i^{\mathbb D_{\text{arm}},S^*}` for every base arm.
    p_data
        :math:`p_i^{\mathbb D_{\text{arm}},\mathbb D_{\mathcal S}}` for every base arm.
    """
    opt = _probability_vector(p_opt, "p_opt")
    data = _probability_vector(p_data, "p_data")
    if opt.shape != data.shape:
        raise InputError("p_data", f"has {data.size} entries, p_opt has {opt.size}")
    triggered = opt > 0
    if not np.any(triggered):
        raise InputError("p_opt", "S* triggers no arm (all probabilities are 0)")
    uncovered = triggered & (data == 0)
    ratios = np.full(opt.shape, np.inf)  # an uncovered arm makes the coefficient infinite
    with np.errstate(over="ignore"):
        np.divide(opt, data, out=ratios, where=triggered & ~uncovered)
    overflow = triggered & ~uncovered & np.isinf(ratios)
    if np.any(overflow):
        arm = int(np.flatnonzero(overflow)[0])
        raise InputError("p_data", f"p_opt/p_data overflows a 64-bit float at arm {arm} "
                         f"(p_data={data[arm]:g}); use 0 for an arm the data never trigger")
    ratios[~triggered] = 0.0
    return Coverage(
        C_inf=float(np.max(ratios)),
        C_one=math.inf if np.any(uncovered) else float(np.sum(ratios)),
        Kbar=float(np.sum(opt)),
        K2bar=float(np.sum(np.sqrt(opt))),
        K_star=int(np.count_nonzero(triggered)),
        p_star=float(np.min(data[triggered])),
        uncovered=tuple(int(i) for i in np.flatnonzero(uncovered)),
    )


def problem_coverage(problem: Any, law: Any) -> dict[str, Any]:
    r"""Coefficients of a ``CMABTProblem`` under a ``DataLaw`` with ``B1`` and ``alpha``.

    ``p_opt`` is ``problem.trigger_probabilities(problem.optimal_action())`` and
    ``p_data`` is ``law.data_trigger_probabilities()``; ``exact`` reports whether the
    law computes the latter exactly.
    """
    action = problem.optimal_action()
    result = coverage(problem.trigger_probabilities(action), law.data_trigger_probabilities())
    return {**result.as_dict(), "B1": float(problem.smoothness_B1),
            "alpha": float(problem.oracle().alpha), "exact": bool(law.exact)}


# -- closed forms printed in the paper ---------------------------------------------------

def cascade_c_one_sum_formula(mu: npt.ArrayLike, k: int, q: npt.ArrayLike) -> float:
    r"""The paper's upper bound on :math:`C_1^*` for cascading bandits (``apdx_eq:ranking_C*``).

    .. math::

        C_1^* \le \sum_{i=1}^k \frac{\prod_{j<i}(1-\mu_j)}{\sum_{j=1}^k q_{ij}(1-\mu_1)^{j-1}}

    with means sorted in descending order and ``q[i, j]`` the probability that the data
    law puts item ``i`` at position ``j`` (0-based arrays, shape ``(m, k)``).
    """
    means = _sorted_means(mu, k)
    positions = np.asarray(q, dtype=np.float64)
    if positions.shape != (means.size, k):
        raise InputError("q", f"must have shape (m, k) = ({means.size}, {k}), "
                         f"got {positions.shape}")
    examine = np.concatenate([[1.0], np.cumprod(1.0 - means[: k - 1])])  # prod_{j<i}(1-mu_j)
    reach = (1.0 - means[0]) ** np.arange(k)  # (1-mu_1)^{j-1}
    lower = positions[:k] @ reach  # lower bound of p_i^{D_S}, i <= k
    with np.errstate(divide="ignore"):
        return float(np.sum(np.where(lower > 0, examine / np.where(lower > 0, lower, 1.0),
                                     np.inf)))


def cascade_uniform_closed_forms(mu: npt.ArrayLike, k: int) -> dict[str, float]:
    r"""Closed forms for uniformly random ordered lists (:math:`q_{ij} = 1/m`).

    ``C_one_upper = m mu_1/mu_k`` (eq. ``app_ranking_eq2``), ``C_one_sum_formula`` (the
    sum formula with :math:`q_{ij}=1/m`) and ``p_star_lower`` :math:`=(1-(1-\mu_1)^k)/
    (m\mu_1)`, the printed lower bound of :math:`p^*` used in the corollary's precondition.
    """
    means = _sorted_means(mu, k)
    m = means.size
    if not means[k - 1] > 0:  # the forms divide by mu_k and mu_1: 0/0 when all are zero
        raise InputError("mu", f"the closed forms need the {k} largest means above 0 (the "
                         f"corollary assumes mu_k > 0), got mu_k = {means[k - 1]:g}")
    with np.errstate(over="ignore"):
        forms = {
            "C_one_upper": float(m * means[0] / means[k - 1]),
            "C_one_sum_formula": cascade_c_one_sum_formula(means, k, np.full((m, k), 1.0 / m)),
            "p_star_lower": float((1.0 - (1.0 - means[0]) ** k) / (m * means[0])),
            "Kbar_upper": float(k),
        }
    if not all(math.isfinite(value) for value in forms.values()):
        raise InputError("mu", f"a closed form overflows a 64-bit float (mu_k = "
                         f"{means[k - 1]:g} is too small)")
    return forms


def cascade_coefficients(mu: npt.ArrayLike, k: int, data: str = "uniform") -> dict[str, Any]:
    r"""Exact coefficients of a cascading bandit under a data law, with the paper's closed forms.

    ``data="uniform"``: ordered lists uniform over all ``k``-lists of distinct items
    (:class:`offcmab.reference.problems.cascade.UniformListsLaw`, exact :math:`p^{D_S}`).  Extra
    fields: ``C_one_sum_formula`` (``apdx_eq:ranking_C*`` with the law's :math:`q_{ij}`),
    ``C_one_upper`` :math:`= m\mu_1/\mu_k`, ``p_star_lower`` (the corollary's printed
    denominator) and ``Kbar_upper`` :math:`= k`.
    """
    if data != "uniform":
        raise InputError("data", f"must be 'uniform', got {data!r}")
    problem = CascadeProblem(np.asarray(mu, dtype=np.float64), int(k))
    law = UniformListsLaw(problem)
    result = problem_coverage(problem, law)
    result.update(cascade_uniform_closed_forms(problem.mu, problem.k))
    result["C_one_sum_formula"] = cascade_c_one_sum_formula(problem.mu, problem.k,
                                                            law.position_matrix())
    return result


def kpath_coefficients(path_means: npt.ArrayLike, k: int,
                       path_probabilities: npt.ArrayLike) -> dict[str, Any]:
    r"""Exact coefficients of a k-path instance (``thm:lower_bound``) under a path law.

    Semi-bandit feedback: :math:`\bar K^* = \bar K_2^* = K^* = k` and
    :math:`C_\infty^* = 1/w_{j^*}` for the optimal path :math:`j^*`.
    """
    problem = KPathProblem(np.asarray(path_means, dtype=np.float64), int(k))
    law = PathLaw(problem, np.asarray(path_probabilities, dtype=np.float64))
    result = problem_coverage(problem, law)
    result["C_inf_closed_form"] = law.coverage_inf()
    return result


def llm_coefficients(p: npt.ArrayLike, c: npt.ArrayLike, k: int,
                     cache_law: str = "empty", cache_size: int | None = None
                     ) -> dict[str, Any]:
    r"""Exact coefficients of an LLM cache instance in both CMAB-T views.

    ``cache_law``: ``"empty"`` (:math:`\nu\equiv1`) or ``"random"`` (uniform caches of
    ``cache_size`` queries, default ``k``).  Fields: ``nu_inv_sum``
    :math:`=\sum_{q\notin\mathcal M^*}1/\nu(q)`, ``p_star``
    :math:`=\min_{q\notin\mathcal M^*}p(q)\nu(q)`, ``standard`` (coverage of the
    :math:`2m` arms, with the paper's ``C_one_formula`` :math:`=\nu_{\text{inv}}+m` and
    ``Kbar_upper`` :math:`=m+1`) and ``improved`` (coverage of the :math:`m` cost arms,
    the paper's :math:`C_1^* = \nu_{\text{inv}}` and :math:`\bar K^*\le1`), ``B1 = 1``.
    """
    problem = LLMCacheProblem(np.asarray(p, dtype=np.float64),
                              np.asarray(c, dtype=np.float64), int(k))
    law: Any
    if cache_law == "empty":
        law = EmptyCaches(problem.m)
    elif cache_law == "random":
        law = UniformRandomCaches(problem.m, problem.k if cache_size is None else cache_size)
    else:
        raise InputError("cache", f"must be 'empty' or 'random', got {cache_law!r}")
    cache = problem.optimal_cache()
    m = problem.m
    standard = coverage(problem.trigger_probabilities(cache, "standard"),
                        problem.data_trigger_probabilities(law, "standard"))
    improved = coverage(problem.trigger_probabilities(cache, "standard")[:m],
                        problem.data_trigger_probabilities(law, "standard")[:m])
    nu_inv_sum = problem.nu_inv_sum(law)
    return {
        "nu_inv_sum": nu_inv_sum,
        "p_star": problem.min_data_probability(law),
        "B1": problem.smoothness_B1,
        "alpha": 1.0,
        "exact": True,
        "standard": {**standard.as_dict(), "C_one_formula": nu_inv_sum + m,
                     "Kbar_upper": m + 1.0},
        "improved": {**improved.as_dict(), "C_one_formula": nu_inv_sum, "Kbar_upper": 1.0},
    }


def _sorted_means(mu: npt.ArrayLike, k: int) -> npt.NDArray[np.float64]:
    means = _probability_vector(mu, "mu")
    if int(k) != k or not 1 <= k <= means.size:
        raise InputError("k", f"must be an integer in [1, m={means.size}], got {k!r}")
    return np.sort(means)[::-1]
