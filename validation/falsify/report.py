r"""What a falsification writes: the replayable instance, its summary, a readable text.

``counterexample-ID.json`` is a saved instance of :mod:`offcmab.validation.tightness.files`
(``offcmab validate --instances`` replays it); it is written only for a confirmed
counterexample.  ``summary-ID.json`` records the whole search (the instance before and
after shrinking, the search's counts and clocks, the confirmation) and
``summary-ID.md`` says the same in a few lines.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from offcmab.validation.falsify.confirm import CONFIRM_NAME, Confirmation
from offcmab.validation.falsify.evaluate import Evaluation
from offcmab.validation.falsify.search import SEARCH_LEVEL, SearchResult
from offcmab.validation.output import short
from offcmab.validation.theorem import Theorem
from offcmab.validation.tightness.files import write_instance


def replay_path(out: Path, bound_id: str) -> Path:
    return out / f"counterexample-{bound_id}.json"


def replay_command(path: Path, subject: str, seed: int) -> str:
    """The ``offcmab validate`` call that replays a saved counterexample."""
    algorithm = [] if subject == "reference" else ["--algorithm", subject]
    return shlex.join(["offcmab", "validate", "--instances", str(path), *algorithm,
                       "--seed", str(seed)])


def summary(result: SearchResult, confirmation: Confirmation | None, theorem: Theorem,
            out: Path, algorithm: str) -> dict[str, Any]:
    """The JSON record of a falsification (``algorithm``: the subject as the user named it)."""
    verdict = ("none found" if result.shrunk is None else
               "confirmed" if confirmation is not None and confirmation.confirmed else
               "not confirmed")
    record: dict[str, Any] = {
        "bound_id": result.bound_id, "statement": theorem.title, "subject": result.subject,
        "algorithm": algorithm,
        "verdict": verdict, "space": result.space, "seed": result.seed,
        "search": {"budget": result.budget, "trials": result.trials,
                   "level": SEARCH_LEVEL, "counts": result.counts,
                   "seconds": round(result.search_seconds, 2),
                   "shrink_seconds": round(result.shrink_seconds, 2),
                   "found": _part(result.found), "shrunk": _part(result.shrunk),
                   "best": _part(result.best)},
        "confirmation": None if confirmation is None else confirmation.summary(),
    }
    if verdict == "confirmed":
        path = replay_path(out, result.bound_id)
        record["replay"] = {"file": str(path), "command": replay_command(
            path, algorithm, result.seed)}
    return record


def _part(evaluation: Evaluation | None) -> dict[str, Any] | None:
    return None if evaluation is None else evaluation.summary()


def replay_document(result: SearchResult, confirmation: Confirmation,
                    theorem: Theorem) -> dict[str, Any]:
    """The saved instance of a confirmed counterexample (its confirmation's numbers)."""
    fresh = confirmation.evaluation
    assert fresh.bound is not None and fresh.largest_gap is not None
    return {
        "bound_id": result.bound_id, "name": CONFIRM_NAME, "instance": fresh.instance.params,
        "delta": fresh.instance.delta, "n": fresh.n, "trials": fresh.trials,
        "seed": result.seed, "budget": result.budget, "ratio": fresh.ratio,
        "bound": fresh.bound, "gap_quantile": fresh.quantile,
        "gap_mean": sum(fresh.gaps) / fresh.trials, "largest_gap": fresh.largest_gap,
        "evaluations": sum(result.counts.values()), "counts": dict(result.counts),
        "seconds": round(result.search_seconds + result.shrink_seconds, 1),
        "space": result.space,
        "statement": (f"{theorem.title} broken by {result.subject}: {fresh.violations} of "
                      f"{fresh.trials} fresh trials above the bound, binomial p = "
                      f"{confirmation.p_value:.3g}"),
    }


def write(record: dict[str, Any], result: SearchResult, confirmation: Confirmation | None,
          theorem: Theorem, theorems: Sequence[Theorem], out: Path) -> None:
    """Write the summary files, and the replayable instance of a confirmed counterexample."""
    out.mkdir(parents=True, exist_ok=True)
    if record["verdict"] == "confirmed":
        assert confirmation is not None
        write_instance(replay_document(result, confirmation, theorem),
                       replay_path(out, result.bound_id), theorems)
    stem = out / f"summary-{result.bound_id}"
    stem.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n",
                                         encoding="utf-8")
    stem.with_suffix(".md").write_text(text(record), encoding="utf-8")


def describe(part: dict[str, Any]) -> list[str]:
    """An evaluated instance in a few lines: sizes, parameters, gap against bound."""
    lines = [f"    n = {part['n']}, delta = {part['delta']}"]
    lines += [f"    {key} = {short(value)}" for key, value in part["instance"].items()
              if key != "family"]
    if part["status"] == "candidate":
        lines.append(f"    gap quantile {part['gap_quantile']:.4g} vs bound {part['bound']:.4g}"
                     f" ({part['violations']} of {part['trials']} trials above it)")
    return lines


def text(record: dict[str, Any]) -> str:
    """The readable summary of a falsification."""
    search, counts = record["search"], record["search"]["counts"]
    lines = [f"offcmab falsify {record['bound_id']} ({record['statement']}) on "
             f"{record['algorithm']}: {record['verdict']}",
             f"  searched {sum(counts.values())} instances of {record['space']} "
             f"(seed {record['seed']}, {search['trials']} trials each): "
             f"{counts['candidate']} candidates, {counts['vacuous']} vacuous, "
             f"{counts['n/a']} with a failed precondition; {search['seconds']} s"]
    if search["found"] is not None:
        lines += ["  found (search evidence, uncorrected binomial p = "
                  f"{search['found']['p_value']:.3g}):", *describe(search["found"]),
                  f"  shrunk in {search['shrink_seconds']} s to (search p = "
                  f"{search['shrunk']['p_value']:.3g}):", *describe(search["shrunk"])]
    elif search["best"] is not None:
        lines += ["  largest gap quantile over bound seen: "
                  f"{search['best']['ratio']:.4g}, on", *describe(search["best"])]
    confirmation = record["confirmation"]
    if confirmation is not None:
        lines.append(f"  confirmation on {confirmation['trials']} fresh trials: "
                     f"{confirmation['violations']} above the bound (allowed rate "
                     f"{confirmation['failure_probability']:.3g}), exact binomial p = "
                     f"{confirmation['p_value']:.3g} "
                     f"{'<' if confirmation['confirmed'] else '>='} {confirmation['level']:g}")
    if "replay" in record:
        lines.append(f"  replay: {record['replay']['command']}")
    return "".join(line + "\n" for line in lines)
