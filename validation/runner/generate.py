r"""Random instances drawn by hypothesis from the run seed.

Scenarios describe the instances they want as hypothesis strategies (random means,
data laws including out-of-distribution ones, sizes, delta); :func:`draw` collects
``count`` examples.  Generation is a pure function of the strategy, the count and
the run seed: the hypothesis database is off, only the generate phase runs, and
the seed is fixed with ``hypothesis.seed``.  Examples come out as plain data, so
they are stored in ``report.json`` and rebuilt by worker processes from there.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


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

    collect()
    return examples
