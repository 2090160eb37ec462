"""``python -m validation`` runs the ``offcmab`` command line."""

from offcmab.validation.cli import main

raise SystemExit(main())
