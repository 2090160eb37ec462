"""``offcmab solve`` shows a confidence radius only for an algorithm that uses one: EMP, LFU,
LEC and the plug-in baseline use none, so neither their summary nor ``--json`` has one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_solve import run_cli

from offcmab.validation.solvers.summary import RADIUS_FIELDS, SUMMARY

ROOT = Path(__file__).resolve().parents[1]
LOG = str(ROOT / "docs" / "examples" / "cascade-log.jsonl")


def solve(problem: str, algorithm: str, as_json: bool, capsys: pytest.CaptureFixture[str]
          ) -> dict[str, str]:
    argv = ["solve", problem, "--data", LOG, "--k", "2", "--delta", "0.05",
            "--algorithm", algorithm, *(["--json"] if as_json else [])]
    assert run_cli(argv) == 0
    out = capsys.readouterr().out
    if as_json:
        return dict(json.loads(out))
    return {line.split()[0]: line for line in out.splitlines()[:-1]}


@pytest.mark.parametrize("problem", ["cascade", "kpath"])
@pytest.mark.parametrize("as_json", [False, True])
def test_emp_prints_no_radius(problem: str, as_json: bool,
                              capsys: pytest.CaptureFixture[str]) -> None:
    emp = solve(problem, "emp", as_json, capsys)
    assert not RADIUS_FIELDS & set(emp) and set(emp) >= SUMMARY
    for algorithm in ("clcb", "cucb-offline"):  # both use a radius: it is shown
        assert set(solve(problem, algorithm, as_json, capsys)) >= RADIUS_FIELDS
