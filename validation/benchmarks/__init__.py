r"""Benchmarks run by ``offcmab bench``: one module per benchmark.

Each module exposes ``TITLE`` (one line) and ``run(quick: bool) -> dict`` returning
plain numbers (seconds, rates, ratios) and the sizes it ran at.  Benchmarks check
speed goals; tests never time anything.
"""

#: Benchmark name -> module, in the order ``offcmab bench`` runs them.
BENCHMARKS: dict[str, str] = {
    "clcb-statistics": "validation.benchmarks.clcb_statistics",
    "ic-simulation": "validation.benchmarks.ic_simulation",
    "im-oracle": "validation.benchmarks.im_oracle",
    "bounds-eval": "validation.benchmarks.bounds_eval",
}
