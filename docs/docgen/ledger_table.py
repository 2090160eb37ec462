r"""The slack ledger and the certificates' derivations, rendered at build time.

``{{ ledger_table("ledger-corpus") }}`` reads the run records
``docs/assets/runs/ledger-corpus-ID.json`` (each the ``--json`` output of ``offcmab tightness
ID --ledger-of validation/corpus/ID.json``, stored by ``docs/record_run.py``) and shows one row
per bound id: the ratio of each column, or why it is absent.
``{{ ledger_table("ledger-certificate") }}`` does the same for the instances the certificate
searches stored under ``validation/corpus/certificate/`` (records ``ledger-certificate-ID``),
and names the search that found each (records ``certificate-search-ID``, the output of
``offcmab tightness ID --objective certificate``).  Ids with no record say why (a lower bound,
no stored instance) from the package, not from the page.

``{{ certificate_derivations() }}`` renders, per certificate record of
:mod:`offcmab.bounds.certificates`, the events the theorem's proof needs beside the one the
certificate needs, with their failure probabilities (:mod:`offcmab.bounds.events`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docgen import figures, theory

#: The ledger's columns as the page names them (the keys of ``"ledger"``).
COLUMNS = (("stated", "stated bound"), ("proved", "proved bound"),
           ("certificate", "certificate"), ("proof_sum", "proof's sum"))
#: The two kinds of stored ledger runs: record prefix -> what the instance is.
KINDS = {"ledger-corpus": "the stored corpus instance (searched for the stated bound)",
         "ledger-certificate": "the instance searched for the certificate's ratio"}
#: The records of the searches behind ``ledger-certificate`` rows.
SEARCH = "certificate-search"


def _cell(result: dict[str, Any], column: str) -> str:
    ratio = result["ledger"][column]
    if ratio is None:
        reason = result["ledger_run"]["reasons"].get(column, "")
        return f"absent: {reason}"
    vacuous = " (vacuous)" if column in result["ledger_run"].get("vacuous", ()) else ""
    return f"{float(ratio):.3g}{vacuous}"


def _missing(bound_id: str, kind: str) -> str:
    """Why an id has no stored ledger run of ``kind`` (from the package)."""
    from offcmab.validation.parts.theorem import find
    from offcmab.validation.theorems import THEOREMS
    from offcmab.validation.tightness.ledger import absent_reason
    from offcmab.validation.tightness.search import certified, searchable

    theorem = find(THEOREMS, bound_id)
    if theorem.space is None:
        return searchable(theorem, THEOREMS).split(";")[0]
    if kind == "ledger-certificate" and not certified(theorem):
        return absent_reason(theorem)
    return "no stored instance (the search found no candidate)"


def table(kind: str, runs: Path | None = None) -> str:
    """The ledger of every bound id from the stored runs ``KIND-ID``, with their provenance."""
    if kind not in KINDS:
        raise figures.FigureError(f"ledger_table: kind must be one of {', '.join(KINDS)}")
    head = ("id", "n", "delta", "held-out logs", "(1-delta)-quantile of gap",
            *(name for _, name in COLUMNS))
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    sources, missing = [], []
    folder = runs or figures.RUNS
    for bound_id in theory.BOUND_IDS:
        name = f"{kind}-{bound_id}"
        if not (folder / f"{name}.json").is_file():
            missing.append(f"`{bound_id}`: {_missing(bound_id, kind)}")
            continue
        record = figures.load(name, runs)
        result = record.result
        run = result["ledger_run"]
        cells = (f"`{bound_id}`", str(run["n"]), f"{run['delta']:g}", str(run["trials"]),
                 f"{float(run['gap_quantile']):.4g}",
                 *(_cell(result, column) for column, _ in COLUMNS))
        lines.append("| " + " | ".join(cells) + " |")
        sources.append(f"`{bound_id}`: {figures.short(record)}")
        if kind == "ledger-certificate" and (folder / f"{SEARCH}-{bound_id}.json").is_file():
            search = figures.load(f"{SEARCH}-{bound_id}", runs)
            sources.append(f"its instance found by {figures.short(search)}")
    if not sources:
        raise figures.FigureError(f"ledger_table: no {kind}-ID run records")
    text = "\n".join(lines) + "\n"
    if missing:
        text += "\nNo row: " + "; ".join(missing) + ".\n"
    return (text + "\n<small>Stored runs (command; commit and date at which the output was "
            "stored): " + "; ".join(sources) + ".</small>")


def _form(record: Any) -> str:
    if record.form == "cost":
        return (r"$c(\hat{\mathcal M};\bar p,\bar c) - \min_{\mathcal M} "
                r"c(\mathcal M;\underline p,\underline c)$")
    return r"$\alpha\max_S r(S;\bar\mu) - r(\hat S;\underline\mu)$ ($\alpha = 1$)"


def certificate_derivations() -> str:
    """Per certified id: the proof's events and their total failure beside the certificate's
    one event (rendered from the records)."""
    from offcmab.bounds import events
    from offcmab.bounds.certificates import CERTIFICATES, STEPS

    steps = "\n".join(f"{number}. {step}" for number, step in enumerate(STEPS, 1))
    lines = ["| id | the theorem's proof needs | fails with probability at most | "
             "the certificate | needs only | fails with probability at most |",
             "|---|---|---|---|---|---|"]
    for bound_id, record in CERTIFICATES.items():
        # a record resting on several events names them all (the spread certificate)
        names = getattr(record, "event_names", (record.event_name,))
        needed = ", ".join(f"`{found.name}`" for found in events.events_of(bound_id))
        lines.append(
            f"| `{bound_id}` | {needed} and the coverage constants of $S^*$ "
            f"| ${theory.latex(events.total_failure(bound_id))}$ | {_form(record)} "
            f"| `{record.event_name}` of `{record.event_of}`: "
            f"{'; '.join(theory.event_sentence(record.event_of, name) for name in names)} "
            f"| ${theory.latex(record.failure)}$ |")
    return ("The certificate's steps (`offcmab.bounds.certificates.STEPS`):\n\n" + steps
            + "\n\n" + "\n".join(lines) + "\n")
