"""A K-armed pessimistic bound in its own symbols: ``offcmab validate --theorem own_theorem.py:THEOREM``.

The log plays arm i at rate nu[i]; the rule plays the arm of largest lower confidence bound.
With probability 1 - 2 delta (every interval holds, and the best arm, logged at rate nu_star,
is seen n nu_star / 2 times) its gap is at most 2 sqrt(log(2 K n / delta) / (n nu_star)).
"""
import numpy as np
import sympy as sp

from offcmab.validation.extend import (Domain, Instance, Signature, Space, Theorem,
                                       define_bound, make_scenario)

K, nu_star, n, delta = sp.symbols("K nu_star n delta", positive=True)
BOUND = define_bound(
    "k-armed-lcb", 2 * sp.sqrt(sp.log(2 * K * n / delta) / (n * nu_star)), failure=2 * delta,
    precondition=n * nu_star >= 8 * sp.log(1 / delta), title="pessimism on K arms",
    domains={K: Domain(2, np.inf, False, True, integer=True), nu_star: Domain(0, 1, True, False),
             n: Domain(1, np.inf, False, True), delta: Domain(0, 0.5, True, True)})


def lcb_rule(arms, rewards, k, delta):
    """The reference: the arm with the largest lower confidence bound."""
    counts, sums = np.bincount(arms, minlength=k), np.bincount(arms, rewards, minlength=k)
    with np.errstate(divide="ignore", invalid="ignore"):
        lcb = sums / counts - np.sqrt(np.log(2 * k * arms.size / delta) / (2 * counts))
    return int(np.argmax(np.where(counts > 0, lcb, -np.inf)))


def greedy(arms, rewards, k, delta):
    """A control: the largest empirical mean (a rarely logged arm's lucky draws win)."""
    counts, sums = np.bincount(arms, minlength=k), np.bincount(arms, rewards, minlength=k)
    with np.errstate(divide="ignore", invalid="ignore"):
        return int(np.argmax(np.where(counts > 0, sums / counts, -np.inf)))


def draw(instance, n, rng):
    mu, nu = np.array(instance.params["mu"]), np.array(instance.params["nu"])
    arms = rng.choice(mu.size, size=n, p=nu)
    return arms, (rng.random(n) < mu[arms]).astype(float), mu.size, instance.delta


def gap(instance, arm):
    return max(instance.params["mu"]) - instance.params["mu"][arm]


def parameters(instance, n):
    mu, nu = instance.params["mu"], instance.params["nu"]
    return {"K": len(mu), "nu_star": nu[mu.index(max(mu))], "n": n, "delta": instance.delta}


def largest_gap(instance, n):
    return max(instance.params["mu"]) - min(instance.params["mu"])


def family(x):  # the best arm logged at rate x[0], a runner-up, K - 2 rare arms of mean x[1]
    k, best = int(x[2]), round(float(x[0]), 4)
    nu = [best, 0.8 * (1 - best)] + [0.2 * (1 - best) / (k - 2)] * (k - 2)
    return {"mu": [0.6, 0.5] + [round(float(x[1]), 4)] * (k - 2), "nu": nu}, 0.05, 2000


def space():
    return Space(("nu_star", "rare_mean", "K"), (0.1, 0.0, 3), (0.9, 0.6, 50),
                 (False, False, True), family, (0.5, 0.3, 50), "K-2 rarely logged arms")


THEOREM = Theorem(
    id="k-armed-lcb", bound=BOUND, title="the K-armed pessimistic bound", space=space,
    scenario=make_scenario(BOUND, [Instance("rare-lucky", family([0.5, 0.3, 50])[0], 0.05, (2000,)),
                                   Instance("near-tie", {"mu": [0.6, 0.58], "nu": [0.5, 0.5]},
                                            0.01, (2000,))],
                           draw, gap, parameters, largest_gap),
    signature=Signature("f(arms, rewards, k, delta)", lcb_rule), controls={"greedy": greedy})
