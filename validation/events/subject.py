r"""Event rows for a subject: the reference, a control or ``validate --algorithm``.

A subject (see :mod:`offcmab.validation.subjects`) is called exactly as the scenarios call it;
the event rows then read the statistics from what it returned.  The reference enters
here too, as the function its theorem's signature names.  Only a subject whose
result exposes the reference's fields can be checked; otherwise the trial raises
:class:`NotExposed` and the row is ``n/a`` with the missing fields named.  The online
subject is a learner factory fed by its scenario's runner
(:func:`offcmab.validation.scenarios.llm_online.feed`), which records the learner's ``lcb``
after each round for ``event-online-lcb``; a learner without one gets ``n/a`` there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


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
                    ) -> Callable[[Any, int, float], Any]:
    """The subject as a cache algorithm ``(log, k, delta) -> result`` (the variant is the
    subject's own: the reference's is bound by its theorem's signature)."""
    def run(log: Any, k: int, delta: float) -> Any:
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
