r"""An independent evaluator: exact optima, rewards and gap ranges by a route of its own.

The scenarios measure a trial's gap with the reference's problem objects (their reward
functions and oracles), the very code the algorithms under test use.  A mistake there
would move the gap and the bound's reference point together and go unnoticed, so this
package recomputes, without importing any of :mod:`offcmab.reference`:

* the reward of a given action, from closed forms written out here (cascade
  :math:`1-\prod_{i\in S}(1-\mu_i)`, k-path sums of arm means, LLM cache expected cost
  :math:`\sum_{q\notin\mathcal M} p(q)c(q)`, influence spread by enumerating live-edge
  worlds with its own reachability sweep);
* the best and the worst reward over the feasible actions, by brute force over every
  feasible action when there are few of them, by sorting (top-k / bottom-k) otherwise;
* from these, the range every trial's gap must lie in and the largest possible gap.

Scenarios compare their own route with this one once per instance and refuse a trial
whose gap lies outside the range (:class:`~offcmab.validation.evaluator.crosscheck.InternalError`).
"""
