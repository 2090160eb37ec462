r"""Plain-text tables for the human output of the commands: one header row, columns aligned.

Numbers are formatted by the caller (so each column shows its own precision and unit);
columns named in ``right`` are right-aligned, the rest left-aligned.  The last column is not
padded, so a long free-text column does not leave trailing blanks.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def render_table(header: Sequence[str], rows: Sequence[Sequence[object]],
                 right: Collection[str] = ()) -> str:
    """The rows under the header, two spaces between columns, one line per row."""
    cells = [[str(cell) for cell in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = []
    for row in cells:
        padded = [cell.rjust(width) if name in right else cell.ljust(width)
                  for cell, width, name in zip(row, widths, header, strict=True)]
        if header[-1] not in right:
            padded[-1] = row[-1]
        lines.append("  ".join(padded))
    return "\n".join(lines) + "\n"
