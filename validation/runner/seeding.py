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


def trial_spawn(key: TrialKey) -> tuple[int, ...]:
    """The spawn key of one trial: four words of the instance hash, ``n``, the trial index."""
    digest = hashlib.sha256(f"{key.bound_id}\x1f{key.instance}".encode()).digest()
    words = tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))
    return (*words, key.n, key.trial)


def trial_seed_sequence(run_seed: int, key: TrialKey) -> np.random.SeedSequence:
    """The ``SeedSequence`` of one trial."""
    return np.random.SeedSequence(entropy=run_seed, spawn_key=trial_spawn(key))


def trial_stream(run_seed: int, key: TrialKey) -> str:
    """A fingerprint of one trial's random stream (the first 128 bits of its seed state).

    The trial log stores it beside the run seed: a line whose stream is not the one the
    run seed spawns for its key was not drawn by this run.
    """
    state = trial_seed_sequence(run_seed, key).generate_state(2, dtype=np.uint64)
    return "".join(f"{int(word):016x}" for word in state)


def trial_generator(run_seed: int, key: TrialKey) -> np.random.Generator:
    """A fresh generator for one trial (PCG64 on the trial's ``SeedSequence``)."""
    return np.random.default_rng(trial_seed_sequence(run_seed, key))
