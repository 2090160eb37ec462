r"""reStructuredText math of numpydoc docstrings, rewritten as Markdown math.

The package's docstrings follow numpydoc: inline math is ``:math:`\mu_i``` and display
math a ``.. math::`` directive with an indented body, while the site's Markdown
(``pymdownx.arithmatex``) reads ``$...$`` and ``$$...$$``.  These functions do that rewrite
and turn cross-reference roles (``:mod:`offcmab.bounds```, ``:func:`clcb```) into inline code.  They
need nothing beyond the standard library, so the test suite checks them without the docs
extra; the griffe extension in ``docs/griffe_rst_math.py`` applies them at build time.
"""

from __future__ import annotations

import re

INLINE_MATH = re.compile(r":math:`([^`]+)`")
ROLE = re.compile(r":(?:mod|func|class|meth|attr|data|obj|exc|ref):`~?([^`]+)`")
DISPLAY_START = re.compile(r"^(?P<indent>[ \t]*)\.\. math::[ \t]*(?P<rest>.*)$")


def convert_display_math(text: str) -> str:
    """Replace every ``.. math::`` directive and its indented body by a ``$$`` block."""
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        match = DISPLAY_START.match(lines[index])
        if match is None:
            out.append(lines[index])
            index += 1
            continue
        indent = match.group("indent")
        body = [match.group("rest")] if match.group("rest").strip() else []
        index += 1
        while index < len(lines) and (
            not lines[index].strip() or len(lines[index]) - len(lines[index].lstrip()) > len(indent)
        ):
            body.append(lines[index].strip())
            index += 1
        formula = "\n".join(line for line in body if line)
        out.extend([f"{indent}$$", *(f"{indent}{line}" for line in formula.splitlines()),
                    f"{indent}$$", ""])
    return "\n".join(out)


RST_HEADING = re.compile(r"^(?P<title>[^\n]+)\n[ \t]*-{3,}[ \t]*$", re.M)


def headings_to_bold(text: str) -> str:
    """Turn numpydoc section underlines into bold lines (for text griffe does not parse)."""
    return RST_HEADING.sub(lambda m: f"**{m.group('title').strip()}**\n", text)


def convert(text: str) -> str:
    """Markdown math for a numpydoc docstring written with reStructuredText roles."""
    text = convert_display_math(text)
    text = INLINE_MATH.sub(lambda m: f"${m.group(1).strip()}$", text)
    return ROLE.sub(lambda m: f"`{m.group(1)}`", text)
