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
COMMENT = re.compile(r"#(?P<labels>.*line:.*)$")
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


def _defines(node: ast.stmt, name: str) -> bool:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name == name
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    if isinstance(node, ast.AnnAssign):
        return isinstance(node.target, ast.Name) and node.target.id == name
    return False


def _find(tree: ast.Module, qualname: str) -> ast.stmt:
    """The function, class or assignment named ``qualname`` (dotted for class members)."""
    scope: list[ast.stmt] = list(tree.body)
    node: ast.stmt | None = None
    for part in qualname.split("."):
        node = next((child for child in scope if _defines(child, part)), None)
        if node is None:
            raise DocsSourceError(f"{qualname}: no definition named {part!r}")
        scope = list(getattr(node, "body", []))
    assert node is not None
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
    decorators = [d.lineno for d in getattr(node, "decorator_list", [])]
    first = min([node.lineno, *decorators])
    docstring = (ast.get_docstring(node, clean=True)
                 if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                 else None)
    return Definition(path, qualname, first, node.end_lineno or node.lineno,
                      _docstring_span(node), docstring)


def _simple_statement_spans(source: str) -> list[tuple[int, int]]:
    """(first, last) lines of every simple statement that spans several lines."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.stmt) and not hasattr(node, "body"):
            last = node.end_lineno or node.lineno
            if last > node.lineno:
                spans.append((node.lineno, last))
    return spans


def source_lines(root: Path, found: Definition) -> list[CodeLine]:
    """The definition's lines with the paper labels of their comments (docstring excluded).

    A label on any line of a statement written over several lines labels the whole
    statement, so the table shows it entire.
    """
    source = (root / found.path).read_text(encoding="utf-8")
    text = source.splitlines()
    labels: dict[int, tuple[str, ...]] = {}
    for number in range(found.first, found.last + 1):
        match = COMMENT.search(text[number - 1])
        if match and number not in found.docstring_lines:
            labels[number] = tuple(LABEL.findall(match.group("labels")))
    for first, last in _simple_statement_spans(source):
        found_labels = [label for n in range(first, last + 1) for label in labels.get(n, ())]
        if found_labels:
            for number in range(first, last + 1):
                labels[number] = tuple(dict.fromkeys(found_labels))
    return [CodeLine(number, text[number - 1], labels.get(number, ()))
            for number in range(found.first, found.last + 1)]


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
    indent = min((len(line.text) - len(line.text.lstrip()) for line in lines), default=0)
    code = "\n".join(line.text[indent:].rstrip() for line in lines)
    body = highlight(code, PythonLexer(), HtmlFormatter(nowrap=True)) if code else ""
    numbers = "\n".join(str(line.number) for line in lines)
    return (f'<td class="lineno"><pre>{numbers}</pre></td>'
            f'<td class="highlight"><pre><code>{body.rstrip()}</code></pre></td>')


def side_by_side(root: Path, path: str, qualname: str, *helpers: str,
                 pseudo: str | None = None) -> str:
    """An HTML table pairing each pseudo-code line with the code lines carrying its label.

    The pseudo-code is read from the file ``pseudo`` when given (for modules whose
    docstring does not carry it), else from the docstring of ``qualname`` if it has one,
    else from the module docstring.  Code lines are searched in ``qualname`` and in the
    ``helpers`` (other definitions of the same file that implement some lines).
    """
    main = definition(root, path, qualname)
    docstring = main.docstring or ""
    if pseudo is not None:
        source = (root / pseudo).read_text(encoding="utf-8")
    elif PSEUDO_INTRO.search(docstring):
        source = docstring
    else:
        source = module_docstring(root, path)
    heading, pseudo_lines = parse_pseudo_code(source)
    code: list[CodeLine] = []
    for name in (qualname, *helpers):
        code.extend(source_lines(root, definition(root, path, name)))
    pseudo_labels = {label for line in pseudo_lines for label in line.labels}
    code_labels = {label for line in code for label in line.labels}
    if missing := sorted(pseudo_labels - code_labels):
        raise DocsSourceError(f"{path}::{qualname}: no code carries {', '.join(missing)}")
    if extra := sorted(code_labels - pseudo_labels):
        raise DocsSourceError(
            f"{path}::{qualname}: code cites {', '.join(extra)}, absent from the pseudo-code")
    rows = []
    for line in pseudo_lines:
        matched = [c for c in code if set(c.labels) & set(line.labels)]
        label = "<br>".join(html.escape(label) for label in line.labels)
        cells = _code_html(matched) if matched else '<td class="lineno"></td><td></td>'
        rows.append(f'<tr><td><pre>{html.escape(line.text)}</pre></td>'
                    f'<td class="label">{label}</td>{cells}</tr>')
    names = ", ".join(f"<code>{html.escape(n)}</code>" for n in (qualname, *helpers))
    return "\n".join([
        '<div class="side-by-side-wrap"><table class="side-by-side">',
        '<colgroup><col class="pseudo"><col class="label"><col class="lineno">'
        '<col class="code"></colgroup>',
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
