r"""``figures/<id>.png``: the gap against ``n`` with the bound, on log-log axes.

One figure per bound id, one colour per instance: the mean gap (dots), the
largest gap (triangles) and the bound (solid: stated, dashed: proved).  Zero gaps
cannot sit on a log axis and are left out (the report's tables list them).
``figures/<id>-power.png`` (:func:`write_power_figures`) plots every row's gap quantile
against its bound, the reference's and the negative controls'
(:mod:`offcmab.validation.runner.power`).
matplotlib is imported here only, with the non-interactive Agg backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from offcmab.validation.runner.folder import atomic_write


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
        written.append(_save(figure, folder / f"{bound_id}.png"))
    return written


def _save(figure: Any, path: Path) -> Path:
    """Write ``figure`` atomically as PNG and close it.

    Fixed margins instead of ``tight_layout`` and no minor ticks: laying out log axes' tick
    labels cost more than every trial of a quick run.
    """
    import matplotlib.pyplot as plt

    for axes in figure.axes:  # log axes over many decades made ~1000 minor ticks per run
        axes.minorticks_off()
    figure.subplots_adjust(left=0.14, right=0.97, bottom=0.12, top=0.92)
    atomic_write(path, partial(figure.savefig, dpi=110, format="png"))
    plt.close(figure)
    return path


def _quantile_points(rows: Sequence[dict[str, Any]], bound_id: str) -> list[tuple[float, float]]:
    """(bound, gap quantile) of the upper-bound rows of ``bound_id`` (mean risk for
    ``clcb-risk`` rows, which bound an expectation)."""
    points = []
    for row in rows:
        if row["id"] != bound_id or row.get("bound") is None:
            continue
        value = row.get("gap_quantile")
        if value is None and row.get("variant") == "clcb-risk":
            value = row.get("gap_mean")
        if value is not None and row["bound"] > 0:
            points.append((float(row["bound"]), float(value)))
    return points


def write_power_figures(rows: Sequence[dict[str, Any]], control_rows: Sequence[dict[str, Any]],
                        folder: Path) -> list[Path]:
    r"""``figures/<id>-power.png``: each row's gap quantile against its bound, log-log.

    Points above the diagonal exceed the bound (at the row's :math:`1-\delta` quantile).
    The reference's rows are blue dots, the negative controls' red crosses; a quantile
    of 0 cannot sit on a log axis and is drawn at the bottom edge as a hollow marker.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for bound_id in dict.fromkeys(row["id"] for row in rows):
        series = {"reference": _quantile_points(rows, bound_id),
                  "controls": _quantile_points(control_rows, bound_id)}
        everything = [p for points in series.values() for p in points]
        if not everything:
            continue
        positive = [v for p in everything for v in p if v > 0]
        low, high = min(positive) / 3, max(positive) * 3
        figure, axes = plt.subplots(figsize=(5.2, 4.6))
        axes.plot([low, high], [low, high], "k--", linewidth=1, label="gap quantile = bound")
        for name, colour, marker in (("reference", "C0", "o"), ("controls", "C3", "x")):
            points = series[name]
            shown = [(b, q) for b, q in points if q > 0]
            zero = [b for b, q in points if q <= 0]
            if shown:
                axes.plot(*zip(*shown, strict=True), marker, color=colour, linestyle="none",
                          alpha=0.7, label=f"{name} ({len(points)} rows)")
            if zero:
                axes.plot(zero, [low] * len(zero), marker if marker != "x" else "^",
                          color=colour, linestyle="none", fillstyle="none", alpha=0.5,
                          label=f"{name}: quantile 0 (bottom edge)")
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlim(low, high)
        axes.set_ylim(low / 1.5, high)
        axes.set_xlabel("bound")
        axes.set_ylabel("gap (1 - delta)-quantile")
        axes.set_title(f"{bound_id}: rows above the diagonal exceed their bound", fontsize=9)
        axes.legend(fontsize=7, loc="upper left")
        written.append(_save(figure, folder / f"{bound_id}-power.png"))
    return written
