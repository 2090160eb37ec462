r"""Event rows for a substituted algorithm (``validate --algorithm``, a control).

A subject (see :mod:`offcmab.validation.subjects`) is called exactly as the scenarios call it;
the event rows then read the statistics from what it returned.  Only a subject whose
result exposes the reference's fields can be checked; otherwise the trial raises
:class:`NotExposed` and the row is ``n/a`` with the missing fields named.  Rows that
inspect the streaming cache's own per-round LCBs (``event-online-lcb``) read them from
the ``lcbs`` field of the subject's result (the reference returns its ``StreamRun``); a
subject returning caches only gets ``n/a`` there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


class NotExposedError(Exception):
    """The algorithm checked does not expose the statistics an event row inspects."""


def require(result: Any, fields: Sequence[str], who: str) -> Any:
    """``result`` when it has every field, else :class:`NotExposedError` naming the missing."""
    missing = [name for name in fields if not hasattr(result, name)]
    if missing:
        raise NotExposedError(f"subject {who} returns no {', '.join(missing)}: event rows apply "
                              "to algorithms that expose their confidence bounds")
    return result


def arm_algorithm(function: Callable[..., Any], spec: str, cascade: bool = False
                  ) -> Callable[[Any, Any, float], tuple[Any, Any]]:
    """The subject as an LCB algorithm ``(dataset, oracle, delta) -> (counts, lcb)``.

    ``cascade``: the subject is called as CLCB-Cascade, with the list length ``k`` in place
    of the oracle.
    """
    def run(dataset: Any, oracle: Any, delta: float) -> tuple[Any, Any]:
        second = int(oracle.k) if cascade else oracle
        result = require(function(dataset, second, delta), ("counts", "lcb"), spec)
        return result.counts, result.lcb

    return run


CACHE_FIELDS = ("cost_counts", "c_hat", "c_ucb", "p_hat", "p_ucb")


def cache_algorithm(function: Callable[..., Any], spec: str
                    ) -> Callable[[Any, int, float, str], Any]:
    """The subject as a cache algorithm ``(log, k, delta, variant) -> result``."""
    def run(log: Any, k: int, delta: float, variant: str) -> Any:
        return require(function(log, k, delta), CACHE_FIELDS, spec)

    return run


NODE_FIELDS = ("q_ucb", "p_not_ucb", "p_cond_lcb", "lcb", "counters", "log_term")


def node_algorithm(function: Callable[..., Any], spec: str,
                   oracle: Callable[[Any], Any]) -> Callable[[Any, Any, float], Any]:
    """The subject as CLCB-IM-N's statistics ``(graph, cascades, delta) -> result``
    (called with the oracle ``oracle(graph)`` builds; its seeds are not inspected)."""
    def run(graph: Any, cascades: Any, delta: float) -> Any:
        return require(function(graph, cascades, oracle(graph), delta), NODE_FIELDS, spec)

    return run


def node_choice(function: Callable[..., Any], spec: str) -> Callable[[Any, Any, Any, float], Any]:
    """The IM-N subject as its theorem calls it, returning a result with ``seeds`` and ``lcb``."""
    def run(graph: Any, cascades: Any, oracle: Any, delta: float) -> Any:
        return require(function(graph, cascades, oracle, delta), ("seeds", "lcb"), spec)

    return run


def stream_hits(function: Callable[..., Any]) -> Callable[[Any, Any, int, int, float], np.ndarray]:
    """The online subject as ``(queries, costs, m, k, delta) -> hits`` (from its caches)."""
    def run(queries: Any, costs: Any, m: int, k: int, delta: float) -> np.ndarray:
        result = function(queries, costs, m, k, delta)
        caches = np.asarray(getattr(result, "caches", result), dtype=bool)
        return np.asarray(caches[np.arange(queries.size), queries], dtype=bool)

    return run


STREAM_FIELDS = ("lcbs",)


def stream_statistics(function: Callable[..., Any], spec: str
                      ) -> Callable[[Any, Any, int, int, float], tuple[np.ndarray, np.ndarray]]:
    """The online subject as ``(queries, costs, m, k, delta) -> (hits, lcbs)``: which rounds
    hit its cache (from ``caches``, or the result itself) and the LCBs in force after each
    round (field ``lcbs``)."""
    def run(queries: Any, costs: Any, m: int, k: int, delta: float
            ) -> tuple[np.ndarray, np.ndarray]:
        result = require(function(queries, costs, m, k, delta), STREAM_FIELDS, spec)
        caches = np.asarray(getattr(result, "caches", result), dtype=bool)
        return caches[np.arange(queries.size), queries], np.asarray(result.lcbs, dtype=float)

    return run
