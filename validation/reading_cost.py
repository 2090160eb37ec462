r"""The cost model of ``offcmab solve``: reading a dataset file and running an algorithm on it.

A :class:`~offcmab.validation.limits.Cost` from the file's size alone, which
:func:`~offcmab.validation.limits.check_cost` compares with the limits before the file is
read.  The other commands' models are in :mod:`offcmab.validation.costs`.
"""

from __future__ import annotations

from pathlib import Path

from offcmab.validation.limits import Cost

#: Peak bytes of reading a JSON Lines dataset and running an algorithm, per byte of file:
#: the lines as strings, then each id or outcome (2 to 4 characters of the file) as a Python
#: object in a list before it becomes an 8-byte array entry (measured: 5.3 on a cascade log).
JSONL_BYTES_PER_FILE_BYTE = 6
#: The same for a ``.npz`` dataset, whose members are read straight into their arrays
#: (measured: 0.72 on the same log; the algorithm's per-sample temporaries stay below it).
NPZ_BYTES_PER_FILE_BYTE = 1


def dataset_cost(path: Path, field: str = "data") -> Cost:
    """``solve``: reading a dataset file and running the algorithm on it, from the file size.

    A missing file costs nothing here (the reader reports it).  No time model: reading is
    linear in the file and the algorithms are linear in the samples.
    """
    try:
        size = Path(path).stat().st_size
    except OSError:
        size = 0
    factor = NPZ_BYTES_PER_FILE_BYTE if Path(path).suffix == ".npz" \
        else JSONL_BYTES_PER_FILE_BYTE
    return Cost(field, float(size) * factor, 0.0,
                f"{factor} bytes per byte of the {size}-byte file")
