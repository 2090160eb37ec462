r"""Trap instances: where pessimism matters or the data mislead, at an ``n`` where the bound
is not vacuous.

A correct algorithm passes a trap; the negative controls of :mod:`offcmab.validation.controls`
should not.  Each trap pairs an arm that matters and is rarely observed with arms that
are observed often, so an algorithm that trusts few samples (no pessimism, optimism, a
radius too small) or ignores the data picks a bad action with a gap above the bound.
Traps have origin ``trap``; each theorem record names its traps, and ``offcmab validate``
runs the reference *and* every control of the theorem on them, with paired datasets (the
power table of :mod:`offcmab.validation.runner.power`).

``lucky-poor`` (Theorem 1, both norms)
    k-path, paths of two arms: one good path (mean 0.6) drawn half the time, in the
    middle of 2000 poor paths (mean 0.3) sharing the other half.  Each poor path is seen
    once or twice, so among them some look perfect; the bound at ``n = 5000`` (0.51
    stated, 0.37 proved) is below the gap 0.6 of any poor path.  The good path is neither
    first nor last, so a fixed choice (first or last ids) is a poor path too; the CMAB-T
    scenarios run every trap relabeled by a permutation seeded by its name
    (:func:`offcmab.validation.scenarios.relabel.relabeled_instances`), so the good path
    sits at an arbitrary id.
``rare-items`` (Corollary 1)
    Cascade with lists of one item: a good item (0.7) shown half the time among 2000 poor
    items (0.3) shown about once each; bound 0.25 at ``n = 5000``, gap 0.4.
``rare-optimal`` (Theorem 3 and the standard-view lemma)
    Three queries, cache of one.  The optimal query (arrival 0.8, cost 0.9) sits in the
    logged cache in all but a fraction ``1e-6`` of rounds, so its cost is almost never
    observed; the bounds do not depend on that (they need coverage outside the optimal
    cache only).  An algorithm that does not over-estimate unknown costs leaves it out:
    gap at least 0.71 at ``n = 8000`` against bounds 0.28 (Theorem 3) and 0.54 (the
    standard lemma; 0.58 proved).
``wide-pair`` (Theorem 2)
    The proof's pair for ``m = 12, k = 3, C = 10`` at ``n = 30000``: a lower bound holds
    for every algorithm, so a control can only break the check of CLCB's risk against
    Theorem 1 (row ``clcb-risk``, Hoeffding on the mean risk); a control that picks a path
    the data barely cover does (risk 1.51 against 0.38).  Hoeffding needs about 20 trials
    here, so the quick profile (10) leaves this trap out.
``lock-in`` (the online regret bound)
    Two equally frequent queries with costs 0.9 and 0.1, ``T = 200``.  Without a radius a
    cached query is never observed again, so one unlucky cost can keep the wrong query
    cached; the printed radius lets the expensive query's LCB turn positive within the
    run, so the printed algorithm settles while a data-blind cache keeps churning.  No
    affordable ``T`` makes the regret bound smaller than ``T`` times the largest
    per-round regret (at ``m = 2``, ``T = 20000``: bound 18574), so only event rows can flag
    the online controls here.
``imm-oracle`` (Theorem 4)
    The six-node graph of :func:`offcmab.validation.scenarios.im.star_and_chain` with the IMM
    oracle (:math:`\alpha = 1 - 1/e - 0.1`, failure ``0.01``) instead of brute force, so
    that validate exercises the oracle the paper uses.

Misleading data
---------------
The traps above catch algorithms that trust too few samples.  The ones below catch
algorithms that read the *wrong statistic* off plentiful data: in each, the logger's
habits point away from the optimum, so a shortcut that is right whenever the logger is
good fails with a gap above the bound.  Each instance stands for classes of mistakes:

(a) *copying the logger* (behaviour cloning): play the most played action, show the most
    shown items, keep the most often logged cache;
(b) *counts instead of means*: rank by total reward, total clicks or total observed cost,
    which mixes how good an arm is with how often the logger tried it (or, for caches,
    how often the logged cache hid its cost);
(c) *frequency-only caching* (LFU): cache the most requested queries, ignoring costs;
(d) *cost-only caching*: cache the costliest queries, ignoring how often they arrive;
(e) *outcome-blind ranking in cascades*: rank items by how often users examined them.

``legacy-path`` (Theorem 1, both norms; classes a, b)
    k-path, five paths of two arms with means 0.3, 0.4, 0.8, 0.5, 0.2.  The logger plays
    the mediocre path 1 (mean 0.4) in 60% of rounds and the best path 2 (mean 0.8) in
    20%, so path 1 is the most played and has the largest total reward per arm (0.24 n
    against 0.16 n); its gap is 0.8, against the bound 0.49 stated (0.36 proved) at
    ``n = 10000`` (:math:`C_\infty^* = 5`, :math:`C_1^* = 10`).
``popular-items`` (Corollary 1; classes a, b, e)
    Cascade, eight items, lists of two.  The logger shows the two items with the lowest
    click rates (0.12 and 0.1) in 75% of rounds (in both orders) and the two best items
    (0.7 and 0.6) each first in 5%: the popular items are the most shown, the most
    examined and have the most clicks, and their list's gap is 0.672, against the bound
    0.57 stated (0.40 proved) at ``n = 20000`` (:math:`C_1^* = 26`).
``frequent-cheap`` (Theorem 3 and the standard-view lemma; classes a, c, d)
    Three queries, cache of one: a frequent cheap query (arrival 0.5, cost 0.05), the
    optimal query (0.45, 0.95) and a rare costliest one (0.05, 1.0).  The logged cache
    holds the frequent query in 60% of rounds and is empty otherwise.  Copying the logged
    cache and LFU keep the frequent query (gap 0.4025); caching by cost alone keeps the
    rare one (gap 0.3775).  Theorem 3 is checked at ``n = 16000`` (bound 0.243 stated,
    0.258 proved), the standard lemma at ``n = 32000`` beyond the quick profile (0.321
    stated, 0.343 proved).  ``rare-optimal`` above catches ranking by total observed cost
    (b): the logged cache hides the optimal query's cost, so its total is near zero.

No misleading trap is run for Theorem 2 (a lower bound holds for every algorithm), the
online bound (no affordable ``T`` makes its bound non-vacuous) or Theorem 4 (its logs draw
seeds from a product law: no seed set is played most).
"""

from __future__ import annotations

from typing import Any

from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.scenarios.im import star_and_chain

TRAP = "trap"
POOR = 1000  # poor paths (or items) on each side of the good one


def lucky_poor() -> dict[str, Any]:
    """k-path: a good path in the middle of 2000 rarely drawn poor paths."""
    means = [0.3] * POOR + [0.6] + [0.3] * POOR
    rare = 0.5 / (2 * POOR)
    return {"family": "kpath", "path_means": means, "k": 2,
            "law": {"kind": "paths", "weights": [rare] * POOR + [0.5] + [rare] * POOR}}


def rare_items() -> dict[str, Any]:
    """Cascade, lists of one: a good item in the middle of 2000 rarely shown poor items."""
    m = 2 * POOR + 1
    rare = 0.5 / (2 * POOR)
    return {"family": "cascade", "mu": [0.3] * POOR + [0.7] + [0.3] * POOR, "k": 1,
            "law": {"kind": "mixture", "lists": [[i] for i in range(m)],
                    "weights": [rare] * POOR + [0.5] + [rare] * POOR}}


RARE = 1e-6  # the probability that the logged cache leaves the optimal query out


def rare_optimal() -> dict[str, Any]:
    """LLM cache: the optimal query's cost is almost never observed."""
    return {"p": [0.1, 0.8, 0.1], "c": [0.1, 0.9, 0.05], "k": 1, "noise": "bernoulli",
            "law": {"kind": "explicit", "caches": [[1], []], "weights": [1.0 - RARE, RARE]}}


def unseen_optimal() -> dict[str, Any]:
    """LLM cache: the optimal query (cost 1) is always in the logged cache, so its cost is
    never observed; the best observed query is worth about half as much (0.25 against 0.45).
    Any cost guessed for it below about 0.55 (1/2, the largest observed cost, 0) caches
    the observed query and loses 0.2."""
    return {"p": [0.45, 0.5, 0.05], "c": [1.0, 0.5, 0.05], "k": 1, "noise": "bernoulli",
            "law": {"kind": "explicit", "caches": [[0]], "weights": [1.0]}}


def lock_in() -> dict[str, Any]:
    """Online LLM cache: two equally frequent queries, costs 0.9 and 0.1."""
    return {"p": [0.5, 0.5], "c": [0.9, 0.1], "k": 1, "noise": "bernoulli",
            "law": {"kind": "empty"}}


def wide_pair() -> dict[str, Any]:
    """The proof's pair of the lower bound with m = 12, k = 3, C = 10."""
    return {"m": 12, "k": 3, "C_inf": 10.0, "variant": "proved"}


def imm_oracle() -> dict[str, Any]:
    """Node-level IM on the six-node graph, solved by IMM."""
    return star_and_chain() | {"oracle": "imm"}


def legacy_path() -> dict[str, Any]:
    """k-path: the logger mostly plays a mediocre path and the best path a fifth of the time."""
    return {"family": "kpath", "path_means": [0.3, 0.4, 0.8, 0.5, 0.2], "k": 2,
            "law": {"kind": "paths", "weights": [0.05, 0.6, 0.2, 0.1, 0.05]}}


def popular_items() -> dict[str, Any]:
    """Cascade: the most shown items have the lowest click rates."""
    return {"family": "cascade", "mu": [0.12, 0.3, 0.7, 0.1, 0.25, 0.6, 0.2, 0.15], "k": 2,
            "law": {"kind": "mixture", "lists": [[0, 3], [3, 0], [1, 4], [2, 6], [5, 7]],
                    "weights": [0.6, 0.15, 0.15, 0.05, 0.05]}}


def frequent_cheap() -> dict[str, Any]:
    """LLM cache: a frequent cheap query, the optimal one, and a rare costliest one."""
    return {"p": [0.5, 0.45, 0.05], "c": [0.05, 0.95, 1.0], "k": 1, "noise": "bernoulli",
            "law": {"kind": "explicit", "caches": [[0], []], "weights": [0.6, 0.4]}}


def lucky_poor_traps(profile: Profile) -> list[Instance]:
    """The k-path trap of Theorem 1, in every profile."""
    return [Instance("trap-lucky-poor", lucky_poor(), 0.05, (5000,), TRAP,
                     "one good path among 2000 rarely drawn poor ones")]


def rare_items_traps(profile: Profile) -> list[Instance]:
    """The cascade trap of Corollary 1, in every profile."""
    return [Instance("trap-rare-items", rare_items(), 0.05, (5000,), TRAP,
                     "one good item among 2000 rarely shown poor ones")]


def rare_optimal_traps(profile: Profile) -> list[Instance]:
    """The offline LLM cache trap, in every profile."""
    return [Instance("trap-rare-optimal", rare_optimal(), 0.05, (8000,), TRAP,
                     "the optimal query's cost is almost never observed")]


def wide_pair_traps(profile: Profile) -> list[Instance]:
    """The lower bound's trap, beyond the quick profile (Hoeffding needs about 20 trials)."""
    if profile.name == "quick":
        return []
    return [Instance("trap-wide-pair", wide_pair(), 0.05, (30000,), TRAP,
                     "the proof's pair, m = 12, k = 3, C = 10")]


def lock_in_traps(profile: Profile) -> list[Instance]:
    """The online cache trap, beyond the quick profile."""
    if profile.name == "quick":
        return []
    return [Instance("trap-lock-in", lock_in(), 0.05, (200,), TRAP,
                     "a cheap query that looks expensive once can lock the cache")]


def imm_oracle_traps(profile: Profile) -> list[Instance]:
    """The node-level IM trap solved by IMM, beyond the quick profile (costly cascades)."""
    if profile.name == "quick":
        return []
    return [Instance("trap-imm-oracle", imm_oracle(), 0.05, (45000,), TRAP,
                     "the six-node graph solved by IMM")]


def clcb_traps(profile: Profile) -> list[Instance]:
    """Theorem 1's traps (both norms): lucky poor paths and a misleading logger."""
    return [*lucky_poor_traps(profile),
            Instance("trap-legacy-path", legacy_path(), 0.05, (10000,), TRAP,
                     "the logger mostly plays a mediocre path")]


def cascade_traps(profile: Profile) -> list[Instance]:
    """Corollary 1's traps: rarely shown poor items, and popular items that rarely click."""
    return [*rare_items_traps(profile),
            Instance("trap-popular-items", popular_items(), 0.05, (20000,), TRAP,
                     "the most shown items have the lowest click rates")]


def frequent_cheap_trap(n: int) -> Instance:
    """The frequency-against-cost cache trap at ``n``."""
    return Instance("trap-frequent-cheap", frequent_cheap(), 0.05, (n,), TRAP,
                    "a frequent cheap query beside a rare costly one")


def unseen_optimal_trap(n: int) -> Instance:
    """The never-observed optimal cost trap at ``n`` (where the bound falls below 0.2)."""
    return Instance("trap-unseen-optimal", unseen_optimal(), 0.05, (n,), TRAP,
                    "the optimal query's cost is never observed")


def improved_cache_traps(profile: Profile) -> list[Instance]:
    """Theorem 3's traps, in every profile: a hidden optimal cost, frequency against cost,
    an optimal cost never observed."""
    return [*rare_optimal_traps(profile), frequent_cheap_trap(16000),
            unseen_optimal_trap(32000)]


def standard_cache_traps(profile: Profile) -> list[Instance]:
    """The standard lemma's traps; frequency against cost beyond the quick profile.

    The lemma's bound is larger than Theorem 3's, so its frequency trap needs ``n =
    32000`` (a second of trials, too slow for the quick profile).
    """
    if profile.name == "quick":
        return rare_optimal_traps(profile)
    return [*rare_optimal_traps(profile), frequent_cheap_trap(32000),
            unseen_optimal_trap(128000)]
