r"""Event rows of ``offcmab validate``: the proofs' high-probability events, checked directly.

:mod:`validation.events.core` holds the row type, the seeding and the exact binomial
verdict; one module per family lists its cases:

``arms``
    :math:`\mathcal E_{\text{arm}}` of CLCB, CLCB-Cascade and edge-level IM.
``llm``
    The cost and frequency events of ``lem-llm-std`` and ``thm3-llm``; the streaming
    cache lemma of CUCB-LLM-S (corrected, and as printed: a known failure) and its
    online cost event.
``im_node``
    The interval events of CLCB-IM-N on :math:`q_u`, :math:`p(\bar v)`,
    :math:`p(\bar v\mid\bar u)` and the resulting edge LCB.
``oracles``
    Top-k exactness and IMM's approximation promise against exact optima.

Event rows apply to algorithms that expose their confidence bounds: each case takes
the algorithm as a callable returning its statistics (the reference implementation by
default), so a substituted implementation with the same fields is checked the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from validation.events import arms, im_node, llm, oracles
from validation.events.core import (
    KNOWN,
    TRIALS,
    EventCase,
    EventResult,
    event_row,
    run_cases,
    tested,
)

__all__ = ["KNOWN", "TRIALS", "EventCase", "EventResult", "all_cases", "rows", "run", "tested"]


def all_cases(profile: str, only: Sequence[str] = ()) -> list[EventCase]:
    """Every event case of ``profile``; with ``only``, those of the listed bound ids."""
    found = [*arms.cases(profile), *llm.cases(profile), *im_node.cases(profile),
             *oracles.cases(profile)]
    if not only:
        return found
    return [case for case in found if set(case.bound_ids) & set(only)]


def run(profile: str, seed: int, only: Sequence[str] = ()) -> list[EventResult]:
    """Run the event cases of a validation run (in this process; each row has its own seed)."""
    return run_cases(all_cases(profile, only), TRIALS[profile], seed)


def rows(results: Sequence[EventResult], level: float) -> list[dict[str, Any]]:
    """The report rows of finished event cases at row level ``level``."""
    return [event_row(result, level) for result in results]
