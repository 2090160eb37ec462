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

import functools
import hashlib

import numpy as np

from offcmab.validation.parts.spec import TrialKey


def trial_spawn(key: TrialKey) -> tuple[int, ...]:
    """The spawn key of one trial: four words of the instance hash, ``n``, the trial index."""
    return (*_instance_words(key.bound_id, key.instance), key.n, key.trial)


@functools.lru_cache(maxsize=4096)
def _instance_words(bound_id: str, instance: str) -> tuple[int, ...]:
    """Four 32-bit words of the SHA-256 of (bound id, instance): the same in every process."""
    digest = hashlib.sha256(f"{bound_id}\x1f{instance}".encode()).digest()
    return tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))


def trial_seed_sequence(run_seed: int, key: TrialKey) -> np.random.SeedSequence:
    """The ``SeedSequence`` of one trial."""
    return np.random.SeedSequence(entropy=run_seed, spawn_key=trial_spawn(key))


def trial_stream(run_seed: int, key: TrialKey) -> str:
    """A fingerprint of one trial's random stream (the first 128 bits of its seed state).

    The trial log stores it beside the run seed: a line whose stream is not the one the
    run seed spawns for its key was not drawn by this run.
    """
    state = trial_seed_sequence(run_seed, key).generate_state(2, dtype=np.uint64)
    return state.astype("<u8").tobytes().hex()


def trial_generator(run_seed: int, key: TrialKey) -> np.random.Generator:
    """A fresh generator for one trial (PCG64 on the trial's ``SeedSequence``)."""
    return np.random.default_rng(trial_seed_sequence(run_seed, key))
