"""Power of ``offcmab validate``: the negative controls on the trap instances.

Statistical content: a control is flagged by the same exact binomial (or Hoeffding)
rows as the reference, at the same row level; on the traps the controls exceed the
bound in every trial (gap 0.6 against 0.51, 0.4 against 0.25, 0.71 against 0.28 and
0.54), so a flag does not rest on luck.  The reference passing the same rows is
covered by the run-level false-alarm budget (1e-6).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from subject_probe import fingerprint
from test_cli_solve import run_cli

from offcmab.validation.parts.scenario import Subject
from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.parts.theorem import Theorem, find
from offcmab.validation.runner import power
from offcmab.validation.theorems import THEOREMS

IDS = [theorem.id for theorem in THEOREMS]


def no_power(bound_id: str, name: str) -> bool:
    """Whether the theorem's record says no row can flag control ``name``."""
    return name in find(THEOREMS, bound_id).no_power


def controls(bound_id: str) -> list[str]:
    return list(find(THEOREMS, bound_id).controls)


@pytest.fixture(scope="module")
def quick_power(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("quick-power")
    assert run_cli(["validate", "--quick", "--require-power", "--out", str(out)]) == 0
    return out


def test_quick_require_power_flags_every_control_a_trap_should_catch(quick_power: Path) -> None:
    report = json.loads((quick_power / "report.json").read_text())
    assert report["summary"]["FAIL"] == 0  # the reference passes its own traps
    table = report["power"]["table"]
    assert report["power"]["missing"] == []
    ran = [entry for entry in table if entry["rows"]]
    assert {entry["id"] for entry in ran} >= {"thm1-inf", "thm1-one", "cor1-cascade",
                                              "lem-llm-std", "thm3-llm"}
    for entry in ran:
        if not no_power(entry["id"], entry["control"]):
            assert entry["flagged"] and entry["flagged_by"], entry
    for row in report["power"]["rows"]:  # control rows are the reference's kinds of rows
        assert row["subject"] == f"control:{row['control']}"
        assert row["algorithm"] == row["subject"]
    markdown = (quick_power / "report.md").read_text()
    assert "## Power: negative controls" in markdown and "### No power" in markdown
    figures = {p.name for p in (quick_power / "figures").glob("*-power.png")}
    assert figures == {f"{bound_id}-power.png" for bound_id in IDS}


def test_online_and_frequency_controls_are_flagged_by_event_rows(quick_power: Path) -> None:
    """Seed 2025, quick: every control of thm-llm-online expected to be flagged is flagged by
    event-online-lcb on stream-lcb (its own LCBs against the corrected steps (c), (f)), and
    lem-llm-std's frequency-lcb by the standard frequency row.  The reference passes both
    rows (summary FAIL = 0 above); a correct algorithm fails either with probability at
    most the row level (exact binomial at the promised 2 delta/3, resp. delta/2, per
    trial)."""
    report = json.loads((quick_power / "report.json").read_text())
    table = {(e["id"], e["control"]): e for e in report["power"]["table"]}
    for name in controls("thm-llm-online"):
        if not no_power("thm-llm-online", name):
            assert "stream-lcb n=500 event-online-lcb" in table["thm-llm-online", name][
                "flagged_by"]
    assert not no_power("lem-llm-std", "frequency-lcb")
    assert table["lem-llm-std", "frequency-lcb"]["flagged_by"] == [
        "ood-small n=2000 event-llm-frequency-standard"]
    reference = {(row["id"], row["instance"]): row["verdict"] for row in report["rows"]
                 if row.get("kind") == "event"}
    assert reference["event-online-lcb", "stream-lcb"] == "pass"
    assert reference["event-llm-frequency-standard", "ood-small"] == "pass"


def test_require_power_exits_3_when_a_control_escapes(tmp_path: Path) -> None:
    # Bounds 100 times larger: the reference passes, and a control that only a bound row
    # could flag (thm3-llm's ignores-data: its cache statistics are right, its event rows
    # pass) escapes.  Theorem 1's controls no longer serve: its event rows flag each one.
    code = run_cli(["validate", "--quick", "--only", "thm3-llm", "--bound-scale", "100",
                    "--require-power", "--no-figures", "--out", str(tmp_path)])
    assert code == 3
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["summary"]["FAIL"] == 0
    missing = set(report["power"]["missing"])
    assert missing and missing <= {f"thm3-llm {name}" for name in controls("thm3-llm")}


def test_a_real_violation_is_exit_1_whatever_the_controls(tmp_path: Path) -> None:
    # At a thousandth of its bound the reference fails on ood-small (smallest passing
    # scale about 0.025 at seed 2025); the controls are flagged too, exit 1 all the same.
    code = run_cli(["validate", "--quick", "--only", "thm3-llm", "--bound-scale", "1e-3",
                    "--require-power", "--no-figures", "--out", str(tmp_path)])
    assert code == 1
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["summary"]["FAIL"] > 0 and report["power"]["flagged"] > 0


def test_quick_without_require_power_runs_no_controls(tmp_path: Path) -> None:
    code = run_cli(["validate", "--quick", "--only", "cor1-cascade", "--no-figures",
                    "--out", str(tmp_path)])
    assert code == 0
    assert "power" not in json.loads((tmp_path / "report.json").read_text())


def test_default_profile_has_a_trap_for_every_control_expected_to_be_flagged() -> None:
    for theorem in THEOREMS:
        mine = power.trap_instances(theorem.scenario.instances(PROFILES["default"], 2025))
        assert mine, theorem.id  # every theorem has a trap in the default profile
        for name in theorem.controls:
            assert name in theorem.no_power or mine, (theorem.id, name)


def test_power_table_reasons() -> None:
    rows = [{"id": "thm1-inf", "control": "optimism", "instance": "trap", "n": 5,
             "variant": "stated", "verdict": "FAIL"},
            {"id": "thm1-inf", "control": "no-pessimism", "instance": "trap", "n": 5,
             "variant": "stated", "verdict": "pass"}]
    table = {(e["id"], e["control"]): e for e in power.power_table(
        rows, [find(THEOREMS, bound_id)
               for bound_id in ("thm1-inf", "thm4-im", "thm-llm-online", "thm2-lower")])}
    assert table["thm1-inf", "optimism"]["flagged_by"] == ["trap n=5 stated"]
    assert table["thm1-inf", "no-pessimism"]["reason"].startswith("not flagged")
    assert table["thm1-inf", "radius-0.1"]["reason"] == "no trap instance in this profile"
    assert table["thm2-lower", "no-pessimism"]["reason"].startswith(
        "not run in this profile (--full runs it); a lower bound")
    assert table["thm-llm-online", "ignores-data"]["reason"] == "no trap instance in this profile"
    assert table["thm4-im", "ignores-data"]["reason"] == "no trap instance in this profile"
    assert table["thm4-im", "printed-estimator"]["reason"] == "no trap instance in this profile"
    missing = {(e["id"], e["control"]) for e in power.missing(list(table.values()))}
    assert missing == {("thm1-inf", "no-pessimism")}  # ran, expected, unflagged


def test_power_page_is_generated_from_the_run(quick_power: Path, tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "regenerate_power", Path(__file__).resolve().parents[1] / "docs" / "regenerate_power.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    record = module.build(quick_power, tmp_path)
    text = module.page(record)
    report = json.loads((quick_power / "report.json").read_text())
    assert f"**{report['power']['flagged']} of {report['power']['run']} controls run were " \
           "flagged." in text
    for entry in report["power"]["table"]:
        assert f"| `{entry['control']}` | {entry['id']} |" in text
    assert {p.name for p in tmp_path.glob("*-power.png")} == {
        f"{bound_id}-power.png" for bound_id in record["figures"]}
    assert "## Detectability per row" in text and "## Tightness per bound" in text
    assert module.detectable_rate(20, 0) == pytest.approx(1 - 0.1 ** (1 / 20), rel=1e-9)


# -- each control really changes what the reference computes, on its trap -----------------

SEEN: list[tuple[str, bool]] = []


def _differ(name: str, theorem: Theorem) -> Subject:
    """Runs the reference and control ``name`` on the same arguments; returns the reference's."""
    reference = theorem.reference_algorithm()
    control = theorem.controls[name]

    def run(*args: Any) -> Any:
        mine = reference(*args)
        SEEN.append((name, fingerprint(mine) != fingerprint(control(*args))))
        return mine

    return Subject(f"differ:{name}", run)


@pytest.mark.parametrize("bound_id", IDS)
def test_controls_differ_from_the_reference_on_their_trap(bound_id: str) -> None:
    """On the trap's first datasets, each control's result (action and the indices behind
    it) differs from the reference's; where the trap separates them the action does."""
    theorem = find(THEOREMS, bound_id)
    # the first trap is each theorem's pessimism trap; later ones mislead copy-the-data
    # shortcuts (tests/test_misleading_data.py), where a control may agree with CLCB
    trap = power.trap_instances(theorem.scenario.instances(PROFILES["default"], 2025))[0]
    trials = 1 if bound_id == "thm4-im" else 2
    for name in theorem.controls:
        SEEN.clear()
        for t in range(trials):
            theorem.scenario.trial(trap, trap.n_grid[0], np.random.default_rng(t),
                                   _differ(name, theorem))
        assert any(changed for _, changed in SEEN), (bound_id, name)
