r"""The machinery behind ``offcmab validate``: a sweep that is pure data, trials, verdicts.

It runs the records of :mod:`offcmab.validation.parts` (profiles, instances, the scenario
protocol, the verdict statistics) and never names a theorem.  Modules, in the order a run
uses them:

``seeding``
    One ``numpy.random.SeedSequence`` per trial, derived from the run seed and the
    trial key, so rows never depend on how trials are split across workers.
``store``
    The durable trial log (one JSON line per finished trial, flushed and fsynced).
``backends``
    Serial, process-pool and dask.distributed execution of trials.
``analysis``
    Trial records to report rows under the run-level false-alarm budget.
``power``
    The negative controls on the trap instances, and the power table they give.
``sweep``
    Plans the trials, runs the missing ones, builds the report.
``report`` and ``figures``
    ``report.json``, ``report.md`` and ``figures/*.png``.
"""
