"""One module per ``offcmab`` subcommand: ``HELP``, ``add_arguments(parser)``, ``run(args)``."""
