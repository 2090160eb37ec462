r"""Recompute the claims' check results stored in the package (``offcmab claims --regenerate``).

Theorem 4's bound exceeds every possible gap wherever it can be computed, and the online
regret theorem is an O(.) statement without constants, so their claims (``thm:IM`` and
``thm:LLM_online``, :mod:`offcmab.bounds.claims.indirect`) are checked through their rate
rows: the ``offcmab validate`` row that compares how fast the reference algorithm's gap (or
regret) changes with the data size against the proven order.
That row is a simulation of a few seconds run by this layer; the claims registry, one
layer below, reads its stored result (:mod:`offcmab.bounds.claims.stored`).  The run here
is the one ``offcmab validate --quick --only ID --no-power`` makes (same seed, same
rows), so its numbers can be checked from the command line too.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from offcmab.bounds.claims.im import IM
from offcmab.bounds.claims.online import ONLINE
from offcmab.bounds.claims.record import Claim
from offcmab.bounds.claims.stored import REGENERATE, STORED, store_results
from offcmab.validation.door import Door, run
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.theorems.thm4_im import THEOREM as IM_THEOREM
from offcmab.validation.theorems.thm_llm_online import THEOREM as ONLINE_THEOREM

#: Each claim checked through a rate row, with the record whose rate row it is.
RATE_CHECKS: tuple[tuple[Claim, Theorem], ...] = ((IM, IM_THEOREM), (ONLINE, ONLINE_THEOREM))

#: The run behind the stored rows: the quick profile at the default seed.
PROFILE, SEED = "quick", 2025

#: The fields of the rate row the stored result keeps (``bound`` is stored as ``allowed``).
ROW_FIELDS = ("instance", "n_grid", "trials", "gap_means", "order", "log_factor_slope",
              "slope", "slope_se", "slope_lower", "excess_lower", "advice_level")


def claim_verdict(row: dict[str, Any]) -> str:
    """The claim check's verdict on a rate row: a rate row never fails a run (it is
    advisory), but the claim is checked through it, and its check passes only where the
    reference's mean gap follows the proven order (``pass``), fails where it is slower
    (``FAIL``), and is ``n/a`` where the row had nothing to compare."""
    if row["slower"] is None:
        return "n/a"
    return "FAIL" if row["slower"] else "pass"

#: Fields that differ between two runs of the same code (not compared by the tests).
VARYING = ("seconds",)


def rate_result(theorem: Theorem) -> dict[str, Any]:
    """Run ``theorem``'s quick profile (no controls) and return its rate row, plain data."""
    start = time.perf_counter()
    report = run(Door(only=(theorem.id,), profile=PROFILE, seed=SEED, power="off",
                      figures=False, invocation={"argv": REGENERATE.split()}))
    named = None if theorem.rate is None else theorem.rate.instance
    rows = [row for row in report["rows"]
            if row["variant"] == "rate" and row["instance"] == named]
    if len(rows) != 1:
        raise RuntimeError(f"{theorem.id}: expected one rate row, the run made {len(rows)}")
    row = rows[0]
    return {"bound_id": theorem.id, "profile": PROFILE, "seed": SEED,
            **{key: row[key] for key in ROW_FIELDS}, "verdict": claim_verdict(row),
            "allowed": row["bound"],
            "command": f"offcmab validate --quick --only {theorem.id} --no-power",
            "seconds": round(time.perf_counter() - start, 1)}


def computed() -> dict[str, dict[str, Any]]:
    """Every stored result, recomputed now (claim id -> result)."""
    return {claim.id: rate_result(theorem) for claim, theorem in RATE_CHECKS}


def regenerate(path: Path = STORED) -> dict[str, dict[str, Any]]:
    """Recompute every stored result and write them to ``path``; return them."""
    results = computed()
    store_results(results, path)
    return results
