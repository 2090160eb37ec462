"""The reference is a subject like any other: every row of a reference run reads what the
function its theorem's signature names returns, called as a user's algorithm is.

Two checks.  A reference whose default is broken (CLCB-IM-N with the paper's printed
estimator of p(v̄|ū)) is flagged by a reference run exactly as by the same function given as
a user's algorithm: no row may compute the reference's statistics by another route.  And for
every bound id, a reference run and a run of the reference's callable through the user's door
give the same rows, row by row, on the same seeds.

Every run here is deterministic (fixed seed 2025, one process), so each assertion is exact;
the one Monte-Carlo verdict asserted (a FAIL of ``event-im-intervals``) states its
false-alarm probability where it is made.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from offcmab.reference.im import clcb_im_node as im_node_module
from offcmab.validation.cli import main
from offcmab.validation.door import Door, run
from offcmab.validation.events import collect
from offcmab.validation.parts.theorem import Theorem, find
from offcmab.validation.runner.store import LOG_NAME, read_log
from offcmab.validation.theorems import THEOREMS

SEED = 2025

#: Row fields that are functions of the row level alone (and the lower confidence limits of
#: a rate row, taken at that level).  The false-alarm budget is split over the rows that can
#: fail, and a reference run holds rows a user's run does not (the subject-free rows below),
#: so its row level is lower; the statistics are not.
LEVEL_FIELDS = frozenset({"row_level", "allowed_violations", "detectable_rate",
                          "detectable_excess", "slope_lower", "excess_lower",
                          "false_alarm_probability",  # the level of an identification row
                          "advice_level"})  # the significance of a rate row's comparison

#: The bound ids compared, each group in one run (a user checks the two norms of Theorem 1,
#: one algorithm, with one ``--only``), and the profile: ``ci`` (generated and trap
#: instances), ``quick`` for the two ids with a rate row (ci drops its named instance).
GROUPS = {("thm1-inf", "thm1-one"): "ci", ("thm2-lower",): "ci", ("cor1-cascade",): "ci",
          ("lem-llm-std",): "ci", ("thm3-llm",): "ci", ("thm-llm-online",): "quick",
          ("thm4-im",): "quick"}


def test_every_bound_id_is_compared() -> None:
    assert sorted(i for ids in GROUPS for i in ids) == sorted(t.id for t in THEOREMS)


def _row_key(row: dict[str, Any]) -> tuple[Any, ...]:
    return row["id"], row["instance"], row.get("n"), row.get("variant"), row.get("check")


def _trials(folder: Path) -> dict[tuple[str, ...], tuple[Any, ...]]:
    """The run's trial records keyed without the subject: (bound id, instance, n, trial)."""
    _header, records = read_log(folder / LOG_NAME)
    return {tuple(key.split("|")[:4]): (record.gap, record.gap_error, record.extra)
            for key, record in records.items()}


def _door(subject: Any, ids: tuple[str, ...], profile: str, out: Path) -> Door:
    # No negative controls: they run in reference runs only (a power table about the
    # reference's checker, not a row about the subject), so they are no part of the
    # comparison and would only add time.
    return Door(subject=subject, only=ids, profile=profile, seed=SEED, power="off",
                figures=False, out=out, allow_unchecked=True)


@pytest.mark.parametrize(("ids", "profile"), list(GROUPS.items()),
                         ids=["+".join(ids) for ids in GROUPS])
def test_reference_and_its_callable_as_a_user_algorithm_get_the_same_rows(
        ids: tuple[str, ...], profile: str, tmp_path: Path) -> None:
    """The reference run and a run of ``theorem.reference_algorithm()`` given as a user's
    function (sandboxed, named by an ``object:``/``file:`` spec): the same rows, the same
    verdicts, the same statistics where both ran the same trials, and the same gap in every
    trial both ran (the row level, and so a row's trial count, may differ: see
    :data:`LEVEL_FIELDS`)."""
    theorems = [find(THEOREMS, bound_id) for bound_id in ids]
    function = theorems[0].reference_algorithm()
    reference = run(_door(None, ids, profile, tmp_path / "reference"))
    user = run(_door(function, ids, profile, tmp_path / "user"))
    assert reference["subject"] == "reference" and user["subject"] != "reference"

    mine = {_row_key(row): row for row in reference["rows"]}
    theirs = {_row_key(row): row for row in user["rows"]}
    assert len(mine) == len(reference["rows"]) and len(theirs) == len(user["rows"])
    # Legitimately the reference's own: the rows that check no subject (the oracles a
    # scenario hands over, an erratum's corrected algorithm), exactly those.
    subject_free = {(case.id, case.instance)
                    for case in collect.all_cases(theorems, profile) if case.subject_free}
    assert {key[:2] for key in set(mine) - set(theirs)} == subject_free
    assert set(theirs) <= set(mine)

    powered = 0
    for key, row in theirs.items():
        own = mine[key]
        assert own["verdict"] == row["verdict"], key
        if own.get("trials") == row.get("trials"):
            # The subject's name differs; so may a reason that quotes a level's figures.
            ignored = LEVEL_FIELDS | {"algorithm"} | (
                {"reason"} if any(own.get(level) != row.get(level)
                                  for level in ("row_level", "advice_level")) else set())
            different = {name for name in set(own) | set(row)
                         if own.get(name) != row.get(name)} - ignored
            assert not different, (key, {name: (own.get(name), row.get(name))
                                         for name in different})
        powered += row["verdict"] in ("pass", "FAIL")
    assert powered > 0  # the comparison covers rows that could fail

    # Bound and rate rows summarize trials; the subject is no part of a trial's seed, so
    # both runs drew the same datasets, and every trial both ran must give the same gap.
    own_trials, their_trials = _trials(tmp_path / "reference"), _trials(tmp_path / "user")
    shared = set(own_trials) & set(their_trials)
    assert {key[:3] for key in shared} == {key[:3] for key in own_trials} \
        == {key[:3] for key in their_trials}  # every (id, instance, n) in both
    assert all(own_trials[key] == their_trials[key] for key in shared)


def _printed_record() -> Theorem:
    """Theorem 4's record with CLCB-IM-N's estimator bound to the printed one."""
    from dataclasses import replace

    theorem = find(THEOREMS, "thm4-im")
    return replace(theorem, signature=replace(theorem.signature,
                                              keywords={"estimator": "printed"}))


def test_a_reference_with_the_printed_estimator_is_flagged_as_the_same_user_function(
        tmp_path: Path) -> None:
    """A record whose reference is CLCB-IM-N with ``estimator="printed"`` fails the interval
    row in a reference run, with the very counts the same function gets as a user's.

    A correct estimator fails ``event-im-intervals`` with probability at most the row's
    level (the exact binomial test against the union-bound promise ~delta/6 per trial):
    2e-4 in this run (the budget 1e-3 over 5 rows), so a FAIL of a correct estimator here
    is a false alarm of probability at most 2e-4.  The printed estimator (its conditional
    estimate targets another quantity) breaks the event in all 30 trials at seed 2025.
    """
    record = _printed_record()
    reference = run(Door(only=("thm4-im",), profile="ci", seed=SEED, power="off",
                         figures=False), [record])
    printed = functools.partial(im_node_module.clcb_im_node, estimator="printed")
    user = run(Door(subject=printed, only=("thm4-im",), profile="ci", seed=SEED,
                    power="off", figures=False))
    rows = [{row["id"]: row for row in report["rows"]} for report in (reference, user)]
    for found in rows:
        intervals = found["event-im-intervals"]
        assert intervals["verdict"] == "FAIL"
        assert intervals["p_value"] < intervals["row_level"]
    mine, theirs = (found["event-im-intervals"] for found in rows)
    assert mine["row_level"] <= 2e-4
    assert (mine["trials"], mine["violations"]) == (theirs["trials"], theirs["violations"])


def _validate(tmp_path: Path, name: str, *extra: str) -> int:
    return main(["validate", "--only", "thm4-im", "--profile", "ci", "--seed", str(SEED),
                 "--no-power", "--no-figures", "--out", str(tmp_path / name), *extra])


def test_validate_exits_1_when_clcb_im_n_defaults_to_the_printed_estimator(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A copy of the package whose CLCB-IM-N defaults to the printed estimator (the function's
    default changed in this process, as an edited file would) fails ``validate --only
    thm4-im`` (exit 1) through ``event-im-intervals``, as ``--algorithm`` with that function
    does; main's default passes (exit 0).  False-alarm probability of the flagging row for a
    correct estimator: at most its level, 2e-4 here (see the test above)."""
    assert _validate(tmp_path, "correct") == 0
    monkeypatch.setattr(im_node_module.clcb_im_node, "__defaults__", ("printed",))
    assert _validate(tmp_path, "printed") == 1
    assert _validate(tmp_path, "printed-user", "--algorithm",
                     "offcmab.reference.im.clcb_im_node:clcb_im_node") == 1
    capsys.readouterr()
    import json

    for name in ("printed", "printed-user"):
        report = json.loads((tmp_path / name / "report.json").read_text())
        failed = {row["id"] for row in report["rows"] if row["verdict"] == "FAIL"}
        assert "event-im-intervals" in failed, (name, failed)


def writes_its_data(dataset: Any, oracle: Any, delta: float) -> Any:
    """CLCB after setting every logged outcome to 1 in the dataset it was handed."""
    from offcmab.reference.clcb import clcb

    dataset.outcomes[:] = 1.0
    return clcb(dataset, oracle, delta)


def test_the_reference_is_handed_read_only_data_as_a_user_function_is() -> None:
    """A reference that writes into its input stops the run, as a user's function does
    (which gets exit 4 instead: the package's own code failing is not a user's fault)."""
    from dataclasses import replace

    theorem = find(THEOREMS, "thm1-inf")
    record = replace(theorem, signature=replace(theorem.signature, reference=writes_its_data))
    with pytest.raises(ValueError, match="read-only"):
        run(Door(only=("thm1-inf",), profile="quick", seed=SEED, power="off", figures=False),
            [record])
