r"""The body of ``offcmab tightness``: run the search, print and save the tightest instance.

The parser lives in :mod:`offcmab.validation.commands.tightness`, which imports this
module only when a search starts.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from offcmab.validation.arguments import backend_of
from offcmab.validation.output import short
from offcmab.validation.runner.folder import check_output_file
from offcmab.validation.theorem import find
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.tightness.files import write_instance
from offcmab.validation.tightness.search import search, searchable

#: An evaluation slower than this keeps the instance out of the default profile's corpus.
DEFAULT_PROFILE_SECONDS = 5.0


def run(args: argparse.Namespace) -> int:
    try:
        theorem = find(THEOREMS, args.id)
    except ValueError:
        names = ", ".join(known.id for known in THEOREMS if known.space is not None)
        raise ValueError(f"id: unknown bound id {args.id!r}; searchable: {names}") from None
    reason = searchable(theorem, THEOREMS)
    if reason:
        raise ValueError(f"id: {reason}")
    out = args.out or Path(f"tightness-{args.id}.json")
    check_output_file(out, "out", args.overwrite)
    start = time.perf_counter()
    result = search(theorem, args.budget, args.seed, backend=backend_of(args), jobs=args.jobs,
                    scheduler=args.scheduler)
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
    document = to_document(result, seconds, theorem.title)
    write_instance(document, out, THEOREMS)
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


def to_document(result: Any, seconds: float, statement: str) -> dict[str, Any]:
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
        "statement": statement, "profiles": profiles,
    }


def _ratio_or_zero(evaluation: Any) -> float:
    return float(evaluation.row["tightness"]) if evaluation.status == "candidate" else 0.0


def _parameters(params: dict[str, Any]) -> list[tuple[str, str]]:
    """The instance's parameters for a reader: numbers to 4 digits, objects as key=value."""
    return [(str(key), short(value)) for key, value in params.items()]


def _describe(document: dict[str, Any]) -> str:
    ratio = document["ratio"]
    parameters = _parameters(document["instance"])
    width = max((len(key) for key, _ in parameters), default=0)
    lines = [f"tightest instance: n = {document['n']}, delta = {document['delta']}",
             *(f"  {key:<{width}}  {value}" for key, value in parameters),
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
