"""The direct reader of uncompressed ``.npz`` members agrees with ``np.load`` and falls back."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from reference.dataset_io import _read_stored_arrays, read_npz, write_npz
from reference.errors import InputError
from reference.problems.cascade import CascadeProblem, UniformListsLaw


def test_direct_reader_equals_np_load(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    data = UniformListsLaw(CascadeProblem(rng.random(50), 4)).sample(300, rng)
    path = tmp_path / "log.npz"
    write_npz(data, path)
    direct = _read_stored_arrays(path)
    assert direct is not None
    with np.load(path, allow_pickle=False) as archive:
        for key in archive.files:
            np.testing.assert_array_equal(direct[key], archive[key])
            assert direct[key].dtype == archive[key].dtype
    assert read_npz(path).triggered.tolist() == data.triggered.tolist()


def test_compressed_archives_fall_back_and_pickles_are_refused(tmp_path: Path) -> None:
    compressed = tmp_path / "small.npz"
    np.savez_compressed(compressed, m=np.int64(3), triggered_offsets=np.array([0, 1]),
                        triggered=np.array([2]), outcomes=np.array([1.0]))
    assert _read_stored_arrays(compressed) is None
    assert read_npz(compressed).triggered.tolist() == [2]
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, m=np.int64(3), triggered_offsets=np.array([0, 1]),
             triggered=np.array([2]), outcomes=np.array([{"a": 1}], dtype=object))
    assert _read_stored_arrays(pickled) is None
    with pytest.raises(InputError, match="pickled"):
        read_npz(pickled)
