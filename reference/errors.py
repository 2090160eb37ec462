r"""The one error type for bad user input.

Every check on data, parameters or files raises :class:`InputError`.  It is a
``ValueError`` so that library users can catch it the usual way; the command
line turns it into exit code 2 and a single line on stderr.
"""

from __future__ import annotations

#: Largest number of arms, queries or nodes accepted.  Per-arm arrays are allocated from the
#: declared size, so a stray huge ``m`` would otherwise fail late with a memory error.
MAX_SIZE = 50_000_000


class InputError(ValueError):
    r"""Bad input, naming the field (and the line of a data file when known).

    Parameters
    ----------
    field
        Name of the offending parameter, column or record key.
    message
        What is wrong with it, in plain words.
    line
        1-based line number in the data file, when the input came from a file.
    sample
        0-based index of the offending sample, when a check on a loaded dataset found it
        (:func:`offcmab.reference.dataset_io.check_file` turns it into a file line).
    """

    def __init__(self, field: str, message: str, line: int | None = None,
                 sample: int | None = None) -> None:
        self.field = field
        self.message = message
        self.line = line
        self.sample = sample
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{field}: {message}")


def check_probability(delta: float, field: str = "delta") -> float:
    r"""Return ``delta`` as a float after checking ``0 < delta < 1``."""
    try:
        value = float(delta)
    except (TypeError, ValueError):
        raise InputError(field, f"must be a number in (0, 1), got {delta!r}") from None
    if not 0.0 < value < 1.0:  # also rejects NaN
        raise InputError(field, f"must lie strictly between 0 and 1, got {delta!r}")
    return value


def check_cardinality(k: int, m: int, field: str = "k") -> int:
    r"""Return ``k`` after checking it is an integer with ``1 <= k <= m``."""
    if isinstance(k, bool) or int(k) != k:
        raise InputError(field, f"must be an integer, got {k!r}")
    k = int(k)
    if k < 1:
        raise InputError(field, f"must be at least 1, got {k}")
    if k > m:
        raise InputError(field, f"must not exceed the number of arms m={m}, got {k}")
    return k


def check_size(size: object, field: str, line: int | None = None) -> int:
    r"""Return ``size`` as an int after checking it is an integer with ``1 <= size <= MAX_SIZE``."""
    try:
        value = int(size)  # type: ignore[call-overload]
        integral = value == size and not isinstance(size, bool | str)
    except (TypeError, ValueError, OverflowError):
        integral = False
    if not integral or value < 1:
        raise InputError(field, f"must be a positive integer, got {size!r}", line)
    if value > MAX_SIZE:
        raise InputError(field, f"at most {MAX_SIZE} is supported, got {value}", line)
    return value


#: Sizes up to this many arms, queries or nodes are always accepted.
DENSE_MIN = 1_000_000
#: Above :data:`DENSE_MIN`, a size may exceed the id entries present by at most this factor.
DENSE_FACTOR = 8


def check_dense(size: int, entries: int, field: str) -> int:
    r"""Return ``size`` after checking the data present can justify it.

    Work and memory grow with the declared number of arms (per-arm counters, LCBs, output),
    so a header ``m = 50000000`` over a handful of samples would cost seconds and gigabytes
    for nothing.  Refused when ``size > DENSE_MIN`` and ``size > DENSE_FACTOR * (entries + 1)``,
    ``entries`` being the number of id entries in the data (each occurrence counts).
    """
    if size > DENSE_MIN and size > DENSE_FACTOR * (entries + 1):
        raise InputError(field, f"is {size} but the data hold only {entries} ids; above "
                         f"{DENSE_MIN} it may be at most {DENSE_FACTOR} x (ids + 1) (renumber "
                         "the ids used to 0, 1, 2, ...)")
    return size
