r"""The figures no-power reasons quote are computed from the radii, never typed in."""

from __future__ import annotations

import sympy as sp

from offcmab.bounds.symbols import delta, m, n
from offcmab.validation import radius_facts
from offcmab.validation.theorems import THEOREMS


def test_half_radius_in_deviations_is_the_quoted_formula() -> None:
    """The sentence says sqrt(2 log(4mn/delta)); the value it quotes is the sympy ratio."""
    expected = sp.sqrt(2 * sp.log(4 * m * n / delta))
    assert sp.simplify(radius_facts.half_radius_in_deviations() - expected) == 0
    value = float(expected.subs(radius_facts.RUNNABLE))
    reason = radius_facts.half_printed_cost_radius_reason("thm3-llm", "cost")
    assert f">= {value:.1f} standard deviations" in reason


def test_no_reason_quotes_a_count_of_trials_it_did_not_run() -> None:
    """A measured rate belongs to a recorded run (the union-event tests keep theirs, with
    their false-alarm probabilities), not to a reason that every run prints."""
    for theorem in THEOREMS:
        if theorem.id not in ("thm-llm-online", "thm3-llm", "lem-llm-std"):
            continue
        for control, reason in theorem.no_power.items():
            assert " measured" not in reason, (theorem.id, control)
            assert "no trial of" not in reason, (theorem.id, control)
