"""The validation machinery on a fake scenario: seeding, backends, resume, verdicts."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import validate_fake
from scipy import stats

from offcmab.validation.parts import verdict
from offcmab.validation.parts.spec import PROFILES, TrialKey
from offcmab.validation.runner import backends
from offcmab.validation.runner.seeding import trial_generator, trial_stream
from offcmab.validation.runner.store import LOG_NAME, TrialLog, TrialRecord, read_log
from offcmab.validation.runner.sweep import RunConfig, RunInterrupted, run_validation

QUICK = PROFILES["quick"]


def rows_of(out: Path, **options: Any) -> list[dict[str, Any]]:
    config = RunConfig(profile=options.pop("profile", QUICK), seed=options.pop("seed", 7),
                       out=out, **options)
    report = run_validation(config, validate_fake.THEOREMS)
    return report["rows"]


def test_seed_depends_on_key_only() -> None:
    key = TrialKey("thm1-inf", "paper", 100, 3)
    first = trial_generator(5, key).random(4)
    assert np.array_equal(first, trial_generator(5, key).random(4))
    for other in (TrialKey("thm1-inf", "paper", 100, 4), TrialKey("thm1-inf", "paper", 101, 3),
                  TrialKey("thm1-one", "paper", 100, 3)):
        assert not np.array_equal(first, trial_generator(5, other).random(4))
    assert not np.array_equal(first, trial_generator(6, key).random(4))


def test_binomial_tail_matches_scipy_and_allowed_count() -> None:
    assert verdict.binomial_tail(0, 20, 0.05) == 1.0
    for v, t, d in [(3, 20, 0.05), (9, 20, 0.05), (1, 10, 0.2), (20, 20, 0.01), (7, 50, 0.1)]:
        assert verdict.binomial_tail(v, t, d) == pytest.approx(stats.binom.sf(v - 1, t, d),
                                                               rel=1e-12)
    assert verdict.normal_two_sided_quantile(1e-6) == pytest.approx(stats.norm.isf(5e-7))
    allowed = verdict.allowed_violations(20, 0.05, 1e-8)
    assert verdict.binomial_tail(allowed, 20, 0.05) >= 1e-8
    assert verdict.binomial_tail(allowed + 1, 20, 0.05) < 1e-8


def test_smallest_passing_scale_is_the_boundary() -> None:
    gaps = np.array([0.5, 0.4, 0.3, 0.0])
    errors = np.zeros(4)
    scale = verdict.smallest_passing_scale(gaps, errors, 1.0, allowed=1)
    assert scale == pytest.approx(0.4)
    assert verdict.count_violations(gaps, errors, scale) == 1
    assert verdict.count_violations(gaps, errors, scale * 0.999) == 2


def test_rows_identical_for_serial_and_two_processes(tmp_path: Path) -> None:
    serial = rows_of(tmp_path / "a")
    parallel = rows_of(tmp_path / "b", jobs=2, backend="processes")
    assert serial == parallel


def test_resume_after_interruption_gives_identical_rows(tmp_path: Path) -> None:
    reference = rows_of(tmp_path / "whole")
    with pytest.raises(RunInterrupted):
        rows_of(tmp_path / "cut", stop_after=7)
    _, written = read_log(tmp_path / "cut" / LOG_NAME)
    assert len(written) == 7
    # a kill in the middle of a write leaves half a line: it must be dropped, not fatal
    with (tmp_path / "cut" / LOG_NAME).open("a") as log:
        log.write('{"key": "fake-upper|named|20|9", "ga')
    assert rows_of(tmp_path / "cut", resume=True) == reference
    header, records = read_log(tmp_path / "cut" / LOG_NAME)
    lines = (tmp_path / "cut" / LOG_NAME).read_text().splitlines()
    assert header is not None and (header["seed"], header["profile"]) == (7, "quick")
    assert len(lines) == 1 + len(records)  # no trial written twice


def test_resume_refuses_a_log_of_another_seed(tmp_path: Path) -> None:
    rows_of(tmp_path, seed=1)
    with pytest.raises(ValueError, match="written with seed=1, this run has seed=7"):
        rows_of(tmp_path, resume=True)


def test_trial_log_lines_carry_seed_stream_and_checksum(tmp_path: Path) -> None:
    key = TrialKey("fake-upper", "named", 20, 0)
    log = TrialLog(tmp_path / LOG_NAME, {"seed": 1, "profile": "quick"}, {key.text(): key})
    log.append(TrialRecord(key.text(), 0.25, extra={"a": 1.0}))
    log.close()
    lines = (tmp_path / LOG_NAME).read_text().splitlines()
    line = json.loads(lines[1])
    assert line["seed"] == 1 and line["stream"] == trial_stream(1, key)
    assert (line["id"], line["instance"], line["n"], line["trial"]) == ("fake-upper", "named",
                                                                         20, 0)
    header, records = read_log(tmp_path / LOG_NAME)
    assert header == {"seed": 1, "profile": "quick"}
    assert records[key.text()] == TrialRecord(key.text(), 0.25, 0.0, {"a": 1.0}, 0.0, 1)


@pytest.mark.slow
def test_dask_local_cluster_gives_identical_rows(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=backends.LOCAL_DASHBOARD) as cluster:
        address = cluster.scheduler_address
        rows = rows_of(tmp_path / "dask", backend="dask", jobs=2, scheduler=address)
    assert rows == rows_of(tmp_path / "serial")


def test_bound_scale_turns_rows_into_failures(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, bound_scale=1e-3)
    assert any(row["verdict"] == "FAIL" for row in rows)


def test_weakened_radius_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A regression that drops CLCB's confidence radius makes the fake bound fail."""
    clcb_module = importlib.import_module("offcmab.reference.clcb")

    def no_radius(counts: np.ndarray, *args: object, **kwargs: object) -> np.ndarray:
        return np.where(counts > 0, 0.0, np.inf)

    def sparse_stated(rows: list[dict[str, Any]]) -> list[str]:
        return [r["verdict"] for r in rows if r["instance"] == "sparse"
                and r["variant"] == "stated"]

    assert sparse_stated(rows_of(tmp_path / "honest")) == ["pass"]
    monkeypatch.setattr(clcb_module, "hoeffding_radius", no_radius)
    assert sparse_stated(rows_of(tmp_path / "weak")) == ["FAIL"]


def test_report_rows_have_the_documented_fields(tmp_path: Path) -> None:
    rows = rows_of(tmp_path)
    needed = {"id", "instance", "n", "trials", "delta", "violations", "bound", "gap_max",
              "tightness", "verdict"}
    assert all(needed <= set(row) for row in rows)
    json.dumps(rows)
