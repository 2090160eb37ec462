"""Timed children of the benchmarks import compiled files, whatever the caller's environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from offcmab.validation.benchmarks.children import compiled_env


def test_compiled_env_writes_compiled_files_where_the_caller_forbids_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    module = tmp_path / "src" / "somemodule.py"
    module.parent.mkdir()
    module.write_text("VALUE = 1\n")
    cache = tmp_path / "cache"
    env = compiled_env(cache, EXTRA_NAME="kept")
    assert env["EXTRA_NAME"] == "kept"
    code = "import sys, somemodule; print(sys.dont_write_bytecode)"
    done = subprocess.run([sys.executable, "-c", code], cwd=module.parent, env=env,
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
    assert list(cache.rglob("somemodule*.pyc"))  # written in the benchmark's own cache
    assert not (module.parent / "__pycache__").exists()  # nothing beside the sources
