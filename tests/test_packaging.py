"""The installed layout: everything lives under ``offcmab``, beside a user's own packages.

The three layers are folders at the top of the repository, mapped by setuptools
``package-dir`` to ``offcmab.reference``, ``offcmab.bounds`` and ``offcmab.validation``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import offcmab

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("reference", "bounds", "validation")


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -c code`` in ``cwd`` (which is then first on ``sys.path``)."""
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, check=False)


def test_pyproject_lists_every_package() -> None:
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {"offcmab"} | {
        "offcmab." + ".".join(init.parent.relative_to(ROOT).parts)
        for layer in LAYERS for init in (ROOT / layer).rglob("__init__.py")}
    assert listed == on_disk
    assert config["tool"]["setuptools"]["package-dir"] == {
        "offcmab": "offcmab", **{f"offcmab.{layer}": layer for layer in LAYERS}}


def test_no_top_level_layer_is_importable(tmp_path: Path) -> None:
    code = ("import importlib.util\n"
            f"print([n for n in {LAYERS!r} if importlib.util.find_spec(n) is not None])")
    done = run_python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_imports_beside_a_users_own_validation_and_reference(tmp_path: Path) -> None:
    for name in ("validation", "reference", "bounds"):
        package = tmp_path / name
        package.mkdir()
        (package / "__init__.py").write_text(f"MINE = {name!r}\n", encoding="utf-8")
    code = ("import validation, reference, bounds\n"
            "from offcmab.validation import check\n"
            "from offcmab.reference.clcb import clcb\n"
            "import offcmab.bounds.registry\n"
            "print(validation.MINE, reference.MINE, bounds.MINE, callable(check), "
            "callable(clcb))")
    done = run_python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["validation", "reference", "bounds", "True", "True"]


def test_python_dash_m_offcmab_prints_the_version(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "offcmab", "--version"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"offcmab {offcmab.__version__}"
