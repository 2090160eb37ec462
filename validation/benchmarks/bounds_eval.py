r"""Evaluating every registered bound on 1e6 (n, delta) points (goal: under 1 s each).

For each bound id and variant: ``first_s`` includes lambdifying (once per process),
``cached_s`` is the best of ``repeats`` evaluations with the compiled function cached.
``precondition_s`` times ``precondition_holds`` on the same points.  The online bound
has no ``n``; there the points vary ``T`` instead.  ``--quick`` uses 1e5 points.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

TITLE = "bound evaluation on 1e6 (n, delta) points, every id and variant"

#: One valid value per parameter (points vary n or T, and delta).
DEFAULTS: dict[str, float] = {
    "alpha": 0.9, "B1": 1.0, "K2bar": 2.0, "Kbar": 2.0, "C_inf": 3.0, "C_one": 5.0,
    "m": 10.0, "k": 2.0, "nu_inv_sum": 8.0, "V": 50.0, "d_max": 5.0, "sigma_star": 7.0,
    "eta": 0.5, "gamma": 0.2, "E": 200.0, "p_star": 0.05,
}


def run(quick: bool) -> dict[str, Any]:
    from offcmab.bounds.registry import BOUNDS  # sympy: not on 'offcmab --help'

    points = 10**5 if quick else 10**6
    repeats = 3
    grid = np.geomspace(1.0, 1e12, points)
    deltas = np.linspace(1e-9, 0.999, points)
    results: dict[str, Any] = {"points": points}
    worst = 0.0
    for bound in BOUNDS.values():
        params: dict[str, Any] = {name: DEFAULTS[name] for name in bound.parameters
                                  if name in DEFAULTS}
        params["n" if "n" in bound.parameters else "T"] = np.floor(grid)
        if "delta" in bound.parameters:
            params["delta"] = deltas
        for variant in ("stated", "proved"):
            start = time.perf_counter()
            bound.evaluate(variant, **params)
            first = time.perf_counter() - start
            best = float("inf")
            for _ in range(repeats):
                start = time.perf_counter()
                bound.evaluate(variant, **params)
                best = min(best, time.perf_counter() - start)
            start = time.perf_counter()
            bound.precondition_holds(variant, **params)
            precondition = time.perf_counter() - start
            worst = max(worst, best)
            results[f"{bound.id}/{variant}"] = {"first_s": round(first, 4),
                                                "cached_s": round(best, 4),
                                                "precondition_s": round(precondition, 4)}
    results["worst_cached_s"] = round(worst, 4)
    results["goal_s"] = 1.0
    return results
