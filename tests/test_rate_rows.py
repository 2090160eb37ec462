"""Rate rows: whether the gap shrinks (the regret grows) at the bound's order where every
bound row is vacuous, reported as advice that never fails a run; and a user's algorithm that
meets no row with power is not passed.

The rate statistics are unit-tested on exact or seeded gaps.  The runs use the quick
profile (the default one for the mutant of the standard LLM cache) and the fixed seed 2025;
a rate row reports a subject whose true slope is at most the allowed one as slower with
probability at most its row level (one-sided normal approximation of the delta-method slope),
and since the row is advisory no exit code depends on it.  The
reference's measured slopes lie far below the allowed ones (-1.9 against -0.47 for IM,
0.22 against 0.54 online, standard errors below 0.01), the data-ignoring subjects' slopes
far above (0 and exactly 1, with standard error 0).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from test_cli_solve import run_cli

from offcmab.validation.api import NothingChecked, check
from offcmab.validation.commands import validate_run
from offcmab.validation.parts.spec import Instance
from offcmab.validation.runner.analysis import ADVISORY, FAIL, NA, PASS, Cell, rate_row
from offcmab.validation.theorems import THEOREMS

HERE = Path(__file__).resolve().parent
BLIND = f"{HERE / 'blind_algorithms.py'}:cascade_blind"
NEVER = f"{HERE / 'online_learners.py'}:never_caches"
GRID = (100, 400, 1600, 6400)


def cells(gaps_per_n: list[np.ndarray]) -> list[Cell]:
    instance = Instance("toy", {}, 0.05, GRID)
    return [Cell("toy-id", instance, n, gaps, np.zeros(gaps.size), {})
            for n, gaps in zip(GRID, gaps_per_n, strict=True)]


def test_a_gap_of_the_proven_order_passes_and_a_flat_one_fails() -> None:
    rng = np.random.default_rng(1)
    noise = [1.0 + 0.01 * rng.standard_normal(50) for _ in GRID]
    shrinking = cells([n**-0.5 * e for n, e in zip(GRID, noise, strict=True)])
    flat = cells([0.15 * e for e in noise])
    factors = [1.0] * len(GRID)
    assert rate_row(shrinking, -0.5, factors, 1e-3, 1e-4)["verdict"] == PASS
    row = rate_row(flat, -0.5, factors, 1e-3, 1e-4)
    assert row["verdict"] == FAIL and abs(row["slope"]) < 0.02


def test_the_log_factor_widens_the_allowed_slope_by_its_own_slope() -> None:
    factors = [np.sqrt(np.log(n)) for n in GRID]
    exact = cells([np.full(5, np.sqrt(n * np.log(n))) for n in GRID])
    row = rate_row(exact, 0.5, factors, 1e-3, 1e-4)
    assert row["verdict"] == PASS and row["slope"] == pytest.approx(row["bound"])
    linear = cells([np.full(5, float(n)) for n in GRID])
    assert rate_row(linear, 0.5, factors, 1e-3, 1e-4)["verdict"] == FAIL


def test_a_learner_that_starts_well_is_not_flagged_for_its_steeper_slope() -> None:
    """Regret far below the reference's at the small horizons and below it at every one
    (the shape a correct learner with another tie rule showed): its fitted slope exceeds
    the allowed one, but from its middle points on it grows no faster than the order, so
    the row passes; a regret that grows linearly from every point still fails."""
    factors = [1.0] * len(GRID)
    rng = np.random.default_rng(3)
    noise = [1.0 + 0.01 * rng.standard_normal(50) for _ in GRID]
    lucky_start = cells([level * e for level, e in
                         zip((1.0, 14.0, 26.0, 50.0), noise, strict=True)])
    row = rate_row(lucky_start, 0.5, factors, 1e-3, 1e-4)
    assert row["slope_lower"] > row["bound"]  # a slope test would flag it
    assert row["verdict"] == PASS
    linear = cells([n / 100 * e for n, e in zip(GRID, noise, strict=True)])
    assert rate_row(linear, 0.5, factors, 1e-3, 1e-4)["verdict"] == FAIL


def test_a_gap_at_the_floor_from_the_start_is_not_tested_and_zeros_later_are_floored() -> None:
    zeros = cells([np.zeros(5) for _ in GRID])
    assert rate_row(zeros, -0.5, [1.0] * 4, 1e-3, 1e-4)["verdict"] == NA
    step = cells([np.full(5, 0.77), np.full(5, 0.77), np.zeros(5), np.zeros(5)])
    row = rate_row(step, -0.5, [1.0] * 4, 1e-3, 1e-4)
    assert row["verdict"] == PASS and np.isfinite(row["slope"]) and row["slope"] < -1


def rate_of(folder: Path) -> dict:
    rows = json.loads((folder / "report.json").read_text())["rows"]
    [row] = [r for r in rows if r["variant"] == "rate"]
    return row


@pytest.mark.parametrize("bound_id", ["thm4-im", "thm-llm-online"])
def test_the_reference_follows_the_order_on_its_rate_row(tmp_path: Path,
                                                         bound_id: str) -> None:
    code = run_cli(["validate", "--quick", "--only", bound_id, "--no-power", "--no-figures",
                    "--out", str(tmp_path)])
    row = rate_of(tmp_path)
    assert code == 0 and row["verdict"] == ADVISORY and not row["slower"]
    assert row["slope_lower"] < row["bound"]


@pytest.mark.parametrize(("bound_id", "subject", "slope"),
                         [("thm4-im", BLIND, 0.0), ("thm-llm-online", NEVER, 1.0)])
def test_a_rate_row_that_would_reject_is_advice_and_leaves_the_exit_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bound_id: str, subject: str,
        slope: float) -> None:
    """A data-ignoring subject is reported slower than the proven order, and the run exits
    with the code it has when the theorem declares no order at all (no rate row)."""
    argv = ["validate", "--quick", "--only", bound_id, "--algorithm", subject, "--no-power",
            "--no-figures"]
    code = run_cli([*argv, "--out", str(tmp_path / "with")])
    row = rate_of(tmp_path / "with")
    assert row["verdict"] == ADVISORY and row["slower"] and row["violations"] == 0
    assert row["reason"].startswith("slower than the proven order on this instance")
    assert row["slope"] == pytest.approx(slope, abs=1e-9) and row["slope_se"] < 1e-9
    monkeypatch.setattr(validate_run, "THEOREMS", without_rate(bound_id))
    assert code == run_cli([*argv, "--out", str(tmp_path / "without")])


@pytest.mark.slow
def test_the_proof_constant_mutant_of_the_standard_llm_cache_passes(tmp_path: Path) -> None:
    """The mutant prints a narrower cost radius than it uses; the wider one still covers the
    proof's event, so the mutant keeps the theorem.  Its mean gap shrinks more slowly than the
    proven order on one instance of the default profile at seed 2025 (advice, not a failure),
    and validate exits 0."""
    code = run_cli(["validate", "--only", "lem-llm-std", "--algorithm",
                    "offcmab.validation.mutation.operators:LLM_STANDARD.proof_constant",
                    "--seed", "2025", "--no-power", "--no-figures", "--out", str(tmp_path)])
    rows = json.loads((tmp_path / "report.json").read_text())["rows"]
    rates = [row for row in rows if row["variant"] == "rate"]
    assert code == 0 and not any(row["verdict"] == FAIL for row in rows)
    assert any(row["slower"] for row in rates)  # it would have failed the run before
    assert all(row["verdict"] in (ADVISORY, NA) for row in rates)


def without_rate(bound_id: str = "thm4-im") -> tuple:
    """Every record, with ``bound_id``'s rate row removed (Theorem 4's other rows are vacuous
    or n/a for an algorithm that returns a bare seed set)."""
    return tuple(dataclasses.replace(t, rate=None) if t.id == bound_id else t
                 for t in THEOREMS)


def test_validate_exits_3_on_nothing_checked_unless_allowed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(validate_run, "THEOREMS", without_rate())
    argv = ["validate", "--quick", "--only", "thm4-im", "--algorithm", BLIND, "--no-figures"]
    assert run_cli([*argv, "--out", str(tmp_path / "strict")]) == 3
    assert "nothing was checked" in capsys.readouterr().err
    report = json.loads((tmp_path / "strict" / "report.json").read_text())
    assert report["unchecked"] is True and report["summary"]["power"] == 0
    assert run_cli([*argv, "--allow-unchecked", "--out", str(tmp_path / "allowed")]) == 0
    assert "nothing was checked" in capsys.readouterr().err


def test_check_raises_on_nothing_checked_unless_allowed() -> None:
    with pytest.raises(NothingChecked, match="nothing was checked") as raised:
        check(BLIND, "thm4-im", profile="quick", theorems=without_rate())
    assert raised.value.report["unchecked"] is True
    report = check(BLIND, "thm4-im", profile="quick", theorems=without_rate(),
                   allow_unchecked=True)
    assert report.passed and report.report["unchecked"] is True

