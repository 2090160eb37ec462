r"""Benchmarks run by ``offcmab bench``: one module per benchmark.

Each module exposes ``TITLE`` (one line) and ``run(quick: bool) -> dict`` returning
plain numbers (seconds, rates, ratios) and the sizes it ran at, and under ``figures`` its
headline ratios (rows made by :func:`~offcmab.validation.benchmarks.figures.figure`), which
``offcmab bench`` gathers into its summary.  Benchmarks check speed goals; tests never time
anything.  A benchmark against an optional package (cynetdiff, pynetim: the ``bench`` extra)
also exposes ``reference()``, which imports it or raises
:class:`~offcmab.validation.extras.MissingExtra`; ``offcmab bench`` calls it for every
benchmark it is asked for before timing any, so a missing package stops the command at once.
No module imports sympy or such a package at its top, so that listing the benchmarks stays
cheap.
"""

from types import ModuleType

from offcmab.validation.benchmarks import (
    bounds_eval,
    calibrate_dask,
    certificate_cost,
    clcb_statistics,
    ic_simulation,
    im_oracle,
    startup,
)

#: Benchmark name -> module, in the order ``offcmab bench`` runs them.  A new benchmark goes
#: last: the performance page names figures of the summary by their position.
BENCHMARKS: dict[str, ModuleType] = {
    "clcb-statistics": clcb_statistics,
    "ic-simulation": ic_simulation,
    "im-oracle": im_oracle,
    "bounds-eval": bounds_eval,
    "startup": startup,
    "certificate-cost": certificate_cost,
    "calibrate-dask": calibrate_dask,
}
