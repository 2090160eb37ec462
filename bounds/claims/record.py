r"""The record types of the claims registry: a claim of the paper, and the outcome of checking it.

A :class:`Claim` is static data about the paper (its label, source lines, our restatement,
what kind of claim it is) plus a ``check`` function.  Running the check gives an
:class:`Outcome`: the status, the method that decided it, a short explanation and, for a
counterexample, the exact numbers (or seed) that exhibit it together with a ``reproduce``
function that re-derives the violation from those numbers alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal[
    "proved", "verified-numeric", "verified-statistical", "checked-indirectly",
    "counterexample", "unchecked"
]
Method = Literal[
    "sympy-proof",
    "exact-rational",
    "adversarial-numeric",
    "statistical",
    "simulation-vs-brute-force",
    "text-check",
    "argument",
    "consequence-and-steps",
    "none",
]
STATUSES: tuple[Status, ...] = (
    "proved",
    "verified-numeric",
    "verified-statistical",
    "checked-indirectly",
    "counterexample",
    "unchecked",
)

#: What each status says, in one sentence (the claims page's legend).
STATUS_MEANINGS: dict[Status, str] = {
    "proved": "established over the whole stated domain, symbolically or by exact arithmetic",
    "verified-numeric": "no violation found by an exact or adversarial numeric search",
    "verified-statistical": "seeded simulations did not reject it at the stated false-alarm "
                            "level",
    "checked-indirectly": "the statement cannot fail at any size a machine can run, so a "
                          "testable consequence of it and the steps of its proof were "
                          "checked instead (the detail gives each part's outcome)",
    "counterexample": "a reproduced violation (see the errata)",
    "unchecked": "not decided by machine; the detail says why",
}

#: Source file the line ranges refer to.
PAPER_SOURCE = "off-cmab-icml2025.tex"


@dataclass(frozen=True)
class Outcome:
    r"""What checking one claim found.

    Attributes
    ----------
    status
        ``proved`` (symbolic or exact argument over the whole stated domain),
        ``verified-numeric`` (no violation found by exact/adversarial search),
        ``verified-statistical`` (simulation did not reject at the stated false-alarm level),
        ``checked-indirectly`` (the statement itself cannot fail where it can be computed, so
        a consequence of it and the steps of its proof were checked instead; ``evidence``
        holds each part's outcome),
        ``counterexample`` (a reproduced violation) or ``unchecked`` (with the reason in
        ``detail``).
    method
        The strongest check that decided the status (``argument``: a short logical argument
        recorded in ``detail``, with nothing to compute; ``text-check``: a comparison of
        symbols or references transcribed from the paper; ``consequence-and-steps``: a
        testable consequence plus the claims of the proof's steps).
    detail
        One or two sentences: what was computed and what it showed.
    evidence
        Exact numbers (as strings or plain numbers) and seeds: enough to re-run the finding.
    reproduce
        For a counterexample: re-derives the violation from ``evidence`` alone, returns True
        when the violation is confirmed.
    """

    status: Status
    method: Method
    detail: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    reproduce: Callable[[], bool] | None = None


@dataclass(frozen=True)
class Claim:
    r"""One claim of the paper and how to check it.

    Attributes
    ----------
    id
        The paper's label (``thm:upper_bound``) or ``label/step`` for a step of a proof
        (``apdx_sec:lower_bound/step-b``).
    label
        The LaTeX label of the enclosing environment the claim sits in.
    lines
        First and last source line of the claim in the paper's ``.tex``.
    statement
        The claim in our words with its formula.
    kind
        ``theorem``, ``lemma``, ``corollary``, ``condition``, ``proof-step``, ``event``,
        ``radius``, ``algorithmic-lemma``, ``table-entry``, ``remark``, ``construction``,
        ``notation``.
    check
        Returns the :class:`Outcome`.
    slow
        True for statistical checks (the library runs them when asked with ``include_slow``;
        the command line runs them unless told ``--no-statistical``).
    correction
        The smallest change that makes the claim true (used when it fails).
    impact
        Whether the downstream result still holds, and with which constant.
    """

    id: str
    label: str
    lines: tuple[int, int]
    statement: str
    kind: str
    check: Callable[[], Outcome]
    slow: bool = False
    correction: str = ""
    impact: str = ""

    @property
    def paper_ref(self) -> str:
        """``label (off-cmab-icml2025.tex:first-last)``."""
        first, last = self.lines
        return f"{self.label} ({PAPER_SOURCE}:{first}-{last})"


@dataclass(frozen=True)
class ClaimResult:
    """A claim together with the outcome of its check, whether it ran, and its time."""

    claim: Claim
    outcome: Outcome
    ran: bool = True
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON output (no callables)."""
        data: dict[str, Any] = {
            "id": self.claim.id,
            "paper_ref": self.claim.paper_ref,
            "label": self.claim.label,
            "lines": list(self.claim.lines),
            "kind": self.claim.kind,
            "statement": self.claim.statement,
            "status": self.outcome.status,
            "method": self.outcome.method,
            "detail": self.outcome.detail,
            "evidence": dict(self.outcome.evidence),
            "ran": self.ran,
            "seconds": round(self.seconds, 3),
        }
        if self.outcome.status == "counterexample":
            data["correction"] = self.claim.correction
            data["impact"] = self.claim.impact
        return data
