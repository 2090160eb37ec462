r"""The body of ``offcmab tightness``: run the search, print and save the tightest instance.

The parser lives in :mod:`offcmab.validation.commands.tightness`, which imports this
module only when a search starts.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from offcmab.validation.arguments import backend_of
from offcmab.validation.output import emit, short
from offcmab.validation.parts.theorem import Theorem, find
from offcmab.validation.runner.folder import check_output_file
from offcmab.validation.theorem_loader import records
from offcmab.validation.theorems import THEOREMS, index
from offcmab.validation.tightness.files import read_instance, write_instance
from offcmab.validation.tightness.ledger import LEDGER_TRIALS, Ledger, describe, ledger
from offcmab.validation.tightness.search import certified, search, searchable

#: An evaluation slower than this keeps the instance out of the default profile's corpus.
DEFAULT_PROFILE_SECONDS = 5.0


def run(args: argparse.Namespace) -> int:
    theorems, _ = records(args.theorem, THEOREMS)
    try:
        theorem = find(theorems, args.id)
    except ValueError:
        names = ", ".join(known.id for known in theorems if known.space is not None)
        raise ValueError(f"id: unknown bound id {args.id!r}; searchable: {names}") from None
    reason = searchable(theorem, theorems)
    if reason:
        raise ValueError(f"id: {reason}")
    trials = args.ledger_trials or LEDGER_TRIALS
    if args.ledger_of is not None:
        return _ledger_of(theorem, theorems, args.ledger_of, args.seed, trials, args.json)
    if args.objective == "certificate" and not certified(theorem):
        raise ValueError(f"objective: {args.id}'s algorithm returns no certificate")
    out = args.out or Path(f"tightness-{args.id}.json")
    check_output_file(out, "out", args.overwrite)
    # the human lines go to stderr under --json, so stdout is one JSON object
    say = sys.stderr.write if args.json else sys.stdout.write
    start = time.perf_counter()
    result = search(theorem, args.budget, args.seed, objective=args.objective,
                    backend=backend_of(args), jobs=args.jobs, scheduler=args.scheduler,
                    index=index)
    seconds = time.perf_counter() - start
    counts = result.counts
    say(f"offcmab tightness {args.id}: {result.evaluations} instances of {result.space.family} "
        f"evaluated in {seconds:.1f} s (seed {args.seed}, {result.trials} trials each, "
        f"objective {args.objective}): {counts['candidate']} candidates, "
        f"{counts['vacuous']} vacuous, {counts['n/a']} with a failed precondition\n")
    if result.best is None:
        sys.stderr.write(f"offcmab tightness {args.id}: no candidate: {_why_none(result)}; "
                         "nothing saved\n")
        return 1
    document = to_document(result, seconds, theorem.title)
    write_instance(document, out, theorems)
    say(_describe(document) + f"saved to {out}\n")
    found = ledger(theorem, result.best.instance, args.seed, trials)
    if args.json:
        emit({**document, "out": str(out), **_ledger_payload(found)}, True)
    else:
        say(describe(found))
    return 0


def _ledger_payload(found: Ledger) -> dict[str, Any]:
    """``ledger`` (column -> ratio, ``null`` where absent) and the run's details."""
    return {"ledger": found.ratios(), "ledger_run": found.to_json()}


def _ledger_of(theorem: Any, theorems: Sequence[Theorem], path: Path, seed: int, trials: int,
               as_json: bool) -> int:
    """The ledger of a saved instance of ``theorem`` (no search)."""
    bound_id, instance, document = read_instance(path, "saved", theorems, field="ledger-of")
    if bound_id != theorem.id:
        raise ValueError(f"ledger-of: {path} holds an instance of {bound_id}, not {theorem.id}")
    found = ledger(theorem, instance, seed, trials)
    if as_json:
        emit({"bound_id": bound_id, "file": str(path), "instance": instance.name,
              "objective": document.get("objective", "stated"), **_ledger_payload(found)},
             True)
    else:
        sys.stdout.write(f"offcmab tightness {bound_id}: the saved instance {path}\n"
                         + describe(found))
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
        "statement": statement, "profiles": profiles, "objective": result.objective,
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
    bound = "median certificate" if document.get("objective") == "certificate" else "bound"
    lines = [f"tightest instance: n = {document['n']}, delta = {document['delta']}",
             *(f"  {key:<{width}}  {value}" for key, value in parameters),
             f"(1-delta)-quantile of the gap {document['gap_quantile']:.4g}, {bound} "
             f"{document['bound']:.4g}, ratio {ratio:.4g} (starting instance "
             f"{document['start_ratio']:.4g}; largest possible gap "
             f"{document['largest_gap']:.4g})"]
    if document.get("objective") == "certificate":
        lines.append(f"the certificate's ratio on this instance: {ratio:.4g}")
    elif ratio > 0:
        lines.append(f"{document['statement']} is within a factor {1 / ratio:.3g} of tight "
                     "on this instance")
    else:
        lines.append(f"{document['statement']}: the gap's (1-delta)-quantile was 0 on every "
                     "candidate tried, so no finite factor from tight was observed")
    return "".join(line + "\n" for line in lines)
