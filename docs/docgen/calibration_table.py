r"""A stored ``offcmab calibrate --json`` run as a table: ``{{ calibration_table("record") }}``.

The table has the columns ``offcmab calibrate`` prints (one row per bound id and the ``all``
row that sets the exit code), read from the run record, with the record's provenance under it.
"""

from __future__ import annotations

from typing import Any

from docgen import figures


def _cells(entry: dict[str, Any]) -> tuple[str, ...]:
    low, high = entry["interval"]
    return (f"`{entry['name']}`", str(entry["runs"]), str(entry["failed"]),
            f"{entry['rate']:.3g}", f"[{low:.3g}, {high:.3g}]", f"{entry['budget']:.3g}",
            entry["verdict"])


def table(name: str) -> str:
    """The calibration table of record ``name`` and its provenance."""
    record = figures.load(name)
    result = figures.lookup(record, "")
    entries = [*figures.lookup(record, "theorems"), figures.lookup(record, "overall")]
    level = round(100 * float(figures.lookup(record, "level")))
    columns = ("id", "runs", "runs with a FAIL", "rate", f"{level}% interval",
               "stated budget", "verdict")
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cells(entry)) + " |" for entry in entries]
    flagged = result.get("flagged_runs") or []
    seeds = ", ".join(str(run["seed"]) for run in flagged)
    note = f" Flagged run seeds: {seeds}." if flagged else ""
    return "\n".join(lines) + f"\n\n{figures.provenance(name)}{note}"
