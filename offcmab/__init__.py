r"""offcmab: the reference implementation and theory checker of Off-CMAB.

Three layers, imported one way only:

``offcmab.reference``
    The algorithms, problems, oracles and dataset formats (numpy only).
``offcmab.bounds``
    Every bound, condition and claim of the paper in sympy, and the errata.
``offcmab.validation``
    The checker: theorem records, the run engine, reports and the command line.

References
----------
Liu et al., "Offline Learning for Combinatorial Multi-armed Bandits", ICML 2025.
"""

__version__ = "0.1.0"
