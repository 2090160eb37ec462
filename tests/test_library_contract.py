"""The library contract of ``reference``: light imports, and bad arguments raise InputError
naming the field (a ValueError), never a numpy error or a silent cast."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from offcmab import reference
from offcmab.reference.clcb import clcb
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.clcb_llm import clcb_llm
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.errors import MAX_SIZE, InputError, check_size
from offcmab.reference.im.diffusion import estimate_spread
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.oracles import imm
from offcmab.reference.oracles import KPathOracle, TopK, top_k
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw, check_cascade_log
from offcmab.reference.problems.kpath import KPathProblem, lower_bound_family
from offcmab.reference.problems.llm_cache import (
    CacheLog,
    EmptyCaches,
    LLMCacheProblem,
    sample_log,
)

HEAVY = ("sympy", "scipy", "networkx", "matplotlib", "offcmab.bounds", "offcmab.validation")


def test_every_reference_module_imports_light() -> None:
    modules = sorted(info.name for info in pkgutil.walk_packages(reference.__path__,
                                                              "offcmab.reference."))
    assert len(modules) >= 30  # every module under reference/, found by walking the package
    code = (f"import importlib, sys\nfor name in {modules!r}: importlib.import_module(name)\n"
            f"print([m for m in {HEAVY!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


NAN = float("nan")
RNG = np.random.default_rng(0)
DATA = OfflineDataset.from_records(3, [[0, 1], [1], [2]], [[0.0, 1.0], [1.0], [0.0]])
GRAPH = ICGraph.from_edges(3, [0, 1], [1, 2], [0.5, 0.5])
LLM = LLMCacheProblem(np.array([0.5, 0.3, 0.2]), np.array([0.5, 0.5, 0.5]), 1)
LOG = sample_log(LLM, EmptyCaches(3), 20, RNG)

#: (call, exact message of the InputError) for public functions given bad arguments.
BAD_CALLS: list[tuple[Callable[[], Any], str]] = [
    (lambda: top_k([0.1, NAN, 0.3], 2), "weights: must not contain NaN"),
    (lambda: top_k([0.1, 0.2], 3), "k: must not exceed the number of arms m=2, got 3"),
    (lambda: top_k([[0.1, 0.2]], 1), "weights: must be a flat vector, got shape (1, 2)"),
    (lambda: TopK(0), "k: must be a positive integer, got 0"),
    (lambda: KPathOracle(5, 2), "k: must divide the number of arms m=5, got 2"),
    (lambda: clcb(DATA, TopK(1), NAN), "delta: must lie strictly between 0 and 1, got nan"),
    (lambda: clcb(DATA, TopK(1), 0.1, "foo"),  # type: ignore[arg-type]
     "radius: must be one of ['alg1', 'cascade'], got 'foo'"),
    (lambda: clcb_cascade(DATA, 4, 0.1), "k: must not exceed the number of arms m=3, got 4"),
    (lambda: OfflineDataset.from_records(3, [[0, 1]], [[1.0]]),
     "outcomes: sample 0 has 1 outcomes for 2 triggered arms"),
    (lambda: OfflineDataset.from_records(3, [], []),
     "dataset: is empty: it needs at least one sample"),
    (lambda: OfflineDataset.from_records(3, [[0]], [[NAN]]),
     "outcomes: must be finite (found NaN or infinity)"),
    (lambda: OfflineDataset.from_records(3, [[-1]], [[1.0]]),
     "triggered: arm id -1 is outside [0, 3)"),
    (lambda: OfflineDataset(3, np.array([0, 2]), np.array([0, 1]), np.array([[1.0, 0.0]])),
     "outcomes: must be a flat array, got shape (1, 2)"),
    (lambda: OfflineDataset(3, np.array([0, 1]), np.array([0]), np.array([1j])),
     "outcomes: must contain real numbers, got dtype complex128"),
    (lambda: OfflineDataset(MAX_SIZE + 1, np.array([0, 1]), np.array([0]), np.array([1.0])),
     f"m: at most {MAX_SIZE} is supported, got {MAX_SIZE + 1}"),
    (lambda: check_size("3", "m"), "m: must be a positive integer, got '3'"),
    (lambda: check_size(2.5, "m"), "m: must be a positive integer, got 2.5"),
    (lambda: check_cascade_log(OfflineDataset.from_records(3, [[0, 1]], [[1.0, 0.0]])),
     "outcomes: a click before the last triggered item: cascade feedback stops at the "
     "first click"),
    (lambda: CascadeProblem(np.array([0.5, NAN]), 1),
     "mu: must be finite (found NaN or infinity)"),
    (lambda: CascadeProblem(np.array([0.5, 0.4]), 3),
     "k: must not exceed the number of arms m=2, got 3"),
    (lambda: UniformListsLaw(CascadeProblem(np.array([0.5, 0.4]), 1)).sample(2.5, RNG),  # type: ignore[arg-type]
     "n: must be a positive integer, got 2.5"),
    (lambda: KPathProblem(np.array([0.5]), 0), "k: must be a positive integer, got 0"),
    (lambda: lower_bound_family(4, 2, 0.5, 0.1),
     "C_inf: must be a finite number of at least 2, got 0.5"),
    (lambda: LLMCacheProblem(np.array([0.5, 0.6]), np.array([0.5, 0.5]), 1),
     "p: must sum to 1, sums to 1.1"),
    (lambda: LLMCacheProblem(np.array([0.5, 0.5]), np.array([0.5]), 1),
     "c: must have 2 entries, got 1"),
    (lambda: CacheLog(3, np.zeros(4, dtype=np.int64), np.zeros(0, dtype=np.int64),
                      np.array([0, 1, 2]), np.full((3, 1), 0.5)),
     "cost: must have the shape of the queries (3,), got shape (3, 1)"),
    (lambda: GRAPH.with_probabilities(np.full((2, 1), 0.5)),
     "p: needs shape (2,) (one per edge), got shape (2, 1)"),
    (lambda: clcb_llm(LOG, 4, 0.1), "k: must not exceed the number of arms m=3, got 4"),
    (lambda: ICGraph.from_edges(3, [0, 1], [1], 0.5), "targets: has 1 entries but sources has 2"),
    (lambda: estimate_spread(GRAPH, [NAN], 10, RNG), "seeds: must be integer node ids"),
    (lambda: imm(GRAPH, 1, NAN, 0.1, RNG), "eps: must lie in (0, 1 - 1/e), got nan"),
]


@pytest.mark.parametrize(("call", "message"), BAD_CALLS)
def test_bad_arguments_name_the_field(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(InputError) as caught:
        call()
    assert str(caught.value) == message
