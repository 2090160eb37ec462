r"""The interface every CMAB-T problem and data-collecting law implements.

A *problem* fixes the base-arm means :math:`\mu` (through :math:`\mathbb{D}_{\text{arm}}`),
the feasible actions (through its oracle), the expected reward :math:`r(S;\mu)` and
the exact triggering probabilities :math:`p_i^{\mathbb{D}_{\text{arm}},S}`.

A *data law* is the experimenter's distribution :math:`\mathbb{D}_{\mathcal S}`: it
samples offline datasets and knows the data triggering probabilities
:math:`p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}}` exactly where tractable
(or by Monte-Carlo with a stated error, declared by ``exact = False``).

:mod:`offcmab.bounds` computes the coverage coefficients (:math:`C_\infty^*`, :math:`C_1^*`,
:math:`\bar K^*`, :math:`\bar K_2^*`) from exactly these two vectors, and
:mod:`offcmab.validation` uses ``reward`` to measure exact suboptimality gaps.

References
----------
Paper, Section 2 (``sec: problem setting``), conditions ``cond:inf_norm_cov`` and
``cond:1_norm_cov``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import FloatArray, IntArray, OfflineDataset
from offcmab.reference.oracles import Oracle


@runtime_checkable
class CMABTProblem(Protocol):
    r"""A CMAB-T instance with known means (for simulation and exact evaluation)."""

    @property
    def m(self) -> int:
        """Number of base arms."""
        ...

    @property
    def mu(self) -> FloatArray:
        r"""True means :math:`\mu`."""
        ...

    @property
    def smoothness_B1(self) -> float:
        r"""Coefficient :math:`B_1` of 1-norm TPM bounded smoothness (``cond:TPM``)."""
        ...

    def oracle(self) -> Oracle:
        """An oracle over this problem's feasible actions (declares ``alpha``)."""
        ...

    def reward(self, action: IntArray, mu: npt.ArrayLike | None = None) -> float:
        r"""Exact expected reward :math:`r(S;\mu)` (true means when ``mu`` is None)."""
        ...

    def trigger_probabilities(self, action: IntArray) -> FloatArray:
        r"""Exact :math:`p_i^{\mathbb{D}_{\text{arm}},S}` for every arm (length ``m``)."""
        ...

    def optimal_action(self) -> IntArray:
        r"""An optimal action :math:`S^*` under the true means."""
        ...


@runtime_checkable
class DataLaw(Protocol):
    r"""A data-collecting distribution :math:`\mathbb{D}_{\mathcal S}` for one problem."""

    #: True when ``data_trigger_probabilities`` is exact, False when Monte-Carlo.
    exact: bool

    def sample(self, n: int, rng: np.random.Generator) -> OfflineDataset:
        """Draw an offline dataset of ``n`` samples."""
        ...

    def data_trigger_probabilities(self) -> FloatArray:
        r""":math:`p_i^{\mathbb{D}_{\text{arm}},\mathbb{D}_{\mathcal S}}` for every arm."""
        ...
