r"""What to cite: the paper, the software at its version, and one validation run.

``offcmab cite`` prints BibTeX from here; the docs' citing page shows that output, so the
page and the command cannot disagree.  A run is cited by its provenance, which
``report.json`` records: the package version, the git commit when a checkout tracked the
package and otherwise a hash of its installed files, the seed, and how the run was asked
for (the command line, or the arguments of ``offcmab.validation.check``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from offcmab import __version__
from offcmab.reference.errors import InputError
from offcmab.validation.runner.report_schema import REPORT_NAME
from offcmab.validation.runner.report_schema import read_report as schema_read

#: The paper's authors, family name first.
AUTHORS = (("Liu", "Xutong"), ("Dai", "Xiangxiang"), ("Zuo", "Jinhang"), ("Wang", "Siwei"),
           ("Joe-Wong", "Carlee"), ("Lui", "John C. S."), ("Chen", "Wei"))

PAPER_TITLE = "Offline Learning for Combinatorial Multi-armed Bandits"
SOFTWARE_TITLE = ("offcmab: reference implementation and theory checker for Offline "
                  "Learning for Combinatorial Multi-armed Bandits")


def paper_bibtex() -> str:
    """The ICML 2025 paper."""
    authors = " and ".join(f"{family}, {given}" for family, given in AUTHORS)
    return ("@inproceedings{liu2025offline,\n"
            f"  title     = {{{PAPER_TITLE}}},\n"
            f"  author    = {{{authors}}},\n"
            "  booktitle = {Proceedings of the 42nd International Conference on Machine "
            "Learning (ICML)},\n"
            "  series    = {Proceedings of Machine Learning Research},\n"
            "  year      = {2025}\n"
            "}")


def software_bibtex(version: str = __version__) -> str:
    """This software at ``version``."""
    return ("@software{offcmab,\n"
            f"  title   = {{{SOFTWARE_TITLE}}},\n"
            "  author  = {{offcmab developers}},\n"
            f"  version = {{{version}}},\n"
            "  year    = {2026},\n"
            "  license = {MIT}\n"
            "}")


def read_report(folder: Path) -> dict[str, Any]:
    """``report.json`` of a run folder, checked (:mod:`~offcmab.validation.runner.report_schema`);
    ``InputError`` naming the file and the field when it is not one or records no provenance."""
    path = Path(folder) / REPORT_NAME
    if not path.is_file():
        raise InputError("run", f"no {REPORT_NAME} in {folder} (a folder written by "
                         "offcmab validate --out)")
    report = schema_read(folder, "run")
    if "provenance" not in report:
        raise InputError("run", f"{path} records no provenance (written by an offcmab older "
                         "than the provenance block, or not by offcmab)")
    return report


def provenance_line(report: Mapping[str, Any]) -> str:
    """One line that identifies a run: what ran, on which code, asked for how."""
    provenance = report["provenance"]
    package = provenance.get("package") or {}
    code = (f"commit {package['git_commit']}" if package.get("git_commit")
            else f"package files sha256 {package.get('files_sha256')}")
    invocation = provenance.get("invocation") or {}
    asked = (" ".join(invocation["argv"]) if "argv" in invocation
             else ", ".join(f"{key}={value!r}" for key, value in invocation.items()))
    subject = provenance.get("subject") or {}
    checked = subject.get("spec") or "reference"
    digest = f" (sha256 {subject['sha256']})" if subject.get("sha256") else ""
    summary = report.get("summary") or {}
    return (f"offcmab {package.get('version')} ({code}); profile {report.get('profile')}, "
            f"seed {provenance.get('seed')}; subject {checked}{digest}; "
            f"{summary.get('power', '?')} rows with power, {summary.get('FAIL', '?')} FAIL; "
            f"run as: {asked}")


def run_bibtex(report: Mapping[str, Any]) -> str:
    """A ``@misc`` entry for one run, its provenance line as the note."""
    provenance = report["provenance"]
    package = provenance.get("package") or {}
    code = package.get("git_commit") or package.get("files_sha256") or "unknown"
    key = f"offcmab-run-{provenance.get('seed')}-{str(code)[:12]}"
    note = provenance_line(report).replace("{", "\\{").replace("}", "\\}")
    return (f"@misc{{{key},\n"
            "  title  = {offcmab validation run},\n"
            "  author = {{offcmab developers}},\n"
            f"  note   = {{{note}}}\n"
            "}")


def citation(report: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The BibTeX entries (and the run's provenance line when a report is given)."""
    entries = {"paper": paper_bibtex(), "software": software_bibtex()}
    if report is not None:
        entries |= {"run": run_bibtex(report), "provenance": provenance_line(report)}
    return entries
