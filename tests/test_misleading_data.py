"""Broken algorithms that read the wrong statistic fail ``offcmab validate``; CLCB passes.

Each broken algorithm of ``user_mistakes`` is run as a user would run it,
``offcmab validate --algorithm tests/user_mistakes.py:FUNC --only ID``, on every bound id
whose signature it fits and where a misleading trap of
``offcmab.validation.scenarios.traps`` stands for its class of mistakes.  The quick profile
carries those traps except the standard lemma's frequency trap, so the lemma's cache
mistakes run in the default profile (the one users run).

Statistical content (fixed seeds; run-level false-alarm budget 1e-3):

* A reference run is flagged with probability at most the budget, 1e-3 (exact binomial
  tails, Bonferroni over rows, ``offcmab.validation.parts.verdict``).
* A broken run exits 0 only if more than ``T - V_flag`` of its ``T >= 98`` trap trials
  pick an action whose gap is below the bound, where ``V_flag <= 16``.  Per trial that
  needs the data to reverse the ordering the broken statistic reads, with probability
  (Hoeffding or Bernstein on the difference of two sums of ``n`` i.i.d. terms) at most:
  most played path 0.6 vs 0.2 at ``n = 10000``, ``exp(-800)``; total reward 0.24 vs 0.16
  per round, ``exp(-32)``; popular items' shows and examinations (at least 0.68 vs at
  most 0.15), ``exp(-1000)``; their total clicks (0.066 vs 0.045 per round, variance at
  most 0.12), ``exp(-37)``; LFU arrivals 0.5 vs 0.45 at ``n = 16000``, ``exp(-20)``;
  cost-only needs every one of about 7000 observed costs of mean 0.95 to be 1,
  ``0.95^7000``; copying the logged cache needs no logged cache to hold the frequent
  query, ``0.4^16000``.  Ranking caches by total observed cost fails on ``rare-optimal``,
  where the optimal query is observed in a fraction ``1e-6`` of rounds: its total is 0 in
  a trial with probability at least ``1 - 8000e-6``.  With per-trial failure at least
  ``1 - 0.01``, ``T - V_flag >= 82`` misses have probability below ``1e-100``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_cli_solve import run_cli

MISTAKES = Path(__file__).resolve().parent / "user_mistakes.py"

#: (function, bound id, profile): each broken algorithm on each id it fits.
BROKEN = [
    ("behaviour_cloning", "thm1-inf", "quick"),
    ("behaviour_cloning", "thm1-one", "quick"),
    ("total_reward", "thm1-inf", "quick"),
    ("total_reward", "thm1-one", "quick"),
    ("most_shown", "cor1-cascade", "quick"),
    ("total_clicks", "cor1-cascade", "quick"),
    ("most_examined", "cor1-cascade", "quick"),
    ("lfu_cache", "thm3-llm", "quick"),
    ("cost_only_cache", "thm3-llm", "quick"),
    ("copy_logged_cache", "thm3-llm", "quick"),
    ("total_cost_cache", "thm3-llm", "quick"),
    ("lfu_cache", "lem-llm-std", "default"),
    ("cost_only_cache", "lem-llm-std", "default"),
    ("copy_logged_cache", "lem-llm-std", "default"),
    ("total_cost_cache", "lem-llm-std", "quick"),
]

#: The trap that stands for each mistake's class.
TRAP = {"behaviour_cloning": "trap-legacy-path", "total_reward": "trap-legacy-path",
        "most_shown": "trap-popular-items", "total_clicks": "trap-popular-items",
        "most_examined": "trap-popular-items", "lfu_cache": "trap-frequent-cheap",
        "cost_only_cache": "trap-frequent-cheap", "copy_logged_cache": "trap-frequent-cheap",
        "total_cost_cache": "trap-rare-optimal"}


def validate(out: Path, profile: str, *options: str) -> tuple[int, dict[str, Any]]:
    """Exit code and report of a validate run in ``profile`` (quick or default)."""
    flags = ["--quick"] if profile == "quick" else []
    code = run_cli(["validate", *flags, "--no-figures", "--out", str(out), *options])
    report = json.loads((out / "report.json").read_text()) if code in (0, 1) else {}
    return code, report


def failing(report: dict[str, Any]) -> set[tuple[str, str]]:
    """(bound id, instance) of every failing row."""
    return {(row["id"], row["instance"]) for row in report["rows"] if row["verdict"] == "FAIL"}


@pytest.mark.slow
@pytest.mark.parametrize(("function", "bound_id", "profile"), BROKEN)
def test_broken_algorithm_fails_its_trap(tmp_path: Path, function: str, bound_id: str,
                                         profile: str) -> None:
    code, report = validate(tmp_path, profile, "--only", bound_id,
                            "--algorithm", f"{MISTAKES}:{function}")
    assert code == 1
    assert (bound_id, TRAP[function]) in failing(report)


@pytest.mark.slow
@pytest.mark.parametrize(("bound_ids", "profile"), [
    (("thm1-inf", "thm1-one", "cor1-cascade", "thm3-llm", "lem-llm-std"), "quick"),
    (("lem-llm-std",), "default"),
])
def test_reference_passes_the_misleading_traps(tmp_path: Path, bound_ids: tuple[str, ...],
                                               profile: str) -> None:
    code, report = validate(tmp_path, profile, "--no-power", "--only", *bound_ids)
    assert code == 0, failing(report)
    traps = {(row["id"], row["instance"]) for row in report["rows"]
             if row["instance"] in TRAP.values() and row["verdict"] == "pass"}
    expected = {(bound_id, trap) for function, bound_id, p in BROKEN if p == profile
                for trap in [TRAP[function]]}
    assert expected <= traps
