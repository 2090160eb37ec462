"""The shell recipe of docs/validation-in-ci.md, run as the page prints it.

The commands are read from the page's fenced blocks (marked ``<!-- recipe: main -->`` and
``<!-- recipe: change -->``), so the page and this test cannot drift apart.  The
algorithm is a user's copy of CLCB in a temporary folder (:mod:`user_clcb`): the main
branch's version, a harmless change (a docstring edit: the same actions on every dataset)
that must pass, and a change that halves the confidence radius, which the recipe must
catch (exit 1, by a FAIL row or by ``offcmab compare``).

False-alarm statements: the harmless change gives gaps identical to the main branch's
(every paired difference zero), so the comparison cannot flag it, and a FAIL row of a
correct algorithm has probability at most the run's budget 1e-3.  The halved radius is
caught at the fixed seed 2025 (deterministic): its gaps on a generated instance are worse
in some trials and better in none.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import user_clcb

PAGE = Path(__file__).resolve().parents[1] / "docs" / "validation-in-ci.md"
BOUND_ID = "thm1-inf"


def recipe(name: str) -> str:
    """The shell commands of the page's block marked ``recipe: name``."""
    found = re.search(rf"<!-- recipe: {name} -->\n```sh\n(.*?)```", PAGE.read_text("utf-8"),
                      re.DOTALL)
    assert found, f"docs/validation-in-ci.md has no sh block marked recipe: {name}"
    return found.group(1)


def run(name: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """Run one recipe block with bash in ``folder``, the installed offcmab on the PATH."""
    env = {**os.environ, "ALGORITHM": user_clcb.TARGET, "BOUND_ID": BOUND_ID,
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["bash", "-c", recipe(name)], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def failures(xml: Path) -> int:
    return int(ElementTree.parse(xml).getroot().get("failures", "-1"))


def test_the_recipe_passes_a_harmless_change_and_catches_a_halved_radius(
        tmp_path: Path) -> None:
    user_clcb.write(tmp_path, 1.0)
    main_branch = run("main", tmp_path)
    assert main_branch.returncode == 0, main_branch.stderr
    assert (tmp_path / "main-run" / "trials.jsonl").is_file()
    assert failures(tmp_path / "main-run.xml") == 0

    user_clcb.write(tmp_path, 1.0, note=" Refactored: same results.")
    harmless = run("change", tmp_path)
    assert harmless.returncode == 0, harmless.stdout + harmless.stderr
    assert "no significant regression" in harmless.stdout
    assert failures(tmp_path / "offcmab-run.xml") == 0

    shutil.rmtree(tmp_path / "offcmab-run")  # a fresh CI checkout has no run folder...
    (tmp_path / "offcmab-run.xml").unlink()  # ...and no JUnit file, which is never replaced
    user_clcb.write(tmp_path, 0.5)
    halved = run("change", tmp_path)
    assert halved.returncode == 1, halved.stdout + halved.stderr
    caught_by_rows = failures(tmp_path / "offcmab-run.xml") > 0
    caught_by_compare = "regression: gaps got significantly worse" in halved.stdout
    assert caught_by_rows or caught_by_compare
