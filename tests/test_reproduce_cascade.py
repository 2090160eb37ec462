"""Smoke tests of the cascade reproductions at tiny sizes (no timing, no paper numbers)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from offcmab.validation.cli import main
from offcmab.validation.reproduce import fig1a


@pytest.mark.parametrize("figure", ["fig1a", "fig2"])
def test_reproduce_quick_writes_outputs(
    figure: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reproduce", figure, "--out", str(tmp_path), "--quick", "--seed", "1",
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["figure"] == figure
    for suffix in ("png", "pdf", "csv"):
        assert (tmp_path / f"{figure}.{suffix}").stat().st_size > 0
    assert main(["reproduce", figure, "--out", str(tmp_path), "--quick", "--seed", "1"]) == 2
    assert f"already holds {figure}." in capsys.readouterr().err  # its own earlier files
    assert main(["reproduce", figure, "--out", str(tmp_path), "--quick", "--seed", "1",
                 "--overwrite"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{figure}: wrote {tmp_path / figure}.csv")
    assert "{" not in text and "trials: " in text  # a summary for people, not JSON


def test_reductions_formula() -> None:
    gaps = {"CLCB": np.array([[1.0, 1.0]]), "CUCB-Offline": np.array([[2.0, 4.0]]),
            "EMP": np.array([[1.0, 0.0]]), "EMP-optimistic": np.array([[1.0, 1.0]])}
    out = fig1a.reductions(gaps)
    assert out["reduction_vs_CUCB-Offline"] == pytest.approx((0.5 + 0.75) / 2)
    assert out["pooled_reduction_vs_CUCB-Offline"] == pytest.approx(1 - 2 / 6)
    assert out["reduction_vs_EMP"] == pytest.approx(0.0)  # the zero-gap point is skipped
