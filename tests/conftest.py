"""Shared test configuration: hypothesis profiles and seeded generators.

Profiles: ``ci`` (derandomized, no deadline; selected when ``CI`` or
``HYPOTHESIS_PROFILE=ci`` is set), ``dev`` (random, more examples).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=60,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev")
)


@pytest.fixture
def rng() -> np.random.Generator:
    """A generator with a fixed seed, fresh for every test."""
    return np.random.default_rng(20250713)
