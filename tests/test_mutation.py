"""``offcmab mutation``: the catalogue, the scoring, and a quick run through the user's door.

Statistical content: the two kill assertions rest on rows the mutant fails in every
trial, not by luck (with the quick profile and seed 2025, data ignored and optimism pick
the bad action on the pessimism trap in all 104 trials: gap 0.6 against the bound 0.51);
the equivalent mutant's pass, and the pass of the reference's copy injected as an
unexplained survivor, each have false-alarm probability at most the run's stated budget
(``false_alarm_budget`` of the report, 1e-3 per run), the same as for the reference; the
radius-x0.9 mutant survives by the arithmetic of its no-power reason.  The other tests are
exact.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from test_cli_solve import run_cli
from validate_fake import THEOREM as FAKE
from validate_fake import reference_clcb

from offcmab.bounds.events import covers, radius_factor
from offcmab.bounds.symbols import m, n
from offcmab.reference.clcb import clcb
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.im.clcb_im_node import edge_lcbs
from offcmab.reference.im.data import NodeCascades, sample_node_cascades
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.oracles import TopK
from offcmab.validation import door, radius_facts
from offcmab.validation.commands.mutation_run import scores
from offcmab.validation.controls.cmab import ignores_data
from offcmab.validation.controls.im import interval_edges
from offcmab.validation.mutation import operators
from offcmab.validation.mutation import score as scoring
from offcmab.validation.mutation.mutant import Mutant, ties_to_larger_ids
from offcmab.validation.mutation.score import (
    EQUIVALENT_OK,
    EXPLAINED,
    FALSE_ALARM,
    KILLED,
    RECORD_CONTROL,
    SURVIVED,
    Job,
    Outcome,
    mutation,
    plan,
    score,
    summarize,
    verdict_of,
)
from offcmab.validation.theorems import THEOREMS

CLEAR = ("data-ignored", "optimism")
EQUIVALENT = "ties-larger-ids"


@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda theorem: theorem.id)
def test_catalogue_covers_every_id_and_says_why_an_operator_does_not_apply(theorem) -> None:
    family = operators.family_of(theorem)
    assert family is not None
    applied = {mutant.operator for mutant in family.mutants
               if operators.skipped(theorem, mutant) is None}
    reasons = {**family.not_applicable,
               **{mutant.operator: operators.skipped(theorem, mutant)
                  for mutant in family.mutants if operators.skipped(theorem, mutant)}}
    for operator in operators.OPERATORS:
        assert operator in applied or reasons.get(operator), (theorem.id, operator)
    assert any(mutant.equivalent for mutant in family.mutants)


def test_a_lower_bound_scores_no_mutant_and_says_why() -> None:
    lower = [theorem for theorem in THEOREMS if theorem.scenario.kind == "lower"]
    assert lower  # Theorem 2
    planned, left_out = plan(lower, seed=2025, replicates=1)
    assert planned == []
    assert {item["operator"] for item in left_out} == set(operators.OPERATORS)
    assert all("lower bound holds for every algorithm" in item["reason"] for item in left_out)
    report = {"summary": {"ids": {lower[0].id: {"killed": 0, "mutants": 0, "score": None,
                                                "explained": 0, "survived": 0,
                                                "equivalents": 0, "false_alarms": 0,
                                                "errors": 0}},
                          "overall": {"killed": 1, "mutants": 1, "score": 1.0, "explained": 0,
                                      "survived": 0, "equivalents": 0, "false_alarms": 0,
                                      "errors": 0}}}
    lines = scores(report)
    assert "no mutant applies" in lines[0] and lines[1].startswith("all")


def test_a_run_on_a_lower_bound_alone_says_no_mutant_applies(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["mutation", "--only", "thm2-lower"]) == 3
    out = capsys.readouterr().out
    assert "thm2-lower  no mutant applies" in out and "all  no mutant applies" in out
    assert "not checked" in out
    # one line for the id, not one per operator
    assert out.count("a lower bound holds for every algorithm") == 1


@pytest.mark.parametrize("argv", [
    ["--only", "thm2-lower"],
    ["--only", "cor1-cascade", "--mutants", "proof-constant"],
])
def test_nothing_applicable_is_not_checked_exit_3(argv: list[str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["mutation", *argv, "--json"]) == 3
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "not checked" and report["passed"] is False
    assert report["entries"] == []


@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda theorem: theorem.id)
def test_every_mutant_enters_through_the_users_door_with_the_right_signature(theorem) -> None:
    family = operators.family_of(theorem)
    assert family is not None
    for mutant in family.mutants:
        target = operators.spec(family, mutant)
        _, described = door.subject(target, (theorem.id,), parallel=True)
        assert described["function"] == f"{family.name}.{mutant.attribute}"
        assert getattr(family, mutant.attribute) is mutant.function


def test_ties_go_to_larger_ids_and_strict_orders_stay() -> None:
    index = np.array([0.5, 0.2, 0.5, -np.inf, 0.2, 0.9])
    broken = ties_to_larger_ids(index)
    assert np.argsort(-broken, kind="stable").tolist() == [5, 2, 0, 4, 1, 3]
    assert np.all(broken <= index)  # a lower bound stays a lower bound
    assert broken[3] == -np.inf


def test_relabelled_clcb_returns_the_references_action_and_statistics() -> None:
    data = OfflineDataset.from_records(
        5, [[0, 1], [2, 3], [4], [1, 2], [0, 4]],
        [[1.0, 0.0], [1.0, 1.0], [0.0], [1.0, 1.0], [1.0, 1.0]])
    reference = clcb(data, TopK(2), 0.1)
    relabelled = operators.CLCB.relabelled(data, TopK(2), 0.1)
    assert relabelled.action.tolist() == reference.action.tolist()
    assert np.array_equal(relabelled.counts, reference.counts)
    assert np.count_nonzero(reference.lcb) >= 5  # enough data for LCBs above 0
    assert np.array_equal(relabelled.lcb, reference.lcb)


def _small_im() -> tuple[ICGraph, NodeCascades]:
    graph = ICGraph.from_edges(8, [0, 0, 1, 2, 3, 4, 5, 6, 1, 7], [1, 2, 3, 4, 5, 6, 7, 0, 5, 2],
                               np.linspace(0.2, 0.7, 10))
    return graph, sample_node_cascades(graph, np.full(8, 0.3), 20000,
                                      np.random.default_rng(0))


def test_relabelled_im_returns_the_references_statistics_in_the_original_names() -> None:
    graph, cascades = _small_im()
    reference = edge_lcbs(graph, cascades, 0.1)
    relabelled = operators.IM.relabelled(graph, cascades, lambda lcb: np.argsort(-lcb)[:2], 0.1)
    assert np.count_nonzero(reference.lcb) >= 5  # enough data for LCBs above 0
    assert np.array_equal(relabelled.lcb, reference.lcb)
    assert np.array_equal(relabelled.counters.neither, reference.counters.neither)
    assert np.array_equal(relabelled.counters.seeded, reference.counters.seeded)
    assert np.allclose(relabelled.p_cond_lcb, reference.p_cond_lcb, equal_nan=True)
    assert np.array_equal(relabelled.q_ucb, reference.q_ucb)


def test_off_by_one_mutants_move_the_bounds_the_way_their_mistake_does() -> None:
    graph, cascades = _small_im()
    reference = edge_lcbs(graph, cascades, 0.1)
    unshifted = interval_edges(graph, cascades, 0.1, 1.0, 1.0)
    assert np.array_equal(unshifted.lcb, reference.lcb)  # no shift: the reference exactly
    first = operators.IM.mean_n_plus_1(graph, cascades, lambda lcb: np.argsort(-lcb)[:2], 0.1)
    narrow = operators.IM.radius_n_plus_1(graph, cascades, lambda lcb: np.argsort(-lcb)[:2], 0.1)
    assert np.all(narrow.lcb >= reference.lcb) and np.any(narrow.lcb > reference.lcb)
    assert np.all(narrow.q_ucb < reference.q_ucb)  # every node interval is narrower
    assert np.all(first.q_ucb < reference.q_ucb)  # every mean is smaller
    learner = operators.STREAM.radius_n_plus_1(5, 2, 0.05)
    printed = operators.printed_cache(5, 2, 0.05)
    for query, cost in [(0, 0.8), (1, 0.4), (0, 0.6)]:
        for one in (learner, printed):
            one.observe(query, None if one.cache()[query] else cost)
    narrower, printed_lcb = learner.cost_lcbs(0.05), printed.cost_lcbs(0.05)
    assert np.all(narrower >= printed_lcb) and np.any(narrower > printed_lcb)


def _job(mutant: str, equivalent: bool, seed: int, no_power: str | None = None) -> Job:
    return Job("id", mutant, "op", equivalent, "subject", seed, no_power)


def test_statuses_scores_and_exact_intervals() -> None:
    planned = [_job("a", False, 1), _job("a", False, 2), _job("b", False, 1),
               _job("b", False, 2), _job("c", True, 1), _job("c", True, 2),
               _job("d", True, 1), _job("d", True, 2), _job("e", False, 1, "arithmetic"),
               _job("e", False, 2, "arithmetic")]
    flags = [True, True, True, False, False, True, False, False, True, False]
    results = [Outcome(flag, int(flag), 3, 0.5, 1e-3) for flag in flags]
    entries = score(planned, results)
    assert [entry["status"] for entry in entries] == [KILLED, SURVIVED, FALSE_ALARM,
                                                      EQUIVALENT_OK, EXPLAINED]
    assert [entry["kill_probability"] for entry in entries] == [1.0, 0.5, 0.5, 0.0, 0.5]
    assert entries[4]["no_power"] == "arithmetic" and entries[1]["no_power"] is None
    low, high = entries[0]["interval"]  # 2 of 2: the exact lower limit is 0.025 ** (1/2)
    assert low == pytest.approx(0.025 ** 0.5) and high == 1.0
    tally = summarize(entries, ["id"])["overall"]
    assert (tally["killed"], tally["mutants"], tally["score"], tally["explained"],
            tally["survived"], tally["false_alarms"]) == (1, 3, 1 / 3, 1, 1, 1)


def test_reasons_come_from_the_mutant_per_id_or_from_the_records_control() -> None:
    im_theorem = next(theorem for theorem in THEOREMS if theorem.id == "thm4-im")
    dropped = next(mutant for mutant in operators.IM.mutants
                   if mutant.name == operators.DROPPED_UNION)
    # a reused control: the record's own reason for it
    assert operators.no_power_reason(im_theorem, dropped) == \
        im_theorem.no_power[dropped.control]
    narrow = next(mutant for mutant in operators.CLCB.mutants if mutant.name == "radius-x0.9")
    wide = next(mutant for mutant in operators.CLCB.mutants if mutant.name == "radius-x0.3")
    assert operators.no_power_reason(THEOREMS[0], narrow) == operators.NARROW_HOEFFDING
    assert operators.no_power_reason(THEOREMS[0], wide) is None
    special = replace(narrow, no_power={**narrow.no_power, THEOREMS[0].id: "its own"})
    assert operators.no_power_reason(THEOREMS[0], special) == "its own"
    assert operators.no_power_reason(THEOREMS[1], special) == operators.NARROW_HOEFFDING


#: A mutant no size can tell from the reference (it *is* the reference), with no reason.
UNEXPLAINED = Mutant("reference-copy", "radius-scale", clcb)


def test_a_new_unexplained_survivor_fails_the_gate_and_an_explained_one_does_not(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    extended = replace(operators.CLCB, mutants=(*operators.CLCB.mutants, UNEXPLAINED))
    monkeypatch.setattr(operators, "CLCB", extended)  # where the door finds the mutant
    monkeypatch.setattr(scoring, "family_of", lambda theorem: extended)
    monkeypatch.setattr(scoring, "FAMILIES", (extended,))
    bound_id = THEOREMS[0].id
    assert operators.family_of(THEOREMS[0]) is not None  # a CLCB id
    argv = ["mutation", "--only", bound_id, "--profile", "quick", "--json", "--mutants"]
    assert run_cli([*argv, "radius-x0.9", UNEXPLAINED.name]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [entry["status"] for entry in report["entries"]] == [EXPLAINED, SURVIVED]
    assert report["entries"][0]["no_power"] == operators.NARROW_HOEFFDING
    assert report["entries"][1]["no_power"] is None
    assert report["verdict"] == "failed"
    assert report["summary"]["ids"][bound_id]["survived"] == 1
    # the explained survivor alone passes the gate (the verdict of the same entries)
    alone = summarize(report["entries"][:1], [bound_id])["overall"]
    assert verdict_of(alone) == "passed"


def test_quick_run_kills_clear_mutants_and_passes_an_equivalent(
        capsys: pytest.CaptureFixture[str]) -> None:
    bound_id = THEOREMS[0].id
    code = run_cli(["mutation", "--only", bound_id, "--profile", "quick", "--jobs", "2",
                    "--mutants", *CLEAR, EQUIVALENT, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert set(report) >= {"profile", "seed", "replicates", "entries", "not_applicable",
                           "summary", "passed", "operators"}
    status = {entry["mutant"]: entry["status"] for entry in report["entries"]}
    assert status == {CLEAR[0]: KILLED, CLEAR[1]: KILLED, EQUIVALENT: EQUIVALENT_OK}
    for entry in report["entries"]:
        assert set(entry) >= {"id", "mutant", "operator", "equivalent", "status", "runs",
                              "flagged", "kill_probability", "interval", "failing_rows",
                              "false_alarm_budget", "subject"}
        assert entry["id"] == bound_id and entry["runs"] == 1
    assert report["summary"]["ids"][bound_id]["score"] == 1.0
    assert report["passed"] is True


@pytest.mark.parametrize(("argv", "field"), [
    (["--only", "no-such-id"], "only"),
    (["--mutants", "no-such-mutant"], "mutants"),
    (["--replicates", "0"], "--replicates"),
    (["--replicates", str(10**12)], "replicates: "),
    (["--replicates", "2000"], "replicates: at most 1000"),
    (["--jobs", "0"], "--jobs"),
    (["--profile", "full"], "--profile"),
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], field: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["mutation", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and field in err and "Traceback" not in err


def test_a_record_outside_the_catalogue_runs_its_own_controls_as_its_mutants() -> None:
    bare = mutation(theorems=[FAKE], profile="quick")
    assert bare["verdict"] == "not checked" and bare["entries"] == []  # no controls: exit 3
    assert bare["not_applicable"][0]["operator"] == RECORD_CONTROL
    record = replace(FAKE, controls={"ignores-data": ignores_data, "copy": reference_clcb},
                     no_power={"copy": "it is the reference"})
    report = mutation(theorems=[record], profile="quick")
    status = {entry["mutant"]: entry["status"] for entry in report["entries"]}
    assert status == {"ignores-data": KILLED, "copy": EXPLAINED}
    assert report["verdict"] == "passed"
    unexplained = replace(record, no_power={})
    report = mutation(theorems=[unexplained], profile="quick", mutants=["copy"])
    assert [entry["status"] for entry in report["entries"]] == [SURVIVED]
    assert report["verdict"] == "failed"


@pytest.mark.parametrize(("bound_id", "event"), [("thm3-llm", "cost"), ("lem-llm-std", "arm")])
def test_the_llm_proof_constant_mutant_has_exactly_the_event_radius(bound_id: str,
                                                                    event: str) -> None:
    """Its cost scale turns the printed radius into the radius the proof's event needs
    (so sympy shows it covers the event), while half the printed radius does not."""
    share = radius_facts.event_share_of_printed_cost_radius(bound_id, event)
    assert covers(bound_id, event, share * radius_facts.PRINTED_COST_RADIUS)
    assert not covers(bound_id, event, radius_facts.PRINTED_COST_RADIUS / 2)
    m_value, n_value, delta_value = 8, 2000, 0.05
    needed = math.sqrt(math.log(float(radius_factor(bound_id, event).subs(
        {m: m_value, n: n_value})) / delta_value) / 2)
    printed = math.sqrt(2 * math.log(4 * m_value * n_value / delta_value))
    assert math.isclose(radius_facts.share_value(bound_id, event, m_value, n_value,
                                                 delta_value), needed / printed)
