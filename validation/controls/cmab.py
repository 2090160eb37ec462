r"""Controls of CLCB (Theorems 1 and 2) and CLCB-Cascade (Corollary 1).

Every control computes CLCB's own statistics (:func:`offcmab.reference.confidence.arm_statistics`,
:func:`offcmab.reference.confidence.hoeffding_radius`) and hands the oracle a different index
in place of the LCB :math:`\hat\mu_i - \rho_i` of ``line:LCB``:

* ``no-pessimism``: :math:`\hat\mu_i` (radius times 0);
* ``optimism``: the UCB :math:`\hat\mu_i + \rho_i` (radius times -1);
* ``radius-0.1``: :math:`\hat\mu_i - \rho_i/10`;
* ``radius-0.5``: :math:`\hat\mu_i - \rho_i/2`;
* ``no-union-bound``: :math:`\hat\mu_i - \sqrt{\log(2/\delta)/(2N_i)}`, the radius of one
  arm's two-sided Hoeffding interval at :math:`\delta` (:func:`no_union_bound`);
* ``ignores-data``: a fixed index, increasing in the arm id (the last arms win);
* ``oracle-ignores-weights``: the LCBs are computed but the oracle is called with
  constant weights (ties: the first arms win), i.e. a first-``k`` oracle;
* ``oracle-last-k``, ``oracle-reversed``, ``oracle-random``: CLCB itself with its oracle
  wrapped in a :class:`offcmab.validation.controls.oracles.BrokenOracle` (the last ``k``
  arms or the last path, the smallest LCBs first, an action unrelated to the LCBs);
* ``certificate-radius-0.3``: CLCB's action, but the certificate it returns is computed at
  0.3 times the radius of its event (:func:`narrowed_certificate`): the class of
  certificates that claim more than their event gives.

The returned :class:`offcmab.reference.clcb.CLCBResult` carries the index the oracle saw in
its ``lcb`` field, so checks of the LCB's confidence event see what the control used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from offcmab.reference.certificates import cascade_certifier, kpath_certifier
from offcmab.reference.clcb import CLCBResult, clcb
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.confidence import (
    LOG_CONSTANT,
    RadiusRule,
    arm_statistics,
    hoeffding_radius,
    log_over_delta,
)
from offcmab.reference.dataset import FloatArray, OfflineDataset
from offcmab.reference.oracles import KPathOracle, Oracle, TopK
from offcmab.validation.controls.oracles import BrokenOracle, Mistake


def scaled_index(dataset: OfflineDataset, delta: float, scale: float,
                 rule: RadiusRule = "alg1") -> tuple[Any, FloatArray]:
    r"""CLCB's statistics and the index :math:`\hat\mu_i - \text{scale}\cdot\rho_i`.

    ``scale = 1`` is CLCB's LCB exactly (unobserved arms :math:`-\infty`); for a
    negative scale (a UCB) unobserved arms get :math:`+\infty`, as in CUCB-Offline;
    ``scale = 0`` ranks unobserved arms last, as EMP does.
    """
    stats = arm_statistics(dataset)
    radius = hoeffding_radius(stats.counts, dataset.n, dataset.m, delta, rule)
    observed = stats.counts > 0
    index = np.full(dataset.m, np.inf if scale < 0 else -np.inf)
    index[observed] = stats.means[observed] - scale * radius[observed]
    return stats, index


def _run(dataset: OfflineDataset, oracle: Oracle, delta: float, scale: float,
         radius: RadiusRule) -> CLCBResult:
    stats, index = scaled_index(dataset, delta, scale, radius)
    return CLCBResult(oracle(index), stats.counts, stats.means, index)


def no_pessimism(dataset: OfflineDataset, oracle: Oracle, delta: float,
                 radius: RadiusRule = "alg1") -> CLCBResult:
    """No pessimism: the oracle gets the empirical means instead of the LCBs."""
    return _run(dataset, oracle, delta, 0.0, radius)


def optimism(dataset: OfflineDataset, oracle: Oracle, delta: float,
             radius: RadiusRule = "alg1") -> CLCBResult:
    """Optimism: the oracle gets the UCBs (mean plus radius) instead of the LCBs."""
    return _run(dataset, oracle, delta, -1.0, radius)


def radius_tenth(dataset: OfflineDataset, oracle: Oracle, delta: float,
                 radius: RadiusRule = "alg1") -> CLCBResult:
    """Radius times 0.1: the LCB subtracts a tenth of the confidence radius."""
    return _run(dataset, oracle, delta, 0.1, radius)


def radius_half(dataset: OfflineDataset, oracle: Oracle, delta: float,
                radius: RadiusRule = "alg1") -> CLCBResult:
    """Radius times 0.5: a confidence interval half as wide as the proof needs."""
    return _run(dataset, oracle, delta, 0.5, radius)


def single_interval_scale(m: int, n: int, delta: float, rule: RadiusRule = "alg1") -> float:
    r"""The factor :math:`\sqrt{\log(2/\delta)/\log(c\,mn/\delta)}` that turns CLCB's radius
    into the radius of one arm's two-sided Hoeffding interval at :math:`\delta`."""
    return float(np.sqrt(np.log(2.0 / delta) / log_over_delta((LOG_CONSTANT[rule], m, n), delta)))


def no_union_bound(dataset: OfflineDataset, oracle: Oracle, delta: float,
                   radius: RadiusRule = "alg1") -> CLCBResult:
    r"""No union bound: each arm's interval is a lone Hoeffding interval at the stated delta.

    The LCB subtracts :math:`\sqrt{\log(2/\delta)/(2N_i)}` in place of CLCB's printed
    :math:`\sqrt{\log(c\,mn/\delta)/(2N_i)}`.  The factor :math:`c\,mn/2` inside the
    logarithm pays for the union over the :math:`m` arms and the :math:`n` possible values of
    :math:`N_i`; without it each interval alone covers with probability :math:`1-\delta`
    but all of them at once do not.
    """
    return _run(dataset, oracle, delta,
                single_interval_scale(dataset.m, dataset.n, delta, radius), radius)


def ignores_data(dataset: OfflineDataset, oracle: Oracle, delta: float,
                 radius: RadiusRule = "alg1") -> CLCBResult:
    """Ignores its data: the oracle gets a fixed index increasing in the arm id."""
    stats, _ = scaled_index(dataset, delta, 1.0, radius)
    index = np.arange(dataset.m, dtype=np.float64)
    return CLCBResult(oracle(index), stats.counts, stats.means, index)


def oracle_ignores_weights(dataset: OfflineDataset, oracle: Oracle, delta: float,
                           radius: RadiusRule = "alg1") -> CLCBResult:
    """An oracle that ignores its weights: the LCBs are computed, the oracle sees zeros."""
    stats, index = scaled_index(dataset, delta, 1.0, radius)
    return CLCBResult(oracle(np.zeros_like(index)), stats.counts, stats.means, index)


def _broken(mistake: Mistake, summary: str) -> Callable[..., CLCBResult]:
    """CLCB with its oracle called with the wrong weights (``mistake``)."""

    def run(dataset: OfflineDataset, oracle: Oracle, delta: float,
            radius: RadiusRule = "alg1") -> CLCBResult:
        return clcb(dataset, BrokenOracle(oracle, mistake), delta, radius)

    run.__doc__ = summary
    run.__name__ = f"oracle_{mistake}"
    return run


oracle_last_k = _broken("last", "A last-k oracle: CLCB's oracle returns the last k arms "
                                "(or the last path), whatever the LCBs.")
oracle_reversed = _broken("reversed", "A reversed oracle: CLCB's oracle ranks the smallest "
                                      "LCBs first (it minimizes).")
oracle_random = _broken("random", "A random oracle: CLCB's oracle returns an action unrelated "
                                  "to the order of the LCBs.")


#: The controls that compute a certificate of their own (the others return the reference's
#: certifier or none, so certificate rows cannot flag them and do not run for them).
CERTIFICATE_CONTROLS = ("certificate-radius-0.3",)

#: The factor of the narrowed certificate's radius.
CERTIFICATE_SCALE = 0.3


def narrowed_certificate(dataset: OfflineDataset, oracle: Oracle, delta: float,
                         radius: RadiusRule = "alg1") -> CLCBResult:
    """CLCB, its k-path certificate computed at 0.3 times its event's radius."""
    result = clcb(dataset, oracle, delta, radius)
    if not isinstance(oracle, KPathOracle):
        return result
    return replace(result, certifier=kpath_certifier(
        result.counts, result.means, dataset.n, oracle.k, delta, LOG_CONSTANT[radius],
        CERTIFICATE_SCALE))


def cascade_narrowed_certificate(dataset: OfflineDataset, k: int, delta: float,
                                 radius: RadiusRule = "cascade") -> CLCBResult:
    """CLCB-Cascade, its certificate computed at 0.3 times its event's radius."""
    result = clcb_cascade(dataset, k, delta, radius)
    return replace(result, certifier=cascade_certifier(
        result.counts, result.means, dataset.n, k, delta, LOG_CONSTANT[radius],
        CERTIFICATE_SCALE))


def _cascade(control: Callable[..., CLCBResult]) -> Callable[..., CLCBResult]:
    """The CLCB-Cascade form of a CLCB control: top-k oracle, cascade radius."""

    def run(dataset: OfflineDataset, k: int, delta: float,
            radius: RadiusRule = "cascade") -> CLCBResult:
        return control(dataset, TopK(k), delta, radius)

    run.__doc__ = control.__doc__
    run.__name__ = f"cascade_{control.__name__}"
    return run


CLCB_CONTROLS: dict[str, Callable[..., CLCBResult]] = {
    "no-pessimism": no_pessimism, "optimism": optimism, "radius-0.1": radius_tenth,
    "radius-0.5": radius_half, "no-union-bound": no_union_bound,
    "ignores-data": ignores_data, "oracle-ignores-weights": oracle_ignores_weights,
    "oracle-last-k": oracle_last_k, "oracle-reversed": oracle_reversed,
    "oracle-random": oracle_random, "certificate-radius-0.3": narrowed_certificate,
}
#: Controls whose mistake is the oracle's.
ORACLE_CONTROLS = ("oracle-ignores-weights", "oracle-last-k", "oracle-reversed", "oracle-random")
#: On the lower-bound pair the controls stand in for CLCB (the bound holds for all).  The
#: oracle that ignores its weights picks the first path, which is also CLCB's pick on the
#: proof's pair, and that pair has no event row that could see the other oracle mistakes,
#: so the oracle controls are left out there; the narrowed certificate changes no action
#: (the lower bound cannot see it) and is left out too.
LOWER_CONTROLS = {name: control for name, control in CLCB_CONTROLS.items()
                  if name not in (*ORACLE_CONTROLS, "certificate-radius-0.3")}
CASCADE_CONTROLS: dict[str, Callable[..., CLCBResult]] = {
    name: _cascade(CLCB_CONTROLS[name])
    for name in ("no-pessimism", "optimism", "radius-0.1", "radius-0.5", "no-union-bound",
                 "ignores-data", *ORACLE_CONTROLS)
} | {"certificate-radius-0.3": cascade_narrowed_certificate}
