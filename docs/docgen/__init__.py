"""Build-time generators for the docs site (used by ``docs/hooks.py`` and the docs tests)."""
