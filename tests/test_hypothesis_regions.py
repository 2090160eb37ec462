"""Regions of the hypotheses: relabeled instances, arms the data never show, and the
coverage table of every report."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_cli_solve import run_cli

from offcmab.validation import regions as region
from offcmab.validation.parts.spec import PROFILES, Instance
from offcmab.validation.runner.coverage import hypothesis_coverage, hypothesis_gaps
from offcmab.validation.scenarios import cmabt, unseen
from offcmab.validation.scenarios.relabel import (
    RELABEL,
    check_permutation,
    is_relabeled,
    relabeled,
    relabeled_instances,
)
from offcmab.validation.scenarios.thm1 import paper_fig1a
from offcmab.validation.scenarios.traps import legacy_path, popular_items
from offcmab.validation.theorems import THEOREMS, cor1_cascade, thm1_inf
from offcmab.validation.tightness.files import CMABT_PARAMS

CMABT_IDS = ("thm1-inf", "thm1-one", "cor1-cascade")


def instance(params: dict, n_grid: tuple[int, ...] = (5000,)) -> Instance:
    return Instance("x", params, 0.05, n_grid)


# -- relabeling ----------------------------------------------------------------------------

@pytest.mark.parametrize("params", [legacy_path(), popular_items(), paper_fig1a()])
def test_relabeling_moves_ids_and_keeps_the_problem(params: dict) -> None:
    moved = relabeled(params, 11)
    permutation = np.asarray(moved[RELABEL])
    original, after = cmabt.build(params), cmabt.build(moved)
    best = original.problem.optimal_action()
    if params["family"] == "kpath":  # path j becomes path permutation[j]
        j = int(best[0]) // params["k"]
        mapped = after.problem.path_arms(int(permutation[j]))
    else:
        mapped = permutation[best]
    assert cmabt.gap(after, mapped) == pytest.approx(0.0, abs=1e-12)
    assert cmabt.max_gap(moved).value == pytest.approx(cmabt.max_gap(params).value)
    assert cmabt.coverage(moved)["C_inf"] == pytest.approx(cmabt.coverage(params)["C_inf"])
    assert is_relabeled(moved) and not is_relabeled(params)
    CMABT_PARAMS(moved, "instance")  # a saved relabeled instance reads back
    assert json.loads(json.dumps(moved)) == moved


def test_relabeling_is_seeded_and_refuses_a_second_permutation() -> None:
    assert relabeled(legacy_path(), 3) == relabeled(legacy_path(), 3)
    assert relabeled(legacy_path(), 3) != relabeled(legacy_path(), 4)
    with pytest.raises(ValueError, match="relabel"):
        relabeled(relabeled(legacy_path(), 3), 4)
    broken = relabeled(legacy_path(), 3) | {RELABEL: [0, 0, 1, 2, 3]}
    with pytest.raises(ValueError, match=r"instance\.relabel: must be a permutation"):
        check_permutation(broken, "instance.relabel")
    with pytest.raises(ValueError, match="relabel"):
        CMABT_PARAMS(broken, "instance")


def test_paper_instances_keep_their_published_order() -> None:
    paper = Instance("paper-fig1a", paper_fig1a(), 0.05, (1000,), "paper")
    trap = Instance("trap-legacy-path", legacy_path(), 0.05, (1000,), "trap")
    found = relabeled_instances([paper, trap])
    assert [i.name for i in found] == ["paper-fig1a", "paper-fig1a-relabeled",
                                       "trap-legacy-path"]
    assert found[0].params == paper_fig1a()
    assert all(is_relabeled(i.params) for i in found[1:])
    assert relabeled_instances([trap]) == relabeled_instances([trap])  # seeded by the name


def test_every_scenario_instance_is_relabeled_except_published_copies() -> None:
    for theorem in (thm1_inf.THEOREM, cor1_cascade.THEOREM):
        found = theorem.scenario.instances(PROFILES["quick"], 5)
        for item in found:
            assert is_relabeled(item.params) != (item.origin == "paper"), item.name


# -- regions, from what an instance is -----------------------------------------------------

def test_regions_of_plain_instances() -> None:
    plain = {"family": "cascade", "mu": [0.9, 0.5, 0.3, 0.2], "k": 1,
             "law": {"kind": "uniform"}}
    assert cmabt.regions(instance(plain, (5000,))) == frozenset()
    assert cmabt.regions(instance(plain, (100,))) == {region.MANY_ARMS}
    unseen_item = plain | {"law": {"kind": "mixture", "lists": [[0], [1], [2]],
                                   "weights": [0.02, 0.49, 0.49]}}
    assert cmabt.regions(instance(unseen_item)) == {region.UNOBSERVED_ARMS,
                                                   region.RARE_OPTIMUM}
    optimum_unseen = plain | {"law": {"kind": "mixture", "lists": [[1], [2], [3]],
                                      "weights": [0.4, 0.3, 0.3]}}
    assert region.UNOBSERVED_ARMS not in cmabt.regions(instance(optimum_unseen))  # C* = inf
    tied = plain | {"mu": [0.9, 0.5, 0.5, 0.0]}
    assert cmabt.regions(instance(tied)) == {region.TIES_AND_EXTREMES}
    assert cmabt.regions(instance(relabeled(plain, 2))) == {region.RELABELED}
    identity = plain | {RELABEL: [0, 1, 2, 3]}  # a permutation that moves nothing
    assert cmabt.regions(instance(identity)) == frozenset()


@pytest.mark.parametrize("family", ["kpath", "cascade"])
@pytest.mark.parametrize("seed", range(6))
def test_unseen_instances_fall_in_their_regions(family: str, seed: int) -> None:
    below, mixed = unseen.instances((family,), PROFILES["default"], seed, "thm1-inf")
    assert cmabt.regions(below) >= {region.UNOBSERVED_ARMS, region.MANY_ARMS,
                                    region.TIES_AND_EXTREMES, region.RELABELED}
    assert cmabt.regions(mixed) >= {region.UNOBSERVED_ARMS, region.RARE_OPTIMUM,
                                    region.TIES_AND_EXTREMES, region.RELABELED}
    for item in (below, mixed):
        setup = cmabt.build(item.params)
        means = cmabt.base_means(item.params)
        p_data = setup.law.data_trigger_probabilities()
        if family == "kpath":
            p_data = p_data[::item.params["k"]]
        seen, never = means[p_data > 0], means[p_data == 0]
        best = means.max()
        assert never.size >= 3 and never.max() < best and 0.0 in never
        size = 1 if family == "kpath" else item.params["k"]  # the optimum's paths or items
        others, worst_optimal = np.sort(seen)[:-size], np.sort(seen)[-size]
        if item is mixed:  # above, equal to and below what the data show
            assert np.any(never > others.max()) and np.any(np.isin(never, others))
        else:
            assert never.max() <= 0.05 and worst_optimal - others.min() <= 0.01 + 1e-9


# -- the coverage table ----------------------------------------------------------------------

def test_coverage_counts_instances_with_power_only() -> None:
    theorem = thm1_inf.THEOREM
    below, mixed = unseen.instances(("kpath",), PROFILES["default"], 1, theorem.id)
    rows = [{"id": theorem.id, "instance": below.name, "verdict": "pass"},
            {"id": theorem.id, "instance": mixed.name, "verdict": "vacuous"},
            {"id": "event-x", "instance": mixed.name, "verdict": "pass"}]
    coverage = hypothesis_coverage({theorem.id: theorem}, {theorem.id: [below, mixed]}, rows)
    assert coverage[theorem.id][region.MANY_ARMS] == 1
    assert coverage[theorem.id][region.RARE_OPTIMUM] == 0
    assert {"id": theorem.id, "region": region.RARE_OPTIMUM} in hypothesis_gaps(coverage)


def test_an_id_whose_scenario_says_nothing_has_every_region_as_a_gap() -> None:
    class Silent:
        pass

    theorem = type("T", (), {"regions": (region.RELABELED, region.MANY_ARMS),
                             "scenario": Silent()})()
    item = instance({"family": "x"})
    rows = [{"id": "t", "instance": "x", "verdict": "FAIL"}]
    coverage = hypothesis_coverage({"t": theorem}, {"t": [item]}, rows)  # type: ignore[dict-item]
    assert coverage == {"t": {region.RELABELED: 0, region.MANY_ARMS: 0}}
    assert len(hypothesis_gaps(coverage)) == 2


@pytest.mark.slow
def test_every_report_has_coverage_and_the_cmabt_ids_have_no_gap(tmp_path: Path) -> None:
    code = run_cli(["validate", "--quick", "--no-power", "--no-figures", "--jobs", "2",
                    "--out", str(tmp_path)])
    assert code == 0
    report = json.loads((tmp_path / "report.json").read_text())
    assert set(report["hypothesis_coverage"]) == {theorem.id for theorem in THEOREMS}
    for theorem in THEOREMS:
        assert set(report["hypothesis_coverage"][theorem.id]) == set(theorem.regions)
    gaps = {gap["id"] for gap in report["hypothesis_gaps"]}
    assert not gaps & set(CMABT_IDS)
    for bound_id in CMABT_IDS:
        assert all(count > 0 for count in report["hypothesis_coverage"][bound_id].values())
    assert "## Hypothesis coverage" in (tmp_path / "report.md").read_text()
