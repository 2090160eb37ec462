r"""Write ``cascade-log.jsonl``, the small cascade log used by the docs' tour, and the same
log as ``cascade-log.csv`` (the CSV layout of :mod:`offcmab.reference.csv_io`).

Eight items with attraction probabilities ``MU``; each of 300 users is shown a uniformly
random list of three distinct items, scans it top-down and stops at the first attractive
item.  Regenerate with ``python docs/examples/make_cascade_log.py`` (fixed seed).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from offcmab.reference.csv_io import write_csv_dataset
from offcmab.reference.dataset_io import read_jsonl

MU = np.array([0.45, 0.40, 0.35, 0.20, 0.15, 0.10, 0.08, 0.05])
K, N, SEED = 3, 300, 2025


def main() -> None:
    rng = np.random.default_rng(SEED)
    lines = [json.dumps({"m": int(MU.size), "k": K, "mu": MU.tolist()})]
    for _ in range(N):
        action = rng.permutation(MU.size)[:K]
        clicks = rng.random(K) < MU[action]
        stop = int(np.argmax(clicks)) + 1 if clicks.any() else K
        lines.append(json.dumps({
            "action": action.tolist(),
            "triggered": action[:stop].tolist(),
            "outcomes": clicks[:stop].astype(int).tolist(),
        }))
    log = Path(__file__).with_name("cascade-log.jsonl")
    log.write_text("\n".join(lines) + "\n")
    write_csv_dataset(read_jsonl(log), log.with_suffix(".csv"))


if __name__ == "__main__":
    main()
