r"""The oracles' own promises, checked against exact answers.

``event-oracle-topk``
    :class:`offcmab.reference.oracles.TopK` is exact (:math:`\alpha = 1`, no failure): on a
    random weight vector (values on a coarse grid, so ties occur) the chosen set's sum
    equals the sum of the :math:`k` largest weights.  Promised failure 0.
``event-oracle-imm``
    :func:`offcmab.reference.im.oracles.imm` promises a :math:`(1-1/e-\varepsilon)`-approximation
    with probability at least :math:`1-\delta'`.  On a graph small enough for the exact
    spread (enumeration of live-edge worlds, :mod:`offcmab.reference.im.exact`), each trial runs
    IMM with a fresh generator and fails when
    :math:`\sigma(S_{\mathrm{IMM}}) < (1-1/e-\varepsilon)\,\sigma(S^*)`.  Promised failure
    :math:`\delta'`.
"""

from __future__ import annotations

import math

import numpy as np

from offcmab.reference.im.exact import brute_force_im, exact_spread
from offcmab.reference.im.oracles import imm
from offcmab.reference.oracles import TopK
from offcmab.validation.events.core import EventCase
from offcmab.validation.scenarios.im import build, star_and_chain

ROUNDING = 1e-12


def topk_case(m: int, k: int) -> EventCase:
    """Top-k exactness on random grid-valued weights."""
    oracle = TopK(k)

    def draw(rng: np.random.Generator) -> bool:
        weights = rng.integers(0, 10, m) / 10.0
        chosen = np.asarray(oracle(weights))
        best = float(np.sort(weights)[::-1][:k].sum())
        valid = chosen.size == k and np.unique(chosen).size == k
        return not (valid and float(weights[chosen].sum()) >= best - ROUNDING)

    return EventCase("event-oracle-topk", (),
                     "offcmab.reference.oracles.TopK", "alg:CLCB_cascade (Top-k exact)",
                     "sum of the chosen k weights = sum of the k largest", f"m{m}-k{k}", m,
                     0.0, 0.0, draw)


def imm_case(eps: float, delta_prime: float) -> EventCase:
    """IMM's approximation promise on the six-node graph of the node-level IM scenario."""
    problem = build(star_and_chain())
    graph, k = problem.graph, problem.k
    _, optimum = brute_force_im(graph, k)
    target = (1.0 - 1.0 / math.e - eps) * optimum

    def draw(rng: np.random.Generator) -> bool:
        seeds = imm(graph, k, eps, delta_prime, rng).seeds
        return exact_spread(graph, seeds) < target - ROUNDING

    return EventCase("event-oracle-imm", (), "offcmab.reference.im.oracles.imm",
                     "thm:IM (IM oracle, alpha = 1 - 1/e - eps w.p. 1 - delta')",
                     f"sigma(S_IMM) >= (1 - 1/e - {eps:g}) sigma(S*), exact spreads",
                     "star-and-chain", graph.nodes, delta_prime, delta_prime, draw)


def topk_cases() -> list[EventCase]:
    """Top-k exactness on two shapes."""
    return [topk_case(10, 3), topk_case(100, 40)]


def imm_cases() -> list[EventCase]:
    """IMM at eps = 0.1, delta' = 0.01 (the IMMOracle defaults)."""
    return [imm_case(0.1, 0.01)]
