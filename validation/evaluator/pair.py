r"""The lower bound's pair of k-path instances: the range of a pair-averaged gap.

A trial runs the algorithm once on data of each instance and averages the two gaps,
:math:`\tfrac12[g_1(\hat S_1) + g_2(\hat S_2)]`, with :math:`\hat S_1, \hat S_2` chosen
from independent datasets, so they need not be the same path.  Its range is therefore
:math:`[\tfrac12(\min g_1 + \min g_2), \tfrac12(\max g_1 + \max g_2)]`, each extreme
taken over every path of that instance.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from offcmab.validation.evaluator import feasible
from offcmab.validation.evaluator.cmab import path_rewards


def path_gaps(path_means: npt.ArrayLike, k: int) -> npt.NDArray[np.float64]:
    """The gap of every path of one instance (best path reward minus its reward)."""
    table = feasible.paths(len(np.atleast_1d(path_means)), k)
    values = path_rewards(path_means, k, table)
    return np.asarray(values.max() - values, dtype=np.float64)


def averaged_range(first: npt.ArrayLike, second: npt.ArrayLike, k: int) -> tuple[float, float]:
    """Least and largest pair-averaged gap of the pair with path means ``first``, ``second``."""
    one, two = path_gaps(first, k), path_gaps(second, k)
    return 0.5 * float(one.min() + two.min()), 0.5 * float(one.max() + two.max())
