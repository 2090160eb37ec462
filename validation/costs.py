r"""Cost models of the commands, evaluated from their parameters before any large allocation.

Each function returns a :class:`~offcmab.validation.limits.Cost` that
:func:`~offcmab.validation.limits.check_cost` compares with the limits.  The byte counts
follow the arrays the code allocates (named in each docstring); the throughputs are
measurements on a small shared machine (see :mod:`offcmab.validation.limits`).  The model of
reading a dataset (``solve``) is :mod:`offcmab.validation.reading_cost`, apart so that
``offcmab solve`` does not import the influence-maximization oracle that :func:`imm_cost`
needs.
"""

from __future__ import annotations

from offcmab.reference.im.opim import early_stop_rr_sets
from offcmab.reference.im.oracles import rr_set_count, selection_rr_sets_floor
from offcmab.validation.limits import Cost

#: Multiply-adds per second of the elementary-symmetric tables (numpy rows of length m).
MULTIPLY_ADDS_PER_SECOND = 1e8
#: Bytes per RR set while IMM samples and covers: its offset, at least one node id, and
#: the sampler's keys and counts (measured: 50 bytes per set of about one node).
BYTES_PER_RR_SET = 48
#: Seconds per RR set, sampling and greedy cover together (measured: 1.5 microseconds).
SECONDS_PER_RR_SET = 1.5e-6
#: Seconds per node activation of a simulated cascade (measured: 0.2 to 0.5 microseconds).
SECONDS_PER_ACTIVATION = 2e-7
#: Bytes per simulated cascade kept by ``spread``: its size (int64) and a float64 copy.
BYTES_PER_CASCADE = 16
#: Bytes of a batch of cascades in flight (the diffusion batches about a million keys).
CASCADE_BATCH_BYTES = 64e6


def cascade_coefficients_cost(m: int, k: int) -> Cost:
    r"""``coefficients cascade``: the exact :math:`p^{D_S}` of uniform lists.

    :func:`~offcmab.reference.problems.cascade.leave_one_out_elementary` fills prefix and
    suffix tables of :math:`(k) \times (m+1)` floats and an output of :math:`k \times m`, and
    the position matrix is :math:`m \times k`: :math:`4 \cdot 8\,mk` bytes.  Its inner loop
    runs :math:`k^2/2` row products of length :math:`m`.
    """
    steps = m * k * k / 2.0
    return Cost("k", 32.0 * m * k, steps / MULTIPLY_ADDS_PER_SECOND,
                f"m*k^2/2 = {steps:.3g} multiply-adds at {MULTIPLY_ADDS_PER_SECOND:.0e}/s, "
                f"4 tables of m*k = {m * k} floats")


def imm_cost(nodes: int, edge_mass: float, k: int, eps: float, delta_prime: float) -> Cost:
    r"""``im-oracle``: IMM's selection phase alone, with its fewest possible RR sets.

    ``edge_mass`` is the sum of the edge probabilities (it bounds the optimal spread).
    :func:`~offcmab.reference.im.oracles.selection_rr_sets_floor` bounds the count from
    below before anything is sampled; each set costs :data:`BYTES_PER_RR_SET` bytes and
    :data:`SECONDS_PER_RR_SET`.  Larger sets (denser graphs) cost more: this is a floor.
    """
    sets = selection_rr_sets_floor(nodes, edge_mass, k, eps, delta_prime)
    rr_set_count(sets)  # beyond what IMM supports at all: refused as IMM refuses it
    return Cost("eps", sets * BYTES_PER_RR_SET, sets * SECONDS_PER_RR_SET,
                f"at least {sets:.3g} RR sets (2V((1-1/e)a+b)^2/(eps^2 min(V, k+sum p))) of "
                f"{BYTES_PER_RR_SET} bytes and {SECONDS_PER_RR_SET * 1e6:g} us each")


def opim_cost(nodes: int, edge_mass: float, k: int, eps: float, delta: float) -> Cost:
    r"""``im-oracle`` with OPIM-C: the RR sets it is expected to draw before it can stop
    (:func:`~offcmab.reference.im.opim.early_stop_rr_sets`, an estimate), at IMM's cost per
    set."""
    sets = early_stop_rr_sets(nodes, edge_mass, k, eps, delta)
    rr_set_count(sets, "OPIM-C")  # beyond what is supported at all: refused at once
    return Cost("eps", sets * BYTES_PER_RR_SET, sets * SECONDS_PER_RR_SET,
                f"about {sets:.3g} RR sets before the stopping rule can pass, of "
                f"{BYTES_PER_RR_SET} bytes and {SECONDS_PER_RR_SET * 1e6:g} us each")


def spread_cost(samples: int, seeds: int) -> Cost:
    r"""``spread``: ``samples`` cascades, each activating at least its ``seeds`` nodes.

    :func:`~offcmab.reference.im.diffusion.cascade_sizes` keeps one int64 size per cascade
    (and :func:`~offcmab.reference.im.diffusion.estimate_spread` a float copy) beside one
    batch in flight.
    """
    activations = float(samples) * seeds
    return Cost("samples", samples * BYTES_PER_CASCADE + CASCADE_BATCH_BYTES,
                activations * SECONDS_PER_ACTIVATION,
                f"samples*seeds = {activations:.3g} activations at least, "
                f"{SECONDS_PER_ACTIVATION * 1e6:g} us each; {BYTES_PER_CASCADE} bytes per "
                "cascade")


#: Bytes per run of ``calibrate`` kept from the start: its seed (spawned from a
#: ``SeedSequence``) and its run configuration (measured: 413 bytes per run).
BYTES_PER_CALIBRATION_RUN = 420
#: Bytes per planned run of ``mutation``: its job record, before any run (measured: 164).
BYTES_PER_MUTATION_RUN = 170
#: Bytes per trial of a ``falsify`` confirmation: its record, key and gap (measured: 351).
BYTES_PER_CONFIRMATION_TRIAL = 360


def count_cost(field: str, count: int, bytes_each: float, what: str) -> Cost:
    r"""A command that keeps one record per item of a count it is given (runs, replicates,
    trials): ``count`` records of ``bytes_each`` bytes, planned before the first item runs.

    This is a floor (each item's own work comes on top) and has no time model: it refuses
    counts whose bookkeeping alone would not fit in memory, such as ``10**12`` runs.
    """
    return Cost(field, float(count) * bytes_each, 0.0,
                f"{count} {what} of at least {bytes_each:g} bytes each")


def calibration_cost(runs: int) -> Cost:
    """``calibrate --runs``: a seed and a configuration per run
    (:data:`BYTES_PER_CALIBRATION_RUN`)."""
    return count_cost("runs", runs, BYTES_PER_CALIBRATION_RUN, "runs")


def mutation_cost(replicates: int) -> Cost:
    """``mutation --replicates``: one planned run per replicate of each mutant, counted for
    a single mutant (:data:`BYTES_PER_MUTATION_RUN`)."""
    return count_cost("replicates", replicates, BYTES_PER_MUTATION_RUN,
                      "replicates of each mutant")


def confirmation_cost(trials: int, field: str = "confirm_trials") -> Cost:
    """``falsify``: the trials of a confirmation (:data:`BYTES_PER_CONFIRMATION_TRIAL`)."""
    return count_cost(field, trials, BYTES_PER_CONFIRMATION_TRIAL, "confirmation trials")
