r"""Events of the node-level IM proof (``apdx_sec:app_IM_node``, ``apdx_lem:aux_IM``).

Theorem 4's proof runs the lemma at the share :math:`\delta'` that
:data:`offcmab.bounds.events.IM_DELTA_PRIME` records, i.e. with
:math:`L = \log(1/\delta')` (:func:`offcmab.validation.events.proof.im_log_term`; the rows
compute it from the graph and :math:`n`, never from the ``log_term`` the subject reports).
With
:math:`B(x, N) = 4\sqrt3\sqrt{x(1-x)L/N} + 28L/N`, the lemma's events are

* :math:`\mathcal E_{arm,1}(u)`: :math:`q_u \le \bar q_u \le \min\{q_u + B(q_u, n), 1\}`,
  failure :math:`\le 2\delta'`;
* :math:`\mathcal E_{arm,2}(\bar v)`: :math:`p(\bar v) \le \bar p(\bar v) \le
  \min\{p(\bar v) + B(p(\bar v), n), 1\}`, failure :math:`\le 2\delta'`;
* :math:`\mathcal E_{arm,3}(\bar u, \bar v)`: :math:`\max\{p(\bar v|\bar u) -
  B(p(\bar v|\bar u), n_{0,\bar u}), 0\} \le \underline p(\bar v|\bar u) \le
  p(\bar v|\bar u)`, failure :math:`\le 2n\delta'`.

The interval row checks them for every source :math:`u`, every target :math:`v` and
every edge, so its promised failure is the union bound
:math:`2\delta'(|\text{sources}| + |\text{targets}|) + 2n\delta' E`.  On these events
the edge LCB :math:`\underline p_{uv} \le p_{uv}` (step (1) of the proof, by
monotonicity of ``eq:puv``); the edge row checks that consequence alone, with the same
promise.  The oracle row checks step (2), the oracle's own promise on the algorithm's
weights: with the exact oracle used here (:math:`\alpha = 1`), the chosen seed set must
reach the largest spread on the graph weighted by the algorithm's edge LCBs (promise 0:
one shortfall fails the row).  A procedure that computes correct LCBs but then ignores
them (seeds fixed in advance, an oracle that ignores its weights) fails it.  It runs at
:math:`n = 20000`: at 5000 every edge LCB of this graph is still 0 and every seed set ties.
The printed estimator :math:`n_{1,\bar u,\bar v}/n_{1,\bar v}` (erratum
``alg:CLCB-IM/im-conditional-estimator``) estimates a different quantity, so its
:math:`\underline p(\bar v|\bar u)` misses the truth.

Every row calls the algorithm as Theorem 4 calls it, ``f(graph, cascades, oracle, delta)``
on the graph with its edge probabilities hidden, and reads the statistics from what it
returns: the reference (CLCB-IM-N as its theorem's signature names it, with whatever
estimator that function uses by default) is checked exactly as a user's algorithm is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from offcmab.bounds.events import IM_DELTA_PRIME
from offcmab.bounds.theorems.im import THM4_IM
from offcmab.reference.im.exact import brute_force_im, exact_spread
from offcmab.reference.im.one_step import one_step_probabilities
from offcmab.validation.events import proof
from offcmab.validation.events.subject import node_algorithm, node_choice
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.scenarios.im import build, exact_oracle, star_and_chain

#: An IM-N statistics routine under test: (graph, cascades, delta) -> a result with the
#: fields of :class:`offcmab.reference.im.clcb_im_node.CLCBIMResult` (q_ucb, p_not_ucb,
#: p_cond_lcb, lcb, counters, log_term).
NodeAlgorithm = Callable[[Any, Any, float], Any]

ROUNDING = 1e-12


def _width(x: np.ndarray, count: np.ndarray, log_term: float) -> np.ndarray:
    count = np.asarray(count, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(count > 0, 4.0 * np.sqrt(3.0) * np.sqrt(x * (1.0 - x) * log_term / count)
                        + 28.0 * log_term / count, np.inf)


def _inside(value: np.ndarray, low: np.ndarray, high: np.ndarray) -> bool:
    slack = ROUNDING * (1.0 + np.abs(high))
    return bool(np.all((value >= low - slack) & (value <= high + slack)))


def interval_events_fail(result: Any, graph: Any, exact: Any, L: float) -> bool:
    """Whether some :math:`\\mathcal E_{arm,1}`, :math:`\\mathcal E_{arm,2}` or
    :math:`\\mathcal E_{arm,3}` event fails, with the proof's log term ``L``."""
    n = int(result.counters.n)
    u, v = np.unique(graph.sources), np.unique(graph.targets)
    q, p_not, p_cond = exact.q, exact.p_not, exact.p_not_given_not
    q_ok = _inside(result.q_ucb[u], q[u], np.minimum(q[u] + _width(q[u], np.full(u.size, n), L),
                                                     1.0))
    v_ok = _inside(result.p_not_ucb[v], p_not[v],
                   np.minimum(p_not[v] + _width(p_not[v], np.full(v.size, n), L), 1.0))
    count = np.asarray(result.counters.unseeded)[graph.sources]
    cond_ok = _inside(result.p_cond_lcb, np.maximum(p_cond - _width(p_cond, count, L), 0.0),
                      p_cond)
    return not (q_ok and v_ok and cond_ok)


def edge_event_fails(result: Any, graph: Any) -> bool:
    r"""Whether some edge LCB exceeds its true probability :math:`p_{uv}`."""
    return bool(np.any(np.asarray(result.lcb) > graph.p + ROUNDING))


def oracle_step_fails(result: Any, graph: Any, k: int) -> bool:
    """Whether the chosen seeds fall short of the best ``k`` seeds on the LCB-weighted graph."""
    weighted = graph.with_probabilities(np.clip(np.asarray(result.lcb, dtype=float), 0.0, 1.0))
    _, best = brute_force_im(weighted, k)
    chosen = exact_spread(weighted, np.asarray(result.seeds, dtype=np.int64))
    return bool(chosen < best - ROUNDING * (1.0 + best))


def oracle_case(instance: str, params: dict[str, Any], n: int, delta: float,
                run: Callable[[Any, Any, Any, float], Any], trials: int = 0) -> EventCase:
    """The oracle-step row: the seeds ``run`` returns (the subject, read through
    :func:`~offcmab.validation.events.subject.node_choice`) are a best seed set for its own
    LCBs."""
    problem = build(params)
    graph, k = problem.graph, int(params["k"])
    hidden = graph.with_probabilities(np.zeros(graph.edges))  # the algorithm sees no truth
    oracle = exact_oracle(graph, k)

    def draw(rng: np.random.Generator) -> bool:
        return oracle_step_fails(run(hidden, problem.sample(n, rng), oracle, delta), graph, k)

    return EventCase("event-im-oracle-step", (), "offcmab.reference.im.clcb_im_node",
                     "apdx_sec:app_IM_node step (2)",
                     "sigma_LCB(S_hat) >= max_S sigma_LCB(S) (exact oracle, alpha = 1)",
                     instance, n, delta, 0.0, draw, trials=trials)


def node_case(event_id: str, which: str, instance: str, params: dict[str, Any], n: int,
              delta: float, run: NodeAlgorithm, trials: int = 0) -> EventCase:
    """The interval (``which="intervals"``) or edge-LCB (``"edge"``) row of one graph, on the
    statistics ``run`` returns (the subject, read through
    :func:`~offcmab.validation.events.subject.node_algorithm`)."""
    problem = build(params)
    graph = problem.graph
    hidden = graph.with_probabilities(np.zeros(graph.edges))  # the algorithm sees no truth
    exact = one_step_probabilities(graph, problem.q)
    sources, targets = np.unique(graph.sources).size, np.unique(graph.targets).size
    sizes = {"n": n, "E": graph.edges}
    delta_prime, L = proof.im_delta_prime(sizes, delta), proof.im_log_term(sizes, delta)
    failure = min(2.0 * delta_prime * (sources + targets) + 2.0 * n * delta_prime * graph.edges,
                  1.0)

    def draw(rng: np.random.Generator) -> bool:
        result = run(hidden, problem.sample(n, rng), delta)
        if which == "edge":
            return edge_event_fails(result, graph)
        return interval_events_fail(result, graph, exact, L)

    statement = ("q_u <= q_ucb <= q_u + B, p(v̄) <= p_ucb(v̄) <= p(v̄) + B, "
                 "p(v̄|ū) - B <= p_lcb(v̄|ū) <= p(v̄|ū), B = 4 sqrt(3 x(1-x) L/N) + 28 L/N, "
                 "L = log(1/delta'), delta' = " + sp.sstr(IM_DELTA_PRIME)
                 if which == "intervals"
                 else "edge LCB <= p_uv for every edge")
    lemma = "apdx_lem:aux_IM" if which == "intervals" else "apdx_sec:app_IM_node step (1)"
    return EventCase(event_id, (THM4_IM.id,), "offcmab.reference.im.clcb_im_node", lemma,
                     statement,
                     instance, n, delta, failure, draw, trials=trials)


def cases(profile: str, function: Callable[..., Any], spec: str) -> list[EventCase]:
    """The interval, edge-LCB and oracle-step rows on the six-node graph (fewer trials:
    costly data).

    ``function`` is the algorithm in CLCB-IM-N's place, called as its theorem calls it,
    ``f(graph, cascades, oracle, delta)``, with the exact oracle (in a reference run,
    CLCB-IM-N as its theorem's signature names it); every row reads what it returns.
    ``spec`` names it in messages.
    """
    k = int(star_and_chain()["k"])
    n = 10000 if profile == "full" else 5000
    run = node_algorithm(function, spec, lambda graph: exact_oracle(graph, k))
    choice = node_choice(function, spec)
    trials = {"quick": 30, "default": 40, "full": 100}[profile]  # cascades cost ~25 ms each
    oracle_trials = {"quick": 10, "default": 10, "full": 30}[profile]
    return [node_case("event-im-intervals", "intervals", "star-and-chain", star_and_chain(), n,
                      0.05, run, trials),
            node_case("event-im-edge-lcb", "edge", "star-and-chain", star_and_chain(), n, 0.05,
                      run, trials),
            oracle_case("star-and-chain", star_and_chain(), 20000, 0.05, choice, oracle_trials)]
