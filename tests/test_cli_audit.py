r"""Every command, from the command line's own list, on bad arguments and on a user's files.

* Any bad argument set is exit 2 with one line on stderr, never a traceback.
* Every file or folder option read by a command (found on its parser: the options typed
  :func:`~offcmab.validation.arguments.input_path` and the ``FILE.py:NAME`` options) names
  itself when the path is missing, is of the wrong kind, or holds a broken or wrongly shaped
  document (an error inside a data file may name its line and column instead).
* Every output option (typed ``output_path``, or solve's ``--out``) pointed at a file the user
  already has leaves that file byte-identical and exits non-zero; so does an output folder
  holding a user's file under a name the command writes.

``BASE`` gives the other required arguments of a command (small, ``--profile ci`` or
``--quick``, so that a command that failed to refuse would still end quickly);
:func:`test_every_command_with_a_path_option_has_a_base` keeps it complete.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest

from offcmab.validation.arguments import input_path, output_path
from offcmab.validation.calibration_auto import LOG_NAME, RESULT_NAME
from offcmab.validation.cli import COMMANDS, build_parser, main
from offcmab.validation.door import REPORT_NAMES

USER = b"a file of the user's own\n"
GRAPH = "source,target,p\n0,1,0.5\n1,2,0.5\n"


def command_parsers() -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """``(words, parser)`` of every command and sub-command (``solve PROBLEM``)."""
    def walk(words: tuple[str, ...], parser: argparse.ArgumentParser
             ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
        subs = [action for action in parser._actions
                if isinstance(action, argparse._SubParsersAction)]
        if not subs:
            yield words, parser
        for action in subs:
            for name, sub in action.choices.items():
                yield from walk((*words, name), sub)
    parser = build_parser(None)
    [top] = [action for action in parser._actions
             if isinstance(action, argparse._SubParsersAction)]
    assert list(top.choices) == list(COMMANDS)
    for name, sub in top.choices.items():
        yield from walk((name,), sub)


def is_input(action: argparse.Action) -> bool:
    return action.type is input_path or str(action.metavar or "").startswith("FILE.py")


def is_output(action: argparse.Action) -> bool:
    return action.type is output_path or (
        action.dest == "out" and getattr(action.type, "__name__", "") == "out_path")


def option_name(action: argparse.Action) -> str:
    """The field an error about ``action`` names: the option without dashes, or for a
    positional argument the first word of its name (``base``, ``run``)."""
    if action.option_strings:
        return action.option_strings[-1].lstrip("-")
    return action.dest.split("_")[0]


COMMAND_WORDS = [words for words, _ in command_parsers()]
PATH_OPTIONS = [(words, action) for words, parser in command_parsers()
                for action in parser._actions if is_input(action)
                if not (words == ("compare",) and action.option_strings)]
OUTPUT_OPTIONS = [(words, action) for words, parser in command_parsers()
                  for action in parser._actions if is_output(action)]


def base(words: tuple[str, ...], tmp: Path) -> list[str]:
    """A command's required arguments other than the one under test (valid, small)."""
    graph = tmp / "graph.csv"
    graph.write_text(GRAPH)
    solve = ["--k", "1", "--delta", "0.1", "--data", str(tmp / "no-data.jsonl")]
    found = {
        ("validate",): ["--profile", "ci", "--only", "thm1-inf", "--out", str(tmp / "v")],
        ("calibrate",): ["--profile", "quick", "--only", "thm1-inf", "--runs", "auto"],
        ("mutation",): ["--profile", "ci", "--only", "thm1-inf"],
        ("tightness",): ["thm1-inf", "--budget", "1", "--out", str(tmp / "t.json")],
        ("falsify",): ["reference", "--only", "thm1-inf", "--budget", "1",
                       "--out", str(tmp / "f"), "--no-database"],
        ("reproduce",): ["fig1a", "--quick"],
        ("im-oracle",): ["--k", "1"],
        ("spread",): ["--seeds", "0"],
        ("solve", "im-node"): ["--graph", str(graph), *solve],
        ("solve", "im-edge"): ["--graph", str(graph), *solve],
    }
    if words[0] == "solve" and words not in found:
        return solve
    return found.get(words, [])


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's usage errors
        code = int(stop.code or 0)
    return code, capsys.readouterr().err


def one_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("words", COMMAND_WORDS, ids=" ".join)
def test_every_command_refuses_a_bad_argument_set(words: tuple[str, ...], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run([*words, *base(words, tmp_path), "--no-such-option", "-1"], capsys)
    assert code == 2, err
    assert one_line(err).startswith("offcmab"), err


def test_every_command_with_a_path_option_has_a_base(tmp_path: Path) -> None:
    """A command whose parser requires more than the path itself is given it in ``BASE``."""
    for words, parser in command_parsers():
        required = [action for action in parser._actions
                    if (action.required or not action.option_strings) and not is_input(action)
                    and not is_output(action) and action.nargs not in ("?", "*")
                    and not isinstance(action, argparse._SubParsersAction)]
        if required and any(is_input(action) or is_output(action)
                            for action in parser._actions):
            assert base(words, tmp_path), words


def bad_paths(tmp: Path, action: argparse.Action) -> dict[str, str]:
    """What a user may mistakenly give a path option: each kind of wrong path."""
    (tmp / "folder").mkdir()
    (tmp / "broken.json").write_text("{\n")
    (tmp / "shape.json").write_text("[1, 2]\n")
    (tmp / "broken.py").write_text("def f(:\n")
    broken_run = tmp / "run"
    broken_run.mkdir()
    (broken_run / "report.json").write_text("{\n")
    if str(action.metavar or "").startswith("FILE.py"):
        return {"missing": f"{tmp / 'missing.py'}:f", "folder": f"{tmp / 'folder'}:f",
                "broken": f"{tmp / 'broken.py'}:f"}
    return {"missing": str(tmp / "missing.json"), "folder": str(tmp / "folder"),
            "broken": str(tmp / "broken.json"), "shape": str(tmp / "shape.json"),
            "broken run": str(broken_run)}


@pytest.mark.parametrize(("words", "action"), PATH_OPTIONS,
                         ids=[" ".join(case.values[0] if hasattr(case, "values") else case[0])
                              for case in PATH_OPTIONS])
def test_every_path_option_names_itself(words: tuple[str, ...], action: argparse.Action,
                                        tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    name = option_name(action)
    positionals = [other for _, parser in command_parsers() if _ == words
                   for other in parser._actions if not other.option_strings and is_input(other)]
    if not action.option_strings:  # every positional path gets the bad one: the first is named
        name = option_name(positionals[0])
    for kind, path in bad_paths(tmp_path, action).items():
        if action.option_strings:
            argv = [*words, *base(words, tmp_path), action.option_strings[-1], path]
        else:
            argv = [*words, *base(words, tmp_path), *[path] * len(positionals)]
        code, err = run(argv, capsys)
        assert code == 2, (kind, err)
        line = one_line(err)
        message = line.split(": error: ", 1)[1]
        named = message.startswith((f"{name}: ", f"{name} "))
        inside = kind in ("broken", "shape") and message.startswith("line ")
        assert named or inside, (kind, line)


@pytest.mark.parametrize(("words", "action"), OUTPUT_OPTIONS,
                         ids=[" ".join(words) + " " + option_name(action)
                              for words, action in OUTPUT_OPTIONS])
def test_an_output_option_never_replaces_a_user_file(words: tuple[str, ...],
                                                     action: argparse.Action, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    mine = tmp_path / ("mine.csv" if words[0] == "solve" else "mine.json")
    mine.write_bytes(USER)
    given = [word for word in base(words, tmp_path) if word != "--no-database"]
    code, err = run([*words, *given, action.option_strings[-1], str(mine)], capsys)
    assert code != 0, err
    assert mine.read_bytes() == USER


@pytest.mark.parametrize(("argv", "name"), [
    *[(["validate", "--profile", "ci", "--only", "thm1-inf"], written)
      for written in REPORT_NAMES],
    *[(["calibrate", "--profile", "quick", "--only", "thm1-inf", "--runs", "auto"], written)
      for written in (LOG_NAME, RESULT_NAME)],
    (["reproduce", "fig1a", "--quick"], "fig1a.csv"),
], ids=lambda value: value if isinstance(value, str) else value[0])
def test_an_output_folder_never_replaces_a_user_file(argv: list[str], name: str,
                                                     tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """A user's file under a name the command writes, in the folder given as ``--out``."""
    mine = tmp_path / name
    mine.write_bytes(USER)
    code, err = run([*argv, "--out", str(tmp_path)], capsys)
    assert code != 0, err
    one_line(err)
    assert mine.read_bytes() == USER
