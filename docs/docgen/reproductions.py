r"""The comparison of our reproductions with the paper's numbers, from committed artifacts.

``docs/regenerate_reproductions.py`` writes ``docs/assets/reproductions/<figure>.json``
(headline numbers, seed, date, git commit) and ``<figure>.png``.  This module turns them
into the table and the figure sections of "Reproducing the paper".  A missing artifact
is reported as missing, never filled in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ARTIFACTS = Path("docs") / "assets" / "reproductions"


@dataclass(frozen=True)
class Comparison:
    """One number the paper reports and where ours is in the figure's summary."""

    figure: str
    what: str
    paper: str
    key: str
    measure: str  # "reduction" (1 - ours/theirs) or "ratio" (theirs/ours, > 1: CLCB better)
    pooled_key: str | None = None


COMPARISONS = (
    Comparison("fig1a", "Fig. 1a, cascade, synthetic: CLCB vs CUCB-Offline",
               "47.75% smaller gap", "reduction_vs_CUCB-Offline", "reduction",
               "pooled_reduction_vs_CUCB-Offline"),
    Comparison("fig1a", "Fig. 1a, cascade, synthetic: CLCB vs EMP",
               "20.02% smaller gap", "reduction_vs_EMP", "reduction", "pooled_reduction_vs_EMP"),
    Comparison("fig3a", "Fig. 3a, LLM cache, synthetic: CLCB-LLM-C vs LFU",
               "at least 1.32x better", "query-bernoulli: CLCB-LLM-C vs LFU", "ratio"),
    Comparison("fig3a", "Fig. 3a, LLM cache, synthetic: CLCB-LLM-C vs LEC",
               "at least 1.32x better", "query-bernoulli: CLCB-LLM-C vs LEC", "ratio"),
    Comparison("llm-real", "LLM cache, real text, K=10: CLCB-LLM-C vs LFU "
               "(paper: SciQ; ours: pydoc topics)", "36.01% less cost",
               "K=10: CLCB-LLM-C vs LFU", "ratio"),
    Comparison("llm-real", "LLM cache, real text, K=10: CLCB-LLM-C vs LEC "
               "(paper: SciQ; ours: pydoc topics)", "20.70% less cost",
               "K=10: CLCB-LLM-C vs LEC", "ratio"),
)


def load(root: Path, figure: str) -> dict[str, Any] | None:
    path = root / ARTIFACTS / f"{figure}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _verdict(values: list[float], neutral: float) -> str:
    """Whether every reading says CLCB is better (> neutral), worse, equal, or mixed."""
    if all(abs(v - neutral) < 1e-12 for v in values):
        return "no difference: not reproduced"
    if all(v > neutral for v in values):
        return "CLCB better"
    if all(v < neutral for v in values):
        return "CLCB worse: not reproduced"
    return "mixed: not reproduced"


def _ours(comparison: Comparison, summary: dict[str, Any]) -> tuple[str, str]:
    value = summary.get(comparison.key)
    if value is None:
        return "missing from the artifact", "n/a"
    if comparison.measure == "reduction":
        readings = [value]
        text = f"{100 * value:.1f}% (mean over n)"
        pooled = summary.get(comparison.pooled_key or "")
        if pooled is not None:
            readings.append(pooled)
            text += f"; {100 * pooled:.1f}% (pooled)"
        return text, _verdict(readings, 0.0)
    ratio, per_n = value["ratio_of_means"], value["mean_of_ratios"]
    text = f"{ratio:.2f}x (ratio of mean gaps); {per_n:.2f}x (mean of per-n ratios)"
    return text, _verdict([ratio, per_n], 1.0)


def table(root: Path) -> str:
    """The Markdown comparison table."""
    lines = ["| experiment | the paper | ours | verdict |", "|---|---|---|---|"]
    for comparison in COMPARISONS:
        record = load(root, comparison.figure)
        if record is None:
            lines.append(f"| {comparison.what} | {comparison.paper} | "
                         "not yet available | n/a |")
            continue
        ours, verdict = _ours(comparison, record["summary"])
        lines.append(f"| {comparison.what} | {comparison.paper} | {ours} | **{verdict}** |")
    return "\n".join(lines) + "\n"


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
        parts.append(f"Made {record['date']} at commit `{record['git_commit'][:12]}` with "
                     f"seed {record['seed']}; regenerate with `{record['command']}`.\n")
        summary = json.dumps(record["summary"], indent=2)
        parts.append('??? note "Headline numbers (JSON)"\n    ```json\n'
                     + "\n".join(f"    {line}" for line in summary.splitlines())
                     + "\n    ```\n")
    return "\n".join(parts)
