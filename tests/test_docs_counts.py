"""Counts on the docs pages are computed during the build, never typed.

One test reads every hand-written page for a number followed by a noun the package can
count (claims, errata, rows, controls, bound ids...) and fails on any; the fix is a
``{{ count(...) }}`` directive (``docs/docgen/counts.py``) or no number.  The other checks
that a count shown on two pages (the claims page and a hand-written one) comes from one
source: replacing the registry's results changes both.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))

from docgen import counts, theory  # noqa: E402

#: Pages and tables written by a generator (their numbers come from a run), not by hand.
GENERATED = {"what-validate-can-catch.md"}
GENERATED_FOLDERS = {"docgen", "assets"}

NUMBER = r"(?:\d[\d,]*|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?)"
NOUNS = (r"(?:claims|errata|erratum|rows|controls|bound ids|ids|theorems|counterexamples"
         r"|proof steps|checks|instances with power)")
#: A number followed (within two words) by a noun the package counts, or "N of M nouns".
TYPED = [
    re.compile(rf"\b{NUMBER}\s+(?:(?!(?:those|these|the|of)\b)\w+\s+){{0,2}}?{NOUNS}\b", re.I),
    re.compile(rf"\bof\s+\d[\d,]*\s+{NOUNS}\b", re.I),
]
DIRECTIVE = re.compile(r"\{\{.*?\}\}", re.S)


def pages() -> list[Path]:
    return sorted(path for path in (ROOT / "docs").rglob("*.md")
                  if path.name not in GENERATED and not GENERATED_FOLDERS & set(path.parts))


def typed_counts(text: str) -> list[str]:
    text = DIRECTIVE.sub("", text)
    return [match.group(0) for pattern in TYPED for match in pattern.finditer(text)]


def test_the_patterns_catch_typed_counts_and_spare_directives() -> None:
    for typed in ("111 claims", "of 51 controls", "eight ids", "113 rows with power",
                  "12 errata", "353 rows", "two failing rows"):
        assert typed_counts(f"The run had {typed}."), typed
    for computed in ('{{ count("claims") }} claims', "one row per arm", "a row with power"):
        assert not typed_counts(computed), computed


def test_no_page_types_a_count_the_build_can_compute() -> None:
    found = {path.relative_to(ROOT).as_posix(): hits for path in pages()
             if (hits := typed_counts(path.read_text(encoding="utf-8")))}
    assert not found, f"typed counts (use {{{{ count(...) }}}}): {found}"


def fake_results(statuses: list[str]) -> list[Any]:
    def result(number: int, status: str) -> Any:
        claim = SimpleNamespace(id=f"c{number}", label="x", lines=(1, 1))
        data = {"id": claim.id, "paper_ref": "x", "statement": "s", "status": status,
                "method": "none", "detail": "d", "evidence": {}}
        return SimpleNamespace(claim=claim, as_dict=lambda: dict(data))
    return [result(number, status) for number, status in enumerate(statuses)]


def test_a_count_on_two_pages_comes_from_one_source(monkeypatch: pytest.MonkeyPatch) -> None:
    statuses = ["proved"] * 5 + ["counterexample"] * 2
    monkeypatch.setitem(theory._CLAIMS_CACHE, "results", fake_results(statuses))
    monkeypatch.setattr(theory, "bounds_of", lambda claim: ())
    monkeypatch.setattr(theory, "all_errata",
                        lambda: [{"id": "c5"}, {"id": "c6"}])  # the registry's failures
    assert counts.count("claims") == "7" and counts.count("errata") == "2"
    assert counts.count("claims", status="proved") == "5"
    assert "7 claims: 2 counterexample, 5 proved." in theory.claims_page()
    page = (ROOT / "docs" / "using-in-a-paper.md").read_text(encoding="utf-8")
    assert '{{ count("claims") }}' in page and '{{ count("errata") }}' in page


def test_an_unknown_count_or_missing_report_stops_the_build(tmp_path: Path) -> None:
    with pytest.raises(counts.CountError, match="unknown count 'claimz'"):
        counts.count("claimz")
    with pytest.raises(counts.CountError, match="no validate report"):
        counts.count("rows with power", run=str(tmp_path))
