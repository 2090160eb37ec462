r"""Random instances drawn by hypothesis from the run seed.

Scenarios describe the instances they want as hypothesis strategies (random means,
data laws including out-of-distribution ones, sizes, delta); :func:`draw` collects
``count`` examples.  Generation is a pure function of the strategy, the count and
the run seed: the hypothesis database is off, only the generate phase runs, and
the seed is fixed with ``hypothesis.seed``.  Examples come out as plain data, so
they are stored in ``report.json`` and rebuilt by worker processes from there.

One more input would otherwise leak in: hypothesis sometimes draws "local constants",
literals it collects from the source of every project module imported so far, so the
same seed gave different instances depending on what the process had run before (a
second ``validate`` in one process, a test after another).  :func:`draw` hides those
constants while it generates (hypothesis' global constants stay: they are fixed).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")


@contextmanager
def _without_local_constants() -> Iterator[None]:
    """Generate as if no project module had been imported (see the module docstring)."""
    from hypothesis.internal.conjecture import providers

    original = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if original is None or cache is None:  # a hypothesis without local constants
        yield
        return
    providers._get_local_constants = lambda: providers.Constants()
    cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.cache.clear()


def draw(strategy: Any, count: int, seed: int) -> list[Any]:
    """``count`` examples of ``strategy``, determined by ``seed`` alone."""
    if count <= 0:
        return []
    import hypothesis
    from hypothesis import HealthCheck, Phase, given, settings

    examples: list[Any] = []

    @hypothesis.seed(seed)
    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              derandomize=False, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example: Any) -> None:
        if len(examples) < count:
            examples.append(example)

    with _without_local_constants():
        collect()
    return examples
