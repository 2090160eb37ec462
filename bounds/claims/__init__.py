r"""The registry of the paper's claims, each with the machine check that decides it.

Use :data:`CLAIMS` (every :class:`Claim`, in the paper's order), :func:`get_claim`,
:func:`check_claim` and :func:`check_all`; :mod:`offcmab.bounds.errata` derives the errata from the
failed ones.  Statistical checks are marked ``slow`` and run only when asked
(``include_slow=True``); skipped, they report ``unchecked``.

References
----------
The whole paper: ``thm:upper_bound``, ``thm:lower_bound``, ``thm:app_ranking``,
``thm:LLM_cache_main``, ``thm:IM``, ``apdx_sec:aux`` and ``tab:app``.
"""

from __future__ import annotations

import time
from collections import Counter
from functools import lru_cache

from offcmab.bounds.claims import cascade, general, im, llm, lower_bound, online, table
from offcmab.bounds.claims.record import STATUSES, Claim, ClaimResult, Outcome, Status
from offcmab.reference.errors import InputError

__all__ = [
    "CHECK_RAISED",
    "CLAIMS",
    "STATUSES",
    "Claim",
    "ClaimResult",
    "Outcome",
    "Status",
    "check_all",
    "check_claim",
    "count_statuses",
    "get_claim",
]

#: Every claim, grouped by area in the paper's order.
CLAIMS: tuple[Claim, ...] = (
    *general.CLAIMS,
    *lower_bound.CLAIMS,
    *cascade.CLAIMS,
    *llm.CLAIMS,
    *online.CLAIMS,
    *im.CLAIMS,
    *table.CLAIMS,
)

_BY_ID: dict[str, Claim] = {claim.id: claim for claim in CLAIMS}
if len(_BY_ID) != len(CLAIMS):  # pragma: no cover - guards against a duplicated id
    raise RuntimeError("duplicate claim id in the registry")

CHECK_RAISED = "the check itself raised an error:"
SKIPPED_SLOW = ("statistical check not run (pass include_slow=True; the command line runs it "
                "unless told --no-statistical)")


def get_claim(claim_id: str) -> Claim:
    """The claim with this id, or an :class:`InputError` naming the field."""
    try:
        return _BY_ID[claim_id]
    except KeyError:
        raise InputError("id", f"unknown claim {claim_id!r}") from None


def check_claim(claim: Claim, include_slow: bool = False) -> ClaimResult:
    """Run one claim's check (a slow one only when ``include_slow``)."""
    if claim.slow and not include_slow:
        return ClaimResult(claim, Outcome("unchecked", "none", SKIPPED_SLOW), ran=False)
    start = time.perf_counter()
    try:
        outcome = claim.check()
    except Exception as error:  # a broken check must not hide the other claims
        outcome = Outcome("unchecked", "none", f"{CHECK_RAISED} {error!r}")
    return ClaimResult(claim, outcome, seconds=time.perf_counter() - start)


def check_all(include_slow: bool = False) -> list[ClaimResult]:
    """Run every check of the registry, in order.

    The checks are deterministic (fixed seeds, exact arithmetic), so one process computes
    them once and later calls return the same results.
    """
    return list(_all_results(include_slow))


@lru_cache(maxsize=2)
def _all_results(include_slow: bool) -> tuple[ClaimResult, ...]:
    return tuple(check_claim(claim, include_slow) for claim in CLAIMS)


def count_statuses(results: list[ClaimResult]) -> dict[Status, int]:
    """Number of claims per status (every status present, possibly 0)."""
    counts = Counter(result.outcome.status for result in results)
    return {status: counts.get(status, 0) for status in STATUSES}
