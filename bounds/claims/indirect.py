r"""Theorems checked through a consequence and their proof (status ``checked-indirectly``).

Some theorems cannot fail where a machine can evaluate them: Theorem 4's bound exceeds
every possible gap wherever its precondition holds, and the online regret theorem is an
:math:`O(\cdot)` statement without constants.  Such a theorem is checked through

* a consequence that can fail: its *rate row*, the ``offcmab validate`` row that compares
  how fast the reference algorithm's gap (or regret) changes with the data size against the
  proven order.  That row is a simulation run by the validation layer; this layer reads its
  stored result (:mod:`offcmab.bounds.claims.stored`);
* the claims of its proof, each rerun: the steps that hold, those that fail (errata) and
  those no check decides.

:func:`indirect_outcome` turns both into the claim's outcome; it stays ``unchecked`` when
no rate row is stored or the stored one did not pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from offcmab.bounds.claims._tools import unchecked
from offcmab.bounds.claims.record import Claim, Outcome
from offcmab.bounds.claims.stored import REGENERATE, stored_result

#: Statuses that count as a step holding.
HOLDS = ("proved", "verified-numeric", "verified-statistical")


def step_outcomes(steps: Sequence[Claim]) -> tuple[tuple[str, str, str], ...]:
    """``(claim id, kind, status)`` of each proof claim, its check rerun."""
    found = []
    for claim in steps:
        try:
            status: str = claim.check().status
        except Exception as error:  # a broken step check is reported, not hidden
            status = f"unchecked ({error!r})"
        found.append((claim.id, claim.kind, status))
    return tuple(found)


@dataclass(frozen=True)
class RateWording:
    """How a rate row reads for one theorem: what is measured, against which size, and
    which direction the proven order bounds."""

    algorithm: str
    quantity: str  # "gap" or "regret"
    size: str  # "n" or "T"
    direction: str  # "falls with n at least" / "grows with T no faster than"


def rate_sentence(rate: dict[str, Any], wording: RateWording) -> str:
    """The stored rate row in one sentence."""
    grid = ", ".join(f"{n:,}" for n in rate["n_grid"])
    means = ", ".join(f"{value:.3g}" for value in rate["gap_means"])
    return (f"its {wording.quantity} {wording.direction} the proven order: over "
            f"{wording.size} in {{{grid}}} on {rate['instance']} ({rate['trials']} trials per "
            f"{wording.size}, seed {rate['seed']}), {wording.algorithm}'s mean "
            f"{wording.quantity}s are {means}, no more at the largest {wording.size} than the "
            f"order allows from the smaller ones (fitted log-log slope {rate['slope']:.2f} "
            f"against {rate['allowed']:.2f}): rate row {rate['verdict']} (stored; "
            f"`{REGENERATE}` reruns it, {rate['seconds']:.0f} s)")


def indirect_outcome(claim_id: str, why: str, steps: Sequence[tuple[str, str, str]],
                     wording: RateWording, evidence: dict[str, Any] | None = None) -> Outcome:
    """The outcome of a theorem that ``why`` cannot fail: ``checked-indirectly`` from its
    stored rate row and its proof's ``steps``, else ``unchecked``."""
    rate = stored_result(claim_id)
    if rate is None:
        return unchecked(f"{why} No stored rate row: run `{REGENERATE}`.")
    held = [step for step, _, status in steps if status in HOLDS]
    failed = [f"{step} ({kind})" for step, kind, status in steps if status == "counterexample"]
    open_ = [step for step, _, status in steps
             if status not in HOLDS and status != "counterexample"]
    found = {**(evidence or {}), "rate_row": rate,
             "steps": {step: status for step, _, status in steps},
             "failed": [step for step, _, status in steps if status == "counterexample"]}
    if rate["verdict"] != "pass":
        return Outcome("unchecked", "none", f"{why} Its rate row did not pass: "
                       f"{rate_sentence(rate, wording)}.", found)
    parts = [f"{why} Checked instead through a consequence and its proof: "
             f"{rate_sentence(rate, wording)}; of the {len(steps)} claims of its proof, "
             f"{len(held)} hold"]
    if failed:
        parts.append(f"; {', '.join(failed)} fail (see the errata for each correction and "
                     "what it changes)")
    if open_:
        parts.append(f"; {', '.join(open_)} not decided")
    return Outcome("checked-indirectly", "consequence-and-steps", "".join(parts) + ".", found)
