r"""The slack ledger: how much each step of a proof loses, measured on one instance.

An upper bound is reached through a chain of inequalities.  On a fixed instance and ``trials``
logs of it (drawn with the trial seeds ``offcmab validate`` and ``offcmab tightness`` use, so
the first 20 logs are the corpus row's), the ledger reports the empirical
:math:`(1-\delta)`-quantile of the gap over each of four quantities, each at least the gap on
the proof's events:

``stated``
    The theorem's bound as printed (:meth:`Scenario.bound` with ``"stated"``).
``proved``
    The bound the proof supports (``"proved"``); where it differs from the stated one the
    difference is an erratum (``offcmab errata``).
``certificate``
    The data-dependent certificate the algorithm returns with its action
    (:mod:`offcmab.bounds.certificates`): no coverage constant and no counter event.
``proof_sum``
    The proof's intermediate sum on the realized log, before the confidence radius and the
    counter event enter.  For CLCB (Theorem 1, both norms) and CLCB-Cascade, step (c) of
    ``apdx_eq:gap_decom``,

    .. math::

        \alpha B_1 \sum_i p_i^{\mathbb D_{\text{arm}}, S^*}\,(\mu_i - \underline\mu_i),

    with the algorithm's own lower confidence bounds (unclipped, as its oracle ranked them;
    an arm that :math:`S^*` triggers but the log never shows makes the sum infinite).  For
    the LLM cache (cost form, :math:`S^* = \mathcal Q - \mathcal M^*`), the standard
    analysis's smoothness step ``apdx_eq:LLM_cache_TPM_smooth`` on its :math:`2m` arms,

    .. math::

        \sum_{q \in S^*} p(q)\,|\bar c(q) - c(q)| + \sum_{q} |\bar p(q) - p(q)|,

    and the improved analysis's step (e) of ``apdx_eq:LLM_reduce_to_prev``,
    :math:`\sum_{q \in S^*} p(q)|\bar c(q) - c(q)| + 2\|\hat p - p\|_1`, each with the upper
    confidence bounds the algorithm's oracle ranked (clipped to 1).

For a deterministic bound the ratio is the quantile of the gap over the bound (the tightness of
a validate row); for the two data-dependent columns it is the quantile of the per-log ratio
(a log whose gap is 0 has ratio 0).  A column that does not apply to an id is absent, with the
reason; no number stands in for it.

Each log runs the reference algorithm through its scenario's own trial (the gap is the one
validate measures), with a wrapper that keeps the result object so its certificate and
confidence bounds can be read; only a loop over the logs is written in Python.  The logs are
held out from every search (:func:`ledger`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from offcmab.bounds.certificates import CERTIFICATES
from offcmab.reference.confidence import clip_bound
from offcmab.validation.parts.scenario import Subject
from offcmab.validation.parts.spec import Instance, TrialKey
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.runner.backends import Task, run_task
from offcmab.validation.runner.seeding import trial_generator
from offcmab.validation.scenarios import cmabt, llm_instances

#: The ledger's columns, in the order of the proof (loosest first).
COLUMNS = ("stated", "proved", "certificate", "proof_sum")
#: Logs per ledger: enough that the quantile at delta = 0.05 is not the largest gap of 20.
LEDGER_TRIALS = 200

#: Appended to an instance's name for the ledger's trial keys: logs no search has seen.
HELD_OUT = "/ledger"

#: Why an online learner has neither a certificate nor a proof sum of one action.
ONLINE_REASON = ("an online learner's regret sums over rounds: there is no single returned "
                 "action to certify, and its proof has no one-action intermediate sum")


@dataclass
class _Capture:
    """The reference algorithm, keeping the result of its last call."""

    function: Callable[..., Any]
    last: Any = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.last = self.function(*args, **kwargs)
        return self.last


def cmabt_proof_sum(params: dict[str, Any], result: Any) -> float:
    r""":math:`\alpha B_1\sum_i p_i^{S^*}(\mu_i - \underline\mu_i)` with the result's ``lcb``."""
    setup = cmabt.build(params)
    problem = setup.problem
    coefficients = cmabt.coverage(params)
    triggered = problem.trigger_probabilities(problem.optimal_action())
    used = triggered > 0  # 0 * (mu - (-inf)) is 0: the arm is not in the sum
    lcb = np.asarray(result.lcb, dtype=np.float64)
    terms = triggered[used] * (problem.mu[used] - lcb[used])
    return float(coefficients["alpha"] * coefficients["B1"] * np.sum(terms))


def cache_proof_sum(params: dict[str, Any], result: Any, arrival_factor: float) -> float:
    r""":math:`\sum_{q\in S^*} p(q)|\bar c(q) - c(q)| + f\sum_q|\bar p(q) - p(q)|`, the
    ranked UCBs clipped to 1 (``arrival_factor`` :math:`f`: 1 standard, 2 improved)."""
    problem = llm_instances.build(params).problem
    outside = np.ones(problem.m, dtype=bool)
    outside[problem.optimal_cache()] = False
    c_bar = clip_bound(np.asarray(result.c_ucb, dtype=np.float64), high=1.0)
    p_bar = clip_bound(np.asarray(result.p_ucb, dtype=np.float64), high=1.0)
    cost = np.sum(problem.p[outside] * np.abs(c_bar[outside] - problem.c[outside]))
    return float(cost + arrival_factor * np.sum(np.abs(p_bar - problem.p)))


#: Why a certified algorithm's certificate is absent on an instance (e.g. CLCB on a cascade
#: under Theorem 1: its certificate is derived for the k-path problem's exact maximum).
UNCERTIFIED_REASON = "the algorithm returned no certificate on this instance's problem"
#: The families whose proof sum is computed here (an IM certificate's proof sum is not).
CMABT_FAMILIES = ("kpath", "cascade")
#: Why the proof's sum is absent for a certified family not in the list above.
NO_SUM_REASON = "the proof's intermediate sum is computed for k-path, cascade and LLM cache only"


def _proof_sum(theorem: Theorem) -> Callable[[dict[str, Any], Any], float] | None:
    r"""The proof-sum function of ``theorem``'s certified algorithm (``None``: none here).

    The cache's two analyses differ in the arrival term: the standard one ranks by
    :math:`\bar p` (pessimism covers it once), the improved one by :math:`\hat p` (the
    arrival error enters twice)."""
    record = CERTIFICATES.get(theorem.id)
    if record is None:
        return None
    if record.family == "llm-cache":
        factor = 1.0 if theorem.signature.keywords.get("variant") == "standard" else 2.0
        return lambda params, result: cache_proof_sum(params, result, factor)
    return cmabt_proof_sum if record.family in CMABT_FAMILIES else None


@dataclass(frozen=True)
class Terms:
    """Per log: the gap, the certificate and the proof sum (``None``: not defined here)."""

    gaps: np.ndarray
    certificates: np.ndarray | None
    proof_sums: np.ndarray | None


def trial_terms(theorem: Theorem, instance: Instance, n: int, seed: int,
                trials: int) -> Terms:
    """Run the reference on ``trials`` logs of ``instance`` at ``n``: the logs of the trial
    keys ``(id, instance.name, n, t)`` under ``seed``, as validate and the search draw them."""
    proof_sum = _proof_sum(theorem)
    gaps = np.empty(trials)
    if theorem.id not in CERTIFICATES:  # no certificate: the runner's own trials give the gaps
        for t in range(trials):
            key = TrialKey(theorem.id, instance.name, n, t)
            gaps[t] = run_task(Task(instance, key, seed), theorem).gap
        return Terms(gaps, None, None)
    capture = _Capture(theorem.reference_algorithm())
    subject = Subject(theorem.signature.reference_name, capture)
    certificates, sums = np.empty(trials), np.empty(trials)
    for t in range(trials):
        rng = trial_generator(seed, TrialKey(theorem.id, instance.name, n, t))
        gaps[t] = theorem.scenario.trial(instance, n, rng, subject).gap
        certificate = capture.last.certificate  # None: not certified on this problem
        certificates[t] = np.nan if certificate is None else certificate.bound
        if proof_sum is not None:
            sums[t] = proof_sum(instance.params, capture.last)
    return Terms(gaps, None if np.isnan(certificates).any() else certificates,
                 None if proof_sum is None else sums)


def quantile_ratio(gaps: np.ndarray, denominators: np.ndarray | float, delta: float) -> float:
    r"""The empirical :math:`(1-\delta)`-quantile (``higher``) of gap / denominator per log;
    a log with gap 0 has ratio 0, a positive gap over a zero denominator ``inf``."""
    gaps = np.asarray(gaps, dtype=np.float64)
    below = np.broadcast_to(np.asarray(denominators, dtype=np.float64), gaps.shape)
    ratios = np.where(gaps > 0, np.inf, 0.0)
    np.divide(gaps, below, out=ratios, where=(below > 0) & (gaps > 0))
    return float(np.quantile(ratios, 1.0 - delta, method="higher"))


@dataclass(frozen=True)
class Entry:
    """One column: the ratio, the quantity's size (its median over logs), or why it is absent;
    ``vacuous`` when a bound is at least the largest gap the instance allows (its ratio is
    still the measured one, but no algorithm could exceed such a bound)."""

    ratio: float | None
    value: float | None = None
    reason: str = ""
    vacuous: bool = False


@dataclass(frozen=True)
class Ledger:
    """The ledger of one instance of one bound id."""

    bound_id: str
    instance: str
    n: int
    delta: float
    seed: int
    trials: int
    gap_quantile: float
    entries: dict[str, Entry] = field(default_factory=dict)

    def ratios(self) -> dict[str, float | None]:
        """Column -> ratio (``None`` where absent): the ``"ledger"`` of ``--json``."""
        return {name: self.entries[name].ratio for name in COLUMNS}

    def to_json(self) -> dict[str, Any]:
        """Everything, for a run record."""
        return {"bound_id": self.bound_id, "instance": self.instance, "n": self.n,
                "delta": self.delta, "seed": self.seed, "trials": self.trials,
                "gap_quantile": self.gap_quantile, "ledger": self.ratios(),
                "values": {name: self.entries[name].value for name in COLUMNS},
                "vacuous": [name for name in COLUMNS if self.entries[name].vacuous],
                "reasons": {name: self.entries[name].reason for name in COLUMNS
                            if self.entries[name].ratio is None}}


def _bound_entry(theorem: Theorem, instance: Instance, n: int, variant: str,
                 gaps: np.ndarray) -> Entry:
    value = theorem.scenario.bound(instance, n, variant)
    if value.value is None:
        return Entry(None, None, value.reason or f"the {variant} bound does not apply")
    largest = theorem.scenario.max_gap(instance, n).value
    return Entry(quantile_ratio(gaps, value.value, instance.delta), float(value.value),
                 vacuous=bool(value.value >= largest))


def _data_entry(values: np.ndarray | None, gaps: np.ndarray, delta: float,
                reason: str) -> Entry:
    if values is None:
        return Entry(None, None, reason)
    return Entry(quantile_ratio(gaps, values, delta), float(np.median(values)))


def absent_reason(theorem: Theorem) -> str:
    """Why ``theorem`` has no certificate (empty when it has one)."""
    if theorem.id in CERTIFICATES:
        return ""
    if theorem.scenario.kind != "upper":
        return "a lower bound: no gap over bound ratio of one instance"
    if theorem.bound is not None and theorem.bound.kind == "regret":  # an online learner
        return ONLINE_REASON
    return "no certificate is derived for this algorithm yet"


def ledger(theorem: Theorem, instance: Instance, seed: int,
           trials: int = LEDGER_TRIALS) -> Ledger:
    """The ledger of ``instance`` (at its first size) over ``trials`` held-out logs.

    The logs are those of the instance name with :data:`HELD_OUT` appended: a search that
    chose the instance on its own trial keys never saw them, so the ledger's quantiles carry
    no selection effect (on 20 logs at delta = 0.05 the quantile is the largest gap, and an
    instance chosen for one lucky error among them may err far less often)."""
    if trials < 1:
        raise ValueError(f"trials: must be at least 1, got {trials}")
    n = instance.n_grid[0]
    held_out = replace(instance, name=instance.name + HELD_OUT)
    terms = trial_terms(theorem, held_out, n, seed, trials)
    reason = absent_reason(theorem)
    entries = {
        "stated": _bound_entry(theorem, instance, n, "stated", terms.gaps),
        "proved": _bound_entry(theorem, instance, n, "proved", terms.gaps),
        "certificate": _data_entry(terms.certificates, terms.gaps, instance.delta,
                                   reason or UNCERTIFIED_REASON),
        "proof_sum": _data_entry(terms.proof_sums, terms.gaps, instance.delta,
                                 reason or NO_SUM_REASON),
    }
    gap_quantile = float(np.quantile(terms.gaps, 1.0 - instance.delta, method="higher"))
    return Ledger(theorem.id, instance.name, n, instance.delta, seed, trials, gap_quantile,
                  entries)


def describe(found: Ledger) -> str:
    """The ledger as lines of text (the human output of ``offcmab tightness``)."""
    lines = [f"slack ledger ({found.trials} logs, seed {found.seed}, n = {found.n}, delta = "
             f"{found.delta}; (1-delta)-quantile of the gap {found.gap_quantile:.4g}):"]
    for name in COLUMNS:
        entry = found.entries[name]
        if entry.ratio is None:
            lines.append(f"  {name:<12} absent: {entry.reason}")
            continue
        size = "" if entry.value is None else f" (median value {entry.value:.4g})"
        if entry.vacuous:
            size += " [vacuous: at least the largest possible gap]"
        factor = f", a factor {1 / entry.ratio:.3g} from tight" if 0 < entry.ratio < math.inf \
            else ""
        lines.append(f"  {name:<12} ratio {entry.ratio:.4g}{size}{factor}")
    return "".join(line + "\n" for line in lines)
