r"""Hypothesis coverage: how many instances with power a run drew in each region of a theorem.

A theorem's record names the regions its hypotheses allow
(:attr:`offcmab.validation.parts.theorem.Theorem.regions`); its scenario says which regions an
instance falls in (:func:`offcmab.validation.regions.instance_regions`).  An instance
counts in a region when at least one of its rows has power (verdict ``pass`` or ``FAIL``:
neither vacuous nor n/a), since only such an instance checks the theorem there.  A region
that no instance with power falls in is a *gap* of the run: the theorem went unchecked
where its hypotheses allow data of that kind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from offcmab.validation.parts.spec import Instance
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.regions import DESCRIPTIONS, instance_regions
from offcmab.validation.runner.analysis import FAIL, PASS


def hypothesis_coverage(theorems: Mapping[str, Theorem],
                        instances: Mapping[str, Sequence[Instance]],
                        rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Bound id -> region -> the number of its instances with power in that region, for
    every region the id's record declares (an id that declares none maps to ``{}``)."""
    powered = {(row["id"], row.get("instance")) for row in rows
               if row["verdict"] in (PASS, FAIL)}
    table: dict[str, dict[str, int]] = {}
    for bound_id, mine in instances.items():
        theorem = theorems[bound_id]
        counts = dict.fromkeys(theorem.regions, 0)
        for instance in mine:
            if (bound_id, instance.name) not in powered:
                continue
            for region in instance_regions(theorem.scenario, instance) & counts.keys():
                counts[region] += 1
        table[bound_id] = counts
    return table


def hypothesis_gaps(coverage: Mapping[str, Mapping[str, int]]) -> list[dict[str, str]]:
    """The declared regions no instance with power fell in: ``{"id", "region"}`` each."""
    return [{"id": bound_id, "region": region}
            for bound_id, counts in coverage.items()
            for region, count in counts.items() if count == 0]


def coverage_lines(report: Mapping[str, Any]) -> list[str]:
    """The report.md section: one line per id, one column per region, then the gaps."""
    coverage = report.get("hypothesis_coverage")
    if coverage is None:
        return []
    regions = list(DESCRIPTIONS)
    lines = ["## Hypothesis coverage", "",
             "Instances with power (at least one row neither vacuous nor n/a) in each region "
             "its theorem's hypotheses allow; `—`: a region the record does not declare.", "",
             "| id | " + " | ".join(regions) + " |", "|---|" + "---|" * len(regions)]
    for bound_id, counts in coverage.items():
        cells = [str(counts[region]) if region in counts else "—" for region in regions]
        lines.append(f"| {bound_id} | " + " | ".join(cells) + " |")
    lines += ["", *[f"- `{region}`: {text}" for region, text in DESCRIPTIONS.items()], ""]
    undeclared = [bound_id for bound_id, counts in coverage.items() if not counts]
    if undeclared:
        lines += [f"Declare no regions: {', '.join(undeclared)}.", ""]
    gaps = report.get("hypothesis_gaps") or []
    if gaps:
        lines += ["**Gaps of this run** (a region the hypotheses allow, with no instance with "
                  "power): " + ", ".join(f"{gap['id']} / {gap['region']}" for gap in gaps)
                  + ".", ""]
    else:
        lines += ["No gaps: every declared region has an instance with power.", ""]
    return lines
