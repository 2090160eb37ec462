"""``offcmab compare`` and ``validate --baseline``: paired runs, regressions, unpaired runs.

Three runs of one bound id in the ci profile at seed 2025 (deterministic): the reference
CLCB, a user's copy of it (the same LCBs, so the same action on every dataset), and the
copy with its radius halved.

False-alarm statements: an algorithm whose gap distribution is unchanged is called a
regression with probability at most the family-wise level 0.01 (exact sign tests, Holm
over the cells); an algorithm that computes the same actions gives identical gaps, every
paired difference is zero, and it is never flagged (probability 0, not a chance event).
The halved radius is a real change: at this seed its gaps are worse in some trials of a
generated instance and better in none, a sign-test p-value far below the Holm threshold.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import user_clcb

from offcmab.validation.cli import main

BOUND_ID = "thm1-inf"


def validate(out: Path, *extra: str) -> int:
    return main(["validate", "--profile", "ci", "--only", BOUND_ID, "--no-figures",
                 "--out", str(out), *extra])


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    top = tmp_path_factory.mktemp("compare")
    good, half = top / "good", top / "half"
    good.mkdir()
    half.mkdir()
    codes = {"reference": validate(top / "reference", "--no-power"),
             "copy": validate(top / "copy", "--algorithm",
                              f"{user_clcb.write(good, 1.0)}:my_clcb"),
             "half": validate(top / "half-run", "--algorithm",
                              f"{user_clcb.write(half, 0.5)}:my_clcb",
                              "--baseline", str(top / "reference"))}
    return {"top": top, "codes": codes}


def compare_json(base: Path, new: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    capsys.readouterr()
    code = main(["compare", str(base), str(new), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_same_actions_give_no_change(runs: dict[str, Any],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    top = runs["top"]
    assert runs["codes"]["reference"] == 0 and runs["codes"]["copy"] == 0
    code, result = compare_json(top / "reference", top / "copy", capsys)
    assert code == 0
    assert result["cells_compared"] > 0 and result["new_subject"].startswith("file:")
    assert all(cell["median_difference"] == 0 and cell["fraction_worse"] == 0
               and cell["p_value"] == 1 for cell in result["cells"])
    assert result["worse"] == result["better"] == 0 and not result["verdict_changes"]
    assert result["correction"] == "holm" and result["level"] == 0.01


def test_a_halved_radius_is_a_significant_regression(
        runs: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    top = runs["top"]
    assert runs["codes"]["half"] == 1  # validate --baseline: the comparison decides exit 1
    code, result = compare_json(top / "reference", top / "half-run", capsys)
    assert code == 1 and result["regression"]
    worse = [cell for cell in result["cells"] if cell["change"] == "worse"]
    assert worse
    holm_first = result["level"] / result["cells_compared"]
    assert min(cell["p_value"] for cell in worse) < holm_first
    assert all(cell["fraction_worse"] > cell["fraction_better"] for cell in worse)
    capsys.readouterr()
    assert main(["compare", str(top / "reference"), str(top / "half-run")]) == 1
    text = capsys.readouterr().out
    assert "Holm family-wise level 0.01" in text and "| worse |" in text


@pytest.mark.parametrize(("field", "value", "named"), [
    ("seed", 7, "seed differs"),
    ("profile", "quick", "profile differs"),
    ("package", "0.0.0-other", "package version differs"),
    ("instances", None, f"instances of {BOUND_ID} differ"),
])
def test_unpaired_runs_exit_2_naming_what_differs(
        runs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        field: str, value: Any, named: str) -> None:
    other = tmp_path / "other"
    shutil.copytree(runs["top"] / "reference", other)
    report = json.loads((other / "report.json").read_text(encoding="utf-8"))
    if field == "package":
        report["provenance"]["package"]["version"] = value
    elif field == "instances":
        report["instances"][BOUND_ID][0]["params"] = {"changed": True}
    else:
        report[field] = value
    (other / "report.json").write_text(json.dumps(report), encoding="utf-8")
    capsys.readouterr()
    assert main(["compare", str(runs["top"] / "reference"), str(other)]) == 2
    error = capsys.readouterr().err
    assert named in error and error.count("\n") == 1


def test_a_folder_without_a_run_exits_2(runs: dict[str, Any], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(tmp_path), str(runs["top"] / "reference")]) == 2
    assert "base" in capsys.readouterr().err


def test_validate_baseline_is_checked_before_any_trial(
        runs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reference = runs["top"] / "reference"
    before = (reference / "trials.jsonl").read_bytes()
    assert validate(tmp_path / "new", "--baseline", str(tmp_path / "missing")) == 2
    assert "baseline" in capsys.readouterr().err and not (tmp_path / "new").exists()
    assert validate(reference, "--baseline", str(reference)) == 2
    assert "another folder than --out" in capsys.readouterr().err
    assert (reference / "trials.jsonl").read_bytes() == before  # nothing ran
