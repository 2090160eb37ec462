r"""Run every mutant through the door a user's algorithm takes, and score the outcome.

Each applicable mutant of a bound id is the subject of a validation run exactly as
``offcmab validate --algorithm offcmab.validation.mutation.operators:FAMILY.mutant --only ID``
would run it (:class:`offcmab.validation.door.Door`: same profile, instances, rows).
A run *flags* its subject when a row fails (``validate`` would exit 1).  Per mutant:

* ``KILLED``: a real mutant flagged in every run;
* ``EXPLAINED``: a real mutant some run passed, with a recorded no-power reason (the
  arithmetic that shows no runnable size of the id's instances can kill it);
* ``SURVIVED``: a real mutant some run passed, with no such reason;
* ``EQUIVALENT-OK``: a declared equivalent mutant no run flagged;
* ``FALSE ALARM``: a declared equivalent mutant some run flagged;
* ``ERROR``: the mutant raised (a defect of the catalogue, never a kill).

The mutation score of an id is killed / real mutants.  The verdict: ``passed`` when no
mutant is ``SURVIVED``, ``FALSE ALARM`` or ``ERROR`` (explained survivors do not fail a
run), ``failed`` otherwise, and ``not checked`` when no mutant applied at all.

With ``replicates`` :math:`R` each mutant runs on the run seeds
``seed, seed+1, ..., seed+R-1``; the fraction flagged is its kill probability, given with an
exact (Clopper-Pearson) 95% interval.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from offcmab.validation import door
from offcmab.validation.calibration import interval
from offcmab.validation.mutation.operators import (
    FAMILIES,
    OPERATORS,
    family_of,
    no_power_reason,
    skipped,
    spec,
)
from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.pool import check_backend, worker_pool
from offcmab.validation.theorems import THEOREMS
from offcmab.validation.user_algorithm import AlgorithmError

KILLED, EXPLAINED, SURVIVED, FALSE_ALARM, EQUIVALENT_OK, ERROR = (
    "KILLED", "EXPLAINED", "SURVIVED", "FALSE ALARM", "EQUIVALENT-OK", "ERROR")

#: The verdicts of a run (``not checked``: no mutant applied, as validate's exit 3).
PASSED, FAILED, NOT_CHECKED = "passed", "failed", "not checked"

#: The most run seeds per mutant a run accepts (each seed is a whole validation run of every
#: mutant); a larger count is refused before any work.
MAX_REPLICATES = 1000

#: How ``jobs`` are used: run mutants side by side (one serial door each), or one mutant at
#: a time with the door's own process backend splitting its trials.
SPLITS = ("mutants", "trials")


@dataclass(frozen=True)
class Job:
    """One validation run of one mutant of one bound id on one seed.

    ``subject``: the mutant's ``module:FAMILY.attribute`` spec, or, for a record with no
    family in the catalogue, one of the record's own controls (run in this process).
    """

    bound_id: str
    mutant: str
    operator: str
    equivalent: bool
    subject: str | Callable[..., Any]
    seed: int
    no_power: str | None = None

    @property
    def label(self) -> str:
        """How reports name the subject."""
        if isinstance(self.subject, str):
            return self.subject
        return f"the control {self.mutant!r} of the record {self.bound_id!r}"


@dataclass(frozen=True)
class Outcome:
    """What one run said about its mutant."""

    flagged: bool
    failing_rows: int
    rows_with_power: int
    seconds: float
    false_alarm_budget: float | None = None
    error: str | None = None
    cpu_seconds: float = 0.0


#: Why no mutant is scored on a lower bound.
LOWER_BOUND = ("a lower bound holds for every algorithm, so no mutant can break it; the rows "
               "of its id that check CLCB's own risk against the upper bound on the hard "
               "pair test that upper bound, and its own ids score these mutants")


def plan(theorems: Sequence[Theorem], seed: int, replicates: int, names: Sequence[str] = ()
         ) -> tuple[list[Job], list[dict[str, str]]]:
    """The runs to make, and the (id, operator, reason) of every operator left out.

    ``names``: only the mutants of these names run (all when empty).
    """
    jobs: list[Job] = []
    left_out: list[dict[str, str]] = []
    for theorem in theorems:
        family = family_of(theorem)
        if theorem.scenario.kind == "lower":
            left_out += [{"id": theorem.id, "operator": name, "reason": LOWER_BOUND}
                         for name in OPERATORS]
            continue
        if family is None:
            record_jobs, record_left_out = _record_controls(theorem, seed, replicates, names)
            jobs += record_jobs
            left_out += record_left_out
            continue
        left_out += [{"id": theorem.id, "operator": name, "reason": reason}
                     for name, reason in family.not_applicable.items()]
        for mutant in family.mutants:
            if names and mutant.name not in names:
                continue
            reason = skipped(theorem, mutant)
            if reason is not None:
                left_out.append({"id": theorem.id, "operator": mutant.operator,
                                 "mutant": mutant.name, "reason": reason})
                continue
            jobs += [Job(theorem.id, mutant.name, mutant.operator, mutant.equivalent,
                         spec(family, mutant), seed + replicate,
                         None if mutant.equivalent else no_power_reason(theorem, mutant))
                     for replicate in range(replicates)]
    return jobs, left_out


#: The operator of a record's own control, for a record with no family in the catalogue.
RECORD_CONTROL = "record-control"


def _record_controls(theorem: Theorem, seed: int, replicates: int, names: Sequence[str]
                     ) -> tuple[list[Job], list[dict[str, str]]]:
    """A record outside the catalogue: its own negative controls are its mutants (a
    control's no-power reason is the record's)."""
    if not theorem.controls:
        return [], [{"id": theorem.id, "operator": RECORD_CONTROL,
                     "reason": "no mutation family for this reference algorithm, and the "
                               "record declares no negative controls"}]
    return [Job(theorem.id, name, RECORD_CONTROL, False, control, seed + replicate,
                theorem.no_power.get(name))
            for name, control in theorem.controls.items() if not names or name in names
            for replicate in range(replicates)], []


def run_job(job: Job, profile: str, jobs: int = 1,
            theorems: Sequence[Theorem] = THEOREMS) -> Outcome:
    """One validation run of ``job``'s mutant through the user's door (``jobs`` workers).

    ``cpu_seconds`` counts this process only (with ``jobs > 1`` the trials run elsewhere).
    """
    start, cpu = time.perf_counter(), time.process_time()
    request = door.Door(
        subject=job.subject, only=(job.bound_id,), profile=profile, seed=job.seed, jobs=jobs,
        invocation={"door": "offcmab mutation",
                    "arguments": {**asdict(job), "subject": job.label}},
        figures=False, allow_unchecked=True)
    try:
        report = door.run(request, theorems)
    except AlgorithmError as error:
        return Outcome(False, 0, 0, time.perf_counter() - start, error=str(error),
                       cpu_seconds=time.process_time() - cpu)
    summary = report["summary"]
    return Outcome(summary["FAIL"] > 0, summary["FAIL"], summary["power"],
                   time.perf_counter() - start, report["false_alarm_budget"],
                   cpu_seconds=time.process_time() - cpu)


def _run_serial_door(arguments: tuple[Job, str]) -> Outcome:
    """A pool task: one mutant run, serial inside (module level, so workers can import it)."""
    return run_job(*arguments)


def outcomes(planned: Sequence[Job], profile: str, jobs: int, split: str = "mutants",
             theorems: Sequence[Theorem] = THEOREMS, backend: str | None = None,
             scheduler: str | None = None) -> list[Outcome]:
    """The outcome of each planned run, in plan order.

    With ``split="mutants"`` the runs (every mutant and replicate) go to ``backend``'s
    workers (:func:`~offcmab.validation.runner.pool.worker_pool`; default processes), each
    run serial inside its worker; a run's outcome depends on its job only, so the report
    is the same on every backend.  Mutants of a record outside the package's own run in
    this process (a worker could not find the record or its controls), their trials split
    over ``jobs`` workers, as with ``split="trials"``.
    """
    if split not in SPLITS:
        raise ValueError(f"split: must be one of {', '.join(SPLITS)}, got {split!r}")
    outside = any(not any(theorem is ours for ours in THEOREMS) for theorem in theorems)
    chosen = backend or ("serial" if jobs == 1 else "processes")
    if chosen == "serial" or split == "trials" or outside or \
            (len(planned) == 1 and chosen == "processes"):
        check_backend(chosen, jobs, scheduler)
        return [run_job(job, profile, jobs if chosen != "serial" else 1, theorems)
                for job in planned]
    with worker_pool(chosen, min(jobs, len(planned)), scheduler) as pool:
        return pool.map(_run_serial_door, [(job, profile) for job in planned])


def score(planned: Sequence[Job], results: Sequence[Outcome]) -> list[dict[str, Any]]:
    """One entry per (id, mutant): its status, kill probability and interval, timings."""
    grouped: dict[tuple[str, str], list[tuple[Job, Outcome]]] = {}
    for job, outcome in zip(planned, results, strict=True):
        grouped.setdefault((job.bound_id, job.mutant), []).append((job, outcome))
    entries = []
    for runs in grouped.values():
        job = runs[0][0]
        flagged = sum(outcome.flagged for _, outcome in runs)
        errors = [outcome.error for _, outcome in runs if outcome.error is not None]
        low, high = interval(flagged, len(runs))
        entries.append({
            "id": job.bound_id, "mutant": job.mutant, "operator": job.operator,
            "equivalent": job.equivalent,
            "status": _status(job.equivalent, flagged, len(runs), bool(errors),
                              job.no_power is not None),
            "no_power": job.no_power,
            "runs": len(runs), "flagged": flagged, "kill_probability": flagged / len(runs),
            "interval": [low, high],
            "failing_rows": [outcome.failing_rows for _, outcome in runs],
            "rows_with_power": runs[0][1].rows_with_power,
            "false_alarm_budget": runs[0][1].false_alarm_budget,
            "seconds": sum(outcome.seconds for _, outcome in runs),
            "cpu_seconds": sum(outcome.cpu_seconds for _, outcome in runs),
            "subject": job.label, **({"error": errors[0]} if errors else {})})
    return entries


def _status(equivalent: bool, flagged: int, runs: int, error: bool, explained: bool) -> str:
    if error:
        return ERROR
    if equivalent:
        return FALSE_ALARM if flagged else EQUIVALENT_OK
    if flagged == runs:
        return KILLED
    return EXPLAINED if explained else SURVIVED


def summarize(entries: Sequence[dict[str, Any]], ids: Sequence[str]) -> dict[str, Any]:
    """Per id and overall: killed, real mutants, score, explained and unexplained survivors
    (``survived``), equivalents passed, false alarms."""
    def tally(chosen: Sequence[dict[str, Any]]) -> dict[str, Any]:
        real = [entry for entry in chosen if not entry["equivalent"]]
        killed = sum(entry["status"] == KILLED for entry in real)
        return {"killed": killed, "mutants": len(real),
                "score": killed / len(real) if real else None,
                "explained": sum(entry["status"] == EXPLAINED for entry in real),
                "survived": sum(entry["status"] == SURVIVED for entry in real),
                "equivalents": sum(entry["equivalent"] for entry in chosen),
                "false_alarms": sum(entry["status"] == FALSE_ALARM for entry in chosen),
                "errors": sum(entry["status"] == ERROR for entry in chosen)}

    per_id = {bound_id: tally([e for e in entries if e["id"] == bound_id]) for bound_id in ids}
    return {"ids": per_id, "overall": tally(entries)}


def mutation(only: Sequence[str] = (), profile: str = "default", seed: int = 2025,
             replicates: int = 1, jobs: int = 1, split: str = "mutants",
             mutants: Sequence[str] = (), theorems: Sequence[Theorem] = THEOREMS,
             backend: str | None = None, scheduler: str | None = None) -> dict[str, Any]:
    r"""The mutation report of the ids ``only`` (all when empty): entries, scores, verdict.

    ``mutants`` restricts the run to the mutants of these names (all when empty); the runs
    go to ``backend`` (:func:`outcomes`).
    ``ValueError`` naming the field for an unknown id or mutant name, a bad profile, seed,
    count of replicates or of jobs.
    """
    known = [theorem.id for theorem in theorems]
    unknown = [bound_id for bound_id in only if bound_id not in known]
    if unknown:
        raise ValueError(f"only: unknown bound id {unknown[0]!r}; known: {', '.join(known)}")
    if isinstance(replicates, bool) or not isinstance(replicates, int) or replicates < 1:
        raise ValueError(f"replicates: must be a positive integer, got {replicates!r}")
    if replicates > MAX_REPLICATES:
        raise ValueError(f"replicates: at most {MAX_REPLICATES} run seeds per mutant (each one "
                         f"a whole validation run of every mutant), got {replicates}")
    if profile not in PROFILES:
        raise ValueError(f"profile: must be one of {', '.join(PROFILES)}, got {profile!r}")
    for name, value, least in (("seed", seed, 0), ("jobs", jobs, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"{name}: must be an integer of at least {least}, got {value!r}")
    if jobs > door.MAX_JOBS:
        raise ValueError(f"jobs: at most {door.MAX_JOBS} workers, got {jobs}")
    chosen = [theorem for theorem in theorems if not only or theorem.id in only]
    names = sorted({mutant.name for family in FAMILIES for mutant in family.mutants}
                   | {name for theorem in chosen if family_of(theorem) is None
                      for name in theorem.controls})
    strange = [name for name in mutants if name not in names]
    if strange:
        raise ValueError(f"mutants: unknown mutant {strange[0]!r}; known: {', '.join(names)}")
    planned, left_out = plan(chosen, seed, replicates, mutants)
    start = time.perf_counter()
    results = outcomes(planned, profile, jobs, split, theorems, backend, scheduler)
    entries = score(planned, results)
    summary = summarize(entries, [theorem.id for theorem in chosen])
    verdict = verdict_of(summary["overall"])
    return {"profile": profile, "seed": seed, "replicates": replicates, "jobs": jobs,
            "backend": backend or ("serial" if jobs == 1 else "processes"),
            "split": split, "seconds": time.perf_counter() - start,
            "operators": OPERATORS, "families": [family.name for family in FAMILIES],
            "entries": entries, "not_applicable": left_out, "summary": summary,
            "verdict": verdict, "passed": verdict == PASSED}


def verdict_of(overall: dict[str, Any]) -> str:
    """``not checked`` when no mutant ran; ``failed`` on an unexplained survivor, a false
    alarm or an error; ``passed`` otherwise."""
    if overall["mutants"] + overall["equivalents"] == 0:
        return NOT_CHECKED
    if overall["survived"] or overall["false_alarms"] or overall["errors"]:
        return FAILED
    return PASSED
