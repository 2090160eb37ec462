r"""What the certificate adds to ``offcmab solve cascade``: the time ratio on a large log.

Generates a cascade log (``n = 2e6`` ranked lists of ``k = 5`` over ``m = 1000`` items, uniform
lists, seed 0), then in one process times, interleaved and repeated, (a) CLCB on it without a
certificate (:func:`offcmab.reference.clcb.clcb` with the top-k oracle, which carries none),
(b) CLCB-Cascade with its list's certificate (the certificate is computed when it is read,
so the timing reads it), and (c) reading the log from its ``.npz``
file, as ``solve`` does.  Prints the medians and the ratios
``(b)/(a)`` (the algorithm alone) and ``(c + b)/(c + a)`` (what ``solve`` spends).

Run: ``offcmab bench --only certificate-cost`` (goal: ``(c + b)/(c + a)`` at most
:data:`GOAL`), or ``python -m offcmab.validation.benchmarks.certificate_cost [--n N]
[--repeats R]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.clcb import clcb
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.csv_io import read_log
from offcmab.reference.dataset_io import write_npz
from offcmab.reference.oracles import TopK
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw
from offcmab.validation.benchmarks.figures import figure

TITLE = "offcmab solve cascade with its certificate vs CLCB without one, on a 2e6-round log"
#: Most the certificate may add to what ``solve`` spends (the ratio's goal).
GOAL = 1.10


def measure(n: int, m: int, repeats: int) -> dict[str, Any]:
    """Medians of the three timings (interleaved, ``repeats`` times) and their ratios."""
    k, delta = 5, 0.1
    mu = np.random.default_rng(1).uniform(0.0, 0.3, m)
    dataset = UniformListsLaw(CascadeProblem(mu, k)).sample(n, np.random.default_rng(0))
    plain, certified, reading = [], [], []
    bound = None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.npz"
        write_npz(dataset, path)
        for _ in range(repeats):
            start = time.perf_counter()
            read_log(path)
            reading.append(time.perf_counter() - start)
            start = time.perf_counter()
            clcb(dataset, TopK(k), delta, "cascade")
            plain.append(time.perf_counter() - start)
            start = time.perf_counter()
            certificate = clcb_cascade(dataset, k, delta).certificate  # computed on access
            certified.append(time.perf_counter() - start)
            bound = None if certificate is None else certificate.bound
    a, b, c = (statistics.median(x) for x in (plain, certified, reading))
    return {"n": n, "m": m, "k": k, "repeats": repeats, "seconds_without": a,
            "seconds_with": b, "seconds_read": c, "ratio_algorithm": b / a,
            "ratio_solve": (c + b) / (c + a), "certificate": bound}


def run(quick: bool) -> dict[str, Any]:
    """``offcmab bench``'s row: 2e6 rounds, 7 repeats (``quick``: 2e5 rounds, 3 repeats)."""
    numbers = measure(200_000 if quick else 2_000_000, 1000, 3 if quick else 7)
    numbers["figures"] = [figure("solve cascade time with / without certificate",
                                 numbers["ratio_solve"], "CLCB without a certificate, same run",
                                 GOAL, "lower")]
    return numbers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2_000_000)
    parser.add_argument("--m", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    print(json.dumps(measure(args.n, args.m, args.repeats), indent=1))


if __name__ == "__main__":
    main()
