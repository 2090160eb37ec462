"""``offcmab cite``: BibTeX for the paper, the software and a finished run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_solve import run_cli

from offcmab import __version__


def test_cite_prints_the_paper_and_the_software(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["cite"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("@inproceedings{liu2025offline,")
    assert "Offline Learning for Combinatorial Multi-armed Bandits" in out
    assert f"version = {{{__version__}}}" in out and "@software{offcmab," in out
    assert "@misc" not in out


def test_cite_a_run_gives_its_provenance(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    argv = ["validate", "--quick", "--only", "cor1-cascade", "--no-figures", "--out", str(out)]
    assert run_cli(argv) == 0
    capsys.readouterr()
    assert run_cli(["cite", str(out), "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    package = report["provenance"]["package"]
    line = entries["provenance"]
    assert f"offcmab {__version__} (" in line and "seed 2025" in line and "profile quick" in line
    assert (package["git_commit"] or package["files_sha256"]) in line
    assert "run as: offcmab validate --quick --only cor1-cascade" in line
    assert entries["run"].startswith("@misc{offcmab-run-2025-")


@pytest.mark.parametrize(("content", "message"), [
    (None, "no report.json in"),
    ("{not json", "is not JSON"),
    ('{"rows": []}', "records no provenance"),
])
def test_cite_refuses_a_folder_that_is_not_a_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None,
        message: str) -> None:
    if content is not None:
        (tmp_path / "report.json").write_text(content, encoding="utf-8")
    assert run_cli(["cite", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
