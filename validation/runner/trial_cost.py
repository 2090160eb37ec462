r"""The memory of one validation trial at a large ``n``, measured on small probe trials.

``validate`` replays saved instances (``--instances``) at the ``n`` they name, which may be
far larger than any profile's; :func:`trial_cost` estimates one trial's peak memory before
the first one runs, for :func:`~offcmab.validation.limits.check_cost`.
"""

from __future__ import annotations

import tracemalloc

import numpy as np

from offcmab.validation.limits import Cost
from offcmab.validation.parts.scenario import Subject
from offcmab.validation.parts.spec import Instance
from offcmab.validation.parts.theorem import Theorem

#: Dataset size of the smaller probe trial of :func:`trial_cost` (the larger one is twice it).
PROBE_N = 1000
#: Instances with at most this many samples need no estimate (a trial takes megabytes).
PROBE_ABOVE_N = 100_000


def trial_peak_bytes(theorem: Theorem, instance: Instance, n: int) -> int:
    """Peak bytes :mod:`tracemalloc` sees while one reference trial of ``n`` samples runs."""
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        subject = Subject("reference", theorem.reference_algorithm())
        theorem.scenario.trial(instance, n, np.random.default_rng(0), subject)
        return max(tracemalloc.get_traced_memory()[1] - before, 0)
    finally:
        if not tracing:
            tracemalloc.stop()


def trial_cost(theorem: Theorem, instance: Instance, n: int) -> Cost:
    r"""Memory of one trial of ``instance`` at ``n`` samples (``validate --instances``).

    Drawing a dataset and running the algorithm allocate arrays linear in ``n`` (offsets,
    triggered ids, outcomes, actions, their temporaries) whose per-sample size depends on
    the instance; rather than a formula per scenario family, two probe trials at
    :data:`PROBE_N` and twice that (after a warm-up trial) measure the fixed part and the
    part per sample, which is extrapolated to ``n``.  No time model (the probes take
    milliseconds).
    """
    small = min(n, PROBE_N)
    trial_peak_bytes(theorem, instance, small)  # warm-up: caches filled once are not per trial
    first = trial_peak_bytes(theorem, instance, small)
    if n <= small:
        return Cost("n", float(first), 0.0, f"measured at n={n}")
    second = trial_peak_bytes(theorem, instance, 2 * small)
    per_sample = max(second - first, 0) / small
    return Cost("n", first + per_sample * (n - small), 0.0,
                f"{per_sample:.3g} bytes per sample (probe trials at n={small} and "
                f"{2 * small}) times n={n}")
