r"""What the certificate adds to ``offcmab solve cascade``: the time ratio on a large log.

Generates a cascade log (``n = 2e6`` ranked lists of ``k = 5`` over ``m = 1000`` items, uniform
lists, seed 0), then in one process times, interleaved and repeated, (a) CLCB on it without a
certificate (:func:`offcmab.reference.clcb.clcb` with the top-k oracle, which carries none),
(b) CLCB-Cascade, which also certifies its list, and (c) reading the log from its ``.npz``
file, as ``solve`` does.  Prints the medians and the ratios
``(b)/(a)`` (the algorithm alone) and ``(c + b)/(c + a)`` (what ``solve`` spends).

Run: ``python -m offcmab.validation.benchmarks.certificate_cost [--n N] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from offcmab.reference.clcb import clcb
from offcmab.reference.clcb_cascade import clcb_cascade
from offcmab.reference.csv_io import read_log
from offcmab.reference.dataset_io import write_npz
from offcmab.reference.oracles import TopK
from offcmab.reference.problems.cascade import CascadeProblem, UniformListsLaw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2_000_000)
    parser.add_argument("--m", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    k, delta = 5, 0.1
    mu = np.random.default_rng(1).uniform(0.0, 0.3, args.m)
    dataset = UniformListsLaw(CascadeProblem(mu, k)).sample(args.n, np.random.default_rng(0))
    plain, certified, reading = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.npz"
        write_npz(dataset, path)
        for _ in range(args.repeats):
            start = time.perf_counter()
            read_log(path)
            reading.append(time.perf_counter() - start)
            start = time.perf_counter()
            clcb(dataset, TopK(k), delta, "cascade")
            plain.append(time.perf_counter() - start)
            start = time.perf_counter()
            result = clcb_cascade(dataset, k, delta)
            certified.append(time.perf_counter() - start)
    a, b, c = (statistics.median(x) for x in (plain, certified, reading))
    print(json.dumps({"n": args.n, "m": args.m, "k": k, "repeats": args.repeats,
                      "seconds_without": a, "seconds_with": b, "seconds_read": c,
                      "ratio_algorithm": b / a, "ratio_solve": (c + b) / (c + a),
                      "certificate": result.certificate.bound if result.certificate else None},
                     indent=1))


if __name__ == "__main__":
    main()
