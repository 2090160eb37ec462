r"""Argument types shared by subcommands: they turn bad values into one-line usage errors.

Values are parsed strictly by :mod:`offcmab.validation.numbers` (ASCII digits only, finite floats);
user text is never evaluated.  argparse names the option in its message.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from offcmab.reference.errors import InputError
from offcmab.validation import numbers

T = TypeVar("T")

#: Largest count (``--k``, ``--jobs``, ``--samples``, ...) or seed accepted on the command line.
MAX_COUNT = 2**63 - 1


def _usage(parse: Callable[[str], T], text: str) -> T:
    """``parse(text)`` with an :class:`InputError` turned into argparse's usage error."""
    try:
        return parse(text)
    except InputError as error:
        raise argparse.ArgumentTypeError(error.message) from None


def probability(text: str) -> float:
    """A number strictly between 0 and 1 (``--delta``)."""
    value = _usage(lambda t: numbers.parse_float(t, "value"), text)
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """An integer of at least 1 (``--k``, ``--jobs``, ...)."""
    return _usage(lambda t: numbers.parse_int(t, "value", 1, MAX_COUNT), text)


def nonnegative_int(text: str) -> int:
    """An integer of at least 0 (``--seed``)."""
    return _usage(lambda t: numbers.parse_int(t, "value", 0, MAX_COUNT), text)


def positive_float(text: str) -> float:
    """A finite number greater than 0."""
    value = _usage(lambda t: numbers.parse_float(t, "value"), text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text!r}")
    return value


def output_path(text: str) -> Path:
    """A file or folder to write (``--out``, ``--junit-xml``, ``--database``): not empty nor
    blank, which would mean the current folder and scatter the output among what is there.

    What sits at the path is checked by the command before any work
    (:func:`offcmab.validation.runner.folder.check_output_file` and ``check_output_folder``).
    """
    if not text.strip():
        raise argparse.ArgumentTypeError(f"must name a file or folder to write, got {text!r}")
    return Path(text)


def input_path(text: str) -> Path:
    """A file or folder to read (a run folder, ``--baseline``, ``--instances``, ``--data``):
    not empty nor blank, which would silently mean the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"must name a file or folder to read, got {text!r}")
    return Path(text)


def add_theorem_argument(parser: argparse.ArgumentParser) -> None:
    """``--theorem FILE.py:NAME`` (or ``package.module:NAME``, repeatable): a theorem record
    of one's own (:mod:`offcmab.validation.extend`) beside the package's."""
    parser.add_argument("--theorem", action="append", default=[], metavar="FILE.py:NAME",
                        help="a theorem of your own (or package.module:NAME; repeatable), "
                             "built with offcmab.validation.extend; the file is run as Python")
def add_backend_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``--jobs``, ``--backend`` and ``--scheduler`` of a heavy command (``what`` it runs in
    parallel, for the help)."""
    parser.add_argument("--jobs", type=positive_int, default=1,
                        help=f"{what} executed in parallel workers (default 1)")
    parser.add_argument("--backend", choices=["serial", "processes", "dask"], default=None,
                        help="where they run (default: serial for --jobs 1, else processes); "
                             "the results do not depend on it")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help="dask scheduler address (with --backend dask; default: a local "
                             "cluster of --jobs workers, started and closed by the command)")


def backend_of(args: argparse.Namespace) -> str:
    """The backend a command's arguments choose (serial for one job, else processes)."""
    return args.backend or ("serial" if args.jobs == 1 else "processes")
