r"""The event :math:`\mathcal E_{\text{arm}}` of CLCB, CLCB-Cascade and edge-level IM.

``apdx_lem:arm_concen``: with the radius :math:`\rho_i = \sqrt{\log(c/\delta)/(2N_i)}`
the proof's event needs (its constant :math:`c` for Theorem 1 and for CLCB-Cascade's
corollary is recorded in :mod:`offcmab.bounds.events`), Hoeffding's inequality for each
arm and each value :math:`N_i = j` and a union bound over :math:`mn` pairs bound the
event's failure probability by :math:`mn\cdot 2e^{-2N_i\rho_i^2}`; the row takes both the
radius and that failure probability from the registry
(:mod:`offcmab.validation.events.proof`).
On the complement :math:`\mu_i - 2\rho_i \le \underline\mu_i \le \mu_i`
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

from offcmab.bounds.theorems.cascade import COR1_CASCADE
from offcmab.bounds.theorems.upper import THM1_INF, THM1_ONE
from offcmab.reference.oracles import TopK
from offcmab.validation.events import proof
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.scenarios import cmabt
from offcmab.validation.scenarios.cmabt import WIDE_N, WIDE_ROUNDS, wide_cascade, wide_im_edge
from offcmab.validation.scenarios.im import star_and_chain
from offcmab.validation.scenarios.thm1 import paper_fig1a

#: An LCB algorithm under test: (dataset, oracle, delta) -> (counts, lcb), both per arm.
LCBAlgorithm = Callable[[Any, Any, float], tuple[np.ndarray, np.ndarray]]

#: The bound ids whose proofs rest on each algorithm's arm event; the first one's event
#: gives the row its radius and failure probability (Theorem 1's two norms share theirs).
BOUND_IDS = {"offcmab.reference.clcb": (THM1_INF.id, THM1_ONE.id),
             "offcmab.reference.clcb_cascade": (COR1_CASCADE.id,),
             "offcmab.reference.im.clcb_im_edge": (THM1_ONE.id,)}


def arm_event_fails(counts: np.ndarray, lcb: np.ndarray, mu: np.ndarray,
                    log_term: float) -> bool:
    r"""True when some observed arm leaves :math:`[\mu_i - 2\rho_i, \mu_i]`,
    :math:`\rho_i = \sqrt{L/(2N_i)}` with ``log_term`` :math:`L`."""
    seen = counts > 0
    radius = proof.radius(log_term, counts[seen])
    low, high = mu[seen] - 2.0 * radius, mu[seen]
    # A relative allowance of 1e-12 for float rounding of mean - radius at the edges.
    slack = 1e-12 * (1.0 + np.abs(high))
    inside = (lcb[seen] >= low - slack) & (lcb[seen] <= high + slack)
    return not bool(np.all(inside))


def arm_case(event_id: str, algorithm: str, instance: str, params: dict[str, Any], n: int,
             delta: float, run: LCBAlgorithm) -> EventCase:
    r"""The :math:`\mathcal E_{\text{arm}}` row of one CMAB-T instance (cmabt ``params``).

    ``run`` is the subject (:func:`offcmab.validation.events.subject.arm_algorithm`);
    ``algorithm`` the module whose proof's event the row checks (:data:`BOUND_IDS`).
    """
    setup = cmabt.build(params)
    mu = np.asarray(setup.problem.mu, dtype=float)
    # The LCBs do not depend on the oracle; a top-k stand-in skips the costly exact IM one.
    oracle = TopK(int(params["k"])) if params["family"] == "im-edge" else setup.oracle
    bound_ids = BOUND_IDS[algorithm]
    sizes = {"m": mu.size, "n": n}
    log_term = proof.log_term(bound_ids[0], "arm", sizes, delta)

    def draw(rng: np.random.Generator) -> bool:
        counts, lcb = run(setup.law.sample(n, rng), oracle, delta)
        return arm_event_fails(np.asarray(counts), np.asarray(lcb, dtype=float), mu, log_term)

    return EventCase(
        event_id, bound_ids, algorithm, "apdx_lem:arm_concen (eq:LCB_upper_lower)",
        f"mu_i - 2 rho_i <= lcb_i <= mu_i for every observed arm, "
        f"rho_i = {proof.radius_text(bound_ids[0], 'arm', 'N_i')}",
        instance, n, delta, proof.failure(bound_ids[0], "arm", sizes, delta), draw)


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
