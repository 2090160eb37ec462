r"""The quick validation run behind the figures of the bound pages.

During the build, ``offcmab validate --quick`` runs once (a fixed seed, about 20 s) into a
temporary folder; its ``report.json`` rows become one figure per bound id (largest measured
gap against the bound, over n, per instance) and one summary table.  The same command
regenerates the numbers by hand::

    offcmab validate --quick --out offcmab-report
"""

from __future__ import annotations

import io
import json
import math
import shlex
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docgen import commands

COMMAND = "offcmab validate --quick --seed 2025"
_CACHE: dict[Path, Report | None] = {}


@dataclass
class Report:
    """The rows and metadata of one ``report.json``."""

    data: dict[str, Any]
    exit_code: int
    rows: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rows = list(self.data.get("rows", []))

    def rows_for(self, bound_id: str) -> list[dict[str, Any]]:
        return [row for row in self.rows if row.get("id") == bound_id]

    def figures(self, ids: Iterable[str]) -> dict[str, bytes]:
        out = {}
        for bound_id in ids:
            # a rate row has no single n (its bound is a slope): not on a gap-against-n plot
            rows = [r for r in self.rows_for(bound_id) if _finite(r.get("bound"))
                    and _finite(r.get("gap_max")) and r.get("n") is not None]
            if rows:
                out[bound_id] = plot(bound_id, rows)
        return out

    def summaries(self, ids: Iterable[str]) -> dict[str, str]:
        return {i: self.summary(i) for i in ids if self.rows_for(i)}

    def summary(self, bound_id: str) -> str:
        meta = []
        for key in ("seed", "profile", "git_commit", "false_alarm_budget"):
            if key in self.data:
                meta.append(f"{key} `{self.data[key]}`")
        head = (f"Rows of `{COMMAND}` run during this docs build"
                + (f" ({', '.join(meta)})" if meta else "") + ". A verdict compares the number "
                "of trials above the bound with an exact binomial tail; "
                "`allowed_violations` is the largest count the test accepts. `tightness` is "
                "the upper quantile of the gap over the bound. `n/a` rows say why the bound "
                "does not apply; `vacuous` rows have a bound at least `max_gap`, the largest "
                "gap the instance allows, so they cannot fail. `detectable_rate` is the "
                "smallest probability of exceeding the bound that the row flags with "
                "probability 0.9.\n\n")
        columns = ["instance", "variant", "n", "trials", "check", "violations",
                   "allowed_violations", "bound", "max_gap", "gap_max", "tightness",
                   "detectable_rate", "verdict", "reason"]
        lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        for row in self.rows_for(bound_id):
            lines.append("| " + " | ".join(_cell(row.get(c)) for c in columns) + " |")
        return head + "\n".join(lines) + "\n"


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def _cell(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.4g}"
    text = str(value)
    for char in "\\|*_$`[]":
        text = text.replace(char, "\\" + char)
    return text.replace("<", "&lt;")


def plot(bound_id: str, rows: list[dict[str, Any]]) -> bytes:
    """Log-log PNG: largest measured gap (markers) and the bound (lines) against n.

    Solid lines are the ``stated`` variant, dashed lines the ``proved`` one, dotted lines
    any other check of the same rows (for the lower bound: CLCB's upper bound).  A largest
    gap of exactly 0 cannot sit on a log axis: it is drawn as a hollow marker on the
    bottom edge.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_instance: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_instance[str(row.get("instance", "?"))].append(row)
    positive = [row["gap_max"] for row in rows if row["gap_max"] > 0]
    floor = min([*positive, *(row["bound"] for row in rows if row["bound"] > 0)]) / 10
    figure, axes = plt.subplots(figsize=(7.5, 4.0), dpi=110)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for index, (instance, group) in enumerate(sorted(by_instance.items())[:10]):
        color = colors[index % len(colors)]
        variants = sorted({str(r.get("variant", "stated")) for r in group},
                          key=lambda v: (v != "stated", v != "proved", v))
        for variant in variants:
            style = {"stated": "-", "proved": "--"}.get(variant, ":")
            line = sorted((r for r in group if r.get("variant", "stated") == variant),
                          key=lambda row: row["n"])
            if line:
                axes.plot([r["n"] for r in line], [r["bound"] for r in line], style,
                          color=color, label=f"{instance}: bound ({variant})")
        gaps = {row["n"]: row["gap_max"] for row in group}
        n = sorted(gaps)
        hit = [x for x in n if gaps[x] > 0]
        zero = [x for x in n if gaps[x] <= 0]
        axes.plot(hit, [gaps[x] for x in hit], "o", color=color,
                  label=f"{instance}: largest gap")
        if zero:
            axes.plot(zero, [floor] * len(zero), "o", mfc="none", color=color,
                      label=f"{instance}: largest gap 0")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_ylim(bottom=floor / 1.5)
    axes.set_xlabel("n (offline samples)")
    axes.set_ylabel("suboptimality gap")
    axes.set_title(f"{bound_id}: largest measured gap against the bound")
    axes.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.01, 0.5))
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    plt.close(figure)
    return buffer.getvalue()


def quick(root: Path) -> Report | None:
    """Run the quick validation once per build process; None if ``validate`` is missing."""
    if root in _CACHE:
        return _CACHE[root]
    report = None
    if (root / "validation" / "commands" / "validate.py").is_file():
        with tempfile.TemporaryDirectory(prefix="offcmab-docs-") as tmp:
            # A separate process: the run may start worker processes of its own.
            done = subprocess.run(
                [sys.executable, "-m", "validation", *shlex.split(COMMAND)[1:], "--out", tmp],
                cwd=root, capture_output=True, text=True, timeout=300, check=False)
            path = Path(tmp) / "report.json"
            if done.returncode not in (0, 1) or not path.is_file():
                raise commands.CommandError(
                    f"{COMMAND} exited {done.returncode}:\n{done.stdout}{done.stderr}")
            report = Report(json.loads(path.read_text(encoding="utf-8")), done.returncode)
    _CACHE[root] = report
    return report
