"""The proof events of :mod:`offcmab.bounds.events`: radii, unions and failure probabilities."""

from __future__ import annotations

import pytest
import sympy as sp

from offcmab.bounds import events
from offcmab.bounds.events import N, covers, radius_factor, total_failure
from offcmab.bounds.registry import BOUNDS
from offcmab.bounds.symbols import T, delta, m, n
from offcmab.reference.errors import InputError


def hoeffding(factor: sp.Expr) -> sp.Expr:
    return sp.sqrt(sp.log(factor / delta) / (2 * N))


@pytest.mark.parametrize("bound_id", sorted(events.EVENTS))
def test_the_events_add_up_to_the_proved_failure_probability(bound_id: str) -> None:
    """The union of a proof's events fails with exactly the probability the proved variant
    of its bound promises: the two are kept apart and must agree."""
    proved = BOUNDS[bound_id].failure_probability["proved"]
    assert sp.simplify(total_failure(bound_id) - proved) == 0


@pytest.mark.parametrize(("bound_id", "name", "share"), [
    ("thm1-inf", "arm", delta / 2), ("cor1-cascade", "arm", delta),
    ("lem-llm-std", "arm", delta / 2), ("thm3-llm", "cost", delta / 3),
    ("thm-llm-online", "cost", 2 * delta / 3)])
def test_a_hoeffding_event_derives_its_share_of_delta(bound_id: str, name: str,
                                                     share: sp.Expr) -> None:
    assert sp.simplify(events.hoeffding_event(bound_id, name).failure - share) == 0


@pytest.mark.parametrize(("bound_id", "name", "factor"), [
    ("thm1-inf", "arm", 4 * m * n), ("thm1-one", "arm", 4 * m * n),
    ("cor1-cascade", "arm", 2 * m * n), ("lem-llm-std", "arm", 8 * m * n),
    ("thm3-llm", "cost", 6 * m * n), ("thm-llm-online", "cost", 3 * m * T)])
def test_radius_factor(bound_id: str, name: str, factor: sp.Expr) -> None:
    assert sp.simplify(radius_factor(bound_id, name) - factor) == 0


def test_covers_decides_which_radius_keeps_the_event() -> None:
    printed_llm = sp.sqrt(2 * sp.log(4 * m * n / delta) / N)
    assert covers("thm1-inf", "arm", hoeffding(4 * m * n))  # Algorithm 1's own radius
    assert covers("thm1-inf", "arm", hoeffding(8 * m * n))
    assert not covers("thm1-inf", "arm", hoeffding(2 * m * n))  # the cascade constant
    assert not covers("thm1-inf", "arm", sp.Rational(9, 10) * hoeffding(4 * m * n))
    assert not covers("thm1-inf", "arm", hoeffding(sp.Integer(2)))  # no union bound
    assert covers("lem-llm-std", "arm", printed_llm)
    assert covers("thm3-llm", "cost", printed_llm)
    # half the printed LLM radius is log(4mn/delta)/(2N): below both LLM events' radii
    assert not covers("lem-llm-std", "arm", printed_llm / 2)
    assert not covers("thm3-llm", "cost", printed_llm / 2)
    # a radius of another form is not decided
    assert not covers("thm-llm-online", "cost", sp.sqrt(6 * sp.log(sp.Symbol("t")) / N))


def test_unknown_ids_and_events_are_named() -> None:
    with pytest.raises(InputError, match="bound id"):
        events.events_of("thm9")
    with pytest.raises(InputError, match="event"):
        events.event("thm1-inf", "cost")
    with pytest.raises(InputError, match="Hoeffding"):
        events.hoeffding_event("thm1-inf", "counter")
