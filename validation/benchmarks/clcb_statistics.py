r"""``offcmab solve`` as a whole process against a bare numpy floor script, per problem.

For each problem a log is drawn and saved as ``.npz`` (uncompressed, as our writer stores
it), then two child processes are timed, interleaved :data:`REPEATS` times (1 with
``quick``) after one untimed run of each (compiled files, disk cache), so that a busy
machine slows both alike, and the medians are compared:

* ``solve``: ``python -m validation solve PROBLEM --data log.npz ...`` (start-up, imports,
  reading and checking the file, the algorithm, the summary output);
* ``floor``: ``python -c`` a script that imports numpy, loads the arrays the statistics
  need with :func:`numpy.load`, and does the statistics, the confidence bounds and the
  oracle (``bincount`` calls, ``argpartition`` / a path argmax) with no checks at all.

Peak memory is each child's own high-water mark (``VmHWM``, or ``ru_maxrss`` of
:func:`resource.getrusage` off Linux), written by the child at exit and compared with the
size of the arrays the floor loads.  Sizes (full run): cascade ``n = 2e6`` lists of ``k = 5``
among ``m = 1e5`` items; k-path ``n = 8e5`` paths of ``k = 5`` arms, ``m = 1e5``;
LLM cache ``n = 5e6`` rounds, ``m = 1e5`` queries, caches of 5 (so
that the floor's arrays, 80 MB, match the cascade's); IM with node-level feedback
``n = 1.5e6`` cascades (5.3e6 active entries, 96 MB of arrays) on a power-law graph of
``V = 10^4`` nodes and ``E = 4 x 10^4`` edges (:func:`write_im_node_log`).

**IM, node level: what the floor does and why it is fair.**  ``solve im-node`` also reads a
graph CSV and ends with an IMM oracle call, which no few-line numpy script can replace.  The
floor therefore reads the graph with :func:`numpy.loadtxt`, counts :math:`n_{0,u}`,
:math:`n_{1,v}` (``bincount``) and :math:`\#\{t: u\in S_{t,0}, v\in S_{t,1}\}` (out-edges of
every seed, ``searchsorted`` among the sorted ``(t, v)`` keys of :math:`S_{t,1}`: what
``line:IM_counter`` needs and nothing more) in chunks of :math:`2^{16}` entries (one
``searchsorted`` over all 5e6 keys is cache-bound: that simpler floor took 3.6 s where this
one takes 2.5 s, and ``solve`` beat it), computes the Bernstein LCBs, and then calls
*the same* :class:`~offcmab.reference.im.oracles.IMMOracle` with the same ``k``, ``eps = 0.5``,
``1/V`` and seed, so the oracle costs both sides alike and the ratio measures everything
else: start-up, reading and checking the archive and the graph (``solve`` checks that every
activation follows an edge, the floor does not), the statistics and the output.  At this size
the node-level LCBs are all 0 (:math:`n q_u^2` must be far above CLCB-IM-N's
:math:`\log(12nE/\delta)` for an LCB above 0, and here :math:`q_u = 3/V`), so IMM runs on
an all-zero graph and is
a small part of either side: the statistics path is what is timed.

Goals: time ratio ``<= 1.2`` for the cascade (the floor is the whole of its work: one
archive read, two ``bincount`` calls, the LCBs, one ``argpartition``) and ``<= 1.5`` for the
others, memory ratio ``<= 2``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from offcmab.reference.dataset_io import write_npz
from offcmab.reference.im.data import sample_node_cascades
from offcmab.reference.im.generators import power_law_graph
from offcmab.reference.im.graph_io import write_graph_csv, write_node_cascades
from offcmab.reference.problems.cascade import (
    CascadeProblem,
    UniformListsLaw,
    uniform_ranked_lists,
)
from offcmab.reference.problems.kpath import KPathProblem, PathLaw
from offcmab.reference.problems.llm_cache import CacheLog, cache_hits, sample_power_queries
from offcmab.reference.problems.llm_cache_io import write_cache_npz
from offcmab.validation.benchmarks.children import compiled_env
from offcmab.validation.benchmarks.figures import figure

TITLE = "offcmab solve (whole process) vs a bare numpy floor script, per problem"

GOAL_TIME_RATIO = 1.5
#: Problems whose time goal is tighter than :data:`GOAL_TIME_RATIO`.
GOAL_TIME_RATIOS: dict[str, float] = {"cascade": 1.2}
GOAL_MEMORY_RATIO = 2.0

#: Interleaved runs of each side (the medians are compared): on a busy machine a single run of
#: either side can take twice its median.
REPEATS = 7

_LOAD = """
import sys
import numpy as np
with np.load(sys.argv[1], allow_pickle=False) as z:
    a = {key: z[key] for key in KEYS}
"""

#: Floor scripts: load the needed arrays, statistics, bounds, oracle; no input checks.
FLOORS: dict[str, str] = {
    "cascade": _LOAD.replace("KEYS", '("m", "triggered_offsets", "triggered", "outcomes")') + """
m = int(a["m"]); ids = a["triggered"]; n = a["triggered_offsets"].size - 1
counts = np.bincount(ids, minlength=m)
sums = np.bincount(ids, weights=a["outcomes"], minlength=m)
with np.errstate(divide="ignore", invalid="ignore"):
    lcb = sums / counts - np.sqrt(np.log(2 * m * n / 0.05) / (2 * counts))
lcb[counts == 0] = -np.inf
top = np.argpartition(-lcb, 5)[:5]
""",
    "kpath": _LOAD.replace("KEYS", '("m", "triggered_offsets", "triggered", "outcomes")') + """
m = int(a["m"]); ids = a["triggered"]; n = a["triggered_offsets"].size - 1
counts = np.bincount(ids, minlength=m)
sums = np.bincount(ids, weights=a["outcomes"], minlength=m)
with np.errstate(divide="ignore", invalid="ignore"):
    lcb = sums / counts - np.sqrt(np.log(4 * m * n / 0.05) / (2 * counts))
lcb[counts == 0] = -np.inf
path = int(np.argmax(lcb.reshape(-1, 5).sum(axis=1)))
""",
    "llm-cache": _LOAD.replace("KEYS", '("queries_m", "queries", "costs")') + """
m = int(a["queries_m"]); q = a["queries"]; c = a["costs"]; n = q.size
counts = np.bincount(q, minlength=m)
seen = ~np.isnan(c)
cost_counts = np.bincount(q[seen], minlength=m)
sums = np.bincount(q[seen], weights=c[seen], minlength=m)
with np.errstate(divide="ignore", invalid="ignore"):
    c_ucb = sums / cost_counts + np.sqrt(2 * np.log(4 * m * n / 0.05) / cost_counts)
c_ucb[cost_counts == 0] = np.inf
scores = np.where(counts == 0, 0.0, counts / n * np.minimum(c_ucb, 1.0))
cache = np.argpartition(-scores, 5)[:5]
""",
    "im-node": _LOAD.replace("KEYS", '("nodes", "offsets", "active", "steps")') + """
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.oracles import IMMOracle
src, dst = np.loadtxt(sys.argv[2], delimiter=",", skiprows=1, dtype=np.int64, unpack=True)
V = int(a["nodes"]); E = src.size; node = a["active"]; step = a["steps"]; off = a["offsets"]
n = off.size - 1
order = np.lexsort((dst, src)); src = src[order]; dst = dst[order]
out = np.zeros(V + 1, dtype=np.int64); np.cumsum(np.bincount(src, minlength=V), out=out[1:])
n0 = np.zeros(V, np.int64); n1 = np.zeros(V, np.int64); both = np.zeros(E, np.int64)
chunk = np.searchsorted(off, np.arange(0, off[-1], 1 << 16), side="right") - 1
cuts = np.unique(np.concatenate([[0], chunk, [n]]))
for t0, t1 in zip(cuts[:-1], cuts[1:]):  # chunks of whole cascades: cache-sized look-ups
    lo, hi = off[t0], off[t1]; nd = node[lo:hi]; st = step[lo:hi]
    rec = np.repeat(np.arange(t1 - t0), np.diff(off[t0:t1 + 1]))
    seed = st == 0; s1 = st <= 1
    n0 += np.bincount(nd[seed], minlength=V); n1 += np.bincount(nd[s1], minlength=V)
    keys = rec[s1] * V + nd[s1]  # increasing: the format stores each cascade sorted by node
    u = nd[seed]; start = out[u]; deg = out[u + 1] - start  # out-edges of every seed
    edge = np.arange(deg.sum()) + np.repeat(start - (np.cumsum(deg) - deg), deg)
    query = np.repeat(rec[seed] * V, deg) + dst[edge]
    pos = np.minimum(np.searchsorted(keys, query), max(keys.size - 1, 0))
    both += np.bincount(edge[keys[pos] == query], minlength=E)
L = np.log(12 * n * E / 0.05)
q = n0 / n; pv = (n - n1) / n; unseeded = n - n0[src]
with np.errstate(divide="ignore", invalid="ignore"):
    pc = (n - n0[src] - n1[dst] + both) / unseeded
    q_ucb = np.minimum(q + np.sqrt(6 * q * (1 - q) * L / n) + 9 * L / n, 1)
    pv_ucb = np.minimum(pv + np.sqrt(6 * pv * (1 - pv) * L / n) + 9 * L / n, 1)
    pc_lcb = np.maximum(pc - np.sqrt(6 * pc * (1 - pc) * L / unseeded) - 9 * L / unseeded, 0)
    lcb = np.nan_to_num(np.clip((1 - pv_ucb[dst] / pc_lcb) / q_ucb[src], 0, 1), nan=0.0)
seeds = IMMOracle(ICGraph.from_edges(V, src, dst, 0.0), 5, IM_EPS, 1 / V, 0)(lcb)
""".replace("IM_EPS", str(0.5)),
}

#: Extra ``solve`` arguments per problem (``{graph}``: the graph CSV written beside the log).
SOLVE_ARGS: dict[str, list[str]] = {"im-node": ["--graph", "{graph}", "--eps", "0.5"]}

#: The member whose length gives ``n`` (``n + 1`` for offsets), when not triggered_offsets.
COUNT_KEY = {"llm-cache": "queries", "im-node": "offsets"}

#: Arrays each floor loads (their total size is the memory reference).
FLOOR_KEYS: dict[str, tuple[str, ...]] = {
    "cascade": ("triggered_offsets", "triggered", "outcomes"),
    "kpath": ("triggered_offsets", "triggered", "outcomes"),
    "llm-cache": ("queries", "costs"),
    "im-node": ("offsets", "active", "steps"),
}


def write_log(problem: str, quick: bool, path: Path) -> None:
    """Draw the benchmark log of ``problem`` (fixed seed) and save it as ``.npz``."""
    rng = np.random.default_rng(2025)
    m, k = (1_000, 5) if quick else (100_000, 5)
    if problem == "cascade":
        n = 20_000 if quick else 2_000_000
        write_npz(UniformListsLaw(CascadeProblem(rng.random(m), k)).sample(n, rng), path)
    elif problem == "kpath":
        n = 8_000 if quick else 800_000
        paths = m // k
        law = PathLaw(KPathProblem(rng.random(paths), k), np.full(paths, 1.0 / paths))
        write_npz(law.sample(n, rng), path)
    elif problem == "im-node":
        write_im_node_log(quick, path, rng)
    else:
        n = 20_000 if quick else 5_000_000  # queries and costs: 80 MB, as the cascade arrays
        caches = uniform_ranked_lists(n, m, k, rng).reshape(-1)
        offsets = np.arange(0, k * n + 1, k, dtype=np.int64)
        queries = sample_power_queries(m, 1.0, n, rng)
        costs = rng.random(n)
        costs[cache_hits(offsets, caches, queries)] = np.nan
        write_cache_npz(CacheLog(m, offsets, caches, queries, costs), path)


def write_im_node_log(quick: bool, path: Path, rng: np.random.Generator) -> None:
    """Node-level cascades on a power-law graph (structure saved as ``path`` with ``.csv``).

    Full: ``V = 10^4`` nodes, ``E = 4 x 10^4`` edges, ``p = 0.02`` on every edge, each node a
    seed with probability ``3/V``; ``n = 1.5 x 10^6`` cascades of 3.5 active nodes on average,
    so that ``active`` and ``steps`` (84 MB) match the cascade's arrays.
    """
    V, n = (1_000, 20_000) if quick else (10_000, 1_500_000)
    graph = power_law_graph(V, 4 * V, rng, name="uniform", p=0.02)
    write_graph_csv(graph, path.with_suffix(".csv"), with_p=False)
    write_node_cascades(sample_node_cascades(graph, np.full(V, 3.0 / V), n, rng), path)


#: Prefix of every timed child: at exit it writes its peak resident memory to the file named
#: by ``OFFCMAB_BENCH_PEAK``.  ``VmHWM`` is the high-water mark of this process's own memory;
#: ``ru_maxrss`` (the fallback off Linux) also counts what the parent held before ``exec``.
PEAK_PREFIX = """
import atexit, os, resource
def _peak():
    try:
        with open("/proc/self/status") as status:
            peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
    except (OSError, StopIteration):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open(os.environ["OFFCMAB_BENCH_PEAK"], "w") as out:
        out.write(str(peak * 1024))
atexit.register(_peak)
"""

#: A timed ``python -m offcmab.validation ...`` (``sys.argv`` set as ``-m`` would).  The
#: installed name: a bare ``validation`` is importable only from the repository's root.
SOLVE_CHILD = PEAK_PREFIX + """
import runpy, sys
sys.argv[0] = "offcmab"
runpy.run_module("offcmab.validation", run_name="__main__", alter_sys=True)
"""


def timed_child(argv: list[str], peak_file: Path) -> tuple[float, int]:
    """Wall seconds and peak resident memory (bytes, measured inside the child).

    Children keep compiled files in a cache beside ``peak_file``
    (:func:`~offcmab.validation.benchmarks.children.compiled_env`).
    """
    env = compiled_env(peak_file.parent / "compiled", OFFCMAB_BENCH_PEAK=str(peak_file))
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    seconds = time.perf_counter() - start
    return seconds, int(peak_file.read_text())


def compare(problem: str, quick: bool, folder: Path) -> dict[str, Any]:
    """Interleaved whole-process runs of ``solve`` and the floor; medians and ratios."""
    path = folder / f"{problem}.npz"
    write_log(problem, quick, path)
    with np.load(path, allow_pickle=False) as archive:
        array_bytes = sum(archive[key].nbytes for key in FLOOR_KEYS[problem])
        n = int(archive[COUNT_KEY.get(problem, "triggered_offsets")].size)
    graph = str(path.with_suffix(".csv"))
    solve = [sys.executable, "-c", SOLVE_CHILD, "solve", problem, "--data", str(path),
             "--k", "5", "--delta", "0.05",
             *(arg.format(graph=graph) for arg in SOLVE_ARGS.get(problem, []))]
    floor = [sys.executable, "-c", PEAK_PREFIX + FLOORS[problem], str(path), graph]
    peak = folder / "peak.txt"
    runs: dict[str, list[tuple[float, int]]] = {"solve": [], "floor": []}
    timed_child(floor, peak)  # untimed: compiled files, disk cache
    timed_child(solve, peak)
    for _ in range(1 if quick else REPEATS):
        runs["floor"].append(timed_child(floor, peak))
        runs["solve"].append(timed_child(solve, peak))
    seconds = {key: statistics.median(t for t, _ in value) for key, value in runs.items()}
    memory = {key: max(rss for _, rss in value) for key, value in runs.items()}
    return {
        "n": n - (0 if problem == "llm-cache" else 1),  # offsets hold n + 1 entries
        "solve_s": seconds["solve"], "floor_s": seconds["floor"],
        "solve_runs_s": [t for t, _ in runs["solve"]],
        "floor_runs_s": [t for t, _ in runs["floor"]],
        "ratio": seconds["solve"] / seconds["floor"],
        "arrays_mb": array_bytes / 1e6,
        "solve_peak_rss_mb": memory["solve"] / 1e6,
        "floor_peak_rss_mb": memory["floor"] / 1e6,
        "memory_ratio": memory["solve"] / array_bytes,
        "memory_ratio_vs_floor": memory["solve"] / memory["floor"],
    }


def run(quick: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    figures = []
    with tempfile.TemporaryDirectory() as folder:
        for problem in FLOORS:
            numbers = compare(problem, quick, Path(folder))
            out[problem] = numbers
            figures.append(figure(f"solve {problem} time", numbers["ratio"],
                                  "numpy floor script (same run)",
                                  GOAL_TIME_RATIOS.get(problem, GOAL_TIME_RATIO), "lower"))
            if not quick:  # quick logs are smaller than the interpreter: no memory figure
                figures.append(figure(f"solve {problem} peak memory", numbers["memory_ratio"],
                                      "size of the floor's arrays", GOAL_MEMORY_RATIO, "lower"))
    out["figures"] = figures
    return out

