"""``offcmab bound`` and ``offcmab coefficients`` as a user runs them."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from offcmab.validation.cli import main

THM1 = ["alpha=1", "B1=1", "K2bar=2", "C_inf=3", "m=10", "n=1000", "delta=0.1"]


def run_cli(argv: list[str]) -> int:
    """Exit code of the CLI whether it returns it or argparse raises SystemExit."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def test_bound_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bound", "thm1-inf", *THM1, "p_star=0.1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"id", "variant", "value", "latex", "precondition"} <= set(out)
    assert out["id"] == "thm1-inf"
    assert out["variant"] == "stated"
    assert out["value"] == pytest.approx(2 * 2 * math.sqrt(2 * 3 * math.log(2e5) / 1000))
    assert out["precondition"]["holds"] is True
    assert "p^*" in out["precondition"]["latex"]


def test_bound_proved_without_p_star_has_null_precondition(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bound", "thm1-inf", *THM1, "--variant", "proved", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "proved"
    assert out["precondition"]["holds"] is None


def test_bound_solve_n(capsys: pytest.CaptureFixture[str]) -> None:
    args = [a for a in THM1 if not a.startswith("n=")]
    assert main(["bound", "thm1-inf", *args, "--solve-n", "eps=0.1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solve_n"]["n"] == 166269
    assert out["value"] <= 0.1


def test_bound_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bound", "--list", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["thm4-im"]["parameters"] == ["V", "d_max", "sigma_star", "eta", "gamma",
                                            "E", "n", "delta"]
    assert out["thm1-inf"]["optional"] == ["p_star"]


def test_bound_list_is_a_table_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bound", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["id", "bound"]
    thm4 = next(line for line in lines if line.startswith("thm4-im "))
    assert thm4.endswith("V d_max sigma_star eta gamma E n delta")
    assert "{" not in "".join(lines)  # no JSON unless asked
    assert any(line.startswith("thm1-inf ") and line.endswith("[p_star]") for line in lines)


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["bound", "thm1-inf", *THM1[:-1], "delta=1.5"], "delta"),
        (["bound", "thm1-inf", *THM1[:-1], "delta=abc"], "delta"),
        (["bound", "thm1-inf", *THM1[:-1], "delta=nan"], "delta"),
        (["bound", "thm1-inf", *THM1[:-1]], "delta"),
        (["bound", "thm1-inf", *THM1, "zeta=1"], "zeta"),
        (["bound", "thm1-inf", *THM1, "m=3"], "m"),
        (["bound", "thm1-inf", *THM1[:-1], "delta"], "delta"),
        (["bound", "nope"], "id"),
        (["bound", "cor1-cascade", "k=4", "m=10", "n=100", "delta=0.1", "mu1=0.5", "muk=0.7"],
         "muk"),
        (["bound", "thm4-im", "V=10", "d_max=3", "sigma_star=11", "eta=0.5", "gamma=0.2",
          "E=30", "n=1000", "delta=0.1"], "sigma_star"),
        (["bound", "thm4-im", "V=10", "d_max=3", "sigma_star=5", "eta=0.5", "gamma=0.6",
          "E=30", "n=1000", "delta=0.1"], "gamma"),
        (["bound"], "id"),
        (["bound", "thm1-inf", *THM1, "--variant", "printed"], "variant"),
        (["bound", "thm1-inf", *THM1[:-2], "delta=0.1", "--solve-n", "eps=-1"], "eps"),
        (["coefficients", "cascade", "mu=0.7,abc", "k=1"], "mu"),
        (["coefficients", "cascade", "mu=0.7,0.5", "k=3"], "k"),
        (["coefficients", "cascade", "mu=0.7,0.5"], "k"),
        (["coefficients", "cascade", "mu=0.7,0.5", "k=1", "data=adaptive"], "data"),
        (["coefficients", "llm-cache", "p=0.5,0.5", "c=1,1", "k=1", "cache=lru"], "cache"),
        (["coefficients", "vectors", "p_opt=1,0.5", "p_data=0.5"], "p_data"),
        (["coefficients", "kpath", "means=0.5,0.2", "k=1.5", "w=0.5,0.5"], "k"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str], field: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert field in err
    assert "Traceback" not in err


def test_coefficients_cascade_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coefficients", "cascade", "mu=0.7,0.5,0.3,0.2,0.1", "k=3", "data=uniform",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"C_inf", "C_one", "Kbar", "K2bar", "B1", "p_star", "C_one_upper",
            "C_one_sum_formula"} <= set(out)
    assert out["C_one"] <= out["C_one_sum_formula"] <= out["C_one_upper"]


def test_coefficients_llm_and_vectors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coefficients", "llm-cache", "p=0.4,0.3,0.2,0.1", "c=1,0.5,0.5,1", "k=2",
                 "cache=empty", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nu_inv_sum"] == 2.0
    assert main(["coefficients", "vectors", "p_opt=1,0.5", "p_data=0.5,0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["C_inf"] == "inf"  # infinity is written as the word, never as null
    assert out["uncovered"] == [1]


def test_cli_start_does_not_import_sympy(tmp_path: Path) -> None:
    code = ("import sys; from offcmab.validation.cli import build_parser; build_parser(); "
            "print('sympy' in sys.modules, 'offcmab.bounds.registry' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=tmp_path)
    assert result.stdout.split() == ["False", "False"]
