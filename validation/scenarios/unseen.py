r"""Generated CMAB-T instances where offline learning is hard: arms the data never show.

Theorem 1 and Corollary 1 ask the data to cover the arms of the optimal action only (their
coverage constants are maxima or sums over the arms :math:`S^*` triggers), so a log that
never shows some other arm, whatever its mean, lies inside their hypotheses.  The
functions here draw such instances on purpose, each relabeled by a seeded permutation
(:mod:`offcmab.validation.scenarios.relabel`) so the optimum sits at any id:

``below``
    The optimal path (or list) has means between 0.38 and 0.45 and is logged often; a few
    observed paths (items) lie at most 0.01 below it, so the data show means close to the
    optimum; every unseen path (item) has a mean in [0, 0.05], one of them exactly 0, and
    there are 100 to 150 of them (many arms against a few thousand samples).  Any rule that
    gives an unseen arm a value above the optimum's lower confidence bound (a prior mean
    0.5, the top of the range, the average or the best of the observed means, the pooled
    mean of all outcomes, ...) picks unseen arms and loses at least 0.33 per arm of the
    action, above the bound at ``n = 5000``; a pessimistic rule never picks one.
``mixed``
    The optimum is logged rarely (weight 0.08 or 0.1, :math:`C_\infty^* \ge 10`),
    the observed paths (items) lie 0.02 to 0.05 below it, and the unseen ones lie above
    the observed ones (yet below the optimum), equal to an observed mean, or at 0.

Means sit on a 1/100 grid; the laws log every observed path (item) with positive
probability and never an unseen one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.scenarios.common import scenario_seed
from offcmab.validation.scenarios.relabel import relabeled

#: Failure probabilities of the generated instances (small trial counts: 0.01 needs ~10x).
DELTAS = (0.05, 0.1, 0.2)
#: How the unseen arms' means compare with what the data show.
RELATIONS = ("below", "mixed")
#: Number of unseen paths or items of a ``below`` instance (many arms against few samples).
MANY = (100, 150)


def _cents(rng: np.random.Generator, low: int, high: int, size: int | None = None) -> Any:
    """Means on the 1/100 grid in ``[low/100, high/100]`` (one, or ``size`` of them)."""
    values = rng.integers(low, high + 1, size=size) / 100
    return float(values) if size is None else values.tolist()


def _unseen_means(rng: np.random.Generator, relation: str, best: float,
                  observed: list[float]) -> list[float]:
    """Means of the unseen arms: all low (``below``), or above, equal to and below the data."""
    if relation == "below":
        count = int(rng.integers(MANY[0], MANY[1] + 1))
        return [0.0, *_cents(rng, 0, 5, count - 1)]
    above = round((max(observed) + best) / 2, 2)  # strictly between: observed <= best - 0.02
    equal = float(rng.choice(observed))
    return [above, equal, 0.0, *_cents(rng, 0, 30, int(rng.integers(0, 4)))]


def _observed(rng: np.random.Generator, relation: str, best: float, count: int) -> list[float]:
    """Means of the observed paths (items) outside the optimum, just below ``best``."""
    low, high = (0, 1) if relation == "below" else (2, 5)
    return [round(best - int(d) / 100, 2) for d in rng.integers(low, high + 1, size=count)]


def _share(rng: np.random.Generator, relation: str) -> float:
    """How often the logger shows the optimum: often (``below``) or rarely (``mixed``)."""
    return 0.5 if relation == "below" else float(rng.choice((0.08, 0.1)))


def kpath_params(relation: str, rng: np.random.Generator) -> dict[str, Any]:
    """A k-path instance of ``relation`` (see the module docstring), relabeled."""
    k = int(rng.integers(1, 4))
    best = _cents(rng, 38, 45)
    observed = _observed(rng, relation, best, int(rng.integers(1, 4)))
    unseen = _unseen_means(rng, relation, best, observed)
    share = _share(rng, relation)
    rest = [(1.0 - share) / len(observed)] * len(observed)
    params = {"family": "kpath", "path_means": [best, *observed, *unseen], "k": k,
              "law": {"kind": "paths", "weights": [share, *rest, *[0.0] * len(unseen)]}}
    return relabeled(params, int(rng.integers(2**32)))


def cascade_params(relation: str, rng: np.random.Generator) -> dict[str, Any]:
    """A cascade instance of ``relation`` (see the module docstring), relabeled.

    The optimal list has ``k`` items (1 or 2) with distinct means in [0.38, 0.45] (the first
    in [0.42, 0.45] when there are two, so its first item is item 0); the logger shows
    the cyclic windows of length ``k`` over the observed items (every observed item at
    every position), the windows through the first optimal item weighted ``share`` in all.
    """
    k = int(rng.integers(1, 3))
    best = [_cents(rng, 42, 45), _cents(rng, 38, 41)][:k]  # distinct: item 0 leads S*
    observed = _observed(rng, relation, best[-1], int(rng.integers(k, 4)))
    unseen = _unseen_means(rng, relation, best[-1], observed)
    seen = len(best) + len(observed)
    lists = [[(j + i) % seen for i in range(k)] for j in range(seen)]  # cyclic windows
    share = _share(rng, relation)
    through = np.array([0 in row for row in lists])
    weights = np.where(through, share / through.sum(), (1 - share) / (~through).sum())
    params = {"family": "cascade", "mu": [*best, *observed, *unseen], "k": k,
              "law": {"kind": "mixture", "lists": lists,
                      "weights": [*weights[:-1].tolist(), 1.0 - float(weights[:-1].sum())]}}
    return relabeled(params, int(rng.integers(2**32)))


#: Sizes of the generated instances per relation and profile: a ``below`` instance has
#: power from ``n = 5000``, the rarely logged optimum of a ``mixed`` one from ``n = 20000``.
GRIDS: dict[str, dict[str, tuple[int, ...]]] = {
    "below": {"quick": (5000,), "default": (5000,), "full": (5000, 20000)},
    "mixed": {"quick": (20000,), "default": (20000,), "full": (20000, 50000)},
}

#: How each family draws an instance.
FAMILIES = {"kpath": kpath_params, "cascade": cascade_params}


def instances(families: tuple[str, ...], profile: Profile, run_seed: int,
              bound_id: str) -> list[Instance]:
    """One instance per family and relation, ``unseen-<relation>-<family>``, drawn from
    the run seed (origin ``generated``)."""
    found = []
    for family in families:
        for relation in RELATIONS:
            name = f"unseen-{relation}-{family}"
            rng = np.random.default_rng(scenario_seed(run_seed, f"{bound_id}/{name}"))
            params = FAMILIES[family](relation, rng)
            found.append(Instance(name, params, float(rng.choice(DELTAS)),
                                  GRIDS[relation][profile.name],
                                  "generated", f"{relation}: arms the data never show"))
    return found
