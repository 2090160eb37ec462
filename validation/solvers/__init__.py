"""One module per ``offcmab solve PROBLEM``.

Each exposes ``HELP``, ``ALGORITHMS``, ``add_arguments(parser)`` and
``solve(args) -> Solution`` (:class:`~offcmab.validation.solvers.summary.Solution`).
"""
