r"""Pull algorithm source into the docs so pages cannot drift from the code.

Every algorithm module of ``reference/`` carries the paper's pseudo-code in a docstring
(a literal block introduced by a line containing ``Pseudo-code`` and ending in ``::``),
with each line's paper label as a trailing comment (``# line:LCB``).  The implementing
code carries the same labels in its comments.  :func:`side_by_side` pairs the two line by
line; it raises :class:`DocsSourceError` when a label of the pseudo-code has no code, or the
code cites a label the pseudo-code lacks, so a drift fails ``mkdocs build --strict``.
"""

from __future__ import annotations

import ast
import html
import re
from dataclasses import dataclass
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

#: Paper line labels: ``line:LCB``, ``cascade_line:oracle``, ``apdx_line:if_1`` ...
LABEL = re.compile(r"\b[A-Za-z_]*line:[\w\-]+")
COMMENT = re.compile(r"#\s*(?P<labels>[A-Za-z_]*line:[\w\-]+(?:\s*,\s*[A-Za-z_]*line:[\w\-]+)*)")
PSEUDO_INTRO = re.compile(r"Pseudo-code.*::\s*$")


class DocsSourceError(ValueError):
    """The docs asked for source that does not exist or does not match its pseudo-code."""


@dataclass(frozen=True)
class PseudoLine:
    """One line of pseudo-code: its text and the paper labels it carries."""

    text: str
    labels: tuple[str, ...]


@dataclass(frozen=True)
class CodeLine:
    """One line of source: its 1-based number in the file, text and paper labels."""

    number: int
    text: str
    labels: tuple[str, ...]


@dataclass(frozen=True)
class Definition:
    """A function or class found in a source file."""

    path: str
    qualname: str
    first: int
    last: int
    docstring_lines: frozenset[int]
    docstring: str | None


def _find(tree: ast.Module, qualname: str) -> ast.FunctionDef | ast.ClassDef:
    scope: list[ast.stmt] = list(tree.body)
    node: ast.AST | None = None
    for part in qualname.split("."):
        node = next(
            (
                child
                for child in scope
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and child.name == part
            ),
            None,
        )
        if node is None:
            raise DocsSourceError(f"{qualname}: no definition named {part!r}")
        scope = list(node.body)
    assert isinstance(node, ast.FunctionDef | ast.ClassDef)
    return node


def _docstring_span(node: ast.AST) -> frozenset[int]:
    body = getattr(node, "body", [])
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        first, last = body[0].lineno, body[0].end_lineno or body[0].lineno
        return frozenset(range(first, last + 1))
    return frozenset()


def definition(root: Path, path: str, qualname: str) -> Definition:
    """Locate ``qualname`` (``func`` or ``Class.method``) in the file ``root / path``."""
    file = root / path
    if not file.is_file():
        raise DocsSourceError(f"{path}: no such source file")
    tree = ast.parse(file.read_text(encoding="utf-8"))
    node = _find(tree, qualname)
    decorators = [d.lineno for d in node.decorator_list]
    first = min([node.lineno, *decorators])
    return Definition(path, qualname, first, node.end_lineno or node.lineno,
                      _docstring_span(node), ast.get_docstring(node, clean=True))


def source_lines(root: Path, found: Definition) -> list[CodeLine]:
    """The definition's lines with the paper labels of their comments (docstring excluded)."""
    text = (root / found.path).read_text(encoding="utf-8").splitlines()
    lines = []
    for number in range(found.first, found.last + 1):
        line = text[number - 1]
        labels: tuple[str, ...] = ()
        match = COMMENT.search(line)
        if match and number not in found.docstring_lines:
            labels = tuple(LABEL.findall(match.group("labels")))
        lines.append(CodeLine(number, line, labels))
    return lines


def parse_pseudo_code(docstring: str) -> tuple[str, list[PseudoLine]]:
    """The heading line and the lines of the first ``Pseudo-code ...::`` literal block."""
    lines = docstring.splitlines()
    index = next((i for i, line in enumerate(lines) if PSEUDO_INTRO.search(line)), None)
    if index is None:
        raise DocsSourceError("no 'Pseudo-code ...::' literal block in the docstring")
    heading = lines[index].strip().rstrip(":").replace("``", "").split(", beside")[0]
    block: list[str] = []
    for line in lines[index + 1:]:
        if line.strip() and not line.startswith((" ", "\t")):
            break
        block.append(line)
    while block and not block[0].strip():
        block.pop(0)
    while block and not block[-1].strip():
        block.pop()
    if not block:
        raise DocsSourceError("the pseudo-code block is empty")
    indent = min(len(line) - len(line.lstrip()) for line in block if line.strip())
    parsed = []
    for line in block:
        body = line[indent:]
        match = COMMENT.search(body)
        labels = tuple(LABEL.findall(match.group("labels"))) if match else ()
        text = body[: match.start()].rstrip() if match else body.rstrip()
        parsed.append(PseudoLine(text, labels))
    return heading, parsed


def module_docstring(root: Path, path: str) -> str:
    """The module docstring of ``root / path`` (empty string if none)."""
    tree = ast.parse((root / path).read_text(encoding="utf-8"))
    return ast.get_docstring(tree, clean=True) or ""


def _code_html(lines: list[CodeLine]) -> str:
    code = "\n".join(line.text.strip() for line in lines)
    body = highlight(code, PythonLexer(), HtmlFormatter(nowrap=True)) if code else ""
    numbers = "\n".join(str(line.number) for line in lines)
    return (f'<td class="lineno"><pre>{numbers}</pre></td>'
            f'<td class="highlight"><pre><code>{body.rstrip()}</code></pre></td>')


def side_by_side(root: Path, path: str, qualname: str, *helpers: str) -> str:
    """An HTML table pairing each pseudo-code line with the code lines carrying its label.

    The pseudo-code is read from the docstring of ``qualname`` if it has one, otherwise
    from the module docstring.  Code lines are searched in ``qualname`` and in the
    ``helpers`` (other definitions of the same file that implement some lines).
    """
    main = definition(root, path, qualname)
    docstring = main.docstring or ""
    source = docstring if PSEUDO_INTRO.search(docstring) else module_docstring(root, path)
    heading, pseudo = parse_pseudo_code(source)
    code: list[CodeLine] = []
    for name in (qualname, *helpers):
        code.extend(source_lines(root, definition(root, path, name)))
    pseudo_labels = {label for line in pseudo for label in line.labels}
    code_labels = {label for line in code for label in line.labels}
    if missing := sorted(pseudo_labels - code_labels):
        raise DocsSourceError(f"{path}::{qualname}: no code carries {', '.join(missing)}")
    if extra := sorted(code_labels - pseudo_labels):
        raise DocsSourceError(
            f"{path}::{qualname}: code cites {', '.join(extra)}, absent from the pseudo-code")
    rows = []
    for line in pseudo:
        matched = [c for c in code if set(c.labels) & set(line.labels)]
        label = "<br>".join(html.escape(label) for label in line.labels)
        cells = _code_html(matched) if matched else '<td class="lineno"></td><td></td>'
        rows.append(f'<tr><td><pre>{html.escape(line.text)}</pre></td>'
                    f'<td class="label">{label}</td>{cells}</tr>')
    names = ", ".join(f"<code>{html.escape(n)}</code>" for n in (qualname, *helpers))
    return "\n".join([
        '<div class="side-by-side-wrap"><table class="side-by-side">',
        f"<thead><tr><th>{html.escape(heading)}</th><th>label</th>"
        f'<th colspan="2"><code>{html.escape(path)}</code>: {names}</th></tr></thead>',
        "<tbody>", *rows, "</tbody></table></div>",
    ])


def listing(root: Path, path: str, qualname: str) -> str:
    """A fenced, line-numbered listing of one definition as it is in the file."""
    found = definition(root, path, qualname)
    text = (root / path).read_text(encoding="utf-8").splitlines()
    body = "\n".join(text[found.first - 1: found.last])
    return (f'```python linenums="{found.first}" title="{path}: {qualname}"\n'
            f"{body}\n```")
