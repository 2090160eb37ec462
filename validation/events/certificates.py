r"""Certificate rows: the gap of the returned action stays within the certificate it came with.

A certificate (:mod:`offcmab.bounds.certificates`) promises that, with probability at least
:math:`1 - d` over the log, the gap of the action is at most the certified bound.  A row draws
``trials`` independent logs of a known instance, runs the subject, reads the certificate from
what it returned (``result.certificate.bound``; for a CMAB-T subject without one that
exposes per-arm ``lcb`` and ``ucb``, the certificate those give, computed by the functions of
:mod:`offcmab.reference.certificates` the reference's own certifier uses), computes the true
gap of the returned action, and counts the logs with gap > bound.  The count of a correct
certificate is stochastically below :math:`\mathrm{Binomial}(T, d)` with :math:`d` the
failure probability of the record's event (taken from :mod:`offcmab.bounds.certificates`, not
from the subject), so the exact binomial test of :mod:`~offcmab.validation.events.core` applies.

A certificate is loose on most instances (it adds the widths of the chosen action's and the
best UCB action's intervals), so a certificate whose radius is too narrow shows only where
the data misleads: ``cert-many`` has 1000 arms of mean 1/2 and one of mean 0.9, each observed
about ten times.  The best of the many half-mean arms by LCB then looks as good as the good
arm, and a certificate at 0.3 times the event's radius is exceeded in most logs, while the
proof's radius is never exceeded there.

CLCB-IM-N's rows run on the six-node graph at :math:`n = 10^5` with the exact oracle: the
certificate there is :math:`\max_S\sigma(S;\bar p) - \sigma(\hat S;\underline p)` with
exact spreads, against the gap :math:`\sigma(S^*) - \sigma(\hat S)` (:math:`\alpha = 1`,
the strongest gap; it bounds every :math:`\alpha`-gap).  A subject without a certificate
that exposes per-edge ``lcb`` and ``ucb`` is certified by the same computation
(:class:`offcmab.reference.im.certificate.SpreadCertifier`).

A negative control that changes the action but returns the reference's certifier cannot be
flagged by these rows (the certificate holds for whatever action it is applied to), so for
such controls the rows are not run and say why (:func:`skip_reason`); they run for the
controls that compute their certificate themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import numpy as np

from offcmab.bounds.certificates import certificate_of
from offcmab.reference.certificates import cascade_bound, kpath_bound
from offcmab.reference.confidence import clip_bound
from offcmab.reference.im.certificate import SpreadCertifier
from offcmab.reference.problems.llm_cache import sample_log
from offcmab.validation.actions import as_action
from offcmab.validation.events.arms import CLOSE, OOD
from offcmab.validation.events.subject import NotExposedError, require
from offcmab.validation.parts.event_case import EventCase
from offcmab.validation.scenarios import cmabt, im, llm_instances
from offcmab.validation.subjects import CONTROL

#: A certificate from clipped intervals: (action, lcb, ucb, k) -> bound.
BoundFromIntervals = Callable[[np.ndarray, np.ndarray, np.ndarray, int], float]

#: Cascades of CLCB-IM-N's certificate row.
IM_N = 100000

#: Arms of ``cert-many`` (one of mean :data:`MANY_GOOD`, the rest 1/2) and its log size.
MANY_ARMS, MANY_N, MANY_GOOD = 1000, 10000, 0.9


def bound_of(result: Any, spec: str, action: np.ndarray | None = None,
             from_intervals: BoundFromIntervals | None = None, k: int = 0) -> float:
    """The certified bound of the subject's action: its own ``certificate.bound``, or else (a
    CMAB-T row, ``from_intervals`` given) the certificate its exposed ``lcb`` and ``ucb``
    give, clipped to [0, 1] (``NotExposedError`` when it exposes neither)."""
    certificate = getattr(result, "certificate", None)
    if certificate is not None and hasattr(certificate, "bound"):
        return float(certificate.bound)
    if from_intervals is not None and action is not None \
            and hasattr(result, "lcb") and hasattr(result, "ucb"):
        lcb = clip_bound(np.asarray(result.lcb, dtype=float), 0.0, 1.0, undefined=0.0)
        ucb = clip_bound(np.asarray(result.ucb, dtype=float), 0.0, 1.0, undefined=1.0)
        return from_intervals(action, lcb, ucb, k)
    wanted = "a certificate, or lcb and ucb" if from_intervals is not None else "a certificate"
    raise NotExposedError(f"subject {spec} returns no {wanted}: certificate rows apply to "
                          "algorithms that certify their action or expose their bounds")


def skip_reason(spec: str, certifying: Collection[str]) -> str:
    """Why the certificate rows do not run for ``spec``: a control not in ``certifying``
    (the controls that compute their own certificate) returns the reference's certifier,
    valid for any action; empty for every other subject."""
    prefix = f"{CONTROL}:"
    if not spec.startswith(prefix) or spec[len(prefix):] in certifying:
        return ""
    return (f"{spec} computes no certificate of its own: it returns the reference's "
            "certifier, which holds for whatever action it certifies (the step 'whatever "
            "chose S_hat' of offcmab.bounds.certificates), or none, so this row cannot flag "
            "it; not run")


def exceeds(gap: float, bound: float) -> bool:
    """Whether the gap exceeds the certificate (a relative allowance of 1e-12 for rounding)."""
    return gap > bound + 1e-12 * (1.0 + abs(bound))


def many_params(family: str) -> dict[str, Any]:
    """``cert-many``: one arm of mean 0.9 at id 500 among 1000 of mean 1/2, each round showing
    one arm chosen uniformly (k-path with one arm per path, or one-item cascade lists)."""
    means = [0.5] * MANY_ARMS
    means[MANY_ARMS // 2] = MANY_GOOD
    weights = [1.0 / MANY_ARMS] * MANY_ARMS
    if family == "kpath":
        return {"family": "kpath", "path_means": means, "k": 1,
                "law": {"kind": "paths", "weights": weights}}
    return {"family": "cascade", "mu": means, "k": 1,
            "law": {"kind": "lists", "lists": [[i] for i in range(MANY_ARMS)],
                    "weights": weights}}


def statement(bound_id: str) -> str:
    """The row's check, in words."""
    record = certificate_of(bound_id)
    return (f"gap <= certificate ({record.form} form, on {record.event_of}'s "
            f"{record.event_name} event)")


def cmab_case(bound_id: str, algorithm: str, instance: str, params: dict[str, Any], n: int,
              delta: float, run: Callable[[Any, Any, float], Any], spec: str,
              cascade: bool, skip: str = "") -> EventCase:
    r"""The certificate row of one CMAB-T instance; ``run`` is called as the theorem calls
    the subject (``cascade``: with the list length in place of the oracle)."""
    setup = cmabt.build(params)
    second = int(params["k"]) if cascade else setup.oracle

    def draw(rng: np.random.Generator) -> bool:
        result = run(setup.law.sample(n, rng), second, delta)
        action = cmabt.checked_action(setup.problem, result, spec)
        bound = bound_of(result, spec, action, cascade_bound if cascade else kpath_bound,
                         int(params["k"]))
        return exceeds(cmabt.gap(setup, action), bound)

    name = "cascade" if cascade else "clcb"
    return EventCase(f"event-certificate-{name}", (), algorithm,
                     "certificate (offcmab.bounds.certificates)", statement(bound_id),
                     instance, n, delta, certificate_of(bound_id).failure_value(delta), draw,
                     skip=skip)


def cache_case(bound_id: str, variant: str, instance: str, params: dict[str, Any], n: int,
               delta: float, run: Callable[..., Any], spec: str, skip: str = "") -> EventCase:
    """The certificate row of one LLM cache instance (cost form)."""
    setup = llm_instances.build(params)
    problem = setup.problem

    def draw(rng: np.random.Generator) -> bool:
        log = sample_log(problem, setup.law, n, rng, params["noise"])
        result = run(log, problem.k, delta)
        cache = np.asarray(require(result, ("cache",), spec).cache, dtype=np.int64)
        return exceeds(problem.gap(cache), bound_of(result, spec))

    return EventCase(f"event-certificate-llm-{variant}", (), "offcmab.reference.clcb_llm",
                     "certificate (offcmab.bounds.certificates)", statement(bound_id),
                     instance, n, delta, certificate_of(bound_id).failure_value(delta), draw,
                     skip=skip)


def im_case(bound_id: str, instance: str, params: dict[str, Any], n: int, delta: float,
            run: Callable[..., Any], spec: str, trials: int, skip: str = "") -> EventCase:
    r"""The certificate row of one small IM graph: exact spreads, the exact oracle, the gap
    :math:`\sigma(S^*) - \sigma(\hat S)`."""
    problem = im.build(params)
    graph, k = problem.graph, int(params["k"])
    hidden = graph.with_probabilities(np.zeros(graph.edges))  # the algorithm sees no truth
    oracle = im.exact_oracle(graph, k)

    def from_intervals(seeds: np.ndarray, lcb: np.ndarray, ucb: np.ndarray, _: int) -> float:
        return SpreadCertifier(graph, lcb, ucb, delta, 1.0, "")(seeds).bound

    def draw(rng: np.random.Generator) -> bool:
        result = run(hidden, problem.sample(n, rng), oracle, delta)
        seeds = as_action(result, graph.nodes, k, spec)
        bound = bound_of(result, spec, seeds, from_intervals, k)
        return exceeds(problem.sigma_star - problem.spread(seeds).spread, bound)

    return EventCase("event-certificate-im-node", (), "offcmab.reference.im.clcb_im_node",
                     "certificate (offcmab.bounds.certificates)", statement(bound_id),
                     instance, n, delta, certificate_of(bound_id).failure_value(delta, n),
                     draw, trials=trials, skip=skip)


def kpath_cases(bound_id: str, profile: str, subject: Callable[..., Any],
                spec: str, certifying: Collection[str]) -> list[EventCase]:
    """Theorem 1's certificate rows (CLCB with the best-path oracle); ``certifying``: the
    controls whose rows run (:func:`skip_reason`)."""
    skip = skip_reason(spec, certifying)
    from_close = cmab_case(bound_id, "offcmab.reference.clcb", "kpath-close", CLOSE,
                           1000 if profile == "quick" else 2000, 0.05, subject, spec, False,
                           skip)
    return [from_close, cmab_case(bound_id, "offcmab.reference.clcb", "cert-many-kpath",
                                  many_params("kpath"), MANY_N, 0.05, subject, spec, False,
                                  skip)]


def cascade_cases(bound_id: str, profile: str, subject: Callable[..., Any],
                  spec: str, certifying: Collection[str]) -> list[EventCase]:
    """CLCB-Cascade's certificate rows."""
    module = "offcmab.reference.clcb_cascade"
    skip = skip_reason(spec, certifying)
    return [cmab_case(bound_id, module, "cascade-ood", OOD,
                      1000 if profile == "quick" else 2000, 0.05, subject, spec, True, skip),
            cmab_case(bound_id, module, "cert-many-cascade", many_params("cascade"),
                      MANY_N, 0.05, subject, spec, True, skip)]


def cache_cases(bound_id: str, variant: str, profile: str, subject: Callable[..., Any],
                spec: str, certifying: Collection[str]) -> list[EventCase]:
    """A cache variant's certificate rows (``variant`` names the rows)."""
    instances = [("ood-small", llm_instances.small_ood())]
    if profile != "quick":
        instances.append(("zipf-random", llm_instances.zipf_random()))
    skip = skip_reason(spec, certifying)
    return [cache_case(bound_id, variant, name, params, 2000, 0.05, subject, spec, skip)
            for name, params in instances]


def im_cases(bound_id: str, profile: str, subject: Callable[..., Any], spec: str,
             certifying: Collection[str]) -> list[EventCase]:
    """CLCB-IM-N's certificate row on the six-node graph (fewer trials: costly data).

    At :data:`IM_N` cascades the reference's certificate (about 1.6) lies below the
    graph's largest gap (2.24), so the row can see a certificate that is too small; at
    20000 it is about 3.4, above every gap, and no certificate like it could fail.
    """
    trials = {"quick": 10, "default": 20, "full": 60}[profile]
    return [im_case(bound_id, "star-and-chain", im.star_and_chain(), IM_N, 0.05, subject,
                    spec, trials, skip_reason(spec, certifying))]

