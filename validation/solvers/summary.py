r"""What every ``offcmab solve PROBLEM`` prints: a short summary, or everything on request.

A solver returns a :class:`Solution`.  By default the command prints a few lines (the
algorithm, the chosen action, ``n``, ``m``, ``delta``, the smallest count among the chosen
arms and, for an algorithm that has one, the confidence radius at that count, and how to get
the rest); ``--json`` prints
one object with the summary and every per-arm array; ``--out stats.npz`` or
``--out stats.csv`` writes the per-arm arrays (one row per arm) to a file.  A log with
:math:`m = 10^5` arms thus prints a handful of lines instead of megabytes of numbers.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.certificates import Certificate
from offcmab.reference.confidence import LOG_CONSTANT
from offcmab.reference.npz import write_npz_aligned
from offcmab.validation.output import emit
from offcmab.validation.runner.folder import atomic_write

#: Summary fields every solver prints (besides its action and ``extra``).
SUMMARY = frozenset({"algorithm", "n", "m", "delta", "min_count"})

#: Summary fields printed only for an algorithm with a confidence radius (not EMP, LFU, LEC
#: or a plug-in estimate, which use none).
RADIUS_FIELDS = frozenset({"radius", "radius_rule"})

#: Summary field of a solver that certifies its action (cascade, k-path, LLM cache with
#: bounded costs, influence maximization).
CERTIFICATE_FIELDS = frozenset({"certificate"})

#: File types ``--out`` writes, by suffix.
OUT_SUFFIXES = (".npz", ".csv")


@dataclass(frozen=True)
class Solution:
    r"""A solver's answer: the action, the numbers behind it, and every per-arm array.

    Attributes
    ----------
    algorithm
        The ``--algorithm`` that chose the action.
    action_key, action
        Name (``action``, ``cache``, ``seeds``) and value of the chosen action.
    n, m, delta
        Log size, number of base arms, failure probability.
    min_count
        The smallest count among the arms the action chose (the least observed one), or
        ``None`` if the action chose no arm that has a count.
    radius
        The confidence radius at that count under ``radius_rule``; ``None`` for an
        algorithm that uses no radius (the output then has neither field).
    radius_rule
        The radius formula, as text (``None`` with ``radius``).
    arrays
        Per-arm arrays of equal length (columns of ``--out``).
    rows_key
        If set, ``--json`` shows ``arrays`` as a list of row objects under this key
        (``edges`` for the IM solvers) instead of one key per array.
    extra
        Further summary fields (e.g. ``path`` for k-path).
    certificate
        How large the action's gap can be, from the data alone, and with what probability
        (``None`` where no certificate is derived: unbounded costs).
    """

    algorithm: str
    action_key: str
    action: np.ndarray
    n: int
    m: int
    delta: float
    min_count: int | None
    radius: float | None
    radius_rule: str | None
    arrays: dict[str, np.ndarray]
    rows_key: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    certificate: Certificate | None = None

    def summary(self) -> dict[str, Any]:
        """The fields the default output prints (and ``--json`` starts with)."""
        radius = {} if self.radius is None else {"radius": self.radius,
                                                  "radius_rule": self.radius_rule}
        return {self.action_key: self.action, **self.extra, "algorithm": self.algorithm,
                "n": self.n, "m": self.m, "delta": self.delta, "min_count": self.min_count,
                **radius, **self._certificate()}

    def _certificate(self) -> dict[str, Any]:
        if self.certificate is None:
            return {}
        return {"certificate": {"bound": self.certificate.bound,
                                "failure_probability": self.certificate.failure_probability,
                                "event": self.certificate.event}}

    def payload(self) -> dict[str, Any]:
        """The ``--json`` object: the summary and every per-arm array."""
        if self.rows_key is None:
            return {**self.summary(), **self.arrays}
        columns = [column.tolist() for column in self.arrays.values()]
        rows = [dict(zip(self.arrays, row, strict=True)) for row in zip(*columns, strict=True)]
        return {**self.summary(), self.rows_key: rows}


def smallest_count(counts: np.ndarray, chosen: np.ndarray) -> int | None:
    """The smallest of ``counts[chosen]``, or ``None`` when nothing was chosen."""
    return int(counts[chosen].min()) if np.size(chosen) else None


def out_path(text: str) -> Path:
    """``--out`` value: a path ending in ``.npz`` or ``.csv`` (else exit 2 naming ``--out``)."""
    path = Path(text)
    if not text.strip():
        raise argparse.ArgumentTypeError(f"must name a file to write, got {text!r}")
    if path.suffix.lower() not in OUT_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"must end in {' or '.join(OUT_SUFFIXES)} (statistics file), got {text!r}")
    return path


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """``--json``, ``--out`` and ``--overwrite`` (shared by every solver)."""
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object: the summary and every per-arm array")
    parser.add_argument("--out", type=out_path, metavar="FILE",
                        help="write the per-arm statistics to FILE (.npz or .csv, one row per "
                        "arm)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace an existing --out file (without it, it is refused)")


def write_statistics(solution: Solution, path: Path) -> None:
    """The per-arm arrays as ``.npz`` (no pickles) or ``.csv`` (header row, one row per arm)."""
    if path.suffix.lower() == ".npz":
        write_npz_aligned(path, solution.arrays)
        return
    names = list(solution.arrays)
    columns = [np.asarray(column) for column in solution.arrays.values()]
    formats = ["%d" if column.dtype.kind in "iub" else "%.17g" for column in columns]
    table = np.empty((len(columns[0]) if columns else 0, len(columns)), dtype=object)
    for j, column in enumerate(columns):
        table[:, j] = column
    np.savetxt(path, table, fmt=formats, delimiter=",", header=",".join(names), comments="",
               encoding="utf-8")


def report(solution: Solution, as_json: bool, out: Path | None) -> None:
    """Print the summary (or the JSON object) and write ``--out`` if asked."""
    if out is not None:  # whole or absent: a reader never sees half a table
        atomic_write(out, lambda temporary: write_statistics(solution, temporary))
    if as_json:
        emit(solution.payload(), True)
        return
    summary = solution.summary()
    if solution.certificate is not None:  # one line of words in place of the JSON object
        summary["certificate"] = solution.certificate.sentence()
    emit(summary, False)
    where = f"written to {out}" if out is not None else \
        "--json prints them, --out stats.npz or stats.csv writes them"
    sys.stdout.write(f"per-arm statistics ({len(solution.arrays)} arrays of "
                     f"{_length(solution)} entries): {where}\n")


def _length(solution: Solution) -> int:
    return len(next(iter(solution.arrays.values()))) if solution.arrays else 0


def hoeffding_rule(count: int | None, n: int, m: int, delta: float, rule: str,
                   uses_radius: bool = True) -> tuple[float | None, str | None]:
    r"""CLCB's radius :math:`\sqrt{\log(c m n/\delta)/(2N)}` at ``count`` and its formula;
    ``(None, None)`` when the algorithm uses no radius (``uses_radius`` false: EMP)."""
    if not uses_radius:
        return None, None
    constant = LOG_CONSTANT[rule]
    radius = math.sqrt(math.log(constant * m * n / delta) / (2 * count)) if count else math.inf
    return radius, f"sqrt(log({constant:g} m n / delta) / (2 N))"
