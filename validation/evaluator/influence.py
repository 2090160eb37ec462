r"""Node-level influence maximization: exact spreads of every seed set of a small graph."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from offcmab.validation.evaluator import feasible
from offcmab.validation.evaluator.extremes import Extremes, tabulated
from offcmab.validation.evaluator.spread import spreads


def spread(params: Mapping[str, Any], seeds: npt.ArrayLike) -> float:
    """Exact spread of one seed set on the instance's graph."""
    row = np.asarray(seeds, dtype=np.int64).reshape(1, -1)
    return float(spreads(params["nodes"], params["sources"], params["targets"], params["p"],
                         row)[0])


def extremes(params: Mapping[str, Any], alpha: float) -> Extremes:
    r"""Largest and smallest spread over every seed set of size ``k``, oracle ratio ``alpha``."""
    table = feasible.subsets(params["nodes"], params["k"])
    values = spreads(params["nodes"], params["sources"], params["targets"], params["p"], table)
    return tabulated(table, values, alpha, f"every seed set of {params['k']}")
