"""The claims registry: every claim decided (or unchecked with a reason), every
counterexample reproducible from its evidence, errata equal to the failures."""

from __future__ import annotations

import json

import pytest

from offcmab.bounds.claims import (
    CHECK_RAISED,
    CLAIMS,
    STATUSES,
    ClaimResult,
    check_all,
    check_claim,
    get_claim,
)
from offcmab.bounds.errata import errata_from
from offcmab.reference.errors import InputError

PAPER_LINES = 1758  # length of off-cmab-icml2025.tex


@pytest.fixture(scope="module")
def results() -> list[ClaimResult]:
    return check_all(include_slow=False)


def test_ids_are_unique_and_refs_point_into_the_paper() -> None:
    ids = [claim.id for claim in CLAIMS]
    assert len(ids) == len(set(ids))
    for claim in CLAIMS:
        first, last = claim.lines
        assert 1 <= first <= last <= PAPER_LINES, claim.id
        assert claim.paper_ref.startswith(claim.label), claim.id
        assert claim.statement and claim.kind, claim.id


def test_every_claim_is_decided_or_says_why_not(results: list[ClaimResult]) -> None:
    for result in results:
        assert result.outcome.status in STATUSES
        assert not result.outcome.detail.startswith(CHECK_RAISED), result.outcome.detail
        if result.outcome.status == "unchecked":
            assert len(result.outcome.detail) > 20, result.claim.id
        else:
            assert result.outcome.method != "none", result.claim.id


def test_counterexamples_reproduce_and_carry_a_correction(results: list[ClaimResult]) -> None:
    failures = [r for r in results if r.outcome.status == "counterexample"]
    assert failures, "the registry is expected to contain the paper's known errata"
    for result in failures:
        assert result.outcome.evidence, result.claim.id
        assert result.claim.correction and result.claim.impact, result.claim.id
        assert result.outcome.reproduce is not None, result.claim.id
        assert result.outcome.reproduce() is True, result.claim.id


def test_only_failed_claims_carry_correction_in_output(results: list[ClaimResult]) -> None:
    for result in results:
        data = result.as_dict()
        json.dumps(data)  # plain data
        assert ("correction" in data) == (result.outcome.status == "counterexample")


def test_errata_are_exactly_the_counterexamples(results: list[ClaimResult]) -> None:
    found = errata_from(results)
    expected = [r.claim.id for r in results if r.outcome.status == "counterexample"]
    assert [item.id for item in found] == expected
    for item in found:
        assert item.paper_ref and item.evidence and item.correction and item.impact


def test_known_findings_are_in_the_errata(results: list[ClaimResult]) -> None:
    status = {r.claim.id: r.outcome.status for r in results}
    for claim_id in ("apdx_sec:lower_bound/kl-step", "thm:lower_bound",
                     "apdx_lem:arm_counter_concen/complement",
                     "apdx_sec:app_ranking/C1-chain-index",
                     "alg:CLCB-IM/im-conditional-estimator", "apdx_lem:stream_oracle"):
        assert status[claim_id] == "counterexample", claim_id
    for claim_id in ("apdx_lem:vec_concen", "rmk:thm_dis/C1-le-K-Cinf",
                     "rmk:thm_dis/Kbar-ge-K2bar-sq-over-K", "apdx_eq:IM_lcb_gap"):
        assert status[claim_id] in ("proved", "verified-numeric"), claim_id


@pytest.mark.slow
def test_slow_statistical_checks() -> None:
    slow = [claim for claim in CLAIMS if claim.slow]
    assert slow
    for claim in slow:
        outcome = check_claim(claim, include_slow=True).outcome
        assert outcome.status == "verified-statistical", (claim.id, outcome.detail)


def test_skipped_slow_checks_say_so(results: list[ClaimResult]) -> None:
    for result in results:
        if result.claim.slow:
            assert result.outcome.status == "unchecked"
            assert "--no-statistical" in result.outcome.detail
            assert not result.ran


def test_unknown_claim_id_is_an_input_error() -> None:
    with pytest.raises(InputError, match="id"):
        get_claim("no-such-claim")
