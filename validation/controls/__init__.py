r"""Negative controls: deliberately broken variants of the reference algorithms.

A check that cannot fail proves nothing.  Each control here is the reference
algorithm of one theorem with *one* expression changed (the docstring's first line
names it), written as a thin wrapper around the code in :mod:`offcmab.reference`: it
recomputes the reference's statistics and changes only the index the oracle sees, or
passes a parameter the reference already has.  Each theorem record of
:mod:`offcmab.validation.theorems` lists its controls (they have the signature of its
reference algorithm); ``offcmab validate`` runs them on the same datasets as the real
algorithm, and a control that no row flags shows a blind spot of the validation (the
power table, :mod:`offcmab.validation.runner.power`).  The subject spec ``control:<name>``
names one.

Controls live here and never in :mod:`offcmab.reference`: nothing a user imports from the
reference package is broken on purpose.
"""
