"""K arms, the best logged at rate nu_star: P(gap > 2 sqrt(log(2Kn/delta)/(n nu_star))) <= 2delta"""
import numpy as np
import sympy as sp

from offcmab.validation import extend

K, nu_star, n, delta = sp.symbols("K nu_star n delta", positive=True)
BOUND = extend.define_bound(
    "k-armed-lcb", 2 * sp.sqrt(sp.log(2 * K * n / delta) / (n * nu_star)), failure=2 * delta,
    precondition=n * nu_star >= 8 * sp.log(1 / delta), title="the K-armed pessimistic bound",
    domains={K: extend.Domain(2, np.inf, integer=True), n: extend.Domain(1, np.inf),
             nu_star: extend.Domain(0, 1, low_open=True),
             delta: extend.Domain(0, 0.5, low_open=True, high_open=True)})


def lcb_rule(arms, rewards, k, delta, width=1.0):
    """The reference: the arm of largest lower confidence bound (``width=0``: greedy)."""
    counts, sums = np.bincount(arms, minlength=k), np.bincount(arms, rewards, minlength=k)
    seen = np.maximum(counts, 1)  # an arm never logged gets -inf below
    lcb = sums / seen - width * np.sqrt(np.log(2 * k * arms.size / delta) / (2 * seen))
    return int(np.argmax(np.where(counts > 0, lcb, -np.inf)))


def greedy(arms, rewards, k, delta):
    """A control: the largest empirical mean (a rarely logged arm's lucky draws win)."""
    return lcb_rule(arms, rewards, k, delta, width=0.0)


def draw(instance, n, rng):  # one log of n rounds, as the arguments of the rule's call
    mu, nu = np.array(instance.params["mu"]), np.array(instance.params["nu"])
    arms = rng.choice(mu.size, size=n, p=nu)
    return arms, (rng.random(n) < mu[arms]).astype(float), mu.size, instance.delta


def rewards(instance):  # the exact mean reward of each arm
    return instance.params["mu"]


def parameters(instance, n):  # the bound's symbols at an instance
    mu, nu = instance.params["mu"], instance.params["nu"]
    return {"K": len(mu), "nu_star": nu[mu.index(max(mu))], "n": n, "delta": instance.delta}


def family(x):  # the best arm logged at rate x[0], a runner-up, K - 2 rare arms of mean x[1]
    k, best = int(x[2]), round(float(x[0]), 4)
    nu = [best, 0.8 * (1 - best)] + [0.2 * (1 - best) / (k - 2)] * (k - 2)
    return {"mu": [0.6, 0.5] + [round(float(x[1]), 4)] * (k - 2), "nu": nu}, 0.05, 2000


def space():  # what offcmab tightness and offcmab falsify search
    return extend.Space(("nu_star", "rare_mean", "K"), (0.1, 0.0, 3), (0.9, 0.6, 50),
                        (False, False, True), family, (0.5, 0.3, 50), "K - 2 rarely logged arms")


INSTANCES = [extend.Instance("rare-lucky", family([0.5, 0.3, 50])[0], 0.05, (2000,), "trap"),
             extend.Instance("near-tie", {"mu": [0.6, 0.58], "nu": [0.5, 0.5]}, 0.01, (2000,))]
THEOREM = extend.Theorem(
    id="k-armed-lcb", bound=BOUND, title=BOUND.title, space=space, controls={"greedy": greedy},
    scenario=extend.make_scenario(BOUND, INSTANCES, draw, parameters, rewards=rewards),
    signature=extend.Signature("f(arms, rewards, k, delta)", lcb_rule))
