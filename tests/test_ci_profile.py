"""The ci profile: which instances and event rows it keeps (no trial runs here).

It must keep every trap instance whose rows can flag a control (the default profile's
traps), the default profile's generated instances cut to small sizes, and no named
instance; its event rows are the quick profile's.  Whether it still flags every control
the default profile flags is measured by a real run (docs/validation-in-ci.md).
"""

from __future__ import annotations

import pytest

from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.plan import GENERATED, profile_instances
from offcmab.validation.scenarios.traps import TRAP
from offcmab.validation.theorems import THEOREMS

CI, DEFAULT = PROFILES["ci"], PROFILES["default"]
SEED = 2025


@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda theorem: theorem.id)
def test_ci_keeps_the_traps_and_small_generated_instances(theorem: Theorem) -> None:
    default = {i.name: i for i in theorem.scenario.instances(DEFAULT, SEED)}
    kept = profile_instances(theorem, CI, SEED)
    traps = [i.name for i in default.values() if i.origin == TRAP]
    if not theorem.traps_vacuous:
        assert [i.name for i in kept if i.origin == TRAP] == traps
    for instance in kept:
        original = default[instance.name]  # every kept instance is one of default's
        assert instance.params == original.params and instance.delta == original.delta
        assert instance.origin in (TRAP, GENERATED)
        if instance.origin == GENERATED:
            assert instance.n_grid == tuple(n for n in original.n_grid
                                            if n <= CI.generated_max_n)
        else:
            assert instance.n_grid == original.n_grid


def test_ci_runs_the_quick_event_rows_and_the_default_grids() -> None:
    assert CI.event_base.name == "quick" and CI.base.name == "default"
    assert CI.base.generated == DEFAULT.generated  # the same generated draws as default
    assert DEFAULT.base == DEFAULT and DEFAULT.event_base == DEFAULT
