"""The bad inputs of issues 15 and 12 (item 5), each with its exit code and its one-line message.

Every case runs the real command line in this process (``offcmab.validation.cli.main``): an
exception escaping it would fail the test with its traceback.  Messages are compared
exactly, except for the ``.npz`` container errors whose wording belongs to the archive
reader (there the field and the absence of the word "pickled" are checked).
"""

from __future__ import annotations

import json
import math
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_cli_solve import run_cli

from offcmab.reference.errors import InputError
from offcmab.validation import numbers

BIG = "9" * 400
CI = settings.get_profile("ci")


# -- files the cases read --------------------------------------------------------------------

def _npz(path: Path, **arrays: np.ndarray) -> None:
    np.savez(path, m=np.int64(4), triggered_offsets=np.array([0, 1]),
             **{"triggered": np.array([0]), "outcomes": np.array([1.0]), **arrays})


def _truncated_npz(path: Path) -> None:
    _npz(path.with_suffix(".whole.npz"))
    with zipfile.ZipFile(path.with_suffix(".whole.npz")) as whole, \
            zipfile.ZipFile(path, "w") as cut:
        for name in whole.namelist():
            data = whole.read(name)
            cut.writestr(name, data[:-4] if name == "outcomes.npy" else data)


FILES: dict[str, Callable[[Path], object]] = {
    "empty.npz": lambda p: p.write_bytes(b""),
    "text.npz": lambda p: p.write_text("source,target\n0,1\n"),
    "truncated.npz": _truncated_npz,
    "u64.npz": lambda p: _npz(p, triggered=np.array([2**64 - 1], dtype=np.uint64)),
    "log.jsonl": lambda p: p.write_text(
        '{"m": 4}\n{"triggered": [0, 1], "outcomes": [0, 1]}\n{"triggered": [0], '
        '"outcomes": [1]}\n'),
    "big-outcome.jsonl": lambda p: p.write_text(
        f'{{"m": 4}}\n{{"triggered": [0], "outcomes": [{BIG}]}}\n'),
    "big-cost.jsonl": lambda p: p.write_text(
        f'{{"queries": 3}}\n{{"cache": [], "query": 1, "cost": {BIG}}}\n'),
    "huge-m.jsonl": lambda p: p.write_text(
        '{"m": 50000000}\n{"triggered": [0], "outcomes": [1]}\n'),
    "graph.csv": lambda p: p.write_text("source,target,p\n0,1,0.5\n1,2,0.5\n"),
    "structure.csv": lambda p: p.write_text("source,target\n0,1\n1,2\n"),
    "graph-50m.csv": lambda p: p.write_text("source,target,p\n0,49999999,0.5\n"),
    "graph-unicode.csv": lambda p: p.write_text("source,target,p\n0,\u0662,0.5\n",
                                                encoding="utf-8"),
    "graph-underscore.csv": lambda p: p.write_text("source,target,p\n0,1,0_5\n"),
    "graph-1m.csv": lambda p: p.write_text("source,target,p\n0,999999,0.5\n"),
    "cascades.jsonl": lambda p: p.write_text(
        '{"nodes": 3}\n{"active": [[0], [0, 1]]}\n{"active": [[1]]}\n'),
    "edges.jsonl": lambda p: p.write_text(
        '{"nodes": 3}\n{"seeds": [0], "edges": [[0, 1, 1], [1, 2, 0]]}\n'),
}


@pytest.fixture
def files(tmp_path: Path) -> Path:
    for name, make in FILES.items():
        make(tmp_path / name)
    return tmp_path


def exact(text: str) -> str:
    return re.escape(text)


RR = ("IMM would need inf RR sets, more than the 1e+08 supported; use a larger eps or "
      "delta_prime, or a graph with fewer isolated nodes")
THM1 = ["thm1-inf", "alpha=1", "B1=1", "K2bar=1", "C_inf=1", "m=10", "delta=0.1"]
DENSE = ("is 50000000 but the data hold only {} ids; above 1000000 it may be at most 8 x "
         "(ids + 1) (renumber the ids used to 0, 1, 2, ...)")

#: (case, argv with {d} for the files folder, pattern the whole stderr line must match)
BAD: list[tuple[str, list[str], str]] = [
    # item 3: tracebacks that must be exit 2
    ("zero-byte npz", ["solve", "cascade", "--data", "{d}/empty.npz", "--k", "1",
                       "--delta", "0.1"], r"offcmab solve: error: data: .*empty\.npz.*"),
    ("im-oracle eps 1e-300", ["im-oracle", "--graph", "{d}/graph.csv", "--k", "1", "--method",
                              "imm", "--eps", "1e-300"],
     exact(f"offcmab im-oracle: error: eps: {RR}")),
    ("im-node eps 1e-300", ["solve", "im-node", "--graph", "{d}/structure.csv", "--data",
                            "{d}/cascades.jsonl", "--k", "1", "--delta", "0.1", "--eps",
                            "1e-300"], exact(f"offcmab solve: error: eps: {RR}")),
    ("im-edge eps 1e-300", ["solve", "im-edge", "--graph", "{d}/structure.csv", "--data",
                            "{d}/edges.jsonl", "--k", "1", "--delta", "0.1", "--eps",
                            "1e-300"], exact(f"offcmab solve: error: eps: {RR}")),
    ("400-digit outcome", ["solve", "cascade", "--data", "{d}/big-outcome.jsonl", "--k", "1",
                           "--delta", "0.1"],
     exact("offcmab solve: error: line 2: outcomes: holds a number too large for a 64-bit "
           "float")),
    ("400-digit cost", ["solve", "llm-cache", "--data", "{d}/big-cost.jsonl", "--k", "1",
                        "--delta", "0.1"],
     exact("offcmab solve: error: line 2: cost: holds a number too large for a 64-bit float")),
    ("seed id beyond int64", ["spread", "--graph", "{d}/graph.csv", "--seeds",
                              "99999999999999999999999"],
     exact("offcmab spread: error: argument --seeds: node ids: must be at most 49999999, got "
           "99999999999999999999999 (see --help)")),
    ("spread 1e15 samples", ["spread", "--graph", "{d}/graph.csv", "--seeds", "0",
                             "--samples", "1000000000000000"],
     exact("offcmab spread: error: samples: at most 1e+09 cascades are supported, got "
           "1000000000000000")),
    # item 2: overflow refused instead of printed as null
    ("bound near 1e308", ["bound", "thm1-inf", "alpha=1", "B1=1e308", "K2bar=1e308",
                          "C_inf=1e308", "m=1e308", "n=1", "delta=0.1"],
     exact("offcmab bound: error: B1: the bound overflows a 64-bit float at these values "
           "(the most extreme given: B1=1e+308)")),
    ("coverage ratio overflow", ["coefficients", "vectors", "p_opt=1,0.5",
                                 "p_data=1e-320,0.5"],
     exact("offcmab coefficients: error: p_data: p_opt/p_data overflows a 64-bit float at arm "
           "0 (p_data=9.99989e-321); use 0 for an arm the data never trigger")),
    ("coverage 0/0", ["coefficients", "vectors", "p_opt=0,0", "p_data=0,0"],
     exact("offcmab coefficients: error: p_opt: S* triggers no arm (all probabilities are 0)")),
    ("cascade closed forms 0/0", ["coefficients", "cascade", "mu=0,0,0", "k=2"],
     exact("offcmab coefficients: error: mu: the closed forms need the 2 largest means above "
           "0 (the corollary assumes mu_k > 0), got mu_k = 0")),
    ("cascade closed form overflow", ["coefficients", "cascade", "mu=1.0,5e-324", "k=2"],
     exact("offcmab coefficients: error: mu: a closed form overflows a 64-bit float (mu_k = "
           "4.94066e-324 is too small)")),
    ("k-path weights summing past 1e308", ["coefficients", "kpath", "means=0.5,0.4", "k=2",
                                           "w=1e308,1e308"],
     exact("offcmab coefficients: error: path_probabilities: must be non-negative and sum "
           "to 1")),
    # item 4: sizes the data cannot justify
    ("m = 50M over one sample", ["solve", "cascade", "--data", "{d}/huge-m.jsonl", "--k", "1",
                                 "--delta", "0.1"],
     exact("offcmab solve: error: m: " + DENSE.format(1))),
    ("50M nodes, one edge", ["im-oracle", "--graph", "{d}/graph-50m.csv", "--k", "1"],
     exact("offcmab im-oracle: error: nodes: " + DENSE.format(2))),
    ("1M nodes, one edge", ["im-oracle", "--graph", "{d}/graph-1m.csv", "--k", "1"],
     r"offcmab im-oracle: error: eps: OPIM-C would need 4\.\d+e\+08 RR sets, more than the "
     r"1e\+08 supported; .*"),
    ("1M nodes, one edge, IMM", ["im-oracle", "--graph", "{d}/graph-1m.csv", "--k", "1",
                                 "--method", "imm"],
     r"offcmab im-oracle: error: eps: IMM would need 6\.\d+e\+09 RR sets, more than the 1e\+08 "
     r"supported; .*"),
    # item 5: misleading messages
    ("text file named .npz", ["solve", "cascade", "--data", "{d}/text.npz", "--k", "1",
                              "--delta", "0.1"],
     r"offcmab solve: error: data: .*text\.npz (is not an|is not a valid) \.npz archive.*"),
    ("truncated npz member", ["solve", "cascade", "--data", "{d}/truncated.npz", "--k", "1",
                              "--delta", "0.1"], r"offcmab solve: error: (outcomes|data): .*"),
    ("uint64 id 2^64-1", ["solve", "cascade", "--data", "{d}/u64.npz", "--k", "1",
                          "--delta", "0.1"],
     exact("offcmab solve: error: triggered: id 18446744073709551615 is too large for a 64-bit "
           "signed integer")),
    ("unicode digit", ["solve", "cascade", "--data", "{d}/log.jsonl", "--k", "\u0662",
                       "--delta", "0.1"],
     exact("offcmab solve cascade: error: argument --k: must be an integer written in digits "
           "0-9, got '\u0662' (see --help)")),
    ("unicode digit in a graph file", ["spread", "--graph", "{d}/graph-unicode.csv",
                                       "--seeds", "0"],
     exact("offcmab spread: error: line 2: target: must be an integer node id, got '\u0662'")),
    ("underscore in a graph file", ["spread", "--graph", "{d}/graph-underscore.csv",
                                    "--seeds", "0"],
     exact("offcmab spread: error: line 2: p: must be a number, got '0_5'")),
    ("underscore in a number", ["spread", "--graph", "{d}/graph.csv", "--seeds", "0",
                                "--samples", "1_0"],
     exact("offcmab spread: error: argument --samples: must be an integer written in digits "
           "0-9, got '1_0' (see --help)")),
    ("empty list item", ["spread", "--graph", "{d}/graph.csv", "--seeds", "0,,1"],
     exact("offcmab spread: error: argument --seeds: node ids: item 2 of '0,,1' is empty "
           "(see --help)")),
    ("empty list item (coefficients)", ["coefficients", "vectors", "p_opt=1,,0", "p_data=1,1"],
     exact("offcmab coefficients: error: p_opt: item 2 of '1,,0' is empty")),
    ("--scheduler without --backend dask",
     ["validate", "--quick", "--scheduler", "tcp://127.0.0.1:1", "--out", "{d}/v"],
     exact("offcmab validate: error: scheduler: only used with --backend dask (add --backend "
           "dask)")),
    ("--jobs beyond 256", ["validate", "--quick", "--jobs", "100000", "--out", "{d}/v"],
     exact("offcmab validate: error: jobs: at most 256 workers, got 100000")),
    # issue 12 item 5
    ("bound n=2.5", ["bound", *THM1, "n=2.5"],
     exact("offcmab bound: error: n: is a sample count: a whole number in [1, 1e+18], got "
           "'2.5'")),
    ("bound n=1e300", ["bound", *THM1, "n=1e300"],
     exact("offcmab bound: error: n: is a sample count: a whole number in [1, 1e+18], got "
           "'1e300'")),
    ("bound n=0", ["bound", *THM1, "n=0"],
     exact("offcmab bound: error: n: is a sample count: a whole number in [1, 1e+18], got "
           "'0'")),
]


@pytest.mark.parametrize(("case", "argv", "pattern"), BAD, ids=[case[0] for case in BAD])
def test_bad_input_exits_2_with_one_line(files: Path, capsys: pytest.CaptureFixture[str],
                                         case: str, argv: list[str], pattern: str) -> None:
    assert run_cli([word.format(d=files) for word in argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert re.fullmatch(pattern, lines[0]), lines[0]
    assert "pickled" not in lines[0] and "None" not in lines[0]


def test_unreachable_scheduler_fails_fast_naming_it(
        files: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    from offcmab.validation.runner import backends

    monkeypatch.setattr(backends, "CONNECT_SECONDS", 0.2)  # port 1 refuses at once anyway
    argv = ["validate", "--quick", "--only", "thm2-lower", "--no-figures", "--backend", "dask",
            "--scheduler", "tcp://127.0.0.1:1", "--out", str(files / "v")]
    assert run_cli(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("offcmab validate: error: scheduler: cannot reach a dask scheduler "
                          "at 'tcp://127.0.0.1:1' within 0.2 s (")
    assert len(err.splitlines()) == 1


def _numbers_in(value: object) -> list[object]:
    if isinstance(value, dict):
        return [x for item in value.values() for x in _numbers_in(item)]
    if isinstance(value, list):
        return [x for item in value for x in _numbers_in(item)]
    return [value]


@pytest.mark.parametrize("argv", [
    ["solve", "cascade", "--data", "{d}/log.jsonl", "--k", "2", "--delta", "1e-320"],
    ["solve", "cascade", "--data", "{d}/log.jsonl", "--k", "2", "--delta", "5e-324"],
    ["im-oracle", "--graph", "{d}/graph.csv", "--k", "1", "--delta-prime", "1e-320"],
    ["bound", *THM1[:-1], "delta=1e-320", "n=1000000000000000000", "p_star=0.5"],
], ids=["cascade delta 1e-320", "cascade delta 5e-324", "im-oracle delta' 1e-320",
        "bound delta 1e-320"])
def test_tiny_delta_gives_finite_answers_never_null(
        files: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """Logs as sums of logs: the smallest positive floats still give finite numbers."""
    assert run_cli([*(word.format(d=files) for word in argv), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    values = _numbers_in(out)
    assert None not in values
    if argv[0] == "solve":  # arms 0 and 1 observed: finite LCBs; arms 2, 3 never: "-inf"
        assert all(math.isfinite(x) for x in out["lcb"][:2]) and out["lcb"][2:] == ["-inf"] * 2
        assert out["action"] == [0, 1]  # not just "the first k arms" by accident of NaN
        assert out["mean"][2:] == ["nan", "nan"]
    else:
        assert all(math.isfinite(x) for x in values if isinstance(x, float))


def test_text_output_never_prints_null(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The summary, and the per-arm CSV where arms 2 and 3 are never observed.
    stats = files / "stats.csv"
    assert run_cli(["solve", "cascade", "--data", str(files / "log.jsonl"), "--k", "2",
                    "--delta", "0.1", "--out", str(stats)]) == 0
    out = capsys.readouterr().out
    assert "null" not in out and "min_count" in out
    written = stats.read_text(encoding="utf-8")
    assert "null" not in written and "-inf" in written and "nan" in written


def test_bound_accepts_n_as_a_whole_number_up_to_1e18(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    for n in ("1", "1000", "1e6", "1000000000000000000"):
        assert run_cli(["bound", *THM1, f"n={n}", "--json"]) == 0
        assert math.isfinite(json.loads(capsys.readouterr().out)["value"])


# -- the strict number parsers -------------------------------------------------------------

@CI
@given(st.integers(min_value=-(10**39), max_value=10**39))
def test_parse_int_round_trips_integers(value: int) -> None:
    assert numbers.parse_int(str(value), "x") == value
    assert numbers.parse_int(f" {value}\t", "x") == value


@CI
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_parse_float_round_trips_finite_floats(value: float) -> None:
    assert numbers.parse_float(repr(value), "x") == value


@CI
@given(st.text(max_size=12))
@example("\u0662")
@example("1_0")
@example("nan")
@example("1e400")
@example("")
@example("\uff11")
def test_parsers_accept_only_ascii_numbers_and_never_crash(text: str) -> None:
    """Any text: a value Python's own parser agrees with, or an InputError naming the field."""
    for parse in (numbers.parse_int, numbers.parse_float):
        value: float | None
        try:
            value = parse(text, "field")
        except InputError as error:
            field, value = error.field, None
        if value is None:
            assert field == "field"
            continue
        stripped = text.strip(" \t")
        assert stripped.isascii() and "_" not in stripped and stripped
        assert value == (int if parse is numbers.parse_int else float)(stripped)
        assert math.isfinite(value)


@CI
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=6), st.integers(0, 5))
def test_parse_list_refuses_every_empty_item(items: list[int], hole: int) -> None:
    text = ",".join(map(str, items))
    assert numbers.parse_list(text, "seeds", numbers.parse_int) == items
    pieces = text.split(",")
    pieces.insert(min(hole, len(pieces)), "")
    with pytest.raises(InputError, match=r"seeds: item \d+ of .* is empty"):
        numbers.parse_list(",".join(pieces), "seeds", numbers.parse_int)


EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
#: Command lines with one slot ``{}`` for fuzzed text; each finishes in well under a second
#: for any valid value (no option whose valid values can ask for unbounded work).
FUZZED = [
    ["solve", "cascade", "--data", str(EXAMPLES / "cascade-log.jsonl"), "--k", "{}",
     "--delta", "0.1", "--json"],
    ["solve", "cascade", "--data", str(EXAMPLES / "cascade-log.jsonl"), "--k", "2",
     "--delta", "{}", "--json"],
    ["solve", "cascade", "--data", str(EXAMPLES / "cascade-log.jsonl"), "--k", "2",
     "--delta", "0.1", "--radius", "{}"],
    ["bound", *THM1, "n={}"],
    ["bound", "thm1-inf", "alpha=1", "B1={}", "K2bar=1", "C_inf=1", "m=10", "n=100",
     "delta=0.1"],
    ["bound", "thm1-inf", "--solve-n", "eps={}", "alpha=1", "B1=1", "K2bar=1", "C_inf=1",
     "m=10", "delta=0.1"],
    ["coefficients", "vectors", "p_opt={}", "p_data=0.5,0.5"],
    ["coefficients", "cascade", "mu=0.7,0.5,0.3", "k={}"],
    ["coefficients", "cascade", "mu={}", "k=2"],
    ["coefficients", "kpath", "means=0.5,0.4", "k=2", "w={}"],
    ["coefficients", "llm-cache", "p={}", "c=1,0.5,0.2", "k=1"],
]
FUZZ_TEXT = st.one_of(st.text(max_size=10), st.integers().map(str),
                      st.floats().map(repr), st.floats(0, 1).map(str),
                      st.lists(st.floats(0, 1).map(str), max_size=3).map(",".join))


@CI
@given(st.sampled_from(FUZZED), FUZZ_TEXT)
def test_cli_options_exit_0_or_2_never_a_traceback(template: list[str], text: str) -> None:
    """Random text for an option or parameter: exit 0 or 2, never an exception."""
    argv = [word.replace("{}", text) if "{}" in word else word for word in template]
    assert run_cli(argv) in (0, 2)
