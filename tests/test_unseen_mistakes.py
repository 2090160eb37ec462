"""Optimism toward arms the data never show, short of an LCB of +inf, fails ``validate``.

Every member of the class in ``unseen_mistakes`` goes through the door a user's algorithm
takes, for Theorem 1 in both norms and Corollary 1: through the Python ``check`` on the
quick profile's ``unseen-below-*`` instances (every member, every id), and as a user would
run it, ``offcmab validate --quick --algorithm tests/unseen_mistakes.py:FUNC --only ID``
(one member per id, every instance of the profile).  The two variants that keep the
guarantee (unseen arms at 0, or at a count of 1 with mean 1) must pass, as the reference
does.

Statistical content (fixed seed 2025, the CLI's default; run-level false-alarm budget
1e-3): a run of a correct algorithm is flagged with probability at most 1e-3 (exact
binomial tails, Bonferroni over the rows with power).  A member is flagged on the
``unseen-below-*`` instances, where the optimum's paths (items) have means at most 0.45,
the other observed ones lie within 0.01 below, and every unseen one has a mean of at most
0.05: whenever the value a member gives the unseen arms exceeds every observed LCB, the
oracle returns unseen arms and the gap is at least 0.33 per arm, above the bound at
``n = 5000`` (0.23 stated for one arm).  ``best_seen_mean`` and ``optimistic_one`` exceed
every observed LCB on every dataset (each LCB lies a positive radius below its mean); the
prior 1/2 exceeds them unless an observed mean of at most 0.45 comes out 0.05 plus its
radius above it (Hoeffding: below ``delta/(2mn)`` per arm); the observed average and the
pooled mean exceed them while the spread of the observed means stays below the smallest
radius (about 0.1 at ``n = 5000``).  Measured in the runs this test repeats: 47 of 47
trials violate on those rows, where a handful suffice to flag at the row level.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import unseen_mistakes
from test_cli_solve import run_cli
from test_consistency_rows import only

from offcmab.validation import check
from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.parts.theorem import find
from offcmab.validation.theorems import THEOREMS

HELPER = Path(__file__).resolve().parent / "unseen_mistakes.py"
IDS = ("thm1-inf", "thm1-one", "cor1-cascade")


def validate(out: Path, bound_id: str, function: str, *flags: str) -> tuple[int, set[str]]:
    """Exit code and the instances of the failing rows of one id."""
    target = f"{HELPER}:{function}_cascade" if bound_id == "cor1-cascade" else \
        f"{HELPER}:{function}"
    code = run_cli(["validate", *flags, "--no-figures", "--no-power", "--jobs", "2",
                    "--only", bound_id, "--algorithm", target, "--out", str(out)])
    report = json.loads((out / "report.json").read_text())
    return code, {row["instance"] for row in report["rows"] if row["verdict"] == "FAIL"}


def unseen_below(bound_id: str) -> list[Any]:
    """The quick profile's instances of ``bound_id`` whose unseen arms lie below the optimum."""
    scenario = find(THEOREMS, bound_id).scenario
    found = [instance for instance in scenario.instances(PROFILES["quick"], 2025)
             if instance.name.startswith("unseen-below-")]
    assert found, bound_id
    return found


def checked(bound_id: str, function: str) -> tuple[bool, set[str]]:
    """Whether ``check`` flags the member on the unseen-below instances, and where."""
    name = f"{function}_cascade" if bound_id == "cor1-cascade" else function
    report = check(getattr(unseen_mistakes, name), bound_id, profile="quick",
                   theorems=only(bound_id, *unseen_below(bound_id))).report
    failing = {row["instance"] for row in report["rows"] if row["verdict"] == "FAIL"}
    return bool(failing), failing


@pytest.mark.parametrize("bound_id", IDS)
@pytest.mark.parametrize("function", unseen_mistakes.MISTAKES)
def test_optimism_toward_unseen_arms_is_flagged(function: str, bound_id: str) -> None:
    flagged, failing = checked(bound_id, function)
    assert flagged and all(name.startswith("unseen-below-") for name in failing)


@pytest.mark.parametrize("bound_id", IDS)
@pytest.mark.parametrize("function", unseen_mistakes.EQUIVALENT)
def test_pessimistic_values_for_unseen_arms_pass(function: str, bound_id: str) -> None:
    flagged, failing = checked(bound_id, function)
    assert not flagged, failing


@pytest.mark.slow
@pytest.mark.parametrize(("bound_id", "function"),
                         list(zip(IDS, unseen_mistakes.MISTAKES[:len(IDS)], strict=True)))
def test_a_user_running_a_member_through_the_cli_is_flagged(tmp_path: Path, bound_id: str,
                                                             function: str) -> None:
    code, failing = validate(tmp_path, bound_id, function, "--quick")
    assert code == 1
    assert {name for name in failing if name.startswith("unseen-below-")}


@pytest.mark.slow
def test_reference_passes_the_default_profile(tmp_path: Path) -> None:
    code = run_cli(["validate", "--no-figures", "--no-power", "--jobs", "2",
                    "--only", *IDS, "--out", str(tmp_path)])
    assert code == 0
