r"""The oracles' promise, checked on the oracle objects the scenarios hand to the subjects.

An :math:`\alpha`-approximate oracle called with weights :math:`w` promises
:math:`r(S; w) \ge \alpha\max_{S'} r(S'; w)` (``eq:def_oracle``); step (b) of the proof of
``thm:upper_bound`` (and step (2) of ``apdx_sec:app_IM_node``) uses it at :math:`w` = the
algorithm's LCBs.  Every row here takes the chosen action's value and the exact optimum
from the independent evaluator (:mod:`offcmab.validation.evaluator`: every feasible action
of a small instance, rewards in closed form or by live-edge enumeration), never from the
oracle's own code.  An action that is not feasible fails the trial.

``event-oracle-promise``
    The oracle the scenario hands over (``setup.oracle`` of a CMAB-T instance, the exact
    brute-force IM oracle of the node-level scenario), called with weights drawn uniformly
    from the grid :math:`\{0, 0.1, \dots, 1\}` (ties occur).  These oracles are exact: promise
    0, one shortfall fails the row.  It catches an oracle that returns a fixed action
    (first or last ``k``), minimizes, or picks at random; it cannot catch an algorithm that
    bypasses the oracle (see the choice rows).  It checks the package's own oracle, not the
    algorithm, so it runs in reference runs only (``subject_free``).
``event-oracle-imm``
    The IMM oracle object the node-level IM scenario hands to the subject on its IMM
    instance (:class:`offcmab.reference.im.oracles.IMMOracle`), grid weights as above, with
    :math:`\alpha = 1-1/e-\varepsilon`.  Its guarantee holds with probability
    :math:`1-\delta'` over its own randomness, so each trial redraws the object's ``seed``
    (the trials are then independent) and the row is the exact binomial test at
    :math:`\delta'`.  It catches an IMM whose approximation fails more often than
    :math:`\delta'`; it cannot see a failure rate below the row's detectable rate.  Like
    the promise rows it runs in reference runs only.
``event-oracle-choice`` (CLCB) and ``event-oracle-choice-cascade`` (CLCB-Cascade)
    The subject runs on a dataset as its theorem calls it; on the LCBs it returns, both the
    action it returned and the scenario's oracle's action must reach the optimum (exact
    oracles: promise 0).  Rewards are the closed forms on the LCBs themselves, which may
    leave :math:`[0,1]` (the proof applies the oracle there): k-path sums as they are,
    cascade weights capped at 1 (the reward then stays increasing in each weight),
    edge-level IM probabilities clipped to :math:`[0,1]` as the oracle clips them.  It catches
    a subject that computes LCBs and then calls a broken oracle, or none (first, last,
    reversed or random ``k``); it cannot catch a subject whose reported ``lcb`` is the very
    index its oracle saw (a wrong index is the arm rows' business), and it is ``n/a`` for a
    subject that exposes no ``lcb``.
``event-oracle-topk``
    :class:`offcmab.reference.oracles.TopK` (CLCB-Cascade's oracle, which its subject never
    receives) on grid weights at a size too large to enumerate: the chosen sum equals the
    sum of the ``k`` largest weights.  Promise 0.

Each builder takes the oracle (or the subject) under test as an argument, so a broken
oracle (:mod:`offcmab.validation.controls.oracles`) is checked the same way.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from offcmab.reference.oracles import TopK
from offcmab.validation.evaluator import feasible
from offcmab.validation.evaluator.cmab import cascade_rewards
from offcmab.validation.evaluator.spread import spreads
from offcmab.validation.events import arms
from offcmab.validation.events.core import EventCase
from offcmab.validation.events.subject import require
from offcmab.validation.scenarios import cmabt
from offcmab.validation.scenarios.im import build, exact_oracle, instance_oracle, star_and_chain
from offcmab.validation.scenarios.traps import imm_oracle

ROUNDING = 1e-12

#: Grid weights take the values 0, 1/GRID, ..., 1.
GRID = 10

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Feasible:
    """Every feasible action of a small instance (one per row) and their rewards on weights.

    ``values(w)`` is the reward of every row under weights ``w``, by the evaluator's route.
    """

    actions: npt.NDArray[np.int64]
    values: Callable[[FloatArray], FloatArray]
    size: int  # the length of a weight vector

    @functools.cached_property
    def rows(self) -> dict[tuple[int, ...], int]:
        """The row of each feasible action, keyed by its sorted ids."""
        return {tuple(sorted(row)): i for i, row in enumerate(self.actions.tolist())}


def _cascade_values(actions: npt.NDArray[np.int64]) -> Callable[[FloatArray], FloatArray]:
    def values(w: FloatArray) -> FloatArray:
        capped = np.minimum(w, 1.0)  # 1 - w >= 0: the reward increases in every weight
        with np.errstate(invalid="ignore", over="ignore"):
            found = cascade_rewards(capped, actions)
        return np.where(np.any(capped[actions] == 1.0, axis=1), 1.0, found)

    return values


def _sum_values(actions: npt.NDArray[np.int64]) -> Callable[[FloatArray], FloatArray]:
    def values(w: FloatArray) -> FloatArray:
        with np.errstate(invalid="ignore"):
            found = w[actions].sum(axis=1)
        return np.where(np.isnan(found), -np.inf, found)  # +inf and -inf: nothing certified

    return values


def _spread_values(graph: Mapping[str, Any],
                   actions: npt.NDArray[np.int64]) -> Callable[[FloatArray], FloatArray]:
    # A weight vector holds one probability per edge in (source, target) order, the order
    # of the graph handed to the subject and its oracle.
    sources, targets = np.asarray(graph["sources"]), np.asarray(graph["targets"])
    order = np.lexsort((targets, sources))

    def values(w: FloatArray) -> FloatArray:
        return spreads(graph["nodes"], sources[order].tolist(), targets[order].tolist(),
                       np.clip(w, 0.0, 1.0).tolist(), actions)

    return values


def cmabt_feasible(params: Mapping[str, Any]) -> Feasible:
    """The feasible actions of a CMAB-T instance (cascade, k-path, edge-level IM)."""
    k = int(params["k"])
    if params["family"] == "kpath":
        actions = feasible.paths(len(params["path_means"]), k)
        return Feasible(actions, _sum_values(actions), actions.size)
    if params["family"] == "cascade":
        m = len(params["mu"])
        actions = feasible.subsets(m, k)
        return Feasible(actions, _cascade_values(actions), m)
    return node_feasible(params["graph"], k)


def node_feasible(graph: Mapping[str, Any], k: int) -> Feasible:
    """Every seed set of ``k`` nodes, valued by the exact spread under edge weights."""
    actions = feasible.subsets(int(graph["nodes"]), k)
    return Feasible(actions, _spread_values(graph, actions), len(graph["p"]))


def shortfall(space: Feasible, action: npt.ArrayLike, weights: FloatArray,
              alpha: float) -> bool:
    r"""Whether ``action`` is infeasible or below :math:`\alpha\max_S r(S; w)` (rounding aside)."""
    ids = np.asarray(action).ravel()
    if ids.dtype.kind not in "iu" or np.unique(ids).size != ids.size:
        return True
    row = space.rows.get(tuple(sorted(int(i) for i in ids)))
    if row is None:
        return True
    values = space.values(weights)
    best = float(np.max(values))
    if best == -math.inf:
        return False
    return bool(values[row] < alpha * best - ROUNDING * (1.0 + abs(best)))


def _fresh(oracle: Any, rng: np.random.Generator) -> Any:
    """``oracle`` with its ``seed`` redrawn, when it has one (a randomized oracle)."""
    if (dataclasses.is_dataclass(oracle) and not isinstance(oracle, type)
            and any(f.name == "seed" for f in dataclasses.fields(oracle))):
        return dataclasses.replace(oracle, seed=int(rng.integers(2**63)))
    return oracle


def promise_case(event_id: str, instance: str, space: Feasible, oracle: Any, algorithm: str,
                 failure: float = 0.0) -> EventCase:
    """The oracle's promise on grid weights, against the evaluator's optimum."""
    alpha = float(oracle.alpha)

    def draw(rng: np.random.Generator) -> bool:
        weights = rng.integers(0, GRID + 1, space.size) / GRID
        return shortfall(space, _fresh(oracle, rng)(weights), weights, alpha)

    return EventCase(event_id, (), algorithm, "eq:def_oracle",
                     f"r(ORACLE(w); w) >= {alpha:.4g} max_S r(S; w), w on a 0.1 grid, "
                     "exact optimum by the evaluator", instance, space.size, failure, failure,
                     draw, subject_free=True)


def choice_case(event_id: str, instance: str, params: Mapping[str, Any], n: int, delta: float,
                subject: Callable[..., Any], spec: str, cascade: bool = False) -> EventCase:
    """The subject's action and the scenario's oracle, both exact on the subject's LCBs."""
    setup = cmabt.build(params)
    space = cmabt_feasible(params)
    second = int(params["k"]) if cascade else setup.oracle

    def draw(rng: np.random.Generator) -> bool:
        result = require(subject(setup.law.sample(n, rng), second, delta), ("lcb",), spec)
        action = cmabt.checked_action(setup.problem, result, spec)
        lcb = np.asarray(result.lcb, dtype=np.float64)
        return (shortfall(space, action, lcb, 1.0)
                or shortfall(space, setup.oracle(lcb), lcb, 1.0))

    return EventCase(event_id, (), spec, "thm:upper_bound proof step (b), eq:def_oracle",
                     "r(S_hat; lcb) = max_S r(S; lcb) and r(ORACLE(lcb); lcb) = max_S "
                     "r(S; lcb) on the subject's own LCBs (exact oracle)", instance, n, delta,
                     0.0, draw)


def topk_case(m: int, k: int, oracle: Any = None) -> EventCase:
    """Top-k exactness on random grid-valued weights (``oracle``: TopK(k) unless given)."""
    chosen_by = oracle or TopK(k)

    def draw(rng: np.random.Generator) -> bool:
        weights = rng.integers(0, GRID, m) / GRID
        chosen = np.asarray(chosen_by(weights))
        best = float(np.sort(weights)[::-1][:k].sum())
        valid = chosen.size == k and np.unique(chosen).size == k
        return not (valid and float(weights[chosen].sum()) >= best - ROUNDING)

    return EventCase("event-oracle-topk", (),
                     "offcmab.reference.oracles.TopK", "alg:CLCB_cascade (Top-k exact)",
                     "sum of the chosen k weights = sum of the k largest", f"m{m}-k{k}", m,
                     0.0, 0.0, draw, subject_free=True)


def topk_cases() -> list[EventCase]:
    """Top-k exactness on two shapes."""
    return [topk_case(10, 3), topk_case(100, 40)]


CMABT_INSTANCES: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("kpath-close", arms.CLOSE), ("cascade-ood", arms.OOD), ("im-edge", arms.im_edge_params()))


def cmabt_cases(profile: str, subject: Callable[..., Any], spec: str,
                oracle: Callable[[Any], Any] | None = None) -> list[EventCase]:
    """Theorem 1: the scenario's oracle on grid weights and the choice on the LCBs, on
    k-path, cascade and edge-level IM instances.

    ``subject`` is the algorithm in CLCB's place (named ``spec``; the reference CLCB in a
    reference run); ``oracle(setup)`` replaces the oracle under test in the promise rows
    (the scenario's ``setup.oracle`` by default).
    """
    pick = oracle or (lambda setup: setup.oracle)
    promise = [promise_case("event-oracle-promise", name, cmabt_feasible(params),
                            pick(cmabt.build(params)), f"{name}: the scenario's oracle")
               for name, params in CMABT_INSTANCES]
    choice = [choice_case("event-oracle-choice", name, params, arms.size(profile), 0.05,
                          subject, spec)
              for name, params in CMABT_INSTANCES]
    return promise + choice


def cascade_cases(profile: str, subject: Callable[..., Any], spec: str) -> list[EventCase]:
    """Corollary 1: top-k exactness (two shapes, and the cascade reward on the
    out-of-distribution instance) and the choice on the LCBs of ``subject`` (in
    CLCB-Cascade's place, named ``spec``)."""
    return [*topk_cases(),
            promise_case("event-oracle-promise", "cascade-ood", cmabt_feasible(arms.OOD),
                         cmabt.build(arms.OOD).oracle, "cascade-ood: the scenario's oracle"),
            choice_case("event-oracle-choice-cascade", "cascade-ood", arms.OOD,
                        arms.size(profile), 0.05, subject, spec, cascade=True)]


def im_cases(oracle: Callable[[Any, int], Any] | None = None,
             imm: Callable[[Any], Any] | None = None) -> list[EventCase]:
    """Theorem 4: the exact oracle of the six-node graph on grid weights, and the IMM oracle
    object of the scenario's IMM instance (``oracle(graph, k)`` and ``imm(oracle)`` replace
    them, e.g. by a broken oracle)."""
    params, imm_params = star_and_chain(), imm_oracle()
    k = int(params["k"])
    graph = build(params).graph
    exact = (oracle or exact_oracle)(graph, k)
    handed = instance_oracle(imm_params, build(imm_params))
    tested = imm(handed) if imm else handed
    return [promise_case("event-oracle-promise", "star-and-chain", node_feasible(params, k),
                         exact, "star-and-chain: the scenario's exact oracle"),
            promise_case("event-oracle-imm", "trap-imm-oracle", node_feasible(imm_params, k),
                         tested, "trap-imm-oracle: the scenario's IMMOracle",
                         float(handed.delta_prime))]
