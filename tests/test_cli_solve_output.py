"""``offcmab solve``: the short summary, ``--out`` files, ``--algorithm`` and what is read."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from test_cli_solve import run_cli

from offcmab.reference.baselines import cucb_offline, emp
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.dataset_io import write_npz
from offcmab.reference.llm_baselines import lec, lfu
from offcmab.reference.oracles import TopK
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
from offcmab.reference.problems.llm_cache import CacheLog, HitLog, cache_hits
from offcmab.reference.problems.llm_cache_io import write_cache_npz
from offcmab.validation.cli import main
from offcmab.validation.solvers.summary import CERTIFICATE_FIELDS, RADIUS_FIELDS, SUMMARY


@pytest.fixture
def cascade_log(tmp_path: Path) -> tuple[Path, OfflineDataset]:
    rng = np.random.default_rng(7)
    data = UniformListsLaw(CascadeProblem(rng.random(400), 3)).sample(2_000, rng)
    path = tmp_path / "log.npz"
    write_npz(data, path)
    return path, data


def test_default_output_is_a_short_summary(cascade_log: tuple[Path, OfflineDataset],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path, data = cascade_log
    assert main(["solve", "cascade", "--data", str(path), "--k", "3", "--delta", "0.1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) <= 10 and len(out) < 1000  # 400 arms, yet a few lines
    fields = {line.split()[0]: line.split(maxsplit=1)[1] for line in lines[:-1]}
    assert set(fields) == {"action"} | SUMMARY | RADIUS_FIELDS | CERTIFICATE_FIELDS
    expected = clcb_cascade(data, 3, 0.1)
    assert json.loads(fields["action"]) == expected.action.tolist()
    assert int(fields["n"]) == data.n and int(fields["m"]) == data.m
    assert int(fields["min_count"]) == int(expected.counts[expected.action].min())
    radius = np.sqrt(np.log(2 * data.m * data.n / 0.1) / (2 * int(fields["min_count"])))
    assert float(fields["radius"]) == pytest.approx(radius, rel=1e-12)
    assert "--out stats.npz" in lines[-1]


@pytest.mark.parametrize("suffix", [".npz", ".csv"])
def test_out_writes_every_per_arm_array(cascade_log: tuple[Path, OfflineDataset],
                                        tmp_path: Path, suffix: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path, data = cascade_log
    out = tmp_path / f"stats{suffix}"
    assert main(["solve", "cascade", "--data", str(path), "--k", "3", "--delta", "0.1",
                 "--out", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    expected = clcb_cascade(data, 3, 0.1)
    if suffix == ".npz":
        with np.load(out, allow_pickle=False) as stats:
            np.testing.assert_array_equal(stats["counts"], expected.counts)
            np.testing.assert_array_equal(stats["lcb"], expected.lcb)
            np.testing.assert_array_equal(stats["mean"], expected.means)
    else:
        with out.open() as handle:
            rows = list(csv.DictReader(handle))
        assert len(rows) == data.m
        assert [int(row["counts"]) for row in rows] == expected.counts.tolist()
        assert np.array_equal([float(row["lcb"]) for row in rows], expected.lcb)
        assert np.array_equal([float(row["mean"]) for row in rows], expected.means,
                              equal_nan=True)


def test_out_with_another_extension_is_refused(cascade_log: tuple[Path, OfflineDataset],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = cascade_log
    assert run_cli(["solve", "cascade", "--data", str(path), "--k", "3", "--delta", "0.1",
                    "--out", "stats.pkl"]) == 2
    err = capsys.readouterr().err
    assert "argument --out: must end in .npz or .csv" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("algorithm", ["clcb", "emp", "cucb-offline"])
def test_cascade_algorithms(cascade_log: tuple[Path, OfflineDataset], algorithm: str,
                            capsys: pytest.CaptureFixture[str]) -> None:
    path, data = cascade_log
    assert main(["solve", "cascade", "--data", str(path), "--k", "3", "--delta", "0.1",
                 "--algorithm", algorithm, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    oracle = TopK(3)
    expected = {"clcb": clcb_cascade(data, 3, 0.1).action,
                "emp": emp(data, oracle, 0.1, "cascade").action,
                "cucb-offline": cucb_offline(data, oracle, 0.1, "cascade").action}
    assert out["algorithm"] == algorithm and out["action"] == expected[algorithm].tolist()
    assert len({tuple(action.tolist()) for action in expected.values()}) > 1  # they differ


@pytest.fixture
def cache_log(tmp_path: Path) -> tuple[Path, CacheLog]:
    rng = np.random.default_rng(3)
    n, m = 3_000, 50
    caches = np.array([rng.choice(m, 4, replace=False) for _ in range(n)]).reshape(-1)
    offsets = np.arange(0, 4 * n + 1, 4)
    queries = np.minimum(rng.zipf(1.3, n) - 1, m - 1)
    costs = np.where(queries % 2 == 1, rng.random(n), 0.01 * rng.random(n))  # odd ids cost
    costs = np.where(cache_hits(offsets, caches, queries), np.nan, costs)
    log = CacheLog(m, offsets, caches, queries, costs)
    path = tmp_path / "cache.npz"
    write_cache_npz(log, path)
    return path, log


@pytest.mark.parametrize("algorithm", ["clcb", "lfu", "lec"])
def test_llm_cache_algorithms(cache_log: tuple[Path, CacheLog], algorithm: str,
                              capsys: pytest.CaptureFixture[str]) -> None:
    from offcmab.reference.clcb_llm import clcb_llm

    path, log = cache_log
    assert main(["solve", "llm-cache", "--data", str(path), "--k", "5", "--delta", "0.1",
                 "--algorithm", algorithm, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = {"clcb": clcb_llm(log, 5, 0.1).cache, "lfu": lfu(log, 5), "lec": lec(log, 5)}
    assert out["cache"] == expected[algorithm].tolist()
    assert out["counts"] == np.bincount(log.queries, minlength=log.m).tolist()
    assert len({tuple(sorted(cache.tolist())) for cache in expected.values()}) > 1


def test_logged_actions_are_checked_only_on_request(
    cascade_log: tuple[Path, OfflineDataset], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The lists are not read by default (the algorithm does not use them); on request a list
    that disagrees with the feedback is exit 2."""
    _, data = cascade_log
    assert data.actions is not None and data.action_offsets is not None
    actions = data.actions.copy()
    actions[0] = (data.triggered[0] + 1) % data.m  # the first list no longer starts there
    if actions[0] in actions[1:data.action_offsets[1]]:
        actions[0] = (data.triggered[0] + 2) % data.m
    bad = OfflineDataset(data.m, data.triggered_offsets, data.triggered, data.outcomes,
                         data.action_offsets, actions)
    path = tmp_path / "bad.npz"
    write_npz(bad, path)
    base = ["solve", "cascade", "--data", str(path), "--k", "3", "--delta", "0.1"]
    assert run_cli(base) == 0
    capsys.readouterr()
    assert run_cli([*base, "--check-logged-actions"]) == 2
    assert "triggered: must be a prefix of the ranked list" in capsys.readouterr().err


def test_cache_log_read_without_caches_has_the_same_statistics(
        cache_log: tuple[Path, CacheLog]) -> None:
    from offcmab.reference.clcb_llm import cache_statistics
    from offcmab.reference.problems.llm_cache_io import read_cache_log

    path, log = cache_log
    light = read_cache_log(path, caches=False)
    assert isinstance(light, HitLog)  # the caches were not read
    np.testing.assert_array_equal(light.hits, log.hits)
    for field in ("counts", "cost_counts", "cost_sums"):
        np.testing.assert_array_equal(getattr(cache_statistics(light), field),
                                      getattr(cache_statistics(log), field))


@pytest.mark.parametrize(("costs", "bounded", "message"), [
    ([0.5, np.inf], False, "cost: observed costs must be finite"),
    ([0.5, 1.5], True, r"cost: observed costs must lie in \[0, 1\]"),
    ([0.5], True, r"cost: must have the shape of the queries \(2,\), got shape \(1,\)"),
])
def test_hit_log_checks_costs(costs: list[float], bounded: bool, message: str) -> None:
    from offcmab.reference.errors import InputError

    HitLog(3, np.array([0, 2]), np.array([0.5, np.nan]), bounded)  # a hit: fine
    with pytest.raises(InputError, match=message):
        HitLog(3, np.array([0, 2]), np.array(costs), bounded)


def test_cache_consistency_is_checked_on_request(cache_log: tuple[Path, CacheLog],
                                                 tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _, log = cache_log
    costs = log.costs.copy()
    hit = int(np.flatnonzero(log.hits)[0])
    costs[hit] = 0.5  # a cost observed on a hit: inconsistent with the caches
    path = tmp_path / "bad.npz"
    np.savez(path, queries_m=np.int64(log.m), cache_offsets=log.cache_offsets,
             caches=log.caches, queries=log.queries, costs=costs)
    base = ["solve", "llm-cache", "--data", str(path), "--k", "5", "--delta", "0.1"]
    assert run_cli(base) == 0
    capsys.readouterr()
    assert run_cli([*base, "--check-logged-actions"]) == 2
    assert f"round {hit}: must be null exactly when" in capsys.readouterr().err


def test_only_the_asked_solver_is_imported() -> None:
    """Start-up: ``offcmab solve cascade`` builds one parser and imports one solver."""
    import subprocess
    import sys

    code = ("import sys; from validation.cli import build_parser; "
            "build_parser(['solve', 'cascade', '--k', '1']); "
            "print(sorted(m for m in sys.modules if m.startswith(('offcmab.validation.solvers.', "
            "'offcmab.validation.commands.'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[1])
    assert done.stdout.strip() == str(["offcmab.validation.commands.solve",
                                         "offcmab.validation.solvers.cascade",
                                       "offcmab.validation.solvers.summary"])
    every = code.replace("['solve', 'cascade', '--k', '1']", "None")
    done = subprocess.run([sys.executable, "-c", every], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[1])
    assert "offcmab.validation.solvers.llm_cache" in done.stdout  # without argv: every parser
