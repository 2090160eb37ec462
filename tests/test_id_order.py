"""Issue 13: query ids carry no information about the truth in the reproductions.

The synthetic arrival laws list queries from the commonest down and every algorithm breaks
ties toward smaller ids; the reproductions therefore renumber the queries by a permutation
drawn from each trial's seed.  These tests check the renumbering (exact), that it leaves the
coverage coefficients unchanged (exact), and that on a log where every estimate ties the
expected gap is that of a uniformly random cache (Monte-Carlo, false-alarm probability
stated below).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from offcmab.bounds.coefficients import llm_coefficients
from offcmab.reference.errors import InputError
from offcmab.reference.problems.llm_cache import (
    CacheLog,
    power_probabilities,
    relabel,
    sample_power_queries,
    zipf_probabilities,
)
from offcmab.validation.reproduce import fig3a
from offcmab.validation.reproduce.llm_common import ALGORITHMS


def test_labels_renumber_the_law_and_the_sampler_alike() -> None:
    labels = np.random.default_rng(3).permutation(7)
    for law in (lambda lab: power_probabilities(7, 0.9, lab),
                lambda lab: zipf_probabilities(7, 1.0, lab)):
        ranked, renamed = law(None), law(labels)
        assert np.array_equal(renamed[labels], ranked)  # rank i is now called labels[i]
    plain = sample_power_queries(7, 0.9, 500, np.random.default_rng(4))
    renamed_draws = sample_power_queries(7, 0.9, 500, np.random.default_rng(4), labels)
    assert np.array_equal(renamed_draws, labels[plain])


@pytest.mark.parametrize("labels", [[0, 1, 1], [0, 1], [0, 1, 3], [[0, 1, 2]]])
def test_labels_must_be_a_permutation(labels: list[int]) -> None:
    with pytest.raises(InputError, match=r"labels: must be a permutation of 0\.\.2"):
        power_probabilities(3, 0.9, labels)


@pytest.mark.parametrize(("law", "size"), [("empty", None), ("random", 10)])
def test_relabelling_changes_no_coverage_coefficient(law: str, size: int | None) -> None:
    # Figure 3(a)'s instance: no tie at the cache boundary, so M* is relabelled with the ids.
    c = np.random.default_rng(2025).binomial(1, 0.5, 100).astype(float)
    p = power_probabilities(100, 0.9)
    labels = np.random.default_rng(13).permutation(100)
    before = flat(llm_coefficients(p, c, 40, law, size))
    after = flat(llm_coefficients(relabel(p, labels), relabel(c, labels), 40, law, size))
    assert before.keys() == after.keys()
    for name, value in before.items():
        assert after[name] == (pytest.approx(value, rel=1e-12) if isinstance(value, float)
                               else value), name


def flat(found: dict[str, object], prefix: str = "") -> dict[str, object]:
    """Nested coefficient dictionaries as ``view.name -> value``."""
    out: dict[str, object] = {}
    for name, value in found.items():
        if isinstance(value, dict):
            out |= flat(value, f"{prefix}{name}.")
        else:
            out[f"{prefix}{name}"] = value
    return out


def tied_log(m: int) -> CacheLog:
    """Every query arrives once, misses an empty cache and costs 1: every estimate ties."""
    return CacheLog(m, np.zeros(m + 1, dtype=np.int64), np.zeros(0, dtype=np.int64),
                    np.arange(m), np.ones(m))


def gaps_on_tied_log(ids: fig3a.Ids, trials: int) -> dict[str, np.ndarray]:
    """Each algorithm's gap on the tied log, for fig3a's round-bernoulli problem per trial."""
    make = fig3a.scenario_maker("round-bernoulli", ids)
    log = tied_log(fig3a.M)
    gaps: dict[str, list[float]] = {name: [] for name in ALGORITHMS}
    for stream in np.random.SeedSequence(2025).spawn(trials):
        problem = make(np.random.default_rng(stream)).problem
        for name, algorithm in ALGORITHMS.items():
            gaps[name].append(problem.gap(algorithm(log, problem.k, fig3a.DELTA)))
    return {name: np.asarray(values) for name, values in gaps.items()}


def test_tied_estimates_give_the_gap_of_a_uniformly_random_cache() -> None:
    """A uniformly random cache of k among m has expected cost (1 - k/m) sum_q p(q) c(q).

    With c = 1/2 (round-bernoulli), the gap of any cache lies in [0, G] with G the cost of
    the k least probable queries' complement minus the optimum.  Hoeffding over N
    independent trials: P(|mean - E| >= eps) <= 2 exp(-2 N eps^2 / G^2) = 1e-6 for the eps
    below (false-alarm probability 1e-6 per algorithm, 4e-6 in all).
    """
    trials = 500
    p, c, k, m = power_probabilities(fig3a.M, fig3a.ALPHA), 0.5, fig3a.K, fig3a.M
    optimal = c * (1 - np.sort(p)[::-1][:k].sum())
    expected = (1 - k / m) * c * p.sum() - optimal
    widest = c * (np.sort(p)[::-1][:k].sum() - np.sort(p)[:k].sum())  # G
    eps = widest * math.sqrt(math.log(2 / 1e-6) / (2 * trials))
    after = gaps_on_tied_log("random", trials)
    for name, gaps in after.items():
        assert abs(gaps.mean() - expected) < eps, (name, gaps.mean(), expected, eps)
    # Negative control: with the paper's numbering ties pick the commonest queries, gap 0.
    before = gaps_on_tied_log("ordered", 3)
    assert all(np.all(gaps == 0) for gaps in before.values())
    assert expected > eps  # so the test above can tell the two apart
