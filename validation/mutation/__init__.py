r"""Mutation testing of the checker: how many broken variants ``offcmab validate`` flags.

:mod:`~offcmab.validation.mutation.operators` is the catalogue: per family of reference
algorithms, the mutants (one building block broken: the radius scaled, optimism, optimism
toward arms the data never observed, a sum or a count in place of a mean, the data ignored,
a broken oracle or one returning fixed ids, a wrong estimator, an off-by-one count) and the
declared equivalent mutants (another tie rule, the proof's radius constant, relabelled
arms), which must pass.  :mod:`~offcmab.validation.mutation.score` runs
each one through the same door as a user's algorithm and scores the outcome
(``offcmab mutation``): a survivor is *explained* when the catalogue records why no runnable
size can kill it, and only unexplained survivors and false alarms fail a run.
"""
