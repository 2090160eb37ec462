r"""``figures/<id>.png``: the gap against ``n`` with the bound, on log-log axes.

One figure per bound id, one colour per instance: the mean gap (dots), the
largest gap (triangles) and the bound (line).  matplotlib is imported here only,
with the non-interactive Agg backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any


def write_figures(rows: Sequence[dict[str, Any]], folder: Path) -> list[Path]:
    """Draw one PNG per bound id that has rows with a numeric ``n``; return the paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for bound_id in dict.fromkeys(row["id"] for row in rows):
        mine = [r for r in rows if r["id"] == bound_id and isinstance(r.get("n"), int)
                and r.get("variant") in ("stated", None)]
        if not mine:
            continue
        figure, axes = plt.subplots(figsize=(6.4, 4.4))
        for colour, instance in enumerate(dict.fromkeys(r["instance"] for r in mine)):
            points = sorted((r for r in mine if r["instance"] == instance), key=lambda r: r["n"])
            ns = [r["n"] for r in points]
            shade = f"C{colour % 10}"
            axes.plot(ns, [max(r["gap_mean"], 1e-12) for r in points], "o", color=shade,
                      label=f"{instance} mean gap")
            axes.plot(ns, [max(r["gap_max"], 1e-12) for r in points], "^", color=shade,
                      alpha=0.5)
            bounded = [(r["n"], r["bound"]) for r in points if r.get("bound") is not None]
            if bounded:
                axes.plot(*zip(*bounded, strict=True), "-", color=shade)
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("n (samples)")
        axes.set_ylabel("suboptimality gap")
        axes.set_title(f"{bound_id}: gap (dots mean, triangles max) and bound (lines)")
        axes.legend(fontsize=6, loc="best")
        figure.tight_layout()
        path = folder / f"{bound_id}.png"
        figure.savefig(path, dpi=110)
        plt.close(figure)
        written.append(path)
    return written
