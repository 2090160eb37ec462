"""The docs site: source pairing, math conversion, a strict build, and a real-browser check.

The build runs ``mkdocs build --strict`` once per session (or reuses the site that
``.ci/run`` just built, named by ``OFFCMAB_DOCS_SITE``).  The browser test opens a theorem
page in headless Chromium served from 127.0.0.1 with every other host unreachable, checks
that KaTeX rendered every formula, and saves a screenshot (into ``OFFCMAB_SCREENSHOT_DIR``
when set).  It is skipped only when Chromium is not installed.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))

from docgen import reproductions, sources  # noqa: E402
from docgen.theory import theory_links  # noqa: E402

# --- pairing pseudo-code with code --------------------------------------------------------

ALGORITHM = '''r"""A toy algorithm.

Pseudo-code (``alg:toy``), beside the code::

    Input: x
    y = x + 1          # line:add
    return 2 y         # line:double
"""


def toy(x):
    y = x + 1  # line:add
    return 2 * y  # line:double
'''


def write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "toy.py").write_text(text, encoding="utf-8")
    return tmp_path


def test_side_by_side_pairs_each_labelled_line_with_its_code(tmp_path: Path) -> None:
    table = sources.side_by_side(write(tmp_path, ALGORITHM), "toy.py", "toy")
    body = table.split("<tbody>")[1]
    rows = re.findall(r"<tr>.*?</tr>", body, re.S)
    assert len(rows) == 3  # one row per pseudo-code line
    assert "line:add" in rows[1] and ">12<" in rows[1]  # file line 12 implements line:add
    assert "line:double" in rows[2] and ">13<" in rows[2]
    assert "alg:toy" in table


def test_side_by_side_fails_when_a_pseudo_code_label_has_no_code(tmp_path: Path) -> None:
    root = write(tmp_path, ALGORITHM.replace("return 2 * y  # line:double", "return 2 * y"))
    with pytest.raises(sources.DocsSourceError, match="no code carries line:double"):
        sources.side_by_side(root, "toy.py", "toy")


def test_side_by_side_fails_when_code_cites_a_label_not_in_the_pseudo_code(
    tmp_path: Path,
) -> None:
    root = write(tmp_path, ALGORITHM.replace("x + 1  # line:add", "x + 1  # line:add, line:sum"))
    with pytest.raises(sources.DocsSourceError, match="line:sum, absent"):
        sources.side_by_side(root, "toy.py", "toy")


def test_listing_keeps_file_line_numbers(tmp_path: Path) -> None:
    block = sources.listing(write(tmp_path, ALGORITHM), "toy.py", "toy")
    assert block.startswith('```python linenums="11"')
    assert "return 2 * y  # line:double" in block


def test_missing_definition_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(sources.DocsSourceError, match="no definition named 'nope'"):
        sources.listing(write(tmp_path, ALGORITHM), "toy.py", "nope")


def test_theory_links_read_the_module_theory_tuple() -> None:
    assert theory_links(ROOT, "reference/clcb.py") == (
        "[`thm1-inf`](../bounds/thm1-inf.md), [`thm1-one`](../bounds/thm1-one.md)")
    assert theory_links(ROOT, "reference/im/clcb_im_edge.py") == (
        "[`thm1-one`](../bounds/thm1-one.md)")


# --- the comparison with the paper's numbers ----------------------------------------------


def test_comparison_table_is_read_from_comparison_csv(tmp_path: Path) -> None:
    from offcmab.validation.reproduce.comparison import COLUMNS, write_comparison

    assert "not yet available" in reproductions.table(tmp_path)  # no CSV: said so
    folder = tmp_path / reproductions.ARTIFACTS
    folder.mkdir(parents=True)
    row = dict(zip(COLUMNS, ("claim a|b", "1.32x", "1.00x", "1.00x", "s in [2^-6, 2^-2]",
                             "not reproduced", "no difference"), strict=True))
    write_comparison(folder / "comparison.csv", [row])
    lines = reproductions.table(tmp_path).splitlines()
    assert len(lines) == 3 and list(reproductions.HEADERS) == list(COLUMNS)
    assert lines[2] == ("| claim a\\|b | 1.32x | 1.00x | 1.00x | s in [2^-6, 2^-2] | "
                        "**not reproduced** | no difference |")


def test_committed_comparison_has_a_verdict_per_row() -> None:
    path = ROOT / reproductions.ARTIFACTS / "comparison.csv"
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and all(row["verdict"] in {"reproduced", "not reproduced",
                                           "not reproducible here"} for row in rows)


def test_committed_artifacts_carry_their_provenance() -> None:
    folder = ROOT / reproductions.ARTIFACTS
    records = [json.loads(path.read_text(encoding="utf-8")) for path in folder.glob("*.json")]
    assert records, "docs/assets/reproductions holds no artifact"
    for record in records:
        assert {"figure", "paper", "command", "seed", "date", "git_commit", "summary"} <= set(
            record)
        assert (folder / f"{record['figure']}.png").is_file()


# --- numpydoc math to Markdown math -------------------------------------------------------


def test_rst_math_becomes_markdown_math() -> None:
    from docgen.rst_math import convert

    text = "Mean :math:`\\hat\\mu_i` of :mod:`reference`.\n\n.. math::\n\n    x = y^2\n\nEnd."
    converted = convert(text)
    assert "$\\hat\\mu_i$" in converted
    assert "`reference`" in converted and ":mod:" not in converted
    assert "$$\nx = y^2\n$$" in converted
    assert "End." in converted


# --- the probabilities on the bound pages --------------------------------------------------


def test_every_bound_page_shows_one_minus_each_failure_term() -> None:
    """Each page's table row ``holds with probability at least`` is the sympy expression
    1 - p with every term of p subtracted: equal to 1 - Bound.failure at several points, and
    printed as that expression (cor1-cascade proved: 1 - delta - delta/(2n))."""
    import sympy
    from docgen.theory import _formula_section, success_latex, success_probability

    from offcmab.bounds.registry import BOUNDS
    from offcmab.bounds.symbols import SYMBOLS

    points = [{"delta": 0.05, "n": 1000.0, "T": 1000.0}, {"delta": 0.3, "n": 7.0, "T": 40.0}]
    for bound in BOUNDS.values():
        page = _formula_section(bound)
        for variant in ("stated", "proved"):
            failure = bound.failure_probability[variant]
            shown = success_probability(failure)
            assert f"${success_latex(failure)}$ |" in page, (bound.id, variant)
            for point in points:
                values = {SYMBOLS[name]: value for name, value in point.items()
                          if name in SYMBOLS}
                want = 1.0 - float(failure.subs(values))
                assert float(shown.subs(values)) == pytest.approx(want, rel=0, abs=1e-12)
    cascade = _formula_section(BOUNDS["cor1-cascade"])
    assert r"$1 - \delta - \frac{\delta}{2 n}$" in cascade
    assert "1 - \\delta + " not in cascade
    assert sympy.latex(success_probability(sympy.Integer(0)), order="none") == "1"


def test_readme_and_home_page_share_one_exit_code_table() -> None:
    """The exit-code table stands once, in a snippet the home page includes; the README
    (which GitHub renders without includes) carries the same text verbatim."""
    table = (ROOT / "docs" / "snippets" / "exit-codes.md").read_text(encoding="utf-8")
    assert table.strip() in (ROOT / "README.md").read_text(encoding="utf-8")
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert '--8<-- "docs/snippets/exit-codes.md"' in home
    codes = {int(line.split("|")[1]) for line in table.splitlines()[2:] if line.startswith("|")}
    assert codes == {0, 1, 2, 3, 4, 130, 143}


def test_the_verdicts_are_defined_once() -> None:
    """The verdict list (``note`` and the others) is the report's own definition: the snippet
    is :func:`~offcmab.validation.runner.report.verdict_list`, the README carries it verbatim,
    the paper page includes it, and no other page defines a verdict in a list of its own."""
    from offcmab.validation.runner.report import verdict_list

    snippet_path = ROOT / "docs" / "snippets" / "verdicts.md"
    snippet = snippet_path.read_text(encoding="utf-8")
    assert snippet == verdict_list()
    assert snippet.strip() in (ROOT / "README.md").read_text(encoding="utf-8")
    paper = (ROOT / "docs" / "using-in-a-paper.md").read_text(encoding="utf-8")
    assert '--8<-- "docs/snippets/verdicts.md"' in paper
    definition = re.compile(r"^\s*[-*] `(pass|FAIL|vacuous|n/a|note|advisory|known-failure|error)`"
                            r"(?: and `[^`]+`)?:", re.M)
    for page in (ROOT / "docs").rglob("*.md"):
        if page != snippet_path:
            assert not definition.search(page.read_text(encoding="utf-8")), page


def test_the_readme_states_the_package_false_alarm_budget() -> None:
    """The README cannot render a value, so its one statement of the budget is checked."""
    from offcmab.validation.parts.spec import FALSE_ALARM_BUDGET

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    stated = re.search(r"flagged somewhere in a run with probability at most (\S+), split "
                       r"equally", readme)
    assert stated is not None
    assert float(stated.group(1)) == FALSE_ALARM_BUDGET


def test_the_node_level_im_page_labels_the_corrected_estimator_line() -> None:
    """The reference's default estimator is the corrected one, so the page that shows its
    code beside the paper's pseudo-code says the line differs from the printed one."""
    import inspect

    from offcmab.reference.im.clcb_im_node import clcb_im_node

    default = inspect.signature(clcb_im_node).parameters["estimator"].default
    page = (ROOT / "docs" / "algorithms" / "clcb-im-n.md").read_text(encoding="utf-8")
    assert default == "correct"
    assert '!!! warning "The estimator line is corrected"' in page
    assert 'estimator="printed"' in page
