r"""Event rows of ``offcmab validate``: the proofs' high-probability events, checked directly.

:mod:`offcmab.validation.events.core` holds the row type, the seeding and the exact binomial
verdict; one module per family lists its cases:

``arms``
    :math:`\mathcal E_{\text{arm}}` of CLCB, CLCB-Cascade and edge-level IM.
``llm``
    The cost and frequency events of ``lem-llm-std`` and ``thm3-llm``; the streaming
    cache lemma of CUCB-LLM-S (corrected, and as printed: a known failure), its
    online cost event and the per-round LCB steps of its regret proof.
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
from dataclasses import replace
from typing import Any

from offcmab.validation.events import arms, im_node, llm, oracles
from offcmab.validation.events.core import (
    KNOWN,
    TRIALS,
    EventCase,
    EventResult,
    event_row,
    run_cases,
    tested,
)

__all__ = ["KNOWN", "TRIALS", "EventCase", "EventResult", "all_cases", "rows", "run", "tested"]


def all_cases(profile: str, only: Sequence[str] = (),
              subject: str = "reference") -> list[EventCase]:
    """Every event case of ``profile``; with ``only``, those of the listed bound ids.

    With a ``subject`` (a spec of :mod:`offcmab.validation.subjects`) the rows check that
    algorithm's statistics; the oracle rows, which check the reference oracles only,
    belong to reference runs.
    """
    found = [*arm_cases(profile, subject), *llm.cases(profile, subject=subject),
             *im_node.cases(profile, subject=subject)]
    if subject == "reference":
        found += oracles.cases(profile)
    if not only:
        return found
    return [case for case in found if set(case.bound_ids) & set(only)]


def arm_cases(profile: str, subject: str) -> list[EventCase]:
    """The arm-event rows for the reference or a subject (CLCB's and CLCB-Cascade's calls)."""
    if subject == "reference":
        return arms.cases(profile)
    from offcmab.validation.events.subject import arm_algorithm

    return arms.cases(profile, arm_algorithm(subject, "thm1-inf"),
                      arm_algorithm(subject, "cor1-cascade"))


def run(profile: str, seed: int, only: Sequence[str] = (),
        subject: str = "reference") -> list[EventResult]:
    """Run the event cases of a validation run (in this process; each row has its own seed)."""
    found = run_cases(all_cases(profile, only, subject), TRIALS[profile], seed)
    if subject == "reference":
        return found
    return [replace(result, case=replace(result.case, algorithm=subject)) for result in found]


def rows(results: Sequence[EventResult], level: float) -> list[dict[str, Any]]:
    """The report rows of finished event cases at row level ``level``."""
    return [event_row(result, level) for result in results]
