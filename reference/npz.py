r"""Reading chosen members of a ``.npz`` archive fast, and writing archives with aligned members.

``numpy.load`` of an ``.npz`` member goes through :mod:`zipfile`: it reads the member in
256 KiB chunks, checks its CRC-32 and copies every chunk into the array.  For a member
stored uncompressed (``ZIP_STORED``, what :func:`numpy.savez` and :func:`write_npz_aligned`
write) the array's bytes sit contiguously in the file, so :func:`read_npz_members` reads
only the members asked for, straight into the array's buffer with one ``readinto`` call, or
maps them read-only (``mmap=True``) when they are aligned for their dtype.  Compressed
members fall back to :func:`numpy.load`.

Pickles are never loaded: a member whose dtype holds Python objects is refused, as
``numpy.load(..., allow_pickle=False)`` would.  The CRC is not checked (a flipped bit in a
number is not caught; the data checks that follow catch what makes the data invalid).

:func:`write_npz_aligned` writes an archive that :func:`numpy.load` reads as usual, with
each member's data starting at a multiple of 64 bytes in the file (padding in the zip
extra field of the local header), so that a memory map of it is aligned.
"""

from __future__ import annotations

import mmap as mmap_module
import struct
import zipfile
from collections.abc import Iterable, Mapping
from io import BufferedReader
from pathlib import Path
from typing import Literal

import numpy as np

from offcmab.reference.errors import InputError

#: Data of every member written by :func:`write_npz_aligned` starts at a multiple of this.
ALIGNMENT = 64
_LOCAL_HEADER = struct.Struct("<4s5H3L2H")  # the fixed 30 bytes of a zip local file header
_PADDING_ID = 0xD935  # extra-field id used for alignment padding (as Android's zipalign)


def _open_archive(path: Path) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except FileNotFoundError:
        raise InputError("data", f"file not found: {path}") from None
    except (OSError, zipfile.BadZipFile, ValueError) as error:
        raise InputError("data", f"{path} is not a valid .npz archive ({error})") from None


def _read_header(handle: BufferedReader, info: zipfile.ZipInfo, key: str
                 ) -> tuple[tuple[int, ...], bool, np.dtype, int]:
    """Shape, Fortran order, dtype and file offset of the data of a stored member."""
    handle.seek(info.header_offset)
    fixed = handle.read(_LOCAL_HEADER.size)
    if len(fixed) != _LOCAL_HEADER.size or fixed[:4] != b"PK\x03\x04":
        raise InputError(key, "member header is damaged")
    name_length, extra_length = _LOCAL_HEADER.unpack(fixed)[-2:]
    start = info.header_offset + _LOCAL_HEADER.size + name_length + extra_length
    handle.seek(start)
    try:
        version = np.lib.format.read_magic(handle)
        reader = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                  else np.lib.format.read_array_header_2_0)
        shape, fortran, dtype = reader(handle)
    except ValueError as error:
        raise InputError(key, f"is not a valid .npy member ({error})") from None
    if dtype.hasobject:
        raise InputError("data", "archive holds pickled objects, which are never loaded")
    offset = handle.tell()
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if offset - start + size != info.file_size:
        raise InputError(key, "member is truncated or has trailing bytes")
    return shape, fortran, dtype, offset


def read_npz_members(path: str | Path, keys: Iterable[str], required: Iterable[str] = (),
                     mmap: bool = False) -> dict[str, np.ndarray]:
    r"""The arrays ``keys`` of a ``.npz`` archive (those present), reading nothing else.

    Parameters
    ----------
    path
        The archive.
    keys
        Member names without the ``.npy`` suffix; absent ones are left out of the result
        unless listed in ``required``.
    required
        Keys that must be present.
    mmap
        Map stored members whose data is aligned for their dtype read-only instead of
        reading them (the others are read).

    Raises
    ------
    InputError
        If the file is missing or not an archive (field ``data``), a required member is
        missing (field: its key), a member is damaged, or a member holds Python objects.
    """
    path = Path(path)
    arrays: dict[str, np.ndarray] = {}
    with _open_archive(path) as archive:
        names = set(archive.namelist())
        missing = [key for key in required if f"{key}.npy" not in names]
        if missing:
            raise InputError(missing[0], f"array missing from {path.name}")
        wanted = [key for key in keys if f"{key}.npy" in names]
        compressed = [key for key in wanted
                      if archive.getinfo(f"{key}.npy").compress_type != zipfile.ZIP_STORED]
        with path.open("rb") as handle:
            mapped = (mmap_module.mmap(handle.fileno(), 0, access=mmap_module.ACCESS_READ)
                      if mmap and len(compressed) < len(wanted) else None)
            for key in wanted:
                if key not in compressed:
                    arrays[key] = _read_stored(handle, archive.getinfo(f"{key}.npy"), key,
                                               mapped)
    if compressed:
        arrays.update(_read_with_numpy(path, compressed))
    return {key: arrays[key] for key in wanted}


def _read_stored(handle: BufferedReader, info: zipfile.ZipInfo, key: str,
                 mapped: mmap_module.mmap | None) -> np.ndarray:
    shape, fortran, dtype, offset = _read_header(handle, info, key)
    order: Literal["C", "F"] = "F" if fortran else "C"
    count = int(np.prod(shape, dtype=np.int64))
    if mapped is not None and offset % dtype.alignment == 0:
        flat = np.frombuffer(mapped, dtype=dtype, count=count, offset=offset)
        return flat.reshape(shape, order=order)
    array = np.empty(shape, dtype=dtype, order=order)
    handle.seek(offset)
    if handle.readinto(array.reshape(-1, order="A").data.cast("B")) != array.nbytes:
        raise InputError(key, "member is truncated")
    return array


def _read_with_numpy(path: Path, keys: list[str]) -> dict[str, np.ndarray]:
    """Compressed members, through :func:`numpy.load` (never unpickling)."""
    try:
        with np.load(path, allow_pickle=False) as archive:
            return {key: archive[key] for key in keys}
    except ValueError:
        raise InputError("data", "archive holds pickled objects, which are never loaded") \
            from None
    except (OSError, zipfile.BadZipFile) as error:
        raise InputError("data", f"{path} is not a valid .npz archive ({error})") from None


def write_npz_aligned(path: str | Path, arrays: Mapping[str, np.ndarray]) -> None:
    r"""Write ``arrays`` as an uncompressed ``.npz`` whose members' data start 64-byte aligned.

    Readable by :func:`numpy.load`; :func:`read_npz_members` can map its members.
    """
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as archive:
        for key, value in arrays.items():
            array = np.asanyarray(value)
            if array.dtype.hasobject:
                raise InputError(key, "holds Python objects, which are never written")
            header = _npy_header(array)
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            info.file_size = len(header) + array.nbytes
            zip64 = info.file_size * 1.05 > zipfile.ZIP64_LIMIT  # zipfile then adds 20 bytes
            before = (archive.fp.tell() if archive.fp else 0) + _LOCAL_HEADER.size \
                + len(info.filename.encode()) + 4 + (20 if zip64 else 0) + len(header)
            padding = -before % ALIGNMENT
            info.extra = struct.pack("<HH", _PADDING_ID, padding) + bytes(padding)
            with archive.open(info, "w", force_zip64=zip64) as member:
                member.write(header)
                member.write(np.ascontiguousarray(array).reshape(-1).view(np.uint8).data
                             if array.size else b"")


def _npy_header(array: np.ndarray) -> bytes:
    """The ``.npy`` magic and header (format 1.0, or 2.0 if the header is too long) of ``array``."""
    import io

    buffer = io.BytesIO()
    fields = {**np.lib.format.header_data_from_array_1_0(array), "fortran_order": False}
    try:
        np.lib.format.write_array_header_1_0(buffer, fields)
    except ValueError:
        buffer = io.BytesIO()
        np.lib.format.write_array_header_2_0(buffer, fields)
    return buffer.getvalue()
