r"""One module per theorem; each exposes ``BOUNDS_HERE: tuple[Bound, ...]``."""
