"""``validate --junit-xml``: one testcase per report row, failures for FAIL rows.

The run checks a control that ignores its data (``ignores_data``, CLCB's oracle fed a fixed
index) in place of CLCB on one bound id with the quick profile, seed 2025 (deterministic).
Monte-Carlo statement: a correct algorithm gets a FAIL row in this run with probability at
most the run's false-alarm budget 1e-3 (exact binomial tails, Bonferroni over the rows with
power); the control exceeds the bound in every trial of its trap rows (all 104 of 104), so
the expected failures are certain, not a chance event, at this seed.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

from offcmab.reference.clcb import clcb
from offcmab.validation.api import check
from offcmab.validation.cli import main
from offcmab.validation.runner import junit

BOUND_ID = "thm1-inf"
CONTROL = "offcmab.validation.controls.cmab:ignores_data"


@pytest.fixture(scope="module")
def broken_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    out = tmp_path_factory.mktemp("junit")
    xml = out / "nested" / "results.xml"
    code = main(["validate", "--quick", "--only", BOUND_ID, "--algorithm", CONTROL,
                 "--out", str(out / "run"), "--no-figures", "--junit-xml", str(xml)])
    return out / "run", xml, code


def _report(run: Path) -> dict[str, Any]:
    return json.loads((run / "report.json").read_text(encoding="utf-8"))


def test_one_testcase_per_row_and_a_failure_per_fail_row(
        broken_run: tuple[Path, Path, int]) -> None:
    run, xml, code = broken_run
    assert code == 1
    report = _report(run)
    root = ElementTree.parse(xml).getroot()
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == len(report["rows"])
    assert [case.get("name") for case in cases] == [junit.case_name(row)
                                                   for row in report["rows"]]
    assert len({case.get("name") for case in cases}) == len(cases)  # names are unique
    failing = [row for row in report["rows"] if row["verdict"] == "FAIL"]
    failed = [case for case in cases if case.find("failure") is not None]
    assert failing and len(failed) == len(failing)
    for case, row in zip(failed, failing, strict=True):
        message = case.find("failure").get("message")  # type: ignore[union-attr]
        assert f"violations {row['violations']} of {row['trials']} trials" in message
        assert f"{row['p_value']:.4g}" in message and f"{row['row_level']:.4g}" in message
        if row.get("gap_quantile") is not None:
            assert f"gap quantile {row['gap_quantile']:.4g}" in message
            assert f"bound {row['bound']:.4g}" in message
    skipped = [case for case in cases if case.find("skipped") is not None]
    quiet = [row for row in report["rows"] if row["verdict"] in ("vacuous", "n/a")]
    assert len(skipped) == len(quiet)
    assert all(case.find("skipped").get("message") for case in skipped)  # type: ignore[union-attr]


def test_counts_and_provenance_follow_the_junit_schema(
        broken_run: tuple[Path, Path, int]) -> None:
    run, xml, _ = broken_run
    report = _report(run)
    root = ElementTree.parse(xml).getroot()
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    for element in [root, *suites]:
        for attribute in ("tests", "failures", "errors", "skipped", "time"):
            assert element.get(attribute) is not None, (element.tag, attribute)
        float(element.get("time"))  # type: ignore[arg-type]
    for suite in suites:
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases)  # type: ignore[arg-type]
        assert int(suite.get("failures")) == sum(  # type: ignore[arg-type]
            case.find("failure") is not None for case in cases)
        assert {case.get("classname") for case in cases} == {suite.get("name")}
        properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
        assert properties["seed"] == "2025" and properties["profile"] == "quick"
        assert properties["subject.sha256"] == report["provenance"]["subject"]["sha256"]
        assert properties["offcmab.files_sha256"] == \
            report["provenance"]["package"]["files_sha256"]
    assert int(root.get("failures")) == report["summary"]["FAIL"]  # type: ignore[arg-type]
    assert not list(xml.parent.glob(".*.tmp"))  # written atomically: no temporary left


def test_event_rows_name_their_bound_ids_and_the_exact_test() -> None:
    row = {"id": "event-arm", "kind": "event", "bound_ids": ["a", "b"], "instance": "x",
           "n": 10, "variant": "event", "trials": 40, "violations": 9,
           "failure_probability": 0.05, "p_value": 1e-5, "row_level": 1e-4,
           "verdict": "FAIL", "reason": "event failed"}
    assert junit.classname(row) == "a+b"
    message = junit.failure_message(row)
    assert "P(Binomial(40, 0.05) >= 9) = 1e-05 < level 0.0001" in message


def test_check_writes_the_same_junit_xml(tmp_path: Path) -> None:
    """``check(..., junit_xml=)``: the reference CLCB in the ci profile on the lower bound
    (a correct algorithm: a FAIL row has probability at most the budget 1e-3; seed 2025)."""
    xml = tmp_path / "check.xml"
    report = check(clcb, "thm2-lower", profile="ci", junit_xml=xml)
    root = ElementTree.parse(xml).getroot()
    assert int(root.get("tests")) == len(report.rows) > 0  # type: ignore[arg-type]
    assert int(root.get("failures")) == len(report.failures) == 0  # type: ignore[arg-type]
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties["profile"] == "ci" and properties["subject.sha256"]
