"""``offcmab claims`` and ``offcmab errata``: JSON shape and exit codes."""

from __future__ import annotations

import json

import pytest

from offcmab.validation.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_claims_json_and_strict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "claims", "--json")
    assert code == 0
    payload = json.loads(out)
    assert set(payload) == {"claims", "counts", "seconds"}
    assert sum(payload["counts"].values()) == len(payload["claims"])
    first = payload["claims"][0]
    for key in ("id", "paper_ref", "statement", "kind", "status", "method", "detail",
                "evidence"):
        assert key in first
    code, _, _ = run_cli(capsys, "claims", "--strict")
    assert code == (1 if payload["counts"]["counterexample"] else 0)


def test_errata_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "errata", "--json")
    assert code == 0
    items = json.loads(out)["errata"]
    assert items
    for item in items:
        for key in ("paper_ref", "claim", "evidence", "correction", "impact"):
            assert item[key]


def test_single_claim_and_unknown_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "claims", "--json", "--id", "thm:lower_bound")
    assert code == 0
    payload = json.loads(out)
    assert [c["id"] for c in payload["claims"]] == ["thm:lower_bound"]
    assert payload["claims"][0]["status"] == "counterexample"
    code, _, err = run_cli(capsys, "claims", "--id", "no-such-claim")
    assert code == 2
    assert "id" in err and "no-such-claim" in err


def test_bad_flag_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["claims", "--no-such-flag"])
    assert stop.value.code == 2
    assert "error" in capsys.readouterr().err
