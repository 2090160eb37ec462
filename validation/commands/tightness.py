r"""``offcmab tightness ID``: the instance where a bound is closest to tight, and how close.

Runs :func:`offcmab.validation.tightness.search.search` (differential evolution over the
bound id's instance space, each evaluation the validate row of the real algorithm on
the decoded instance), prints the tightest candidate and saves it as JSON that
``offcmab validate --instances FILE`` replays.  Exit 0 with a candidate, 1 when no
evaluated instance was a candidate (every bound inapplicable or vacuous: the message
says which), 2 on bad input (unknown id, a lower-bound id, budget below 1).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from offcmab.validation.arguments import nonnegative_int, positive_int

HELP = "search for the instance where a bound is tightest; save it for validate --instances"

#: How the message names each bound.
STATEMENTS = {
    "thm1-inf": "Theorem 1's bound (infinity-norm coverage)",
    "thm1-one": "Theorem 1's bound (1-norm coverage)",
    "cor1-cascade": "Corollary 1's bound",
    "lem-llm-std": "The standard-view LLM cache bound",
    "thm3-llm": "Theorem 3's bound",
    "thm-llm-online": "The online LLM cache regret bound",
    "thm4-im": "Theorem 4's bound",
}

#: An evaluation slower than this keeps the instance out of the default profile's corpus.
DEFAULT_PROFILE_SECONDS = 5.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help=f"bound id ({', '.join(STATEMENTS)})")
    parser.add_argument("--budget", type=positive_int, default=60,
                        help="instances to evaluate (default 60)")
    parser.add_argument("--seed", type=nonnegative_int, default=2025,
                        help="seed of the optimizer and of every trial (default 2025)")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE.json",
                        help="where to save the tightest instance (default tightness-ID.json)")


def run(args: argparse.Namespace) -> int:
    from offcmab.validation.tightness.search import search, searchable

    reason = searchable(args.id)
    if reason:
        raise ValueError(f"id: {reason}")
    out = args.out or Path(f"tightness-{args.id}.json")
    if out.exists() and out.is_dir():
        raise ValueError(f"out: {out} is a folder")
    start = time.perf_counter()
    result = search(args.id, args.budget, args.seed)
    seconds = time.perf_counter() - start
    counts = result.counts
    sys.stdout.write(
        f"offcmab tightness {args.id}: {result.evaluations} instances of {result.space.family} "
        f"evaluated in {seconds:.1f} s (seed {args.seed}, {result.trials} trials each): "
        f"{counts['candidate']} candidates, {counts['vacuous']} vacuous, "
        f"{counts['n/a']} with a failed precondition\n")
    if result.best is None:
        sys.stderr.write(f"offcmab tightness {args.id}: no candidate: {_why_none(result)}; "
                         "nothing saved\n")
        return 1
    document = to_document(result, seconds)
    from offcmab.validation.tightness.files import write_instance

    write_instance(document, out)
    sys.stdout.write(_describe(document) + f"saved to {out}\n")
    return 0


def _why_none(result: Any) -> str:
    parts = []
    if result.counts["vacuous"]:
        parts.append(f"vacuous (bound at least the largest gap the instance allows): "
                     f"{result.counts['vacuous']}, the closest bound being "
                     f"{result.closest_vacuous:.3g} times its instance's largest gap")
    if result.counts["n/a"]:
        parts.append(f"precondition failed: {result.counts['n/a']}")
    if result.start.reason:
        parts.append(f"starting instance: {result.start.reason}")
    return "; ".join(parts) or "the budget ran out before any instance was evaluated"


def to_document(result: Any, seconds: float) -> dict[str, Any]:
    """The saved-instance JSON of a search result (:mod:`offcmab.validation.tightness.files`)."""
    best = result.best
    row = best.row
    per_evaluation = seconds / max(result.evaluations, 1)
    profiles = ["default", "full"] if per_evaluation <= DEFAULT_PROFILE_SECONDS else ["full"]
    return {
        "bound_id": result.bound_id, "name": best.instance.name,
        "instance": best.instance.params, "delta": best.instance.delta, "n": best.n,
        "trials": result.trials, "seed": result.seed, "budget": result.budget,
        "ratio": float(row["tightness"]), "bound": float(row["bound"]),
        "gap_quantile": float(row["gap_quantile"]), "gap_mean": float(row["gap_mean"]),
        "largest_gap": float(best.largest_gap), "start_ratio": _ratio_or_zero(result.start),
        "evaluations": result.evaluations, "counts": dict(result.counts),
        "seconds": round(seconds, 1), "space": result.space.family,
        "statement": STATEMENTS[result.bound_id], "profiles": profiles,
    }


def _ratio_or_zero(evaluation: Any) -> float:
    return float(evaluation.row["tightness"]) if evaluation.status == "candidate" else 0.0


def _describe(document: dict[str, Any]) -> str:
    ratio = document["ratio"]
    lines = [f"tightest instance: n = {document['n']}, delta = {document['delta']}, "
             f"params {document['instance']}",
             f"(1-delta)-quantile of the gap {document['gap_quantile']:.4g}, bound "
             f"{document['bound']:.4g}, ratio {ratio:.4g} (starting instance "
             f"{document['start_ratio']:.4g}; largest possible gap "
             f"{document['largest_gap']:.4g})"]
    if ratio > 0:
        lines.append(f"{document['statement']} is within a factor {1 / ratio:.3g} of tight "
                     "on this instance")
    else:
        lines.append(f"{document['statement']}: the gap's (1-delta)-quantile was 0 on every "
                     "candidate tried, so no finite factor from tight was observed")
    return "".join(line + "\n" for line in lines)
