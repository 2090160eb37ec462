r"""A tiny scenario for testing the validation machinery without the applications.

Top-2 of 6 independent Bernoulli arms, each arm observed in a sample with its own
probability (an out-of-distribution law: the data never plays an action).  The
algorithm is the foundation's CLCB with the top-k oracle; the reward is linear, so
the gap is exact.  The bound is Theorem 1's infinity-norm form with
:math:`B_1 = 1`, :math:`\bar K_2^* = k` and :math:`C_\infty^* = \max_{i\in S^*} 1/q_i`,
written out here only because this fake problem is not part of the package.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from offcmab.reference.clcb import clcb
from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.oracles import TopK
from offcmab.validation.parts.scenario import BoundValue, Kind, MaxGap, Subject, TrialOutcome
from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.parts.theorem import Signature, Theorem, no_events


def sample(mu: np.ndarray, q: np.ndarray, n: int, rng: np.random.Generator) -> OfflineDataset:
    """Each arm observed in each sample with probability q_i, outcome Bernoulli(mu_i).

    Arms with q_i >= 0.05 draw one uniform number per sample.  A rarer arm is seen in
    Binomial(n, q_i) samples forming a uniform subset: i.i.d. uniform positions,
    redrawn as a whole while two coincide (conditioning on distinct draws leaves every
    subset equally likely).
    """
    dense = np.flatnonzero(q >= 0.05)
    rows, columns = np.nonzero(rng.random((n, dense.size)) < q[dense])
    rare = np.flatnonzero(q < 0.05)
    counts = rng.binomial(n, q[rare])
    rare_arms = np.repeat(rare, counts)
    positions = rng.integers(0, n, rare_arms.size)
    while True:
        order = np.lexsort((positions, rare_arms))
        repeated = (np.diff(rare_arms[order]) == 0) & (np.diff(positions[order]) == 0)
        if not repeated.any():
            break
        redo = np.isin(rare_arms, rare_arms[order][1:][repeated])
        positions[redo] = rng.integers(0, n, int(redo.sum()))
    samples = np.concatenate([rows, positions])
    arms = np.concatenate([dense[columns], rare_arms])
    order = np.lexsort((arms, samples))
    offsets = np.concatenate([[0], np.cumsum(np.bincount(samples, minlength=n))])
    outcomes = (rng.random(arms.size) < mu[arms[order]]).astype(float)
    return OfflineDataset(mu.size, offsets, arms[order], outcomes)


def expand(params: dict[str, list[float]]) -> tuple[np.ndarray, np.ndarray]:
    """Means and observation probabilities, a group of equal arms per entry of ``repeat``."""
    repeat = params.get("repeat", [1] * len(params["mu"]))
    return np.repeat(params["mu"], repeat), np.repeat(params["q"], repeat)


@dataclass(frozen=True)
class FakeTopK:
    bound_id: str = "fake-upper"
    kind: Kind = "upper"
    algorithm: str = "offcmab.reference.clcb"

    def instances(self, profile: Profile, seed: int) -> list[Instance]:
        grid = (20, 80) if profile.name == "quick" else (20, 80, 320)
        base = {"mu": [0.55, 0.5, 0.47, 0.45, 0.45, 0.4], "q": [0.2] * 6,
                "k": 2}
        # two well-covered good arms, 2000 rarely seen poor ones: pessimism is needed
        sparse = {"mu": [0.6, 0.3], "q": [0.9, 0.001], "repeat": [2, 2000], "k": 2}
        rng = np.random.default_rng(seed)
        generated = [Instance(f"random-{j}", {"mu": rng.random(6).round(3).tolist(),
                                              "q": [0.4] * 6, "k": 2},
                              0.1, grid, "generated") for j in range(profile.generated)]
        return [Instance("named", base, 0.05, grid),
                Instance("sparse", sparse, 0.05, (5000,)), *generated]

    def trial(self, instance: Instance, n: int, rng: np.random.Generator,
              subject: Subject) -> TrialOutcome:
        mu, q = expand(instance.params)
        data = sample(mu, q, n, rng)
        result = subject.function(data, TopK(instance.params["k"]), instance.delta)
        chosen = np.asarray(result.action)
        best = np.sort(mu)[::-1][: instance.params["k"]].sum()
        return TrialOutcome(float(best - mu[chosen].sum()))

    def bound(self, instance: Instance, n: int, variant: str) -> BoundValue:
        (mu, q), k = expand(instance.params), instance.params["k"]
        c_inf = float(np.max(1 / q[np.argsort(-mu, kind="stable")[:k]]))
        if variant == "proved" and n < 8 * math.log(mu.size / instance.delta) / q.min():
            return BoundValue.not_applicable("n below the theorem's sample-size condition")
        m, delta = mu.size, instance.delta
        value = 2 * k * math.sqrt(2 * c_inf * math.log(2 * m * n / delta) / n)
        return BoundValue(value, parameters={"C_inf": c_inf, "K2bar": k, "m": m})

    def max_gap(self, instance: Instance, n: int) -> MaxGap:
        mu, k = np.sort(expand(instance.params)[0]), instance.params["k"]
        return MaxGap(float(mu[-k:].sum() - mu[:k].sum()), True, "the k smallest means")


def reference_clcb(dataset: OfflineDataset, oracle: TopK, delta: float) -> object:
    """CLCB looked up when called, so that a test can patch the module's radius."""
    return clcb(dataset, oracle, delta)


#: A theorem record outside the package: the engine runs it like the paper's.
THEOREM = Theorem(id="fake-upper", bound=None, title="the fake top-k bound",
                  scenario=FakeTopK(),
                  signature=Signature("f(dataset, oracle, delta)", reference_clcb),
                  events=no_events)
THEOREMS = (THEOREM,)
