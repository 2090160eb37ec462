"""Theorems that cannot fail where they can be run: their status reports what was checked.

``thm:IM``'s bound is vacuous wherever spreads are exact, and ``thm:LLM_online`` is an O(.)
statement without constants, so both claims are ``checked-indirectly``: these tests
recompute every part independently (each step claim's own check, the stored rate row rerun
through ``offcmab validate``'s door) and compare.  Everything is deterministic: exact
arithmetic, sympy, and the rate row's fixed seed 2025 (the significance of its comparison is the
advice level the stored result records; the rerun must give the same numbers, not merely the same
verdict).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from offcmab.bounds.claims import check_claim, get_claim, indirect
from offcmab.bounds.claims import im as im_claims
from offcmab.bounds.claims import online as online_claims
from offcmab.bounds.claims.record import Outcome
from offcmab.bounds.claims.stored import STORED, store_results, stored_result
from offcmab.validation.cli import main
from offcmab.validation.stored_checks import VARYING, computed

IM_ID = im_claims.IM.id
KNOWN_FAILED_STEP = "apdx_eq:lower_bound_of_ubar_p"
#: claim id -> (its proof's claims, one of them known to fail, the claim's check)
THEOREMS = {IM_ID: (im_claims.STEPS, KNOWN_FAILED_STEP, im_claims.check_theorem_im),
            online_claims.ONLINE.id: (online_claims.STEPS, "apdx_lem:stream_oracle",
                                      online_claims.check_theorem_online)}


@pytest.fixture(scope="module")
def outcome() -> Outcome:
    return check_claim(get_claim(IM_ID)).outcome


@pytest.mark.parametrize("claim_id", THEOREMS)
def test_status_is_checked_indirectly_not_unchecked(claim_id: str) -> None:
    found = check_claim(get_claim(claim_id)).outcome
    assert found.status == "checked-indirectly"
    assert found.method == "consequence-and-steps"


def test_the_bound_is_vacuous_where_it_applies(outcome: Outcome) -> None:
    shape = outcome.evidence["vacuity"]
    assert shape["bound_over_optimal_spread"] > 1  # no seed set can have a larger gap
    assert f"{shape['smallest_n']:,}" in outcome.detail


@pytest.mark.parametrize("claim_id", THEOREMS)
def test_it_reports_every_step_as_its_own_check_decides(claim_id: str) -> None:
    steps, known, _check = THEOREMS[claim_id]
    found = check_claim(get_claim(claim_id)).outcome
    own = {claim.id: check_claim(claim).outcome.status for claim in steps}
    assert found.evidence["steps"] == own
    failed = [claim.id for claim in steps if own[claim.id] == "counterexample"]
    assert found.evidence["failed"] == failed
    assert known in failed  # an erratum of the proof
    for claim_id_ in failed:
        assert claim_id_ in found.detail


@pytest.mark.parametrize("claim_id", THEOREMS)
def test_it_reports_the_stored_rate_row(claim_id: str) -> None:
    found = check_claim(get_claim(claim_id)).outcome
    rate = stored_result(claim_id)
    assert rate is not None and found.evidence["rate_row"] == rate
    assert rate["verdict"] == "pass"
    assert f"{rate['slope']:.2f}" in found.detail and "offcmab claims --regenerate" \
        in found.detail


def test_the_stored_rate_row_is_what_the_code_gives_now() -> None:
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    fresh = computed()
    assert set(fresh) == set(stored)
    for claim_id, result in fresh.items():
        keep = {key: value for key, value in result.items() if key not in VARYING}
        assert keep == {key: value for key, value in stored[claim_id].items()
                        if key not in VARYING}, \
            f"{claim_id}: stored result is stale; run `offcmab claims --regenerate`"


@pytest.mark.parametrize("claim_id", THEOREMS)
def test_a_failed_or_missing_rate_row_leaves_it_unchecked(
        claim_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rate = stored_result(claim_id)
    assert rate is not None
    check = THEOREMS[claim_id][2]
    monkeypatch.setattr(indirect, "stored_result", lambda _: {**rate, "verdict": "FAIL"})
    failed = check()
    assert failed.status == "unchecked" and "did not pass" in failed.detail
    monkeypatch.setattr(indirect, "stored_result", lambda _: None)
    missing = check()
    assert missing.status == "unchecked" and "--regenerate" in missing.detail


def test_cli_json_says_how_and_how_long(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["claims", "--json", "--id", IM_ID]) == 0
    payload = json.loads(capsys.readouterr().out)
    [claim] = payload["claims"]
    assert claim["status"] == "checked-indirectly" and claim["ran"] is True
    assert claim["method"] == "consequence-and-steps" and claim["seconds"] >= 0
    assert claim["evidence"]["rate_row"]["seconds"] > 0 and payload["seconds"] >= 0


def test_cli_table_aligns_its_columns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["claims", "--id", IM_ID, "--id", KNOWN_FAILED_STEP]) == 0
    lines = capsys.readouterr().out.splitlines()
    header, rows = lines[0], lines[1:3]
    assert header.split() == ["claim", "status", "checked", "by", "time", "(s)"]
    column = header.index("status")
    assert [row[column:].split()[0] for row in rows] == ["checked-indirectly",
                                                         "counterexample"]
    assert all(len(row) == len(header) for row in rows)  # right-aligned time column


def test_stored_results_round_trip_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "stored.json"
    stored = stored_result(IM_ID)
    assert stored is not None
    results = {IM_ID: {**stored, "seconds": 1.0}}
    store_results(results, path)
    assert stored_result(IM_ID, path) == results[IM_ID]
    assert stored_result("no-such-claim", path) is None
    assert stored_result(IM_ID, tmp_path / "absent.json") is None
