"""The docs site: source pairing, math conversion, a strict build, and a real-browser check.

The build runs ``mkdocs build --strict`` once per session (or reuses the site that
``.ci/run`` just built, named by ``OFFCMAB_DOCS_SITE``).  The browser test opens a theorem
page in headless Chromium served from 127.0.0.1 with every other host unreachable, checks
that KaTeX rendered every formula, and saves a screenshot (into ``OFFCMAB_SCREENSHOT_DIR``
when set).  It is skipped only when Chromium is not installed.
"""

from __future__ import annotations

import csv
import functools
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))

from docgen import reproductions, sources  # noqa: E402
from docgen.theory import BOUND_IDS, theory_links  # noqa: E402

THEOREM_PAGE = "bounds/thm1-inf/index.html"
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
    # Networking otherwise disabled: every host name fails to resolve except the loopback
    # address, and anything that still tries to leave goes to a dead proxy.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--proxy-server=127.0.0.1:9",
    "--virtual-time-budget=10000",
)


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


def test_theory_links_read_the_module_theory_tuple(tmp_path: Path) -> None:
    (tmp_path / "alg.py").write_text('THEORY = ("thm1-inf", "thm1-one")\n', encoding="utf-8")
    assert theory_links(tmp_path, "alg.py") == (
        "[`thm1-inf`](../bounds/thm1-inf.md), [`thm1-one`](../bounds/thm1-one.md)")


# --- the comparison with the paper's numbers ----------------------------------------------


def test_comparison_table_is_read_from_comparison_csv(tmp_path: Path) -> None:
    from validation.reproduce.comparison import COLUMNS, write_comparison

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
    pytest.importorskip("griffe")
    from griffe_rst_math import convert

    text = "Mean :math:`\\hat\\mu_i` of :mod:`reference`.\n\n.. math::\n\n    x = y^2\n\nEnd."
    converted = convert(text)
    assert "$\\hat\\mu_i$" in converted
    assert "`reference`" in converted and ":mod:" not in converted
    assert "$$\nx = y^2\n$$" in converted
    assert "End." in converted


# --- the built site -----------------------------------------------------------------------


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site: the one ``.ci/run`` built, or a fresh strict build."""
    given = os.environ.get("OFFCMAB_DOCS_SITE")
    if given and (Path(given) / "index.html").is_file():
        return Path(given)
    pytest.importorskip("material", reason="the docs extra is not installed")
    subprocess.run(["bash", str(ROOT / "docs" / "install-katex.sh")], check=True)
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_every_bound_has_a_generated_page(site: Path) -> None:
    for bound_id in BOUND_IDS:
        page = (site / "bounds" / bound_id / "index.html").read_text(encoding="utf-8")
        assert f"<code>{bound_id}</code>" in page


EXTERNAL = re.compile(
    r"""<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)=["'](?:https?:)?//"""
    r"""|@import\s+url\(["']?(?:https?:)?//|fonts\.googleapis|cdn\.jsdelivr|unpkg\.com""",
    re.I)


def test_site_loads_nothing_from_other_hosts(site: Path) -> None:
    offenders = []
    for path in [*site.rglob("*.html"), *site.rglob("*.css")]:
        if EXTERNAL.search(path.read_text(encoding="utf-8", errors="replace")):
            offenders.append(str(path.relative_to(site)))
    assert offenders == []
    assert (site / "assets" / "katex" / "katex.min.js").is_file()
    assert list((site / "assets" / "katex" / "fonts").glob("*.woff2"))


def test_no_directive_is_left_unexpanded(site: Path) -> None:
    for path in site.rglob("*.html"):
        parser = VisibleText()  # the Extending page shows a directive as inline code
        parser.feed(path.read_text(encoding="utf-8"))
        prose = "".join(parser.chunks)
        directive = r"\{\{\s*(side_by_side|listing|run|theory|reproduction_\w+)\("
        assert not re.search(directive, prose), path


# --- a real browser -----------------------------------------------------------------------


class VisibleText(html.parser.HTMLParser):
    """Text a reader sees as prose: outside code, scripts, styles and KaTeX's MathML copy."""

    SKIP = frozenset({"pre", "code", "script", "style", "annotation", "math", "title"})

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.chunks: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.chunks.append(data)


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def chromium(binary: str, profile: Path, *args: str) -> str:
    done = subprocess.run([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.browser
def test_theorem_page_math_is_rendered_in_chromium(site: Path, tmp_path: Path) -> None:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.skip("chromium is not installed")
    static = (site / THEOREM_PAGE).read_text(encoding="utf-8")
    formulas = len(re.findall(r'class="arithmatex"', static))
    assert formulas >= 5, "the theorem page should carry math to render"
    shots = Path(os.environ.get("OFFCMAB_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    shot = shots / "thm1-inf.png"
    with serve(site) as base:
        url = f"{base}/{THEOREM_PAGE.removesuffix('index.html')}"
        dom = chromium(binary, tmp_path / "profile-dom", "--dump-dom", url)
        chromium(binary, tmp_path / "profile-shot", "--window-size=1280,1400",
                 f"--screenshot={shot}", url)
    # Every arithmatex element became KaTeX output, and none failed to parse.
    assert len(re.findall(r'class="katex"', dom)) >= formulas
    assert "katex-error" not in dom
    # No raw TeX delimiters are left in the prose a reader sees.
    parser = VisibleText()
    parser.feed(dom)
    prose = "".join(parser.chunks)
    for delimiter in ("$", "\\(", "\\)", "\\[", "\\]"):
        assert delimiter not in prose, f"raw {delimiter!r} left on the page"
    # The flags really cut the network: a public site does not load.
    outside = chromium(binary, tmp_path / "profile-outside", "--dump-dom", "https://pypi.org/")
    assert "Python Package Index" not in outside
    # The screenshot exists and is not a blank page.
    from matplotlib import image

    pixels = image.imread(shot)
    assert pixels.shape[0] >= 1000 and pixels.shape[1] >= 1000
    assert float(pixels[..., :3].std()) > 0.05
    print(f"screenshot: {shot}")
