r"""The comparison of our reproductions with the paper's numbers, from committed artifacts.

``docs/regenerate_reproductions.py`` writes ``docs/assets/reproductions/<figure>.json``
(headline numbers, seed, date, git commit), ``<figure>.png`` and ``comparison.csv`` (the
rows of :mod:`offcmab.validation.reproduce.comparison`).  This module turns them into the table
and the figure sections of "Reproducing the paper".  A missing artifact is reported as
missing, never filled in.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

ARTIFACTS = Path("docs") / "assets" / "reproductions"


def load(root: Path, figure: str) -> dict[str, Any] | None:
    path = root / ARTIFACTS / f"{figure}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


#: Headers of the comparison table, one per column of ``comparison.csv``.
HEADERS = {"claim": "what the paper reports", "paper": "the paper",
           "ours_paper_settings": "ours, paper's settings",
           "ours_random_ids": "ours, ids at random",
           "width_reproducing": "width scale that would reproduce it",
           "verdict": "verdict", "reason": "why"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(root: Path) -> str:
    """The Markdown comparison table, read from ``comparison.csv``."""
    path = root / ARTIFACTS / "comparison.csv"
    lines = ["| " + " | ".join(HEADERS.values()) + " |",
             "|" + "---|" * len(HEADERS)]
    if not path.is_file():
        return "\n".join(lines) + "\n| not yet available |" + " |" * (len(HEADERS) - 1) + "\n"
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            cells = [_cell(row.get(column, "")) for column in HEADERS]
            cells[-2] = f"**{cells[-2]}**"  # the verdict
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def before_after(summary: dict[str, Any]) -> str:
    """Mean gap per n with ids in the paper's order and at random (``mean_gap`` summaries)."""
    gaps = summary.get("mean_gap", {})
    if set(gaps) != {"ordered ids", "random ids"}:
        return ""
    parts = []
    for reading, by_algorithm in gaps["random ids"].items():
        names = [name for name in by_algorithm if "no clip" not in name]
        header = " | ".join(f"{name} before | {name} after" for name in names)
        rows = [f"**{reading}**: mean gap, before (ids ordered by popularity) and after "
                "(ids at random)\n", f"| n | {header} |", "|---|" + "---|" * 2 * len(names)]
        for i, n in enumerate(summary["grid"]):
            cells = " | ".join(f"{gaps['ordered ids'][reading][name][i]:.4f} | "
                               f"{by_algorithm[name][i]:.4f}" for name in names)
            rows.append(f"| {n} | {cells} |")
        parts.append("\n".join(rows) + "\n")
    return "\n".join(parts)


def figures(root: Path, *names: str) -> str:
    """One section per figure: title, the paper's claim, our figure, provenance, numbers."""
    parts = []
    for name in names:
        record = load(root, name)
        parts.append(f"### `{name}`\n")
        if record is None:
            parts.append(f'!!! warning "Not yet available"\n    No artifact for `{name}` '
                         "was generated in this build.\n")
            continue
        parts.append(f"**{record['title']}.** The paper: {record['paper']}.\n")
        parts.append(f"![{record['title']}](assets/reproductions/{name}.png)\n")
        for stem, caption in record.get("extra_figures", {}).items():
            parts.append(f"{caption}:\n\n![{caption}](assets/reproductions/{stem}.png)\n")
        parts.append(before_after(record["summary"]))
        parts.append(f"Made {record['date']} at commit `{record['git_commit'][:12]}` with "
                     f"seed {record['seed']}; regenerate with `{record['command']}`.\n")
        summary = json.dumps(record["summary"], indent=2)
        parts.append('??? note "Headline numbers (JSON)"\n    ```json\n'
                     + "\n".join(f"    {line}" for line in summary.splitlines())
                     + "\n    ```\n")
    return "\n".join(parts)
