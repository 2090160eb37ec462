"""The pytest plugin: fixture ``offcmab_check``, its profile option, and its entry point.

The inner pytest runs load the plugin through its entry point when offcmab is installed,
otherwise with ``-p offcmab.validation.pytest_plugin``.  Statistical content as in
tests/test_own_algorithm.py: the passing run is a validate run at seed 2025 (profile
``default`` unless the test sets another) whose false-alarm probability is at most 1e-6.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"


def plugin_arguments() -> list[str]:
    installed = any(entry.value == "offcmab.validation.pytest_plugin"
                    for entry in importlib.metadata.entry_points(group="pytest11"))
    return [] if installed else ["-p", "offcmab.validation.pytest_plugin"]


TESTS = f"""
import sys
sys.path.insert(0, {str(EXAMPLES)!r})
import own_cascade, own_clcb


def test_correct(offcmab_check):
    report = offcmab_check(own_cascade.pessimistic_list, "cor1-cascade")
    assert report.report["profile"] == PROFILE


def test_broken(offcmab_check):
    offcmab_check(own_clcb.greedy, "thm1-inf")
"""


@pytest.fixture
def inner(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester whose inner runs are subprocesses: each imports offcmab afresh."""
    return pytester


def test_fixture_passes_a_correct_function_and_fails_a_broken_one(inner: pytest.Pytester) -> None:
    # without options the fixture runs the default profile, as validate and check() do
    inner.makepyfile(test_mine=TESTS.replace("PROFILE", "'default'"))
    result = inner.runpytest_subprocess(*plugin_arguments(), "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*greedy (*own_clcb.py) violates * row(s) of thm1-inf (profile default, seed 2025):",
        "*id=thm1-inf, instance=pessimism, n=5000, variant=stated, bound=0.5123, "
        "gap_quantile=0.6, gap_max=0.6, violations=*, allowed_violations=*, trials=*",
    ])
    assert "Traceback" not in result.stdout.str()  # the message, not our frames


def test_profile_option_and_ini(inner: pytest.Pytester) -> None:
    inner.makepyfile(test_mine=TESTS.replace("PROFILE", "'quick'"))
    result = inner.runpytest_subprocess(*plugin_arguments(), "-p", "no:cacheprovider",
                                       "--offcmab-profile", "quick", "-k", "correct")
    result.assert_outcomes(passed=1)
    inner.makeini("[pytest]\noffcmab_profile = quick\n")
    result = inner.runpytest_subprocess(*plugin_arguments(), "-p", "no:cacheprovider",
                                       "-k", "correct")
    result.assert_outcomes(passed=1)


def test_a_bad_profile_is_a_usage_error(inner: pytest.Pytester) -> None:
    inner.makeini("[pytest]\noffcmab_profile = huge\n")
    inner.makepyfile(test_mine=TESTS.replace("PROFILE", "'quick'"))
    result = inner.runpytest_subprocess(*plugin_arguments(), "-p", "no:cacheprovider",
                                       "-k", "correct")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*offcmab_profile: must be one of quick, default, full*"])


def test_pyproject_declares_the_pytest11_entry_point() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"offcmab": "offcmab.validation.pytest_plugin"}
    module = __import__("offcmab.validation.pytest_plugin", fromlist=["offcmab_check"])
    assert callable(module.offcmab_check) and callable(module.pytest_addoption)
