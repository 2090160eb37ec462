r"""The event :math:`\mathcal E_{\text{arm}}` of CLCB, CLCB-Cascade and edge-level IM.

``apdx_lem:arm_concen``: with the radius
:math:`\rho_i = \sqrt{\log(c\,mn/\delta)/(2N_i)}` (:math:`c = 2` in the proof and in
CLCB-Cascade, :math:`c = 4` as printed in Algorithm 1), Hoeffding's inequality for each
arm and each value :math:`N_i = j` and a union bound over :math:`mn` pairs give

.. math::

    P\big(\exists i:\ |\hat\mu_i - \mu_i| > \rho_i\big) \le mn \cdot \frac{2\delta}{c\,mn}
    = \frac{2\delta}{c},

and on the complement :math:`\mu_i - 2\rho_i \le \underline\mu_i \le \mu_i`
(``eq:LCB_upper_lower``) for every observed arm.  The row checks exactly that
sandwich with the LCBs the algorithm returned and the radius the lemma prescribes at
the algorithm's own counts :math:`N_i` (arms never observed have
:math:`\underline\mu_i = -\infty` and no claim).  A radius that is too small puts some
LCB above its mean; one that is too large puts it below :math:`\mu_i - 2\rho_i`.

The event is a union over every arm, so a radius only somewhat too narrow (half the width,
or a lone Hoeffding interval without the union bound) shows only where many arms with means
near 1/2 are each observed often: the ``im-edge-wide`` row of CLCB
(:func:`offcmab.validation.scenarios.cmabt.wide_im_edge`: 500 edges, every one observed in
each of 40 rounds) and the ``cascade-wide`` row of CLCB-Cascade
(:func:`~offcmab.validation.scenarios.cmabt.wide_cascade`: 600 items, ``n = 12000``; a
cascade shows about 1.5 items per round).  On a few arms, or means near 0 or 1, such a
radius still covers in almost every dataset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from offcmab.reference.oracles import TopK
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.scenarios import cmabt
from offcmab.validation.scenarios.cmabt import WIDE_N, WIDE_ROUNDS, wide_cascade, wide_im_edge
from offcmab.validation.scenarios.im import star_and_chain
from offcmab.validation.scenarios.thm1 import paper_fig1a

#: An LCB algorithm under test: (dataset, oracle, delta) -> (counts, lcb), both per arm.
LCBAlgorithm = Callable[[Any, Any, float], tuple[np.ndarray, np.ndarray]]

#: The constant ``c`` of ``log(c m n / delta)`` each algorithm is meant to use.
LOG_CONSTANT = {"offcmab.reference.clcb": 4.0, "offcmab.reference.clcb_cascade": 2.0,
                "offcmab.reference.im.clcb_im_edge": 4.0}


def arm_event_fails(counts: np.ndarray, lcb: np.ndarray, mu: np.ndarray, n: int,
                    delta: float, constant: float) -> bool:
    r"""True when some observed arm leaves :math:`[\mu_i - 2\rho_i, \mu_i]`."""
    seen = counts > 0
    radius = np.sqrt(np.log(constant * mu.size * n / delta) / (2.0 * counts[seen]))
    low, high = mu[seen] - 2.0 * radius, mu[seen]
    # A relative allowance of 1e-12 for float rounding of mean - radius at the edges.
    slack = 1e-12 * (1.0 + np.abs(high))
    inside = (lcb[seen] >= low - slack) & (lcb[seen] <= high + slack)
    return not bool(np.all(inside))


def arm_case(event_id: str, algorithm: str, instance: str, params: dict[str, Any], n: int,
             delta: float, run: LCBAlgorithm) -> EventCase:
    r"""The :math:`\mathcal E_{\text{arm}}` row of one CMAB-T instance (cmabt ``params``).

    ``run`` is the subject (:func:`offcmab.validation.events.subject.arm_algorithm`);
    ``algorithm`` the module whose radius constant the row applies (:data:`LOG_CONSTANT`).
    """
    setup = cmabt.build(params)
    mu = np.asarray(setup.problem.mu, dtype=float)
    # The LCBs do not depend on the oracle; a top-k stand-in skips the costly exact IM one.
    oracle = TopK(int(params["k"])) if params["family"] == "im-edge" else setup.oracle
    constant = LOG_CONSTANT[algorithm]

    def draw(rng: np.random.Generator) -> bool:
        counts, lcb = run(setup.law.sample(n, rng), oracle, delta)
        return arm_event_fails(np.asarray(counts), np.asarray(lcb, dtype=float), mu, n,
                               delta, constant)

    return EventCase(
        event_id, (), algorithm, "apdx_lem:arm_concen (eq:LCB_upper_lower)",
        f"mu_i - 2 rho_i <= lcb_i <= mu_i for every observed arm, "
        f"rho_i = sqrt(log({constant:g} m n/delta)/(2 N_i))",
        instance, n, delta, min(2.0 * delta / constant, 1.0), draw)


OOD = {"family": "cascade", "mu": [0.6, 0.5, 0.45, 0.4, 0.3, 0.3, 0.2, 0.1, 0.1, 0.05],
       "k": 3, "law": {"kind": "ood"}}


def size(profile: str) -> int:
    """The dataset size of the CMAB-T event rows."""
    return 1000 if profile == "quick" else 2000


CLOSE = {"family": "kpath", "path_means": [0.52, 0.5, 0.48], "k": 2,
         "law": {"kind": "paths", "weights": [1 / 3, 1 / 3, 1 / 3]}}


def im_edge_params() -> dict[str, Any]:
    """Edge-level IM on the six-node graph of the node-level scenario, k = 2."""
    graph = {key: value for key, value in star_and_chain().items()
             if key in ("nodes", "sources", "targets", "p")}
    return {"family": "im-edge", "graph": graph, "k": 2,
            "law": {"kind": "seeds", "q": [0.5] * 6}}


def clcb_cases(profile: str, run: LCBAlgorithm) -> list[EventCase]:
    """CLCB's arm event on k-path and cascade data, and on edge-level IM data (also many edges).

    ``run`` is the subject in CLCB's place (the reference CLCB in a reference run), read
    through :func:`~offcmab.validation.events.subject.arm_algorithm`.
    """
    close, im_edge = CLOSE, im_edge_params()
    n = size(profile)
    return [
        arm_case("event-arm-clcb", "offcmab.reference.clcb", "kpath-close", close, n, 0.05,
                 run),
        arm_case("event-arm-clcb", "offcmab.reference.clcb", "cascade-ood", OOD, n, 0.05, run),
        arm_case("event-arm-im-edge", "offcmab.reference.im.clcb_im_edge", "im-edge", im_edge,
                 n, 0.05, run),
        arm_case("event-arm-im-edge", "offcmab.reference.im.clcb_im_edge", "im-edge-wide",
                 wide_im_edge(), WIDE_ROUNDS, 0.05, run),
    ]


def cascade_cases(profile: str, run: LCBAlgorithm) -> list[EventCase]:
    """CLCB-Cascade's arm event (Figure 1(a)'s data in the full profile), and on many items;
    ``run`` is the subject in CLCB-Cascade's place (called with ``k`` for the oracle)."""
    cascade_data = paper_fig1a() if profile == "full" else OOD
    cascade_name = "paper-fig1a" if profile == "full" else "cascade-ood"
    return [arm_case("event-arm-cascade", "offcmab.reference.clcb_cascade", cascade_name,
                     cascade_data, size(profile), 0.05, run),
            arm_case("event-arm-cascade", "offcmab.reference.clcb_cascade", "cascade-wide",
                     wide_cascade(), WIDE_N, 0.05, run)]
