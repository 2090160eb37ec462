r"""Pieces every scenario shares: evaluating a registered bound, grids, generated instances.

:func:`bound_value` is where a scenario evaluates its theorem's bound: it checks
the variant's precondition with ``precondition_holds`` and evaluates the bound with
``evaluate`` at exact coefficients, or says why the row is ``n/a`` (a failed
precondition, a coverage coefficient that is infinite because the data never
observe an arm the optimal action triggers).  The bound's failure probability for
that variant (``Bound.failure``; some proofs deliver more than ``delta``) is carried
along, so verdicts compare violations with what the variant actually promises.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp

from offcmab.bounds.bound import Bound
from offcmab.bounds.symbols import SYMBOLS
from offcmab.validation.parts.scenario import BoundValue
from offcmab.validation.parts.spec import Instance, Profile
from offcmab.validation.scenarios.generate import draw

#: The trap instances of a theorem in a profile (:mod:`offcmab.validation.scenarios.traps`).
Traps = Callable[[Profile], list[Instance]]


def bound_value(bound: Bound, variant: str, params: Mapping[str, float]) -> BoundValue:
    """Evaluate ``bound`` at ``params``, or explain why it does not apply."""
    values = {name: float(value) for name, value in params.items()}
    infinite = sorted(name for name, value in values.items() if not math.isfinite(value))
    if infinite:
        return BoundValue.not_applicable(
            f"{', '.join(infinite)} infinite: the data never observe an arm the optimal "
            "action can trigger", **values)
    if values.get("p_star", 1.0) <= 0.0:
        return BoundValue.not_applicable(
            "p_star = 0: the sample-size precondition cannot hold for any n", **values)
    holds = bound.precondition_holds(variant, **values)
    if holds is None:
        return BoundValue.not_applicable("precondition needs a parameter not computed here",
                                         **values)
    if not holds:
        return BoundValue.not_applicable(
            f"precondition {bound.precondition(variant)} fails{_needed(bound, variant, values)}",
            **values)
    value = float(bound.evaluate(variant, **values))
    failure = float(bound.failure(variant, **values))
    return BoundValue(value, parameters=values, failure=failure)


def _needed(bound: Bound, variant: str, values: Mapping[str, float]) -> str:
    """`` (right-hand side = X here)`` for a precondition ``lhs >= rhs``, else ``""``."""
    condition = bound.precondition(variant)
    if not isinstance(condition, sp.GreaterThan):
        return ""
    known = {SYMBOLS[name]: value for name, value in values.items() if name in SYMBOLS}
    rhs = condition.rhs.subs(known)
    return f" (right-hand side {float(rhs):.4g} here)" if rhs.is_number else ""


def scenario_seed(run_seed: int, bound_id: str) -> int:
    """The seed of a scenario's generated instances: run seed and bound id, hashed."""
    digest = hashlib.sha256(f"{run_seed}\x1f{bound_id}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def generated(strategy: Any, profile: Profile, run_seed: int, bound_id: str) -> list[Any]:
    """``profile.generated`` hypothesis examples of ``strategy`` for this bound id."""
    return draw(strategy, profile.generated, scenario_seed(run_seed, bound_id))


def generated_instances(strategy: Any, profile: Profile, run_seed: int, bound_id: str,
                        grid: tuple[int, ...]) -> list[Instance]:
    """Instances ``generated-0, ...`` from hypothesis examples ``(params, delta)``."""
    drawn = generated(strategy, profile, run_seed, bound_id)
    return [Instance(f"generated-{j}", params, delta, grid, "generated")
            for j, (params, delta) in enumerate(drawn)]


def rounded(values: Any, digits: int = 4) -> list[float]:
    """Plain floats rounded for readable, JSON-stable instance parameters."""
    return [round(float(v), digits) for v in values]
