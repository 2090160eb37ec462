"""Fault injection on what commands write and read back: one table per command.

Every writing command is pointed at destinations a careful user could mistype: an empty or
blank path, a device (``/dev/null``, reached through a link so that no test needs root), a
folder where a file goes, a file where a folder goes, and files it did not write (another
run's trial log, this run's report, a saved counterexample, the user's own script).  Each
case must exit 2 with one line on stderr naming the option, before any work, and leave
every byte it was pointed at as it was.  Every reading command gets run folders whose
``report.json`` or ``trials.jsonl`` is malformed: exit 2 naming the file and the field,
never a traceback, never a verdict.  Nothing here is Monte-Carlo: one ``--quick`` run of
one bound id is made once for the module, and each case is a fixed input.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from offcmab.reference.dataset_io import write_npz
from offcmab.reference.errors import InputError
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
from offcmab.validation.cli import main
from offcmab.validation.falsify.report import written_names
from offcmab.validation.reproduce import FIGURES
from offcmab.validation.runner.folder import atomic_write_text
from offcmab.validation.runner.store import LOG_NAME

BOUND_ID = "thm2-lower"
SEARCHED = "cor1-cascade"  # an id falsify and tightness cover
FIGURE = next(iter(FIGURES))


@dataclass(frozen=True)
class Places:
    """The files a case may point at: a finished run, and a scratch folder of its own."""

    run: Path
    scratch: Path

    @property
    def device(self) -> Path:
        """A link to ``/dev/null``: writing through it would replace or fill the device."""
        link = self.scratch / "device.json"
        if not link.is_symlink():
            link.symlink_to(os.devnull)
        return link

    @property
    def script(self) -> Path:
        """A user's own file."""
        path = self.scratch / "my_algorithm.py"
        if not path.exists():
            path.write_text("def clcb(data, oracle, delta):\n    return []\n")
        return path

    def folder_with(self, *names: str) -> Path:
        """A folder holding files of these names (made by someone else)."""
        folder = self.scratch / "taken"
        folder.mkdir(exist_ok=True)
        for name in names:
            (folder / name).write_text("someone else's file\n")
        return folder


def snapshot(top: Path) -> dict[str, bytes | str]:
    """Every entry below ``top`` and its bytes (a link: its target), to show nothing moved."""
    found: dict[str, bytes | str] = {}
    for path in sorted(top.rglob("*")):
        key = str(path.relative_to(top))
        if path.is_symlink():
            found[key] = os.readlink(path)
        elif path.is_file():
            found[key] = path.read_bytes()
        else:
            found[key] = "folder"
    return found


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One finished ``validate --quick`` run of one bound id (report, trial log)."""
    run = tmp_path_factory.mktemp("faults") / "run"
    assert main(["validate", "--quick", "--only", BOUND_ID, "--no-figures", "--out",
                 str(run)]) == 0
    return run


@pytest.fixture
def places(finished_run: Path, tmp_path: Path) -> Places:
    """A private copy of the finished run and an empty scratch folder."""
    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    return Places(run, scratch)


def cli(argv: list[str]) -> int:
    """The exit code of ``offcmab ARGV`` (argparse's usage errors raise SystemExit)."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def refused(argv: list[str], option: str, top: Path, capsys: pytest.CaptureFixture[str],
            needle: str = "") -> str:
    """Run ``argv``: exit 2, one stderr line naming ``option``, nothing below ``top`` moved."""
    before = snapshot(top)
    capsys.readouterr()
    assert cli(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{option}:" in err or f"argument --{option}:" in err, err
    assert needle in err, err
    assert snapshot(top) == before
    return err


Case = Callable[[Places], list[str]]

# ---------------------------------------------------------------- validate --out, --junit-xml

QUICK = ["validate", "--quick", "--only", BOUND_ID, "--no-figures"]

VALIDATE_CASES: dict[str, tuple[Case, str, str]] = {
    "out empty": (lambda p: [*QUICK, "--out", ""], "out", "must name"),
    "out blank": (lambda p: [*QUICK, "--out", "  "], "out", "must name"),
    "out a device": (lambda p: [*QUICK, "--out", str(p.device)], "out", "not a folder"),
    "out a user's file": (lambda p: [*QUICK, "--out", str(p.script)], "out", "not a folder"),
    "out a folder holding a user's report.md": (
        lambda p: [*QUICK, "--out", str(p.folder_with("report.md"))], "out", "report.md"),
    "out another run": (lambda p: [*QUICK, "--out", str(p.run)], "out", "--resume"),
    "junit-xml empty": (lambda p: [*QUICK, "--out", str(p.scratch / "new"), "--junit-xml", ""],
                        "junit-xml", "must name"),
    "junit-xml another run's trial log": (
        lambda p: [*QUICK, "--out", str(p.scratch / "new"), "--junit-xml",
                   str(p.run / LOG_NAME)], "junit-xml", "--overwrite"),
    "junit-xml a user's script": (
        lambda p: [*QUICK, "--out", str(p.scratch / "new"), "--junit-xml", str(p.script)],
        "junit-xml", "already exists"),
    "junit-xml this new run's report.json": (
        lambda p: [*QUICK, "--out", str(p.scratch / "new"), "--junit-xml",
                   str(p.scratch / "new" / "report.json")], "junit-xml", "this run's own"),
    "junit-xml this run's report.json, even with --overwrite": (
        lambda p: [*QUICK, "--out", str(p.run), "--overwrite", "--junit-xml",
                   str(p.run / "report.json")], "junit-xml", "this run's own"),
    "junit-xml this run's trial log on --resume": (
        lambda p: [*QUICK, "--out", str(p.run), "--resume", "--junit-xml",
                   str(p.run / LOG_NAME)], "junit-xml", "this run's own"),
    "junit-xml a device": (
        lambda p: [*QUICK, "--out", str(p.scratch / "new"), "--junit-xml", str(p.device)],
        "junit-xml", "not a regular file"),
    "junit-xml a folder": (
        lambda p: [*QUICK, "--out", str(p.scratch / "new"), "--junit-xml", str(p.run)],
        "junit-xml", "is a folder"),
}


@pytest.mark.parametrize("name", list(VALIDATE_CASES))
def test_validate_refuses_a_destination_before_any_trial(
        name: str, places: Places, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    case, option, needle = VALIDATE_CASES[name]
    argv = case(places)
    monkeypatch.chdir(places.scratch)  # `--out ''` would mean here
    refused(argv, option, places.run.parent, capsys, needle)
    assert not (places.scratch / "new").exists()


def test_validate_resume_may_replace_its_own_junit_file(
        places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    """The control of the table: what the rule allows still works.  A JUnit file that an
    earlier ``validate`` wrote is replaced on ``--resume``; a user's file needs --overwrite."""
    junit = places.scratch / "run.xml"
    argv = [*QUICK, "--out", str(places.run), "--resume", "--junit-xml", str(junit)]
    assert main(argv) == 0
    first = junit.read_bytes()
    assert first.startswith(b"<?xml") and b'<testsuites name="offcmab validate"' in first
    assert main(argv) == 0  # the same run continued: its own JUnit file is rewritten
    assert junit.read_bytes().split(b"time=")[0] == first.split(b"time=")[0]
    refused([*QUICK, "--out", str(places.run), "--resume", "--junit-xml",
             str(places.script)], "junit-xml", places.scratch, capsys, "already exists")
    capsys.readouterr()


# ---------------------------------------------------------------- tightness --out

TIGHTNESS = ["tightness", SEARCHED, "--budget", "3"]

TIGHTNESS_CASES: dict[str, tuple[Case, str]] = {
    "a run's trial log": (lambda p: [*TIGHTNESS, "--out", str(p.run / LOG_NAME)],
                          "--overwrite"),
    "a run's report": (lambda p: [*TIGHTNESS, "--out", str(p.run / "report.json")],
                       "--overwrite"),
    "a device": (lambda p: [*TIGHTNESS, "--out", str(p.device), "--overwrite"],
                 "not a regular file"),
    "a folder": (lambda p: [*TIGHTNESS, "--out", str(p.run)], "is a folder"),
    "empty": (lambda p: [*TIGHTNESS, "--out", ""], "must name"),
    "blank": (lambda p: [*TIGHTNESS, "--out", " "], "must name"),
    "below a file": (lambda p: [*TIGHTNESS, "--out", str(p.script / "x.json")],
                     "not a folder"),
}


@pytest.mark.parametrize("name", list(TIGHTNESS_CASES))
def test_tightness_refuses_its_out_before_the_search(
        name: str, places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    case, needle = TIGHTNESS_CASES[name]
    refused(case(places), "out", places.run.parent, capsys, needle)


def test_tightness_overwrite_replaces_a_file_and_only_a_file(
        places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    target = places.scratch / "old.json"
    target.write_text("{}\n")
    assert main([*TIGHTNESS, "--out", str(target), "--overwrite"]) == 0
    assert json.loads(target.read_text())["bound_id"] == SEARCHED
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)  # the device the table aimed at
    capsys.readouterr()


# ---------------------------------------------------------------- falsify --out, --database

FALSIFY = ["falsify", "reference", "--only", SEARCHED, "--budget", "3"]


def _holding(places: Places, name: str) -> Path:
    return places.folder_with(name)


FALSIFY_CASES: dict[str, tuple[Case, str, str]] = {
    **{f"out holding {kind}": (
        (lambda p, name=name: [*FALSIFY, "--out", str(_holding(p, name))]), "out", name)
       for kind, name in zip(("a counterexample", "a summary", "a summary text"),
                             written_names(SEARCHED), strict=True)},
    "out empty": (lambda p: [*FALSIFY, "--out", ""], "out", "must name"),
    "database empty": (lambda p: [*FALSIFY, "--out", str(p.scratch / "f"), "--database", ""],
                       "database", "must name"),
    "database blank": (lambda p: [*FALSIFY, "--out", str(p.scratch / "f"), "--database",
                                  "\t"], "database", "must name"),
    "database a file": (lambda p: [*FALSIFY, "--out", str(p.scratch / "f"), "--database",
                                   str(p.script)], "database", "not a folder"),
    "out a device": (lambda p: [*FALSIFY, "--out", str(p.device)], "out", "not a folder"),
}


@pytest.mark.parametrize("name", list(FALSIFY_CASES))
def test_falsify_refuses_its_destinations_before_the_search(
        name: str, places: Places, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    case, option, needle = FALSIFY_CASES[name]
    argv = case(places)
    monkeypatch.chdir(places.scratch)
    refused(argv, option, places.run.parent, capsys, needle)
    assert not (places.scratch / "f").exists()


# ---------------------------------------------------------------- solve --out, reproduce --out


def solve_data(folder: Path) -> Path:
    rng = np.random.default_rng(3)
    path = folder / "log.npz"
    write_npz(UniformListsLaw(CascadeProblem(rng.random(8), 2)).sample(50, rng), path)
    return path


def _solve(places: Places, out: str, *extra: str) -> list[str]:
    return ["solve", "cascade", "--data", str(solve_data(places.run.parent)), "--k", "2",
            "--delta", "0.1", "--out", out, *extra]


def _device_csv(places: Places) -> str:
    link = places.scratch / "device.csv"
    link.symlink_to(os.devnull)
    return str(link)


SOLVE_CASES: dict[str, tuple[Case, str]] = {
    "a user's file": (lambda p: _solve(p, str(p.folder_with("stats.csv") / "stats.csv")),
                      "--overwrite"),
    "a device": (lambda p: _solve(p, _device_csv(p), "--overwrite"), "not a regular file"),
    "blank": (lambda p: _solve(p, "   "), "must name"),
}


@pytest.mark.parametrize("name", list(SOLVE_CASES))
def test_solve_refuses_its_out_before_reading_the_data(
        name: str, places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    case, needle = SOLVE_CASES[name]
    refused(case(places), "out", places.run.parent, capsys, needle)


REPRODUCE_CASES: dict[str, tuple[Case, str]] = {
    "a folder holding the figure": (
        lambda p: ["reproduce", FIGURE, "--quick", "--out",
                   str(p.folder_with(f"{FIGURE}.png"))], f"{FIGURE}.png"),
    "a file": (lambda p: ["reproduce", FIGURE, "--quick", "--out", str(p.script)],
               "not a folder"),
    "empty": (lambda p: ["reproduce", FIGURE, "--out", ""], "must name"),
}


@pytest.mark.parametrize("name", list(REPRODUCE_CASES))
def test_reproduce_refuses_its_out_before_any_experiment(
        name: str, places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    case, needle = REPRODUCE_CASES[name]
    refused(case(places), "out", places.run.parent, capsys, needle)


#: Every option that names a file or folder, read or written, given an empty or blank path.
BLANK_PATHS: dict[str, tuple[list[str], str]] = {
    "validate --out": ([*QUICK, "--out", ""], "out"),
    "validate --junit-xml": ([*QUICK, "--junit-xml", " "], "junit-xml"),
    "validate --baseline": ([*QUICK, "--baseline", ""], "baseline"),
    "validate --instances": ([*QUICK, "--instances", "\t"], "instances"),
    "tightness --out": ([*TIGHTNESS, "--out", ""], "out"),
    "falsify --out": ([*FALSIFY, "--out", " "], "out"),
    "falsify --database": ([*FALSIFY, "--database", ""], "database"),
    "falsify --replay": (["falsify", "reference", "--replay", ""], "replay"),
    "reproduce --out": (["reproduce", FIGURE, "--out", "  "], "out"),
    "solve --out": (["solve", "cascade", "--data", "x.npz", "--k", "1", "--delta", "0.1",
                     "--out", " "], "out"),
    "solve --data": (["solve", "cascade", "--data", "", "--k", "1", "--delta", "0.1"], "data"),
    "compare BASE_DIR": (["compare", "", "run"], "BASE_DIR"),
    "compare NEW_DIR": (["compare", "run", " "], "NEW_DIR"),
    "cite RUN_DIR": (["cite", ""], "RUN_DIR"),
    "spread --graph": (["spread", "--graph", "", "--seeds", "0"], "graph"),
    "im-oracle --graph": (["im-oracle", "--graph", " ", "--k", "1"], "graph"),
}


@pytest.mark.parametrize("name", list(BLANK_PATHS))
def test_an_empty_or_blank_path_is_refused(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    argv, option = BLANK_PATHS[name]
    monkeypatch.chdir(tmp_path)  # what an empty path would have meant
    err = refused(argv, option, tmp_path, capsys, "must name a file")
    assert f"argument {'--' if option.islower() else ''}{option}:" in err
    assert list(tmp_path.iterdir()) == []


def test_no_writer_replaces_a_device(tmp_path: Path) -> None:
    """The last guard, below every command: the atomic writer renames over regular files
    only, so a device reached through a link is refused even when a caller skipped its check."""
    link = tmp_path / "report.json"
    link.symlink_to(os.devnull)
    with pytest.raises(InputError, match="not a regular file"):
        atomic_write_text(link, "{}\n")
    assert link.is_symlink() and stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["report.json"]


# ---------------------------------------------------------------- compare: trial logs

LOGS: dict[str, bytes] = {
    "empty": b"",
    "garbage": b"\x00\xffnot json at all\n{\n",
    "header only": b"",  # filled from the run's own first line
}


def damaged_log(run: Path, kind: str) -> None:
    log = run / LOG_NAME
    header = log.read_bytes().split(b"\n")[0] + b"\n"
    log.write_bytes(header if kind == "header only" else LOGS[kind])


@pytest.mark.parametrize("role", ["new", "base"])
@pytest.mark.parametrize("kind", list(LOGS))
def test_compare_refuses_a_run_without_trials(
        kind: str, role: str, places: Places, finished_run: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    damaged_log(places.run, kind)
    pair = [str(finished_run), str(places.run)] if role == "new" else \
        [str(places.run), str(finished_run)]
    err = refused(["compare", *pair], role, places.run.parent, capsys,
                  str(places.run / LOG_NAME))
    assert "no significant regression" not in err


def test_compare_of_a_run_with_itself_pairs_every_cell(
        finished_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The control of the table: an intact run pairs, and nothing changed."""
    capsys.readouterr()
    assert main(["compare", str(finished_run), str(finished_run), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["cells_compared"] > 0 and result["worse"] == 0


@pytest.mark.parametrize("kind", list(LOGS))
def test_validate_baseline_without_trials_is_refused_before_any_trial(
        kind: str, places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    damaged_log(places.run, kind)
    refused([*QUICK, "--out", str(places.scratch / "new"), "--baseline", str(places.run)],
            "baseline", places.run.parent, capsys, str(places.run / LOG_NAME))
    assert not (places.scratch / "new").exists()


# ---------------------------------------------------------------- report.json read back

Edit = Callable[[dict[str, Any]], Any]


def _deep(report: dict[str, Any]) -> None:
    nested: Any = []
    for _ in range(200):
        nested = [nested]
    report["rows"][0]["extra"] = nested


def _set(path: str, value: Any) -> Edit:
    """Set the dotted ``path`` (``rows.0.id``) to ``value``; ``None`` deletes the key."""
    def edit(report: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        holder: Any = report
        for part in parents:
            holder = holder[int(part)] if isinstance(holder, list) else holder[part]
        if value is None:
            del holder[last]
        else:
            holder[last] = value
    return edit


#: Ten malformed reports and the field each message must name.
REPORT_VARIANTS: dict[str, tuple[Edit, str]] = {
    "deep nesting": (_deep, "nested too deeply"),
    "rows of ints": (_set("rows", [1, 2, 3]), "rows[0]: must be a JSON object"),
    "a row without verdict": (_set("rows.0.verdict", None), "rows[0].verdict: missing"),
    "a row without id": (_set("rows.1.id", None), "rows[1].id: missing"),
    "rows an object": (_set("rows", {"id": BOUND_ID}), "rows: must be a list"),
    "a row's n a list": (_set("rows.0.n", [100]), "rows[0].n: must be an integer"),
    "instances a list": (_set("instances", [BOUND_ID]), "instances: must be a JSON object"),
    "instances of an id a number": (_set(f"instances.{BOUND_ID}", 7),
                                    f"instances.{BOUND_ID}: must be a list"),
    "provenance a list": (_set("provenance", ["0.1.0"]), "provenance: must be a JSON object"),
    "provenance package a string": (_set("provenance.package", "offcmab"),
                                    "provenance.package: must be a JSON object"),
}

#: Six malformed provenance blocks that ``cite`` prints from.
PROVENANCE_VARIANTS: dict[str, tuple[Edit, str]] = {
    "version a number": (_set("provenance.package.version", 1),
                         "provenance.package.version: must be a non-empty string"),
    "git commit a list": (_set("provenance.package.git_commit", ["abc"]),
                          "provenance.package.git_commit: must be a non-empty string"),
    "invocation a string": (_set("provenance.invocation", "offcmab validate"),
                            "provenance.invocation: must be a JSON object"),
    "argv a number": (_set("provenance.invocation.argv", 3),
                      "provenance.invocation.argv: must be a list"),
    "subject a list": (_set("provenance.subject", ["reference"]),
                       "provenance.subject: must be a JSON object"),
    "summary a list": (_set("summary", [1]), "summary: must be a JSON object"),
}


def malformed(run: Path, edit: Edit) -> None:
    path = run / "report.json"
    report = json.loads(path.read_text())
    edit(report)
    path.write_text(json.dumps(report))


@pytest.mark.parametrize("name", list(REPORT_VARIANTS))
def test_compare_names_the_malformed_field(
        name: str, places: Places, finished_run: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    edit, field = REPORT_VARIANTS[name]
    malformed(places.run, edit)
    refused(["compare", str(finished_run), str(places.run)], "new", places.run.parent,
            capsys, field)
    refused(["compare", str(places.run), str(finished_run)], "base", places.run.parent,
            capsys, field)


@pytest.mark.parametrize("name", list(REPORT_VARIANTS))
def test_validate_baseline_names_the_malformed_field_before_any_trial(
        name: str, places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    edit, field = REPORT_VARIANTS[name]
    malformed(places.run, edit)
    refused([*QUICK, "--out", str(places.scratch / "new"), "--baseline", str(places.run)],
            "baseline", places.run.parent, capsys, field)
    assert not (places.scratch / "new").exists()


@pytest.mark.parametrize("name", list(PROVENANCE_VARIANTS) + list(REPORT_VARIANTS)[1:])
def test_cite_names_the_malformed_field(
        name: str, places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    edit, field = {**REPORT_VARIANTS, **PROVENANCE_VARIANTS}[name]
    malformed(places.run, edit)
    refused(["cite", str(places.run)], "run", places.run.parent, capsys, field)


def test_a_valid_report_reads_back(finished_run: Path, capsys: pytest.CaptureFixture[str]
                                   ) -> None:
    """The control of the tables: the report a run writes passes the schema."""
    capsys.readouterr()
    assert main(["cite", str(finished_run)]) == 0
    assert "% provenance: offcmab" in capsys.readouterr().out


# ---------------------------------------------------------------- a closed or full stdout

CLOSED_STDOUT: dict[str, tuple[Callable[[Path, Path], list[str]], int]] = {
    "cite": (lambda run, scratch: ["cite", str(run)], 0),
    "compare": (lambda run, scratch: ["compare", str(run), str(run)], 0),
    "tightness": (lambda run, scratch: [*TIGHTNESS, "--out", str(scratch / "t.json")], 0),
    "calibrate": (lambda run, scratch: ["calibrate", "--only", BOUND_ID, "--runs", "1",
                                        "--profile", "quick"], 0),
}


def shell(argv: list[str], redirect: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m offcmab ARGV REDIRECT`` in a shell (``>&-`` closes stdout)."""
    command = shlex.join([sys.executable, "-m", "offcmab", *argv]) + " " + redirect
    return subprocess.run(["/bin/sh", "-c", command], cwd=cwd, capture_output=True,
                          text=True, check=False, timeout=600)


@pytest.mark.parametrize("name", list(CLOSED_STDOUT))
def test_a_closed_stdout_is_no_traceback(name: str, finished_run: Path, tmp_path: Path
                                         ) -> None:
    make, code = CLOSED_STDOUT[name]
    done = shell(make(finished_run, tmp_path), ">&-", tmp_path)
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr
    assert done.returncode == code
    if name == "tightness":  # the file it opened first did not receive the output
        assert json.loads((tmp_path / "t.json").read_text())["bound_id"] == SEARCHED


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_stdout_is_one_line_and_exit_2(finished_run: Path, tmp_path: Path) -> None:
    done = shell(["cite", str(finished_run)], "> /dev/full", tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "offcmab cite: error:" in done.stderr


# ---------------------------------------------------------------- the library door


def test_check_follows_the_same_rule_for_junit_xml(places: Places) -> None:
    """``offcmab.validation.check(junit_xml=...)`` refuses what ``--junit-xml`` refuses,
    before the run, and replaces an existing file only with ``overwrite=True``."""
    from offcmab.validation import check
    from offcmab.validation.runner.folder import check_output_file

    targets = (places.script, places.run / LOG_NAME, places.device)
    before = snapshot(places.run.parent)
    for target in targets:
        with pytest.raises(InputError, match=r"^junit_xml: "):
            check("reference", BOUND_ID, profile="quick", junit_xml=target,
                  out=places.scratch / "new")
    with pytest.raises(InputError, match=r"junit_xml: .* this run's own report\.json"):
        check("reference", BOUND_ID, profile="quick", out=places.run, overwrite=True,
              junit_xml=places.run / "report.json")
    assert snapshot(places.run.parent) == before
    check_output_file(places.script, "junit_xml", overwrite=True)  # allowed when asked
