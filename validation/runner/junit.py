r"""A validate report as JUnit XML, the test-result format CI systems display.

One ``<testcase>`` per report row, grouped in one ``<testsuite>`` per bound id: the
testcase's ``classname`` is the bound id (the bound ids of an event row, joined by
``+``) and its ``name`` is ``id/instance/n=N/variant``.  A ``FAIL`` row carries a
``<failure>`` whose message gives the gap quantile (where the row has one), the bound,
the violations and the exact test that rejected it (its p-value against the row's level);
an ``error`` row (the algorithm failed to run on that bound id) carries an ``<error>``
with the fault; ``vacuous`` and ``n/a`` rows are ``<skipped>`` with their reason; ``note`` and
``known-failure`` rows pass (they never fail a run) and keep their reason in
``<system-out>``.  Every suite's ``<properties>`` hold the run's provenance: package
version and file hash, git commit, seed, profile, subject and its hash, and the
false-alarm budget.  Attributes follow the common JUnit schema (``tests``, ``failures``,
``errors``, ``skipped``, ``time`` on ``<testsuites>`` and each ``<testsuite>``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from offcmab.reference.errors import InputError
from offcmab.validation.runner.analysis import ERROR
from offcmab.validation.runner.folder import atomic_write_text, check_output_file

#: Verdicts shown as skipped tests: rows that could not fail, with the reason why.
SKIPPED = ("vacuous", "n/a")


def _number(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def classname(row: Mapping[str, Any]) -> str:
    """The bound id a row belongs to (an event row: the bound ids that rest on it)."""
    return "+".join(row.get("bound_ids") or [row["id"]])


def case_name(row: Mapping[str, Any]) -> str:
    """``id/instance/n=N/variant``: unique within a report."""
    n = "-" if row.get("n") is None else str(row["n"])
    return f"{row['id']}/{row.get('instance')}/n={n}/{row.get('variant') or row.get('check')}"


def test_description(row: Mapping[str, Any]) -> str:
    """The exact test that decides the row, in words."""
    trials, violations = row.get("trials"), row.get("violations")
    if row.get("kind") == "event":
        return (f"exact binomial tail P(Binomial({trials}, {_number(row['failure_probability'])})"
                f" >= {violations})")
    variant = row.get("variant")
    if variant in ("slope", "rate"):
        return "normal test of the fitted log-log slope (delta-method standard error)"
    if variant == "clcb-risk" or "lower" in str(row.get("check", "")):
        return "Hoeffding tail of the mean risk against the bound"
    failure = row.get("failure_probability", row.get("delta"))
    return f"exact binomial tail P(Binomial({trials}, {_number(failure)}) >= {violations})"


def failure_message(row: Mapping[str, Any]) -> str:
    """What a failing row measured and which test rejected it at which level."""
    parts = []
    if row.get("gap_quantile") is not None:
        parts.append(f"gap quantile {_number(row['gap_quantile'])} (1 - delta = "
                     f"{_number(1 - row['delta'])})")
    if row.get("slope") is not None:
        parts.append(f"slope {_number(row['slope'])}")
    if row.get("bound") is not None:
        parts.append(f"bound {_number(row['bound'])}")
    parts.append(f"violations {row.get('violations')} of {row.get('trials')} trials")
    p_value = row.get("p_value")
    test = test_description(row)
    level = _number(row.get("row_level"))
    parts.append(f"{test} = {_number(p_value)} < level {level}" if p_value is not None
                 else f"{test} at level {level}")
    reason = row.get("reason")
    return "; ".join(parts) + (f" ({reason})" if reason else "")


def provenance(report: Mapping[str, Any]) -> dict[str, str]:
    """The properties every suite carries: which package, seed, profile and subject ran."""
    origin = report.get("provenance", {})
    package = origin.get("package", {})
    subject = origin.get("subject", {})
    values = {"offcmab.version": package.get("version"),
              "offcmab.files_sha256": package.get("files_sha256"),
              "offcmab.git_commit": package.get("git_commit") or report.get("git_commit"),
              "seed": report.get("seed"), "profile": report.get("profile"),
              "subject": subject.get("spec", report.get("subject")),
              "subject.sha256": subject.get("sha256"),
              "false_alarm_budget": report.get("false_alarm_budget"),
              "row_level": report.get("row_level"), "bound_scale": report.get("bound_scale")}
    return {name: str(value) for name, value in values.items() if value is not None}


def _testcase(suite: ElementTree.Element, row: Mapping[str, Any]) -> None:
    case = ElementTree.SubElement(suite, "testcase", classname=classname(row),
                                  name=case_name(row), time="0")
    verdict = row.get("verdict")
    if verdict == "FAIL":
        message = failure_message(row)
        failure = ElementTree.SubElement(case, "failure", message=message, type="BoundViolation")
        failure.text = message
    elif verdict == ERROR:
        message = str(row.get("reason") or "the algorithm failed to run")
        ElementTree.SubElement(case, "error", message=message, type="AlgorithmFailed").text = \
            message
    elif verdict in SKIPPED:
        reason = str(row.get("reason") or "")
        message = reason if reason.startswith(f"{verdict}:") else f"{verdict}: {reason}"
        ElementTree.SubElement(case, "skipped", message=message)
    elif row.get("reason"):
        ElementTree.SubElement(case, "system-out").text = f"{verdict}: {row['reason']}"


def _counts(rows: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    return {"tests": str(len(rows)),
            "failures": str(sum(row.get("verdict") == "FAIL" for row in rows)),
            "errors": str(sum(row.get("verdict") == ERROR for row in rows)),
            "skipped": str(sum(row.get("verdict") in SKIPPED for row in rows))}


def to_xml(report: Mapping[str, Any]) -> str:
    """The JUnit XML document of a report (``report.json``'s content)."""
    rows = report["rows"]
    timings = report.get("timings", {})
    per_id = timings.get("trial_seconds_by_id", {})
    root = ElementTree.Element("testsuites", {
        "name": "offcmab validate", **_counts(rows),
        "time": f"{timings.get('wall_seconds', 0.0):.3f}"})
    properties = provenance(report)
    for suite_name in dict.fromkeys(classname(row) for row in rows):
        mine = [row for row in rows if classname(row) == suite_name]
        suite = ElementTree.SubElement(root, "testsuite", {
            "name": suite_name, **_counts(mine),
            "time": f"{per_id.get(suite_name, 0.0):.3f}"})
        listed = ElementTree.SubElement(suite, "properties")
        for name, value in properties.items():
            ElementTree.SubElement(listed, "property", name=name, value=value)
        for row in mine:
            _testcase(suite, row)
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


#: How every JUnit file this module writes begins (after the XML declaration).
ROOT_START = b'<testsuites name="offcmab validate"'


def written_by_offcmab(path: Path) -> bool:
    """Whether ``path`` is a JUnit file that ``offcmab validate`` wrote (its root element
    names it; the XML declaration comes first)."""
    try:
        with path.open("rb") as handle:
            start = handle.read(256)
    except OSError:
        return False
    return ROOT_START in start


def check_destination(path: Path, out: Path | None, run_names: Sequence[str],
                      overwrite: bool = False, resume: bool = False,
                      option: str = "junit-xml") -> None:
    """Check where the JUnit file goes, before the run: not one of ``run_names`` (the files
    the run writes) in its folder ``out``; a regular file or none; an existing file only
    with ``overwrite`` or, on ``resume``, when an earlier ``offcmab validate`` wrote it.
    ``InputError`` on ``option``."""
    if out is not None and path.name in run_names and \
            path.absolute().parent.resolve() == out.absolute().resolve():
        raise InputError(option, f"{path} is this run's own {path.name} in its output "
                         "folder; choose another file")
    check_output_file(path, option, overwrite or (resume and written_by_offcmab(path)))


def write_junit(report: Mapping[str, Any], path: Path) -> None:
    """Write the report's JUnit XML to ``path`` atomically (readers never see half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, to_xml(report))
