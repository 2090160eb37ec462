r"""Figure 3(a): offline LLM cache, synthetic; CLCB-LLM-C vs LFU vs LEC.

Settings from ``app:extended``: :math:`m = 100` queries, cache size 40, arrivals from
Zhu et al.'s "power-law" sampler with :math:`\alpha = 0.9`
(:func:`offcmab.reference.problems.llm_cache.sample_power_queries`, exact law
:func:`~offcmab.reference.problems.llm_cache.power_probabilities`, nearly uniform: max/min
probability 1.76), :math:`n \in \{2, 4, \dots, 2048\}`, 20 trials.

"The ground truth cost for each query is drawn from Bernoulli(0.5)" is read two ways,
both run:

* ``query-bernoulli`` (headline; as in Zhu et al.'s code, whose per-query base costs are
  ``binomial(1, 0.5)``): each trial draws :math:`c(q) \sim \mathrm{Bernoulli}(0.5)` once
  per query; an observed cost is :math:`\mathrm{Bernoulli}(c(q))`, i.e. equal to
  :math:`c(q)`.
* ``round-bernoulli``: :math:`c(q) = 0.5` for all queries and each observed cost is a
  fresh :math:`\mathrm{Bernoulli}(0.5)`; then every cache of the top-k arrival
  probabilities is optimal.

Query ids.  Zhu et al.'s sampler numbers the queries from the commonest down,
and every algorithm here breaks ties toward smaller ids, so at small :math:`n` (most
queries unseen, hence tied) the algorithms fill the cache with the truly commonest
queries for free.  The headline run (``fig3a.png``, the top-level summary keys) therefore
renumbers the queries by a permutation drawn from each trial's seed
(``labels=rng.permutation(m)``); the run with the paper's numbering is kept as the
"before" (``fig3a-ordered.png``, summary key ``"ordered ids"``).

The paper does not state the data-collecting caches or :math:`\delta`; we log with empty
caches (:math:`\nu \equiv 1`, Zhu et al.'s offline setting) and use :math:`\delta = 0.1`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import numpy as np

from offcmab.reference.problems.llm_cache import (
    EmptyCaches,
    LLMCacheProblem,
    power_probabilities,
    sample_power_queries,
)
from offcmab.validation.reproduce.llm_common import (
    ALGORITHMS,
    Algorithms,
    Scenario,
    mean_gaps,
    summarize,
    sweep,
    write_outputs,
)

TITLE = "LLM cache, synthetic (Fig. 3a): CLCB-LLM-C vs LFU vs LEC"
PAPER = "CLCB-LLM-C achieves an average improvement of 1.32x over LFU and LEC"

M, K, ALPHA, DELTA, TRIALS = 100, 40, 0.9, 0.1, 20
GRID = [2**i for i in range(1, 12)]
READINGS = ("query-bernoulli", "round-bernoulli")
Ids = Literal["random", "ordered"]
#: Summary key of each id order.
ID_KEYS: dict[str, str] = {"random": "random ids", "ordered": "ordered ids"}
#: Extra figures this module writes, file stem -> caption (shown on the docs page).
EXTRA_FIGURES = {"fig3a-ordered": "Query ids ordered by popularity "
                                  "(Zhu et al.'s numbering, the paper's setting)"}


def scenario_maker(reading: str, ids: Ids) -> Callable[[np.random.Generator], Scenario]:
    """The per-trial scenario of a cost reading, with random or popularity-ordered ids."""

    def make(rng: np.random.Generator) -> Scenario:
        labels = rng.permutation(M) if ids == "random" else None  # drawn from the trial's seed
        p = power_probabilities(M, ALPHA, labels)
        c = rng.binomial(1, 0.5, M).astype(np.float64) if reading == "query-bernoulli" \
            else np.full(M, 0.5)

        def queries(n: int, stream: np.random.Generator) -> np.ndarray:
            return sample_power_queries(M, ALPHA, n, stream, labels)

        return Scenario(reading, LLMCacheProblem(p, c, K), EmptyCaches(M), "bernoulli", queries)

    return make


def rows_for(ids: Ids, grid: list[int], trials: int, seed: int,
             algorithms: Algorithms | None = None) -> list[dict[str, Any]]:
    """Every trial's gaps for both readings (seeds ``seed`` and ``seed + 1`` as before)."""
    return [row for offset, reading in enumerate(READINGS)
            for row in sweep(scenario_maker(reading, ids), grid, trials, DELTA, seed + offset,
                             algorithms)]


def gap_table(rows: list[dict[str, Any]], grid: list[int]) -> dict[str, dict[str, list[float]]]:
    """Mean gap per reading, algorithm and grid point."""
    return {reading: {name: mean_gaps(rows, reading, name, grid)[0].tolist()
                      for name in ALGORITHMS} for reading in READINGS}


def run(out_dir: Path, seed: int, quick: bool) -> dict[str, Any]:
    grid = GRID[::3] if quick else GRID
    trials = 3 if quick else TRIALS
    out_dir.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = {"grid": grid, "trials": trials}
    gaps: dict[str, Any] = {}
    for ids, stem in (("ordered", "fig3a-ordered"), ("random", "fig3a")):
        rows = rows_for(ids, grid, trials, seed)  # type: ignore[arg-type]
        write_outputs(out_dir, stem, rows, READINGS, grid,
                      f"m={M}, k={K}, power law alpha={ALPHA}, {ID_KEYS[ids]}, empty logging "
                      f"caches, delta={DELTA}, {trials} trials")
        found = summarize(rows, READINGS, grid)
        if ids == "random":
            summary.update(found)
        else:
            summary[ID_KEYS[ids]] = found
        gaps[ID_KEYS[ids]] = gap_table(rows, grid)
    summary["mean_gap"] = gaps
    return summary
