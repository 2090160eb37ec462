r"""The paper's symbols as sympy symbols, with their assumptions and numeric domains.

Sympy assumptions record what sympy can use when it simplifies (``positive``,
``integer``); the :data:`DOMAINS` table records the full numeric range of each
parameter (for example :math:`\delta \in (0,1)`, :math:`\alpha \in (0,1]`), which
:func:`check_parameter` enforces on user input.  The names are the stable
parameter names of ``offcmab bound`` (see ``CONTRIBUTING.md``).

References
----------
``thm:upper_bound``, ``thm:lower_bound``, ``thm:app_ranking``, ``eq:app_llm_std_gap``,
``thm:LLM_cache_main``, ``apdx_sec:app_LLM_cache_online``, ``thm:IM``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import sympy as sp

from offcmab.reference.errors import InputError

# Theorem 1 and its corollaries
alpha = sp.Symbol("alpha", positive=True)  #: oracle approximation ratio, (0, 1]
B1 = sp.Symbol("B1", positive=True)  #: 1-norm TPM smoothness coefficient
K2bar = sp.Symbol("K2bar", positive=True)  #: sum_i sqrt(p_i^{S*})
Kbar = sp.Symbol("Kbar", positive=True)  #: sum_i p_i^{S*}
C_inf = sp.Symbol("C_inf", positive=True)  #: infinity-norm coverage coefficient
C_one = sp.Symbol("C_one", positive=True)  #: 1-norm coverage coefficient
m = sp.Symbol("m", positive=True, integer=True)  #: number of base arms / queries
n = sp.Symbol("n", positive=True)  #: number of offline samples (real for root finding)
delta = sp.Symbol("delta", positive=True)  #: failure probability, (0, 1)
p_star = sp.Symbol("p_star", positive=True)  #: min data probability over arms S* triggers
k = sp.Symbol("k", positive=True, integer=True)  #: list length / cache size / path length
mu1 = sp.Symbol("mu1", positive=True)  #: largest arm mean (cascade)
muk = sp.Symbol("muk", positive=True)  #: k-th largest arm mean (cascade)
nu_inv_sum = sp.Symbol("nu_inv_sum", positive=True)  #: sum over S* of 1/nu(q)
T = sp.Symbol("T", positive=True, integer=True)  #: horizon of the online game
V = sp.Symbol("V", positive=True, integer=True)  #: number of nodes
E = sp.Symbol("E", positive=True, integer=True)  #: number of edges
d_max = sp.Symbol("d_max", positive=True, integer=True)  #: maximum out-degree
sigma_star = sp.Symbol("sigma_star", positive=True)  #: optimal influence spread
eta = sp.Symbol("eta", positive=True)  #: lower bound of p(v-bar), (0, 1]
gamma = sp.Symbol("gamma", positive=True)  #: seed probabilities in [gamma, 1-gamma], (0, 1/2]

#: Every symbol by its parameter name.
SYMBOLS: dict[str, sp.Symbol] = {
    str(symbol): symbol
    for symbol in (alpha, B1, K2bar, Kbar, C_inf, C_one, m, n, delta, p_star, k, mu1, muk,
                   nu_inv_sum, T, V, E, d_max, sigma_star, eta, gamma)
}


@dataclass(frozen=True)
class Domain:
    r"""A numeric range ``low (<|<=) x (<|<=) high``, optionally integer-valued."""

    low: float
    high: float
    low_open: bool = False
    high_open: bool = False
    integer: bool = False
    meaning: str = ""

    def describe(self) -> str:
        left = "(" if self.low_open else "["
        right = ")" if self.high_open else "]"
        kind = "an integer" if self.integer else "a number"
        return f"{kind} in {left}{self.low:g}, {self.high:g}{right}"

    def contains(self, values: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        above = values > self.low if self.low_open else values >= self.low
        below = values < self.high if self.high_open else values <= self.high
        ok = above & below & np.isfinite(values)
        if self.integer:
            ok &= values == np.round(values)
        return np.asarray(ok)


_INF = math.inf

#: Numeric domain of every parameter.
DOMAINS: dict[str, Domain] = {
    "alpha": Domain(0, 1, True, False, meaning="approximation ratio of the oracle"),
    "B1": Domain(0, _INF, True, True, meaning="1-norm TPM smoothness coefficient"),
    "K2bar": Domain(0, _INF, True, True, meaning="l2 action size of S*"),
    "Kbar": Domain(0, _INF, True, True, meaning="expected action size of S*"),
    "C_inf": Domain(0, _INF, True, True, meaning="infinity-norm coverage coefficient"),
    "C_one": Domain(0, _INF, True, True, meaning="1-norm coverage coefficient"),
    "m": Domain(1, _INF, False, True, integer=True, meaning="number of base arms"),
    "n": Domain(1, _INF, False, True, meaning="number of offline samples"),
    "delta": Domain(0, 1, True, True, meaning="failure probability"),
    "p_star": Domain(0, 1, True, False, meaning="minimum data triggering probability on S*"),
    "k": Domain(1, _INF, False, True, integer=True, meaning="list length / cache size"),
    "mu1": Domain(0, 1, True, False, meaning="largest arm mean"),
    "muk": Domain(0, 1, True, False, meaning="k-th largest arm mean"),
    "nu_inv_sum": Domain(0, _INF, True, True, meaning="sum of 1/nu(q) outside the cache"),
    "T": Domain(1, _INF, False, True, integer=True, meaning="horizon"),
    "V": Domain(1, _INF, False, True, integer=True, meaning="number of nodes"),
    "E": Domain(1, _INF, False, True, integer=True, meaning="number of edges"),
    "d_max": Domain(1, _INF, False, True, integer=True, meaning="maximum out-degree"),
    "sigma_star": Domain(1, _INF, False, True, meaning="optimal influence spread"),
    "eta": Domain(0, 1, True, False, meaning="lower bound of p(v-bar)"),
    "gamma": Domain(0, 0.5, True, False, meaning="seed probability margin"),
}


def check_parameter(name: str, value: npt.ArrayLike,
                    domain: Domain | None = None) -> npt.NDArray[np.float64]:
    r"""Return ``value`` as a float array after checking it lies in the domain of ``name``.

    ``domain`` is the parameter's own domain (a bound in symbols of its own declares
    them); ``None``: the paper's, from :data:`DOMAINS`.

    Raises
    ------
    InputError
        Naming the parameter when it is unknown, not numeric, NaN or out of range.
    """
    if domain is None and name not in DOMAINS:
        raise InputError(name, "unknown parameter")
    try:
        values = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(name, f"must be numeric, got {value!r}") from None
    domain = DOMAINS[name] if domain is None else domain
    inside = domain.contains(values)
    if not np.all(inside):
        bad = values[~inside].flat[0] if values.ndim else values
        raise InputError(name, f"must be {domain.describe()}, got {float(bad)!r}")
    return values

#: LaTeX spelling of each symbol, as the paper writes it.
LATEX_NAMES: dict[sp.Symbol, str] = {
    alpha: r"\alpha", B1: "B_1", K2bar: r"\bar{K}_2^*", Kbar: r"\bar{K}^*",
    C_inf: r"C_\infty^*", C_one: "C_1^*", m: "m", n: "n", delta: r"\delta",
    p_star: "p^*", k: "k", mu1: r"\mu_1", muk: r"\mu_k",
    nu_inv_sum: r"\sum_{q \in \mathcal{Q}-\mathcal{M}^*} \frac{1}{\nu(q)}", T: "T",
    V: "V", E: "E", d_max: r"d_{\max}", sigma_star: r"\sigma(S^*;G)", eta: r"\eta",
    gamma: r"\gamma",
}
