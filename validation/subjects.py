r"""Subjects: the algorithm a validation trial runs, named by a plain string.

A trial of bound id ``ID`` runs the reference algorithm that ``ID``'s theorem covers,
or any other function with the same call signature (a broken variant used as a
negative control, or a user's own algorithm).  The subject travels to worker
processes and dask workers as a string *spec*, never as a pickled function; each
worker rebuilds the callable with :func:`resolve`.

Specs
    ``"reference"``
        The algorithm of ``reference/`` listed in :data:`SIGNATURES` (the default).
    ``"PREFIX:REST"``
        Resolved by the resolver registered for ``PREFIX`` with
        :func:`register_prefix`, called as ``resolver(REST, bound_id)``.  A module
        that provides a prefix registers it when imported; :data:`PREFIX_MODULES`
        names that module, so a fresh worker process imports it on first use.  The
        environment variable ``OFFCMAB_SUBJECT_MODULES`` (``prefix=module,...``)
        adds prefixes from outside the package (worker processes inherit it).

Pairing
    The subject is part of every trial key but not of its seed
    (:mod:`offcmab.validation.runner.seeding`), so the reference and any other subject see the
    same dataset on the same (instance, n, trial): their gaps are paired.

Results
    Offline subjects return the chosen action as a flat integer array or an object
    with an ``action``, ``cache`` or ``seeds`` attribute (the reference result
    objects); :func:`as_action` checks it.  The online subject (``thm-llm-online``)
    returns the cache held in every round (or an object with it as ``caches``, like the
    reference's ``StreamRun``), checked by :func:`as_caches`.
"""

from __future__ import annotations

import functools
import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import IntArray

#: The subject every run uses unless told otherwise.
REFERENCE = "reference"

Resolver = Callable[[str, str], Callable[..., Any]]


@dataclass(frozen=True)
class Signature:
    r"""How a substituted algorithm of one bound id is called and what it replaces.

    Attributes
    ----------
    call
        The call, e.g. ``f(dataset, oracle, delta)``.
    reference
        ``module:function`` of the reference algorithm it replaces.
    keywords
        Keyword arguments the reference is called with beside ``call`` (its variant).
    returns
        What the function must return.
    """

    call: str
    reference: str
    keywords: Mapping[str, Any] = field(default_factory=dict)
    returns: str = ("the action: a flat integer array of distinct ids, or a result object "
                    "with an `action`, `cache` or `seeds` attribute")


_CLCB = Signature("f(dataset, oracle, delta)", "offcmab.reference.clcb:clcb")

#: Bound id -> the signature a substituted algorithm must have.
SIGNATURES: dict[str, Signature] = {
    "thm1-inf": _CLCB,
    "thm1-one": _CLCB,
    "thm2-lower": Signature(
        "f(dataset, oracle, delta)", "offcmab.reference.clcb:clcb",
        returns="the action, as for thm1-inf; it takes CLCB's place on the proof's hard "
                "pair beside the two baselines (the lower bound holds for every algorithm; "
                "its risk is also checked against Theorem 1's upper bound)"),
    "cor1-cascade": Signature("f(dataset, k, delta)",
                              "offcmab.reference.clcb_cascade:clcb_cascade"),
    "lem-llm-std": Signature("f(log, k, delta)", "offcmab.reference.clcb_llm:clcb_llm",
                             {"variant": "standard"}),
    "thm3-llm": Signature("f(log, k, delta)", "offcmab.reference.clcb_llm:clcb_llm",
                          {"variant": "improved"}),
    "thm-llm-online": Signature(
        "f(queries, costs, m, k, delta)", "offcmab.validation.subjects:printed_stream",
        returns="the cache held at the start of every round: a boolean array of shape "
                "(T, m) with at most k entries per row (row t may depend on queries[:t] and "
                "on costs[s] for s < t only where queries[s] missed the cache), or an object "
                "with that array as `caches` (and, for the event rows, the per-round cost "
                "LCBs as `lcbs`, shape (T, m), as the reference's StreamRun has)"),
    "thm4-im": Signature("f(graph, cascades, oracle, delta)",
                         "offcmab.reference.im.clcb_im_node:clcb_im_node",
                         returns="the seed set: a flat integer array of k distinct node "
                                 "ids, or a result object with a `seeds` attribute"),
}

_PREFIXES: dict[str, Resolver] = {}

#: Prefix -> module that registers it when imported (so worker processes find it).
PREFIX_MODULES: dict[str, str] = {"control": "offcmab.validation.controls"}

#: Environment variable adding ``prefix=module`` pairs to :data:`PREFIX_MODULES`.
ENVIRONMENT = "OFFCMAB_SUBJECT_MODULES"

# A user's own algorithm (``validate --algorithm``, ``offcmab.validation.check``) is loaded by
# file or module name; workers import the resolver on first use.
PREFIX_MODULES.update(file="offcmab.validation.user_algorithm",
                      module="offcmab.validation.user_algorithm")


def register_prefix(prefix: str, resolver: Resolver) -> None:
    """Make specs ``"prefix:REST"`` resolve through ``resolver(REST, bound_id)``."""
    if not prefix.isidentifier() or prefix == REFERENCE:
        raise ValueError(f"prefix: must be an identifier other than {REFERENCE!r}, "
                         f"got {prefix!r}")
    _PREFIXES[prefix] = resolver


def signature(bound_id: str) -> Signature:
    """The signature of ``bound_id``, or a ``ValueError`` naming the known ids."""
    try:
        return SIGNATURES[bound_id]
    except KeyError:
        raise ValueError(f"bound id: no algorithm can be substituted for {bound_id!r}; "
                         f"known: {', '.join(SIGNATURES)}") from None


def reference_algorithm(bound_id: str) -> Callable[..., Any]:
    """The reference algorithm of ``bound_id`` with its variant keywords bound."""
    sig = signature(bound_id)
    module, name = sig.reference.split(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return functools.partial(function, **sig.keywords) if sig.keywords else function


def prefix_modules() -> dict[str, str]:
    """:data:`PREFIX_MODULES` plus the pairs of ``OFFCMAB_SUBJECT_MODULES``."""
    found = dict(PREFIX_MODULES)
    for pair in filter(None, os.environ.get(ENVIRONMENT, "").split(",")):
        prefix, equals, module = pair.partition("=")
        if not equals or not prefix.strip() or not module.strip():
            raise ValueError(f"{ENVIRONMENT}: expected prefix=module pairs, got {pair!r}")
        found[prefix.strip()] = module.strip()
    return found


@functools.cache
def resolve(spec: str, bound_id: str) -> Callable[..., Any]:
    """The callable a trial of ``bound_id`` runs for the subject ``spec`` (cached)."""
    if spec == REFERENCE:
        return reference_algorithm(bound_id)
    prefix, colon, rest = spec.partition(":")
    if not colon or not rest:
        raise ValueError(f"subject: must be {REFERENCE!r} or PREFIX:NAME, got {spec!r}")
    modules = prefix_modules()
    if prefix not in _PREFIXES and prefix in modules:
        importlib.import_module(modules[prefix])
    if prefix not in _PREFIXES:
        known = sorted({*_PREFIXES, *modules})
        raise ValueError(f"subject: unknown prefix {prefix!r} in {spec!r}; "
                         f"known: {', '.join(known) or 'none'}")
    signature(bound_id)
    return _PREFIXES[prefix](rest, bound_id)


def as_action(result: Any, m: int, k: int, name: str = "algorithm") -> IntArray:
    """The action a subject returned, checked: ``k`` distinct integer ids in ``[0, m)``.

    Accepts a flat array-like or an object with an ``action``, ``cache`` or ``seeds``
    attribute; anything else is a ``ValueError`` naming the problem.
    """
    for attribute in ("action", "cache", "seeds"):
        if hasattr(result, attribute):
            result = getattr(result, attribute)
            break
    where = f"action returned by {name}"
    try:
        values = np.asarray(result)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: not an array of ids ({error})") from None
    if values.ndim != 1:
        raise ValueError(f"{where}: must be a flat array of ids, got shape {values.shape}")
    if values.size != k:
        raise ValueError(f"{where}: wrong length, expected k={k} ids, got {values.size}")
    if values.dtype.kind == "b" or values.dtype.kind not in "iuf":
        raise ValueError(f"{where}: ids must be integers, got dtype {values.dtype}")
    if values.dtype.kind == "f":
        if np.isnan(values).any():
            raise ValueError(f"{where}: contains NaN")
        if not np.all(np.isfinite(values)) or np.any(values != np.round(values)):
            raise ValueError(f"{where}: ids must be integers, got {values.tolist()}")
    ids = values.astype(np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= m):
        raise ValueError(f"{where}: ids out of range, must lie in [0, {m}), "
                         f"got {ids.tolist()}")
    if np.unique(ids).size != ids.size:
        raise ValueError(f"{where}: duplicate ids in {ids.tolist()}")
    return ids


def as_caches(result: Any, T: int, m: int, k: int,
              name: str = "algorithm") -> npt.NDArray[np.bool_]:
    """Per-round caches a streaming subject returned: boolean ``(T, m)``, at most ``k`` a row."""
    where = f"caches returned by {name}"
    values = np.asarray(getattr(result, "caches", result))
    if values.shape != (T, m):
        raise ValueError(f"{where}: must have shape (T, m) = ({T}, {m}), got {values.shape}")
    if values.dtype.kind != "b":
        raise ValueError(f"{where}: must be boolean, got dtype {values.dtype}")
    sizes = values.sum(axis=1)
    if np.any(sizes > k):
        t = int(np.flatnonzero(sizes > k)[0])
        raise ValueError(f"{where}: round {t} holds {int(sizes[t])} queries, more than k={k}")
    return values


def printed_stream(queries: IntArray, costs: npt.NDArray[np.float64], m: int, k: int,
                   delta: float) -> Any:
    r"""The reference CUCB-LLM-S (``variant="printed"``) on a fixed stream, as a subject.

    Returns its :class:`offcmab.reference.cucb_llm_stream.StreamRun`: the harness measures the
    regret from ``caches`` and the event rows read ``lcbs``.  The printed algorithm does
    not use ``delta`` (its radius is :math:`\sqrt{6\log t/N}`).
    """
    return stream_run(queries, costs, m, k)


def stream_run(queries: IntArray, costs: npt.NDArray[np.float64], m: int, k: int,
               radius_scale: float = 1.0) -> Any:
    r"""The printed CUCB-LLM-S on a fixed stream with its radius times ``radius_scale``.

    The algorithm never reads the true means: they enter
    :func:`offcmab.reference.cucb_llm_stream.cucb_llm_stream` only through its regret
    accounting, so a placeholder problem (uniform arrivals, unit costs) stands in for
    them; its ``regret`` field is meaningless here.
    """
    from offcmab.reference.cucb_llm_stream import cucb_llm_stream
    from offcmab.reference.problems.llm_cache import LLMCacheProblem

    placeholder = LLMCacheProblem(np.full(m, 1.0 / m), np.ones(m), k)
    return cucb_llm_stream(placeholder, int(np.size(queries)), np.random.default_rng(0),
                           "printed", queries=queries, costs=costs, diagnostics=False,
                           radius_scale=radius_scale)
