"""What the command line imports to start: only what the command uses.

Each command runs in a fresh interpreter, as the console script runs it, and lists
``sys.modules`` as it exits (``python -X importtime`` would miss the modules the command
line imports by name, with :func:`importlib.import_module`).  No timing is asserted
(``offcmab bench --only startup`` measures the time).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from offcmab.reference.dataset_io import write_npz
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
from offcmab.reference.problems.kpath import KPathProblem, PathLaw
from offcmab.reference.problems.llm_cache import CacheLog, cache_hits, sample_power_queries
from offcmab.reference.problems.llm_cache_io import write_cache_npz
from offcmab.validation.benchmarks.startup import CONSOLE_SCRIPT

#: Solver modules, one per ``solve`` problem.
SOLVERS = ("cascade", "kpath", "llm_cache", "im_node", "im_edge")

#: Packages no ``solve`` and no ``--version`` needs: the symbolic layer and what only the
#: heavy commands use.
HEAVY = ("sympy", "scipy", "dask", "distributed", "hypothesis", "networkx", "matplotlib",
         "offcmab.bounds")


#: Prints every imported module's name on stderr when the interpreter exits.
LIST_AT_EXIT = ("import atexit, sys; atexit.register(lambda: sys.stderr.write("
                "'\\nmodules: ' + ' '.join(sorted(sys.modules)) + '\\n')); ")


def imported(arguments: list[str], cwd: Path) -> set[str]:
    """Every module the command line imports while running ``offcmab ARGUMENTS``."""
    done = subprocess.run([sys.executable, "-c", LIST_AT_EXIT + CONSOLE_SCRIPT, *arguments],
                          capture_output=True, text=True, cwd=cwd, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    listing = [line for line in done.stderr.splitlines() if line.startswith("modules: ")]
    assert len(listing) == 1, done.stderr[-2000:]
    names = set(listing[0].split()[1:])
    assert "offcmab.validation.cli" in names  # the listing is there at all
    return names


def within(names: set[str], packages: tuple[str, ...]) -> list[str]:
    """The members of ``names`` that are one of ``packages`` or lie inside one."""
    return sorted(name for name in names
                  if any(name == package or name.startswith(package + ".")
                         for package in packages))


def test_version_imports_no_command_and_no_numpy(tmp_path: Path) -> None:
    names = imported(["--version"], tmp_path)
    assert within(names, (*HEAVY, "numpy", "offcmab.reference",
                          "offcmab.validation.commands")) == []


def test_a_misspelt_command_still_lists_every_command(tmp_path: Path) -> None:
    """Building no subcommand for ``--version`` must not lose the choices of a usage error."""
    done = subprocess.run([sys.executable, "-c", CONSOLE_SCRIPT, "solv", "--version"],
                          capture_output=True, text=True, cwd=tmp_path, check=False)
    assert done.returncode == 2
    assert "invalid choice: 'solv'" in done.stderr and "'solve'" in done.stderr


def _cascade(path: Path, rng: np.random.Generator) -> None:
    write_npz(UniformListsLaw(CascadeProblem(rng.random(20), 3)).sample(200, rng), path)


def _kpath(path: Path, rng: np.random.Generator) -> None:
    law = PathLaw(KPathProblem(rng.random(4), 3), np.full(4, 0.25))
    write_npz(law.sample(200, rng), path)


def _llm_cache(path: Path, rng: np.random.Generator) -> None:
    n, m, k = 200, 20, 3
    caches = np.stack([rng.choice(m, k, replace=False) for _ in range(n)]).reshape(-1)
    offsets = np.arange(0, k * n + 1, k, dtype=np.int64)
    queries = sample_power_queries(m, 1.0, n, rng)
    costs = rng.random(n)
    costs[cache_hits(offsets, caches, queries)] = np.nan
    write_cache_npz(CacheLog(m, offsets, caches, queries, costs), path)


@pytest.mark.parametrize(("problem", "write"), [("cascade", _cascade), ("kpath", _kpath),
                                                ("llm-cache", _llm_cache)])
def test_solve_imports_no_symbolic_or_heavy_package(problem: str, write, tmp_path: Path) -> None:
    """``solve`` prints a certificate, computed in plain numpy: no sympy behind it."""
    path = tmp_path / "log.npz"
    write(path, np.random.default_rng(5))
    names = imported(["solve", problem, "--data", str(path), "--k", "3", "--delta", "0.1"],
                     tmp_path)
    assert within(names, HEAVY) == []
    own = problem.replace("-", "_")
    others = [f"offcmab.validation.solvers.{name}" for name in SOLVERS if name != own]
    if own != "cascade":  # the others borrow its argument helpers
        others.remove("offcmab.validation.solvers.cascade")
    assert f"offcmab.validation.solvers.{own}" in names
    assert within(names, tuple(others)) == []


def test_solve_cascade_imports_no_other_problem(tmp_path: Path) -> None:
    """Neither influence maximization (the IM oracle's cost model) nor the LLM cache (its CSV
    reader) comes with ``solve cascade``, nor the engine that runs theorems."""
    path = tmp_path / "log.npz"
    _cascade(path, np.random.default_rng(5))
    names = imported(["solve", "cascade", "--data", str(path), "--k", "3", "--delta", "0.1"],
                     tmp_path)
    assert within(names, ("offcmab.reference.im", "offcmab.reference.problems.llm_cache",
                          "offcmab.reference.problems.kpath", "offcmab.validation.runner.backends",
                          "offcmab.validation.theorems")) == []


@pytest.mark.parametrize("problem", ["im-node", "im-edge"])
def test_influence_solvers_start_without_heavy_packages(problem: str, tmp_path: Path) -> None:
    assert within(imported(["solve", problem, "--help"], tmp_path), HEAVY) == []


def test_bench_startup_reports_both_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    """The benchmark's rows and figures are there (what they measure is not asserted)."""
    import json

    from offcmab.validation.cli import main

    code = main(["bench", "--quick", "--json", "--only", "startup"])
    out = json.loads(capsys.readouterr().out)
    assert code == (0 if out["summary"]["all_met"] else 1)  # the verdict on the two goals
    block = out["startup"]
    assert block["repeats"] == 3
    for name in ("import numpy", "--version", "solve cascade"):
        assert len(block[name]["runs_s"]) == 3 and block[name]["median_s"] > 0
    figures = out["summary"]["figures"]
    assert [row["figure"] for row in figures] == ["offcmab --version start-up",
                                                  "offcmab solve cascade start-up"]
    assert all(row["goal"] == 1.5 and row["better"] == "lower" for row in figures)


def test_main_called_from_python_keeps_the_collector_as_it_was() -> None:
    """The console script pauses the collector while a command loads and freezes what it
    loaded; a program calling ``main`` itself gets its collector back unchanged."""
    import gc

    from offcmab.validation import cli

    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    gc.disable()
    try:
        with cli.collector_paused(freeze=False):
            assert not gc.isenabled()
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()


def test_the_console_script_freezes_what_its_command_loaded() -> None:
    script = ("import contextlib, gc\nfrom offcmab.validation import cli\n"
              "before = gc.get_freeze_count()\n"
              "with contextlib.suppress(SystemExit):\n"
              "    cli._main(['--version'], console=True)\n"
              "print(before == 0, gc.get_freeze_count() > 0, gc.isenabled())")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split()[-3:] == ["True", "True", "True"]
