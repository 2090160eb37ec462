r"""The best and worst reward of an instance, and the gaps they allow.

A trial's gap is :math:`\alpha r^* - r(\hat S)` for a feasible :math:`\hat S`, so it lies
in :math:`[(\alpha-1)r^*, \alpha r^* - r_{\min}]`.  Cost-minimizing problems enter with
rewards equal to minus their costs (then :math:`\alpha = 1` and the gap is
:math:`c(\hat S) - c^*`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class Extremes:
    r"""Exact best and worst reward over the feasible actions, and the oracle's :math:`\alpha`.

    Attributes
    ----------
    best, worst
        :math:`r^*` and :math:`r_{\min}`.
    best_action, worst_action
        Actions attaining them (ids, sorted).
    alpha
        The approximation ratio the trial's gap is measured against.
    how
        How the extremes were found, in words.
    smallest_positive
        The smallest positive gap :math:`\alpha r^* - r(S)` over the feasible actions, where
        every action was enumerated (``None``: not known, or no action has a positive gap).
    """

    best: float
    worst: float
    best_action: tuple[int, ...]
    worst_action: tuple[int, ...]
    alpha: float = 1.0
    how: str = ""
    smallest_positive: float | None = None

    def gap(self, reward: float) -> float:
        r""":math:`\alpha r^* - r` for an action of reward ``reward``."""
        return self.alpha * self.best - float(reward)

    @property
    def max_gap(self) -> float:
        r"""The largest gap a feasible action can have, :math:`\alpha r^* - r_{\min}`."""
        return self.gap(self.worst)

    def gap_range(self) -> tuple[float, float]:
        r""":math:`[(\alpha-1)r^*, \alpha r^* - r_{\min}]`: where every trial's gap lies."""
        return self.gap(self.best), self.max_gap


#: Gaps within this many units of the largest reward's magnitude are ties (float rounding).
TIE = 1e-9


def tabulated(actions: npt.NDArray[np.int64], rewards: npt.NDArray[np.float64],
              alpha: float, how: str) -> Extremes:
    """Extremes of a table of every feasible action (one per row) and its reward."""
    top, bottom = int(np.argmax(rewards)), int(np.argmin(rewards))
    return Extremes(float(rewards[top]), float(rewards[bottom]),
                    tuple(sorted(int(i) for i in actions[top])),
                    tuple(sorted(int(i) for i in actions[bottom])), float(alpha), how,
                    smallest_positive_gap(rewards, alpha))


def smallest_positive_gap(rewards: npt.NDArray[np.float64], alpha: float) -> float | None:
    r"""The smallest positive :math:`\alpha r^* - r(S)` over every action's reward.

    Gaps no larger than ``TIE`` times :math:`\max(1, |r^*|)` are rounding of a tie and count
    as 0; ``None`` when no action has a positive gap.
    """
    gaps = alpha * float(np.max(rewards)) - np.asarray(rewards, dtype=np.float64)
    positive = gaps[gaps > TIE * max(1.0, abs(float(np.max(rewards))))]
    return float(positive.min()) if positive.size else None
