"""``offcmab falsify``: the search finds, shrinks and confirms what users get wrong.

Statistical content: a searched instance counts only after a confirmation on fresh seeds,
the exact one-sided binomial test of the violation rate against the bound's failure
probability at level 1e-3 (:mod:`offcmab.validation.falsify.confirm`).  For a correct
algorithm a confirmation therefore succeeds with probability at most 1e-3 per found
instance, so the reference tests below fail spuriously with probability at most 1e-3 per
instance the search hands to confirmation (the outcome is deterministic at the fixed seed:
this is the chance that the seed is an unlucky one).  The user mistakes violate the bound
on every second trial or more, where the bound allows one in twenty; the replay through
``offcmab validate`` is the run's own exact binomial row at its false-alarm budget.
Every search is seeded (hypothesis's ``seed``) and starts from an empty database.

Where the bound is vacuous (influence maximization, the online cache), a counterexample is
an instance where the algorithm is worse than the reference: the one-sided exact sign
test of the paired gap differences at level 1e-3 plus a mean difference of at least 5% of
the largest gap.  Against itself the reference's differences are all exactly 0, so its
p-value is 1 and its false-alarm probability 0; the data-ignoring mistakes are worse on
every paired trial.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offcmab.bounds.theorems.cascade import COR1_CASCADE
from offcmab.bounds.theorems.im import THM4_IM
from offcmab.bounds.theorems.llm import THM_LLM_ONLINE
from offcmab.bounds.theorems.upper import THM1_INF
from offcmab.validation.api import check
from offcmab.validation.cli import main
from offcmab.validation.commands.falsify_run import subject_spec
from offcmab.validation.falsify.confirm import CONFIRM_LEVEL
from offcmab.validation.falsify.evaluate import CANDIDATE
from offcmab.validation.falsify.falsification import (
    PAIRED_BUDGET,
    Falsification,
    falsify,
    uncovered,
)
from offcmab.validation.falsify.paired import MARGIN, PairedEvaluation
from offcmab.validation.falsify.search import DEFAULT_BUDGET
from offcmab.validation.falsify.strategies import points
from offcmab.validation.parts.spec import Instance
from offcmab.validation.parts.theorem import Theorem, find
from offcmab.validation.theorems import THEOREMS

MISTAKES = Path(__file__).with_name("user_mistakes.py")
SEED = 2025
ID_INF, ID_CASCADE = THM1_INF.id, COR1_CASCADE.id
ID_IM, ID_ONLINE = THM4_IM.id, THM_LLM_ONLINE.id


def run_cli(argv: list[str]) -> int:
    """Exit code of the CLI whether it returns it or argparse raises SystemExit."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def theorem(bound_id: str) -> Theorem:
    return find(THEOREMS, bound_id)


def search(bound_id: str, algorithm: str, out: Path, budget: int = 150) -> Falsification:
    record = theorem(bound_id)
    return falsify(record, subject_spec(algorithm, record), out, THEOREMS, budget=budget,
                   run_seed=SEED, algorithm=algorithm)


def items(params: dict[str, object]) -> int:
    """The number of paths or items of an instance."""
    values = params.get("path_means", params.get("mu"))
    assert isinstance(values, list)
    return len(values)


def check_found(found: Falsification) -> None:
    """Confirmed at 1e-3 on fresh seeds; shrunk to the fewest items the space allows."""
    result, confirmation = found.result, found.confirmation
    assert result.found is not None and result.shrunk is not None
    assert confirmation is not None and confirmation.p_value < CONFIRM_LEVEL
    assert found.record["verdict"] == "confirmed"
    record = theorem(result.bound_id)
    space = record.falsify_space or record.space
    assert space is not None
    fewest = int(space().lower[0])
    assert items(result.shrunk.instance.params) == fewest
    assert items(result.shrunk.instance.params) <= items(result.found.instance.params)


def replays(saved: Path, algorithm: str, bound_id: str, out: Path) -> int:
    """Exit code of ``offcmab validate`` replaying a saved counterexample."""
    return run_cli(["validate", "--instances", str(saved), "--algorithm", algorithm,
                    "--only", bound_id, "--seed", str(SEED), "--out", str(out),
                    "--no-figures", "--no-power"])


@pytest.mark.parametrize(("bound_id", "mistake", "budget"), [
    (ID_INF, "total_reward", 150), (ID_CASCADE, "total_clicks", DEFAULT_BUDGET)])
def test_user_mistake_is_found_shrunk_confirmed_and_replays(bound_id: str, mistake: str,
                                                           budget: int,
                                                           tmp_path: Path) -> None:
    algorithm = f"{MISTAKES}:{mistake}"
    found = search(bound_id, algorithm, tmp_path, budget)
    check_found(found)
    saved = tmp_path / f"counterexample-{bound_id}.json"
    assert json.loads(saved.read_text())["bound_id"] == bound_id
    assert replays(saved, algorithm, bound_id, tmp_path / "replay") == 1


def test_command_finds_behaviour_cloning_and_stores_it(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    algorithm = f"{MISTAKES}:behaviour_cloning"
    command = ["falsify", algorithm, "--only", ID_INF, "--budget", "150", "--seed", str(SEED),
               "--out", str(tmp_path), "--json"]
    assert run_cli(command) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["verdict"] == "confirmed"
    assert record["confirmation"]["p_value"] < CONFIRM_LEVEL
    assert len(record["search"]["shrunk"]["instance"]["path_means"]) == 2
    assert (tmp_path / f"summary-{ID_INF}.md").read_text().startswith("offcmab falsify")
    saved = tmp_path / f"counterexample-{ID_INF}.json"
    assert replays(saved, algorithm, ID_INF, tmp_path / "replay") == 1
    code, again = recheck(saved, algorithm, capsys)  # the file's seed: the same trials
    assert code == 1 and again == record["confirmation"]
    capsys.readouterr()
    # the same output folder holds the example database: the stored instance comes first
    assert run_cli(command) == 2  # its summary and counterexample are not replaced...
    assert "--overwrite" in capsys.readouterr().err
    assert run_cli([*command, "--overwrite"]) == 1  # ...unless the user says so
    again = json.loads(capsys.readouterr().out)
    assert again["search"]["found"]["instance"] == record["search"]["shrunk"]["instance"]
    assert sum(again["search"]["counts"].values()) < sum(record["search"]["counts"].values())


@pytest.mark.parametrize("bound_id", [ID_INF, ID_CASCADE])
def test_reference_has_no_confirmed_counterexample(bound_id: str, tmp_path: Path) -> None:
    found = search(bound_id, "reference", tmp_path, budget=DEFAULT_BUDGET)
    assert found.result.counts["candidate"] > 0  # the search reached instances that can fail
    assert not found.confirmed
    assert not (tmp_path / f"counterexample-{bound_id}.json").exists()


@pytest.mark.parametrize("bound_id", [known.id for known in THEOREMS
                                      if uncovered(known)])
def test_uncovered_ids_exit_2_with_a_reason(bound_id: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code = run_cli(["falsify", "reference", "--only", bound_id, "--out", str(tmp_path)])
    error = capsys.readouterr().err
    assert code == 2
    assert bound_id in error and error.count("\n") == 1


@pytest.mark.parametrize("bound_id", [known.id for known in THEOREMS
                                      if known.space is not None])
def test_points_decode_inside_the_space(bound_id: str) -> None:
    record = theorem(bound_id)
    space = record.falsify_space or record.space
    assert space is not None
    box = space()

    @settings(max_examples=30, derandomize=True, database=None, deadline=None)
    @given(st.data())
    def inside(data: st.DataObject) -> None:
        point = data.draw(points(box))
        assert np.all(point >= np.array(box.lower)) and np.all(point <= np.array(box.upper))
        box.decode(point)

    inside()


def test_check_with_search_reports_the_counterexample(tmp_path: Path) -> None:
    """``check(search=True)``: a small search beside the quick run, as ``validate --search``."""
    algorithm = f"{MISTAKES}:behaviour_cloning"
    report = check(algorithm, ID_INF, profile="quick", out=tmp_path, search=True)
    assert report.search is not None and report.counterexample and not report.passed
    assert (tmp_path / "falsify" / f"counterexample-{ID_INF}.json").exists()


def test_validate_search_adds_a_section_and_exit_1(tmp_path: Path) -> None:
    """``validate --search``: the run's rows, then a short search whose confirmed
    counterexample makes the run exit 1 and is reported in ``report.md`` (the run replays
    one saved instance only, to stay short)."""
    saved = tmp_path / "two-paths.json"
    saved.write_text(json.dumps({
        "bound_id": ID_INF, "delta": 0.05, "n": 10000,
        "instance": {"family": "kpath", "path_means": [0.0, 0.15], "k": 1,
                     "law": {"kind": "paths", "weights": [0.5, 0.5]}}}))
    out = tmp_path / "run"
    code = run_cli(["validate", "--instances", str(saved), "--algorithm",
                    f"{MISTAKES}:behaviour_cloning", "--search", "--no-power", "--no-figures",
                    "--out", str(out)])
    assert code == 1
    section = (out / "report.md").read_text().split("## Falsification search")[1]
    assert ": confirmed" in section
    assert (out / "falsify" / f"counterexample-{ID_INF}.json").exists()


def recheck(saved: Path, algorithm: str, capsys: pytest.CaptureFixture[str]
            ) -> tuple[int, dict[str, object]]:
    """Exit code and JSON of ``offcmab falsify ALGORITHM --replay FILE``."""
    capsys.readouterr()
    code = run_cli(["falsify", algorithm, "--replay", str(saved), "--json"])
    return code, json.loads(capsys.readouterr().out)["confirmation"]


@pytest.mark.parametrize(("bound_id", "mistake"), [
    (ID_IM, "guessed_edges"), (ID_ONLINE, "never_cache")])
def test_data_ignoring_mistake_is_worse_than_the_reference(
        bound_id: str, mistake: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A vacuous bound: the mistake is confirmed worse than the reference, the file's
    recheck repeats it (exit 1) and the reference itself passes the recheck (exit 0)."""
    algorithm = f"{MISTAKES}:{mistake}"
    found = search(bound_id, algorithm, tmp_path, budget=40)
    assert found.confirmed and found.record["verdict"] == "confirmed"
    confirmation = found.record["confirmation"]
    assert confirmation["paired"] and confirmation["p_value"] < CONFIRM_LEVEL
    assert confirmation["effect"] >= MARGIN and confirmation["better"] == 0
    assert "not a violation of the bound" in found.record["claim"]
    saved = tmp_path / f"counterexample-{bound_id}.json"
    code, again = recheck(saved, algorithm, capsys)
    assert code == 1 and again == confirmation
    code, reference = recheck(saved, "reference", capsys)
    assert code == 0 and reference["worse"] == reference["better"] == 0


@pytest.mark.parametrize("bound_id", [ID_IM, ID_ONLINE])
def test_reference_is_not_worse_than_itself(bound_id: str, tmp_path: Path) -> None:
    found = search(bound_id, "reference", tmp_path, budget=PAIRED_BUDGET)
    assert found.result.counts[CANDIDATE] > 0
    assert not found.confirmed and found.result.best.effect == 0.0


def test_validate_cannot_flag_a_paired_counterexample(tmp_path: Path) -> None:
    """The instance's own bound row is vacuous and the rate row runs on its fixed graph:
    replayed through ``validate`` the counterexample checks nothing (exit 3)."""
    algorithm = f"{MISTAKES}:guessed_edges"
    search(ID_IM, algorithm, tmp_path, budget=40)
    saved = tmp_path / f"counterexample-{ID_IM}.json"
    assert replays(saved, algorithm, ID_IM, tmp_path / "replay") == 3


def test_sign_test_drops_ties_and_needs_the_margin() -> None:
    instance = Instance("x", {}, 0.05, (100,), "test")
    ties = PairedEvaluation(instance, CANDIDATE, 1.0, (0.5,) * 20, (0.5,) * 20)
    assert ties.p_value == 1.0 and not ties.significant(0.5)
    small = PairedEvaluation(instance, CANDIDATE, 1.0, (0.51,) * 12 + (0.5,) * 8,
                             (0.5,) * 20)
    assert small.worse == 12 and small.better == 0
    assert small.p_value == pytest.approx(0.5 ** 12)  # the 8 ties are dropped
    assert small.effect < MARGIN and not small.significant(1e-3)
    large = PairedEvaluation(instance, CANDIDATE, 1.0, (0.6,) * 12 + (0.5,) * 8,
                             (0.5,) * 20)
    assert large.significant(1e-3)
