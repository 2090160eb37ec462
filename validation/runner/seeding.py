r"""Seeds: every trial's generator is a function of the run seed and its key only.

The key (bound id, instance name, n, trial index) is turned into a
``SeedSequence`` spawn key: the instance part is hashed with SHA-256 (stable
across processes and Python versions, unlike ``hash``), ``n`` and the trial index
are appended as integers.  Two runs with the same seed therefore draw identical
datasets for a key, whichever worker runs it and in whichever order.  The key's
``subject`` (the algorithm run, see :mod:`offcmab.validation.subjects`) is left out on
purpose: the reference and a substituted algorithm see the same dataset.
"""

from __future__ import annotations

import hashlib

import numpy as np

from offcmab.validation.runner.spec import TrialKey


def trial_seed_sequence(run_seed: int, key: TrialKey) -> np.random.SeedSequence:
    """The ``SeedSequence`` of one trial."""
    digest = hashlib.sha256(f"{key.bound_id}\x1f{key.instance}".encode()).digest()
    words = tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))
    return np.random.SeedSequence(entropy=run_seed, spawn_key=(*words, key.n, key.trial))


def trial_generator(run_seed: int, key: TrialKey) -> np.random.Generator:
    """A fresh generator for one trial (PCG64 on the trial's ``SeedSequence``)."""
    return np.random.default_rng(trial_seed_sequence(run_seed, key))
