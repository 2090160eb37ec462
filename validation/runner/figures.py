r"""``figures/<id>.png``: the gap against ``n`` with the bound, on log-log axes.

One figure per bound id, one colour per instance: the mean gap (dots), the
largest gap (triangles) and the bound (solid: stated, dashed: proved).  Zero gaps
cannot sit on a log axis and are left out (the report's tables list them).
matplotlib is imported here only, with the non-interactive Agg backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from validation.runner.folder import atomic_write


def write_figures(rows: Sequence[dict[str, Any]], folder: Path) -> list[Path]:
    """Draw one PNG per bound id that has rows with a numeric ``n``; return the paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for bound_id in dict.fromkeys(row["id"] for row in rows):
        mine = [r for r in rows if r["id"] == bound_id and isinstance(r.get("n"), int)
                and r.get("variant") == "stated"]
        proved = [r for r in rows if r["id"] == bound_id and r.get("variant") == "proved"]
        if not mine:
            continue
        figure, axes = plt.subplots(figsize=(6.4, 4.4))
        for colour, instance in enumerate(dict.fromkeys(r["instance"] for r in mine)):
            points = sorted((r for r in mine if r["instance"] == instance), key=lambda r: r["n"])
            shade = f"C{colour % 10}"
            for key, marker, alpha in (("gap_mean", "o", 1.0), ("gap_max", "^", 0.5)):
                positive = [(r["n"], r[key]) for r in points if r[key] > 0]
                if positive:
                    axes.plot(*zip(*positive, strict=True), marker, color=shade, alpha=alpha,
                              label=f"{instance}" if marker == "o" else None)
            for variant_rows, style in ((points, "-"), (proved, "--")):
                bounded = sorted((r["n"], r["bound"]) for r in variant_rows
                                 if r["instance"] == instance and r.get("bound") is not None)
                if bounded:
                    axes.plot(*zip(*bounded, strict=True), style, color=shade)
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("n (samples)")
        axes.set_ylabel("suboptimality gap")
        axes.set_title(f"{bound_id}: gap (dots mean, triangles max), bound "
                       "(solid stated, dashed proved)", fontsize=9)
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize=6, loc="best")
        figure.tight_layout()
        path = folder / f"{bound_id}.png"
        atomic_write(path, partial(figure.savefig, dpi=110, format="png"))
        plt.close(figure)
        written.append(path)
    return written
