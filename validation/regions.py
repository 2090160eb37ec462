r"""The regions of a theorem's hypotheses that a run must cover with instances that have power.

Offline learning is hard where the data is poor: arms the log never shows, optima the
logger rarely plays, more arms than samples, means at the edges of their range.  A theorem
whose hypotheses allow such data is only checked where a run draws instances there, so each
record names the regions its hypotheses allow
(:attr:`offcmab.validation.parts.theorem.Theorem.regions`),
each scenario says which regions an instance falls in (its optional ``regions(instance)``
method), and the report counts, per bound id, the instances with power in each region
(``hypothesis_coverage``).  An empty region is a gap of the run, named in the report.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Base arms (items, queries, edges, nodes) that the data never observes, outside the optimum.
UNOBSERVED_ARMS = "unobserved-arms"
#: An optimal arm the logger observes rarely (a large coverage constant :math:`C^*`).
RARE_OPTIMUM = "rare-optimum"
#: More base arms than the smallest dataset has samples per arm on average.
MANY_ARMS = "many-arms"
#: Tied means, or means at 0 or 1 (the edges of the range).
TIES_AND_EXTREMES = "ties-and-extremes"
#: An influence graph where some node has several parents.
MULTI_PARENT = "multi-parent"
#: The optimum at arbitrary ids: the instance's ids relabeled by a seeded permutation.
RELABELED = "relabeled"

#: Region -> what it means, as the report and the docs show it.
DESCRIPTIONS: Mapping[str, str] = {
    UNOBSERVED_ARMS: "some base arm outside the optimum is never observed in the data",
    RARE_OPTIMUM: "an optimal base arm is observed rarely (large coverage constant)",
    MANY_ARMS: "many base arms against few samples",
    TIES_AND_EXTREMES: "tied means, or means at 0 or 1",
    MULTI_PARENT: "a node with several parents in the influence graph",
    RELABELED: "ids relabeled by a seeded random permutation (optima at any id)",
}


def instance_regions(scenario: Any, instance: Any) -> frozenset[str]:
    """The regions ``instance`` falls in, as its scenario says (none when it does not say)."""
    method = getattr(scenario, "regions", None)
    return frozenset() if method is None else frozenset(method(instance))
