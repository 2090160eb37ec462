r"""The errata of the paper, derived from the claims whose check found a counterexample.

Each erratum carries the claim's ``paper_ref``, its statement, the reproducible evidence,
the smallest correction and the impact on the downstream result.  Nothing here is written
by hand: an erratum exists exactly when :mod:`offcmab.bounds.claims` reports ``counterexample``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from offcmab.bounds.claims import ClaimResult, check_all


@dataclass(frozen=True)
class Erratum:
    """One failed claim, as the errata page shows it."""

    id: str
    paper_ref: str
    claim: str
    finding: str
    evidence: dict[str, Any]
    correction: str
    impact: str
    method: str

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        return dict(self.__dict__)


def errata_from(results: list[ClaimResult]) -> list[Erratum]:
    """The errata among already computed claim results."""
    return [
        Erratum(
            id=result.claim.id,
            paper_ref=result.claim.paper_ref,
            claim=result.claim.statement,
            finding=result.outcome.detail,
            evidence=dict(result.outcome.evidence),
            correction=result.claim.correction,
            impact=result.claim.impact,
            method=result.outcome.method,
        )
        for result in results
        if result.outcome.status == "counterexample"
    ]


def errata(include_slow: bool = False) -> list[Erratum]:
    """Run the registry and return its failures."""
    return errata_from(check_all(include_slow))
