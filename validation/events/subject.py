r"""Event rows for a substituted algorithm (``validate --subject SPEC``).

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


def _resolve(spec: str, bound_id: str) -> Callable[..., Any]:
    """The subject for ``bound_id``, loaded (and its signature checked) when first called.

    Event cases of every bound id are built before the run's ids filter them, so a subject
    written for one id must not be checked against another id's signature here.
    """
    def call(*args: Any) -> Any:
        from offcmab.validation.subjects import resolve

        return resolve(spec, bound_id)(*args)

    return call


def arm_algorithm(spec: str, bound_id: str) -> Callable[[Any, Any, float], tuple[Any, Any]]:
    """The subject as an LCB algorithm ``(dataset, oracle, delta) -> (counts, lcb)``."""
    function = _resolve(spec, bound_id)

    def run(dataset: Any, oracle: Any, delta: float) -> tuple[Any, Any]:
        second = int(oracle.k) if bound_id == "cor1-cascade" else oracle
        result = require(function(dataset, second, delta), ("counts", "lcb"), spec)
        return result.counts, result.lcb

    return run


CACHE_FIELDS = ("cost_counts", "c_hat", "c_ucb", "p_hat", "p_ucb")


def cache_algorithm(spec: str, bound_id: str) -> Callable[[Any, int, float, str], Any]:
    """The subject as a cache algorithm ``(log, k, delta, variant) -> result``."""
    function = _resolve(spec, bound_id)

    def run(log: Any, k: int, delta: float, variant: str) -> Any:
        return require(function(log, k, delta), CACHE_FIELDS, spec)

    return run


NODE_FIELDS = ("q_ucb", "p_not_ucb", "p_cond_lcb", "lcb", "counters", "log_term")


def node_algorithm(spec: str, k: int) -> Callable[[Any, Any, float], Any]:
    """The subject as CLCB-IM-N's statistics ``(graph, cascades, delta) -> result``
    (called with the exact oracle for ``k`` seeds; its seeds are not inspected)."""
    function = _resolve(spec, "thm4-im")

    def run(graph: Any, cascades: Any, delta: float) -> Any:
        from offcmab.validation.scenarios.im import exact_oracle

        return require(function(graph, cascades, exact_oracle(graph, k), delta), NODE_FIELDS,
                       spec)

    return run


def node_choice(spec: str) -> Callable[[Any, Any, Any, float], Any]:
    """The IM-N subject as called by thm4-im, returning a result with ``seeds`` and ``lcb``."""
    function = _resolve(spec, "thm4-im")

    def run(graph: Any, cascades: Any, oracle: Any, delta: float) -> Any:
        return require(function(graph, cascades, oracle, delta), ("seeds", "lcb"), spec)

    return run


def stream_hits(spec: str) -> Callable[[Any, Any, int, int, float], np.ndarray]:
    """The online subject as ``(queries, costs, m, k, delta) -> hits`` (from its caches)."""
    function = _resolve(spec, "thm-llm-online")

    def run(queries: Any, costs: Any, m: int, k: int, delta: float) -> np.ndarray:
        result = function(queries, costs, m, k, delta)
        caches = np.asarray(getattr(result, "caches", result), dtype=bool)
        return np.asarray(caches[np.arange(queries.size), queries], dtype=bool)

    return run


STREAM_FIELDS = ("lcbs",)


def stream_statistics(spec: str) -> Callable[[Any, Any, int, int, float],
                                             tuple[np.ndarray, np.ndarray]]:
    """The online subject as ``(queries, costs, m, k, delta) -> (hits, lcbs)``: which rounds
    hit its cache (from ``caches``, or the result itself) and the LCBs in force after each
    round (field ``lcbs``)."""
    function = _resolve(spec, "thm-llm-online")

    def run(queries: Any, costs: Any, m: int, k: int, delta: float
            ) -> tuple[np.ndarray, np.ndarray]:
        result = require(function(queries, costs, m, k, delta), STREAM_FIELDS, spec)
        caches = np.asarray(getattr(result, "caches", result), dtype=bool)
        return caches[np.arange(queries.size), queries], np.asarray(result.lcbs, dtype=float)

    return run
