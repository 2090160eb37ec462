r"""``offcmab falsify``: search a theorem's instances for one where an algorithm breaks its bound.

:mod:`.strategies` turns a theorem's instance space into hypothesis strategies,
:mod:`.search` runs hypothesis on them (targeting the gap over the bound, shrinking a
failing instance), :mod:`.confirm` re-tests a found instance on fresh seeds with an exact
binomial test, and :mod:`.report` writes the replayable instance and its summary.
"""
