"""Loading a user's algorithm: targets, errors naming the algorithm, the user's own frames."""

from __future__ import annotations

from pathlib import Path

import pytest

from offcmab.validation.user_algorithm import AlgorithmError, check_signature, load, resolve_spec

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def write(tmp_path: Path, text: str, name: str = "mine.py") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_file_target_loads_the_function_with_its_hash_and_spec_round_trips() -> None:
    algorithm = load(f"{EXAMPLES / 'own_cascade.py'}:pessimistic_list")
    assert algorithm.kind == "file" and algorithm.qualname == "pessimistic_list"
    assert algorithm.function.__name__ == "pessimistic_list"
    assert len(algorithm.sha256 or "") == 64
    again = resolve_spec(algorithm.spec)
    assert again.function is algorithm.function  # imported once per process and content
    assert algorithm.describe()["file"] == str(EXAMPLES / "own_cascade.py")


def test_module_target_imports_the_module() -> None:
    algorithm = load("offcmab.reference.clcb_cascade:clcb_cascade")
    from offcmab.reference.clcb_cascade import clcb_cascade

    assert algorithm.kind == "module" and algorithm.function is clcb_cascade
    assert resolve_spec(algorithm.spec).function is clcb_cascade


def test_an_edited_file_is_imported_afresh(tmp_path: Path) -> None:
    path = write(tmp_path, "def f(a, b, c):\n    return 1\n")
    first = load(f"{path}:f")
    path.write_text("def f(a, b, c):\n    return 2\n", encoding="utf-8")
    second = load(f"{path}:f")
    assert (first.function(0, 0, 0), second.function(0, 0, 0)) == (1, 2)
    assert first.sha256 != second.sha256


@pytest.mark.parametrize(("target", "expected"), [
    ("nofile.py:f", "no such file"),
    ("mine.py:missing", "no function 'missing'"),
    ("mine.py:VALUE", "is not a function"),
    ("mine.py:f-g", "is not a function name"),
    ("no_such_module_xyz:f", "no module named 'no_such_module_xyz'"),
    ("just-text", "expected FILE.py:FUNCTION"),
])
def test_bad_targets_name_the_algorithm(tmp_path: Path, target: str, expected: str) -> None:
    write(tmp_path, "VALUE = 3\ndef f(a, b, c):\n    return a\n")
    if target.startswith("mine.py") or target.startswith("nofile.py"):
        target = str(tmp_path / target)
    with pytest.raises(AlgorithmError, match=expected) as caught:
        load(target)
    assert "\n" not in str(caught.value)


def test_a_file_that_fails_to_import_shows_its_own_line(tmp_path: Path) -> None:
    path = write(tmp_path, "x = 1\nraise RuntimeError('broken at import')\n")
    with pytest.raises(AlgorithmError, match=r"mine\.py:f: importing mine\.py raised "
                                             r"RuntimeError: broken at import \(at mine\.py:2"):
        load(f"{path}:f")


def test_signature_check_accepts_defaults_and_rejects_missing_parameters() -> None:
    def good(dataset, k, delta, extra=1):  # type: ignore[no-untyped-def]
        return dataset

    def bad(dataset, k):  # type: ignore[no-untyped-def]
        return dataset

    check_signature(good, ("dataset", "k", "delta"), "x:good", "f(dataset, k, delta)")
    with pytest.raises(AlgorithmError, match=r"x:bad: signature bad\(dataset, k\) does not "
                                             r"fit the call f\(dataset, k, delta\)"):
        check_signature(bad, ("dataset", "k", "delta"), "x:bad", "f(dataset, k, delta)")


def test_an_exception_inside_the_function_keeps_only_the_users_frames(tmp_path: Path) -> None:
    path = write(tmp_path, "import numpy as np\n\n"
                           "def helper(values):\n    return np.linalg.inv(values)\n\n"
                           "def f(a, b, c):\n    return helper(np.zeros((2, 2)))\n")
    call = load(f"{path}:f").guarded()
    with pytest.raises(AlgorithmError) as caught:
        call(0, 0, 0)
    message = str(caught.value)
    assert message.startswith("algorithm mine.py:f raised LinAlgError: Singular matrix")
    assert message.endswith("(at mine.py:4 in helper <- mine.py:7 in f)")
    assert "numpy" not in message and "user_algorithm" not in message
