r"""The parts a theorem is made of: what a record holds, and nothing that runs it.

Modules:

``theorem``
    The record of one bound (:class:`~offcmab.validation.parts.theorem.Theorem`), the call a
    substituted algorithm must have (``Signature``) and the proven order of the gap (``Rate``).
``spec``
    Profiles, instances and trial keys: pure data.
``scenario``
    The protocol every scenario implements, and the values a trial and a bound return.
``space``
    The box of coordinates that ``offcmab tightness`` and ``offcmab falsify`` search.
``event_case``
    An event row before it runs, and the measured rate of a known failure.
``verdict``
    The exact statistics every verdict rests on: binomial and Hoeffding tails, tightness,
    slopes.

This folder imports only :mod:`offcmab.reference` and :mod:`offcmab.bounds`: the engine
(:mod:`offcmab.validation.runner`), the event rows, the tightness and falsify searches and the
mutation score build on it, and nothing here imports them.
"""
