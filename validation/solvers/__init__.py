"""One module per ``offcmab solve PROBLEM``.

Each exposes ``HELP``, ``add_arguments(parser)`` and ``solve(args) -> dict``.
"""
