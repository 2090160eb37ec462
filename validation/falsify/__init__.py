r"""``offcmab falsify``: search a theorem's instances for one where an algorithm breaks its bound.

:mod:`.strategies` turns a theorem's instance space (:mod:`.spaces` where the search needs
its own) into hypothesis strategies, :mod:`.evaluate` runs one instance on fixed seeds,
:mod:`.search` runs hypothesis on them (targeting the gap over the bound, shrinking a
failing instance, storing it in the example database), :mod:`.confirm` re-tests a found
instance on fresh seeds with an exact binomial test, :mod:`.report` writes the replayable
instance and its summary, and :mod:`.falsification` strings them together.
"""
