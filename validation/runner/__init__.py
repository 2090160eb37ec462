r"""The machinery behind ``offcmab validate``: a sweep that is pure data, trials, verdicts.

Modules, in the order a run uses them:

``spec``
    Profiles (``quick``, ``default``, ``full``), instances and trial keys: pure data.
``scenario``
    The protocol every scenario (one per bound id) implements.
``generate``
    Generated instances: hypothesis examples determined by the run seed.
``seeding``
    One ``numpy.random.SeedSequence`` per trial, derived from the run seed and the
    trial key, so rows never depend on how trials are split across workers.
``store``
    The durable trial log (one JSON line per finished trial, flushed and fsynced).
``backends``
    Serial, process-pool and dask.distributed execution of trials.
``verdict``
    Exact binomial tails, Hoeffding tails, tightness, smallest passing scale, slopes.
``analysis``
    Trial records to report rows under the run-level false-alarm budget.
``sweep``
    Plans the trials, runs the missing ones, builds the report.
``report`` and ``figures``
    ``report.json``, ``report.md`` and ``figures/*.png``.
"""
