r"""What a falsification writes: the replayable instance, its summary, a readable text.

``counterexample-ID.json`` is a saved instance of :mod:`offcmab.validation.tightness.files`
(``offcmab validate --instances`` replays it against the bound, ``offcmab falsify
--replay`` repeats its confirmation); it is written only for a confirmed counterexample.
A paired counterexample (:mod:`.paired`) is one where the subject is worse than the
reference; its bound is vacuous, so only ``falsify --replay`` can flag it again.
``summary-ID.json`` records the whole search (the instance before and after shrinking,
the search's counts and clocks, the confirmation) and
``summary-ID.md`` says the same in a few lines.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from offcmab.validation.falsify.confirm import CONFIRM_NAME, Confirmation
from offcmab.validation.falsify.paired import MARGIN, TEST, PairedConfirmation
from offcmab.validation.falsify.search import SEARCH_LEVEL, SearchResult
from offcmab.validation.output import short
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.folder import atomic_write_text
from offcmab.validation.tightness.files import write_instance

#: The verdict of a search that evaluated no candidate (every instance vacuous or with a
#: failed precondition): nothing could have failed, so nothing was checked.
NOT_CHECKED = "not checked"


def replay_path(out: Path, bound_id: str) -> Path:
    return out / f"counterexample-{bound_id}.json"


def summary_stem(out: Path, bound_id: str) -> Path:
    """``summary-ID`` in ``out``: the summary's ``.json`` and ``.md`` take its suffixes."""
    return out / f"summary-{bound_id}"


def written_names(bound_id: str) -> tuple[str, ...]:
    """The names of the files a search of ``bound_id`` writes in its output folder."""
    stem = summary_stem(Path(), bound_id).name
    return (replay_path(Path(), bound_id).name, f"{stem}.json", f"{stem}.md")


def replay_command(path: Path, subject: str, seed: int, theorem: Sequence[str] = ()) -> str:
    """The ``offcmab validate`` call that replays a saved counterexample (``theorem``: the
    ``--theorem`` arguments of a record of one's own)."""
    algorithm = [] if subject == "reference" else ["--algorithm", subject]
    return shlex.join(["offcmab", "validate", "--instances", str(path), *algorithm,
                       "--seed", str(seed), *theorem])


def recheck_command(path: Path, subject: str, theorem: Sequence[str] = ()) -> str:
    """The ``offcmab falsify --replay`` call that repeats a saved counterexample's
    confirmation (its file holds the seed)."""
    return shlex.join(["offcmab", "falsify", subject, "--replay", str(path), *theorem])


def summary(result: SearchResult, confirmation: Confirmation | PairedConfirmation | None,
            theorem: Theorem, out: Path, algorithm: str) -> dict[str, Any]:
    """The JSON record of a falsification (``algorithm``: the subject as the user named it)."""
    verdict = (NOT_CHECKED if result.shrunk is None and not result.counts["candidate"] else
               "none found" if result.shrunk is None else
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
    if isinstance(confirmation, PairedConfirmation) or theorem.traps_vacuous:
        record["claim"] = (f"worse than the reference: {TEST} (margin {MARGIN:g}); not a "
                           "violation of the bound, which is vacuous at every runnable size")
    if verdict == "confirmed":
        path = replay_path(out, result.bound_id)
        record["replay"] = {"file": str(path),
                            "recheck": recheck_command(path, algorithm,
                                                       theorem.theorem_arguments())}
        if not theorem.traps_vacuous:
            record["replay"]["command"] = replay_command(path, algorithm, result.seed,
                                                         theorem.theorem_arguments())
    return record


def _part(evaluation: Any) -> dict[str, Any] | None:
    return None if evaluation is None else evaluation.summary()


def _paired_document(result: SearchResult, confirmation: PairedConfirmation,
                     theorem: Theorem) -> dict[str, Any]:
    fresh = confirmation.evaluation
    return {
        "bound_id": result.bound_id, "name": CONFIRM_NAME, "instance": fresh.instance.params,
        "delta": fresh.instance.delta, "n": fresh.n, "trials": fresh.trials,
        "seed": result.seed, "budget": result.budget, "ratio": fresh.effect,
        "gap_mean": float(sum(fresh.subject_gaps)) / fresh.trials,
        "largest_gap": fresh.scale, "evaluations": sum(result.counts.values()),
        "counts": dict(result.counts),
        "seconds": round(result.search_seconds + result.shrink_seconds, 1),
        "space": result.space,
        "statement": (f"{result.subject} is worse than the reference on this instance "
                      f"({theorem.title} is vacuous here): worse in {fresh.worse}, better "
                      f"in {fresh.better} of {fresh.trials} fresh paired trials, sign test "
                      f"p = {confirmation.p_value:.3g}; mean difference {fresh.effect:.3g} "
                      f"of the largest gap (margin {MARGIN:g}); ratio is that mean "
                      "difference, gap_mean the algorithm's mean gap"),
    }


def replay_document(result: SearchResult, confirmation: Confirmation | PairedConfirmation,
                    theorem: Theorem) -> dict[str, Any]:
    """The saved instance of a confirmed counterexample (its confirmation's numbers)."""
    if isinstance(confirmation, PairedConfirmation):
        return _paired_document(result, confirmation, theorem)
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


def write(record: dict[str, Any], result: SearchResult,
          confirmation: Confirmation | PairedConfirmation | None, theorem: Theorem,
          theorems: Sequence[Theorem], out: Path) -> None:
    """Write the summary files, and the replayable instance of a confirmed counterexample."""
    out.mkdir(parents=True, exist_ok=True)
    if record["verdict"] == "confirmed":
        assert confirmation is not None
        write_instance(replay_document(result, confirmation, theorem),
                       replay_path(out, result.bound_id), theorems)
    stem = summary_stem(out, result.bound_id)
    atomic_write_text(stem.with_suffix(".json"), json.dumps(record, indent=2) + "\n")
    atomic_write_text(stem.with_suffix(".md"), text(record))


def describe(part: dict[str, Any]) -> list[str]:
    """An evaluated instance in a few lines: sizes, parameters, gap against bound."""
    lines = [f"    n = {part['n']}, delta = {part['delta']}"]
    lines += [f"    {key} = {short(value)}" for key, value in part["instance"].items()
              if key != "family"]
    if part["status"] == "candidate" and part.get("paired"):
        lines.append(f"    mean gap {part['subject_gap_mean']:.4g} vs reference "
                     f"{part['reference_gap_mean']:.4g} (largest gap {part['largest_gap']:.4g})"
                     f": worse in {part['worse']}, better in {part['better']} of "
                     f"{part['trials']} trials")
    elif part["status"] == "candidate":
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
    elif search["best"] is not None and search["best"].get("paired"):
        lines += ["  largest mean paired difference over largest gap seen: "
                  f"{search['best']['effect']:.4g}, on", *describe(search["best"])]
    elif search["best"] is not None:
        lines += ["  largest gap quantile over bound seen: "
                  f"{search['best']['ratio']:.4g}, on", *describe(search["best"])]
    if record["verdict"] == NOT_CHECKED:
        lines.append("  no instance tried could break the bound (each was vacuous or failed "
                     "a precondition): a larger --budget or another --seed tries more")
    if "claim" in record:
        lines.append(f"  claim tested: {record['claim']}")
    confirmation = record["confirmation"]
    if confirmation is not None and confirmation.get("paired"):
        lines.append(paired_line(confirmation))
    elif confirmation is not None:
        lines.append(f"  confirmation on {confirmation['trials']} fresh trials: "
                     f"{confirmation['violations']} above the bound (allowed rate "
                     f"{confirmation['failure_probability']:.3g}), exact binomial p = "
                     f"{confirmation['p_value']:.3g} "
                     f"{'<' if confirmation['confirmed'] else '>='} {confirmation['level']:g}")
    if "replay" in record:
        if "command" in record["replay"]:
            lines.append(f"  replay: {record['replay']['command']}")
        lines.append(f"  recheck: {record['replay']['recheck']}")
    return "".join(line + "\n" for line in lines)


def recheck_text(record: dict[str, Any]) -> str:
    """The readable result of ``offcmab falsify --replay``."""
    confirmation = record["confirmation"]
    verdict = "confirmed again" if confirmation["confirmed"] else "not confirmed"
    if confirmation.get("paired"):
        line = paired_line(confirmation)
    else:
        line = (f"  {confirmation['violations']} of {confirmation['trials']} trials above the "
                f"bound (allowed rate {confirmation['failure_probability']:.3g}), exact "
                f"binomial p = {confirmation['p_value']:.3g} vs {confirmation['level']:g}")
    return (f"offcmab falsify --replay {record['file']} ({record['bound_id']}, seed "
            f"{record['seed']}) on {record['algorithm']}: {verdict}\n{line}\n")


def paired_line(confirmation: dict[str, Any]) -> str:
    """The paired confirmation in one line: sign test and effect against the margin."""
    return (f"  confirmation on {confirmation['trials']} fresh paired trials: worse than the "
            f"reference in {confirmation['worse']}, better in {confirmation['better']}; "
            f"sign test p = {confirmation['p_value']:.3g} "
            f"{'<' if confirmation['p_value'] < confirmation['level'] else '>='} "
            f"{confirmation['level']:g}; mean difference {confirmation['effect']:.3g} of the "
            f"largest gap {'>=' if confirmation['effect'] >= confirmation['margin'] else '<'} "
            f"margin {confirmation['margin']:g}")
