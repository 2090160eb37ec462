"""The fast ``.npz`` member reader and the aligned writer (reference/npz.py)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from offcmab.reference.errors import InputError
from offcmab.reference.npz import ALIGNMENT, read_npz_members, write_npz_aligned

ARRAYS = {
    "m": np.asarray(7, dtype=np.int64),
    "ids": np.arange(11, dtype=np.int64),
    "x": np.linspace(0.0, 1.0, 5),
    "grid": np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)),
    "big_endian": np.arange(4, dtype=">i8"),
    "empty": np.zeros(0),
}


@pytest.mark.parametrize("mmap", [False, True])
def test_aligned_round_trip(tmp_path: Path, mmap: bool) -> None:
    path = tmp_path / "a.npz"
    write_npz_aligned(path, ARRAYS)
    with np.load(path, allow_pickle=False) as archive:  # numpy reads what we write
        for key, value in ARRAYS.items():
            np.testing.assert_array_equal(archive[key], value)
    read = read_npz_members(path, [*ARRAYS, "absent"], ["ids"], mmap=mmap)
    assert list(read) == list(ARRAYS)
    for key, value in ARRAYS.items():
        np.testing.assert_array_equal(read[key], value)
        assert read[key].dtype == value.dtype and read[key].shape == value.shape


def test_members_start_aligned(tmp_path: Path) -> None:
    path = tmp_path / "a.npz"
    write_npz_aligned(path, ARRAYS)
    raw = path.read_bytes()
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            name_length = int.from_bytes(raw[info.header_offset + 26:info.header_offset + 28],
                                         "little")
            extra_length = int.from_bytes(raw[info.header_offset + 28:info.header_offset + 30],
                                          "little")
            npy = info.header_offset + 30 + name_length + extra_length
            header_length = int.from_bytes(raw[npy + 8:npy + 10], "little")
            assert (npy + 10 + header_length) % ALIGNMENT == 0, info.filename


def test_reads_numpy_savez_and_compressed(tmp_path: Path) -> None:
    plain, packed = tmp_path / "plain.npz", tmp_path / "packed.npz"
    np.savez(plain, **ARRAYS)  # unaligned members: read, never mapped
    np.savez_compressed(packed, **ARRAYS)  # compressed: through numpy.load
    for path in (plain, packed):
        for mmap in (False, True):
            read = read_npz_members(path, ARRAYS, mmap=mmap)
            for key, value in ARRAYS.items():
                np.testing.assert_array_equal(read[key], value)


def test_only_asked_members_are_read(tmp_path: Path) -> None:
    path = tmp_path / "a.npz"
    write_npz_aligned(path, ARRAYS)
    assert list(read_npz_members(path, ["x"])) == ["x"]


def test_refuses_pickles_missing_and_damaged(tmp_path: Path) -> None:
    pickled = tmp_path / "p.npz"
    np.savez(pickled, ids=np.arange(3), bad=np.array([{"a": 1}], dtype=object))
    with pytest.raises(InputError, match="pickled objects"):
        read_npz_members(pickled, ["bad"])
    assert list(read_npz_members(pickled, ["ids"])) == ["ids"]  # the object member is unread
    with pytest.raises(InputError, match="x: array missing"):
        read_npz_members(pickled, ["ids"], ["x"])
    with pytest.raises(InputError, match="file not found"):
        read_npz_members(tmp_path / "none.npz", ["x"])
    text = tmp_path / "t.npz"
    text.write_text("not a zip")
    with pytest.raises(InputError, match=r"not a valid \.npz"):
        read_npz_members(text, ["x"])
    cut = tmp_path / "cut.npz"
    write_npz_aligned(cut, {"x": np.arange(1000.0)})
    data = bytearray(cut.read_bytes())
    shape = data.index(b"(1000,)")
    data[shape:shape + 7] = b"(1001,)"  # the header promises more data than the member holds
    cut.write_bytes(bytes(data))
    with pytest.raises(InputError, match="x: member is truncated"):
        read_npz_members(cut, ["x"])
