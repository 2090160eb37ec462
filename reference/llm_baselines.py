r"""Offline baselines for the LLM cache, as in Zhu et al. (2023).

Both read the same counters as CLCB-LLM-C (:func:`offcmab.reference.clcb_llm.cache_statistics`)
and use no confidence bound:

* **LFU** caches the ``k`` queries seen most often: top-k by :math:`N(q)` (equivalently
  :math:`\hat p(q)`).  Zhu et al.'s offline code:
  ``sorted(P, key=P.get, reverse=True)[:cache_size]``.
* **LEC** (least expected cost) caches the top-k by :math:`\hat p(q) \hat c(q)`, the
  plug-in estimate of the saved cost.  Zhu et al.'s offline code sorts by
  ``P[q] * mean_cost[q]``, largest first, where a query with no observed cost
  has mean 0; we do the same (a query never observed scores 0).

Tie rule.  Ours: among equal scores the smaller query id goes first
(:func:`offcmab.reference.oracles.top_k`), so the cache depends on the counts only.  Theirs:
Python's ``sorted`` is stable, and stays stable with ``reverse=True`` (equal keys are not
reversed), so among equal scores the query that comes first in the dict ``P`` goes first,
i.e. the order in which ``P`` was filled, which depends on the log (or on the sampler's
listing of queries).  The two caches differ only when a tie straddles the ``k``-th place,
and then only in which of the tied queries is kept.

References
----------
``app:extended`` (LLM cache experiments); Zhu et al., "Optimal caching and model
multiplexing for large model inference", 2023, ``inferband/server.py``.
"""

from __future__ import annotations

import numpy as np

from offcmab.reference.clcb_llm import cache_statistics
from offcmab.reference.dataset import IntArray
from offcmab.reference.errors import check_cardinality
from offcmab.reference.oracles import top_k
from offcmab.reference.problems.llm_cache import QueryLog

THEORY: tuple[str, ...] = ()


def lfu(log: QueryLog, k: int) -> IntArray:
    r"""Least-frequently-used eviction, offline: top-k by arrival count :math:`N(q)`."""
    stats = cache_statistics(log)
    return top_k(stats.counts.astype(np.float64), check_cardinality(k, log.m))


def lec(log: QueryLog, k: int) -> IntArray:
    r"""Least-expected-cost eviction, offline: top-k by :math:`\hat p(q)\hat c(q)` (0 if unseen)."""
    stats = cache_statistics(log)
    c_hat = np.nan_to_num(stats.c_hat, nan=0.0)
    return top_k(stats.counts / log.n * c_hat, check_cardinality(k, log.m))
