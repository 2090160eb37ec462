"""``python -m validation`` runs the ``offcmab`` command line."""

from validation.cli import main

raise SystemExit(main())
