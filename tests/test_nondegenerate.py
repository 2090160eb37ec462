"""Generated instances always allow a positive gap: a degenerate one can never fail a bound.

Over many run seeds, every generated instance of every bound id is brute-forced with the
tests' own code (:mod:`tests.brute_force`, never the package's) and must have a largest
gap above 0.  Before the strategies left degenerate instances out, ``generated-0`` of six
bound ids at seed 2025 was such an instance (all means, or all costs, equal).
"""

from __future__ import annotations

import pytest
from test_max_gap_exact import brute_force

from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.theorems import THEOREMS

SEEDS = range(40)  # 40 seeds x 6 generated instances (full profile) per bound id

WITH_GENERATED = [t for t in THEOREMS
                  if any(i.origin == "generated"
                         for i in t.scenario.instances(PROFILES["full"], 0))]


def test_generated_instances_exist_for_most_bound_ids() -> None:
    """The check below is not empty: seven bound ids draw generated instances."""
    assert len(WITH_GENERATED) >= 7


@pytest.mark.parametrize("theorem", WITH_GENERATED, ids=lambda t: t.id)
def test_generated_instances_allow_a_positive_gap(theorem: Theorem) -> None:
    checked = 0
    for seed in SEEDS:
        for instance in theorem.scenario.instances(PROFILES["full"], seed):
            if not instance.name.startswith("generated-"):
                continue  # the unseen-* instances are large; they have an unseen arm
                #           below the optimum by construction (test_hypothesis_regions)
            n = instance.n_grid[0]
            largest = brute_force(theorem, instance, n)
            assert largest is not None  # generated instances are small
            assert largest > 0.0, f"seed {seed}, {instance.name}: {instance.params}"
            checked += 1
    assert checked == len(SEEDS) * PROFILES["full"].generated
