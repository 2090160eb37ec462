r"""Broken oracles: the class of mistakes "the oracle does not maximize what it is given".

An oracle promises :math:`r(S; w) \ge \alpha\max_{S'} r(S'; w)` for the weights
:math:`w` it is called with (``eq:def_oracle``).  :class:`BrokenOracle` wraps a correct
oracle and calls it with other weights, so it still returns a feasible action and still
claims the wrapped oracle's :math:`\alpha`, but breaks the promise:

* ``first``: a constant vector; ties go to the smallest ids, so the first feasible action
  (the first ``k`` items, the first path, the seed set :math:`\{0, \dots, k-1\}`);
* ``last``: the fixed vector :math:`(0, 1, \dots, m-1)`: the last ``k`` items or the last
  path (on a graph, the edges with the largest ids count as live);
* ``reversed``: :math:`1 - w`, which ranks the smallest weights first (the ``k`` smallest
  items, the path of least total, a spread computed with every edge probability flipped);
* ``random``: uniform weights from a generator seeded by the bytes of :math:`w`, so the
  same weights give the same action but the action is unrelated to their order.

The controls of :mod:`offcmab.validation.controls.cmab` and :mod:`~.im` run the reference
algorithm with its oracle wrapped this way; the oracle rows of
:mod:`offcmab.validation.events.oracles` take a broken oracle in place of the scenario's.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import IntArray

Mistake = Literal["first", "last", "reversed", "random"]


@dataclass(frozen=True)
class BrokenOracle:
    """A correct oracle called with the wrong weights (``mistake``), claiming its ``alpha``."""

    oracle: Any  # an Oracle
    mistake: Mistake

    @property
    def alpha(self) -> float:
        """The wrapped oracle's approximation ratio (claimed, not kept)."""
        return float(self.oracle.alpha)

    def __call__(self, weights: npt.NDArray[np.float64]) -> IntArray:
        w = np.asarray(weights, dtype=np.float64)
        if self.mistake == "first":
            return np.asarray(self.oracle(np.zeros_like(w)), dtype=np.int64)
        if self.mistake == "last":
            return np.asarray(self.oracle(np.arange(w.size, dtype=np.float64)), dtype=np.int64)
        if self.mistake == "reversed":
            return np.asarray(self.oracle(1.0 - w), dtype=np.int64)
        digest = hashlib.sha256(np.ascontiguousarray(w).tobytes()).digest()
        rng = np.random.default_rng(int.from_bytes(digest[:8], "little"))
        return np.asarray(self.oracle(rng.random(w.size)), dtype=np.int64)
