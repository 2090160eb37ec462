r"""The :class:`Bound` type: one theorem's bound as sympy, as LaTeX and as a numpy function.

A bound has two variants: ``"stated"`` (as printed in the paper, with its printed
precondition on ``n``) and ``"proved"`` (what the proof's chain of inequalities
yields, constants included).  Each theorem module in :mod:`offcmab.bounds.theorems`
documents, step by step, how its ``proved`` variant follows from the proof text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import sympy as sp

from offcmab.bounds.symbols import DOMAINS, LATEX_NAMES, Domain, check_parameter
from offcmab.reference.errors import InputError

Variant = Literal["stated", "proved"]
VARIANTS: tuple[Variant, ...] = ("stated", "proved")

Number = float | npt.NDArray[np.float64]


def check_variant(variant: str) -> Variant:
    """Return ``variant`` after checking it is ``"stated"`` or ``"proved"``."""
    if variant not in VARIANTS:
        raise InputError("variant", f"must be one of {list(VARIANTS)}, got {variant!r}")
    return variant


@dataclass
class Bound:
    r"""One bound of the paper.

    Attributes
    ----------
    id
        Stable identifier (``thm1-inf``, ...).
    title
        One line naming the statement.
    paper_ref
        The paper's label (``thm:upper_bound``, ...).
    parameters
        Names the value needs (the stable CLI interface).
    optional_parameters
        Names only the precondition or an alternative form needs (``p_star``, ...).
    expressions
        Variant -> sympy expression of the bound.
    preconditions
        Variant -> sympy relational the proof needs (``None`` when there is none).
    failure_probability
        Variant -> the probability with which the statement may fail, as the variant
        claims it (``stated``) or as the proof's union bounds deliver it (``proved``);
        0 for the lower bound, a statement in expectation.
    alternatives
        Parameter -> expression in other parameters used when that parameter is not
        given (e.g. the uniform-list form ``C_one = m mu1 / muk`` of Corollary 1).
    kind
        ``"upper"`` (a gap upper bound, high probability), ``"lower"`` (a minimax lower
        bound in expectation) or ``"regret"`` (cumulative regret over ``T`` rounds).
    derivation
        Plain-text account of how ``proved`` follows from the proof, step by step.
    constraints
        Relations between parameters (e.g. :math:`\mu_k \le \mu_1`), each with the
        parameter an error names; checked whenever all their symbols are given.
    own_domains
        Parameter -> numeric domain, for the parameters that are not the paper's symbols
        (a bound in symbols of its own, :func:`define_bound`); the paper's symbols take
        theirs from :data:`offcmab.bounds.symbols.DOMAINS`.

    A bound pickles at any time: its compiled numpy functions are a cache, left out of
    the pickle and compiled again where it is evaluated.
    """

    id: str
    title: str
    paper_ref: str
    parameters: tuple[str, ...]
    expressions: Mapping[Variant, sp.Expr]
    preconditions: Mapping[Variant, sp.Basic | None]
    failure_probability: Mapping[Variant, sp.Expr]
    optional_parameters: tuple[str, ...] = ()
    alternatives: Mapping[str, sp.Expr] = field(default_factory=dict)
    kind: Literal["upper", "lower", "regret"] = "upper"
    derivation: str = ""
    constraints: tuple[tuple[sp.Basic, str], ...] = ()
    own_domains: Mapping[str, Domain] = field(default_factory=dict)
    _compiled: dict[tuple[str, str], Callable[..., Any]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def __getstate__(self) -> dict[str, Any]:
        """The fields without the compiled functions (which do not pickle)."""
        return {**self.__dict__, "_compiled": {}}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # -- symbolic ------------------------------------------------------------------
    def expression(self, variant: str = "stated") -> sp.Expr:
        """The bound as a sympy expression over :mod:`offcmab.bounds.symbols`."""
        return self.expressions[check_variant(variant)]

    def precondition(self, variant: str = "stated") -> sp.Basic | None:
        """The precondition (a sympy relational) or ``None`` when there is none."""
        return self.preconditions[check_variant(variant)]

    def latex(self, variant: str = "stated") -> str:
        """LaTeX of the bound."""
        return sp.latex(self.expression(variant), symbol_names=LATEX_NAMES)

    def precondition_latex(self, variant: str = "stated") -> str | None:
        """LaTeX of the precondition, or ``None``."""
        condition = self.precondition(variant)
        return None if condition is None else sp.latex(condition, symbol_names=LATEX_NAMES)

    # -- numeric -------------------------------------------------------------------
    def _function(self, key: tuple[str, str], expr: sp.Basic) -> tuple[Callable[..., Any],
                                                                        tuple[str, ...]]:
        symbols = sorted(expr.free_symbols, key=str)  # the bound's own, whatever their names
        names = tuple(str(symbol) for symbol in symbols)
        if key not in self._compiled:
            # log(2mn/delta) -> log 2 + log m + log n - log delta: no overflow for tiny delta
            numeric = expr.replace(sp.log, lambda arg: sp.expand_log(sp.log(arg), force=True))
            self._compiled[key] = sp.lambdify(symbols, numeric, modules="numpy")
        return self._compiled[key], names

    def _resolve(self, names: tuple[str, ...], params: Mapping[str, Any],
                 required: bool) -> dict[str, npt.NDArray[np.float64]] | None:
        """Checked values of ``names``; alternatives fill in missing ones."""
        allowed = set(self.parameters) | set(self.optional_parameters)
        for name in params:
            if name not in allowed:
                raise InputError(name, f"is not a parameter of {self.id} "
                                 f"(parameters: {', '.join(sorted(allowed))})")
        values = {name: check_parameter(name, value, self.own_domains.get(name))
                  for name, value in params.items()}
        self._check_constraints(values)
        resolved: dict[str, npt.NDArray[np.float64]] = {}
        for name in names:
            if name in values:
                resolved[name] = values[name]
                continue
            alternative = self.alternatives.get(name)
            if alternative is not None:
                inputs = tuple(sorted(str(s) for s in alternative.free_symbols))
                if all(item in values for item in inputs):
                    function, _ = self._function(("alt", name), alternative)
                    resolved[name] = np.asarray(
                        function(*(values[item] for item in inputs)), dtype=np.float64)
                    continue
            if required:
                raise InputError(name, f"missing (needed by {self.id})")
            return None
        return resolved

    def _check_constraints(self, values: Mapping[str, npt.NDArray[np.float64]]) -> None:
        for index, (relation, field_name) in enumerate(self.constraints):
            names = tuple(sorted(str(symbol) for symbol in relation.free_symbols))
            if not all(name in values for name in names):
                continue
            function, _ = self._function(("constraint", str(index)), relation)
            if not np.all(function(*(values[name] for name in names))):
                raise InputError(field_name, f"violates {relation} (required by {self.id})")

    def evaluate(self, variant: str = "stated", **params: Any) -> Number:
        r"""Value of the bound, broadcasting numpy arrays (compiled once, then cached)."""
        variant = check_variant(variant)
        function, names = self._function(("value", variant), self.expression(variant))
        values = self._resolve(names, params, required=True)
        assert values is not None
        result = np.asarray(function(*(values[name] for name in names)), dtype=np.float64)
        shape = np.broadcast_shapes(*(value.shape for value in values.values()))
        result = np.broadcast_to(result, shape)
        return float(result) if result.ndim == 0 else np.array(result)

    def precondition_holds(self, variant: str = "stated", **params: Any
                           ) -> bool | npt.NDArray[np.bool_] | None:
        r"""Whether the precondition holds: ``None`` when a needed parameter is absent.

        A bound without precondition holds vacuously (``True``).
        """
        variant = check_variant(variant)
        condition = self.precondition(variant)
        if condition is None:
            self._resolve((), params, required=False)
            return True
        function, names = self._function(("pre", variant), condition)
        values = self._resolve(names, params, required=False)
        if values is None:
            return None
        result = np.asarray(function(*(values[name] for name in names)), dtype=bool)
        return bool(result) if result.ndim == 0 else result

    def failure(self, variant: str = "stated", **params: Any) -> Number:
        """The failure probability the variant guarantees, evaluated."""
        variant = check_variant(variant)
        expr = self.failure_probability[variant]
        function, names = self._function(("fail", variant), expr)
        values = self._resolve(names, params, required=True)
        assert values is not None
        result = np.asarray(function(*(values[name] for name in names)), dtype=np.float64)
        return float(result) if result.ndim == 0 else result

    def compare(self, **params: Any) -> dict[str, Any]:
        """Both variants side by side: values, ratio proved/stated, preconditions, failures."""
        stated = self.evaluate("stated", **params)
        proved = self.evaluate("proved", **params)
        return {
            "stated": stated,
            "proved": proved,
            "ratio": np.asarray(proved) / np.asarray(stated),
            "precondition_stated": self.precondition_holds("stated", **params),
            "precondition_proved": self.precondition_holds("proved", **params),
            "failure_stated": self.failure("stated", **params),
            "failure_proved": self.failure("proved", **params),
        }

    @property
    def domains(self) -> dict[str, Domain]:
        """Numeric domain of every parameter (required and optional)."""
        return {name: self.own_domains.get(name) or DOMAINS[name]
                for name in self.all_parameters}

    @property
    def all_parameters(self) -> tuple[str, ...]:
        """Required then optional parameter names."""
        return self.parameters + self.optional_parameters


def define_bound(id: str, expression: sp.Expr, *, domains: Mapping[sp.Symbol, Domain],
                 failure: sp.Expr, title: str = "", precondition: sp.Basic | None = None,
                 proved: sp.Expr | None = None, proved_failure: sp.Expr | None = None,
                 proved_precondition: sp.Basic | None = None,
                 kind: Literal["upper", "lower", "regret"] = "upper",
                 reference: str = "") -> Bound:
    r"""A bound in symbols of its own: any sympy symbols, each with its numeric domain.

    Parameters
    ----------
    id
        The bound id (the id of the theorem record that checks it).
    expression
        The bound as printed (the ``stated`` variant).
    domains
        Every symbol the expressions use -> its :class:`~offcmab.bounds.symbols.Domain`;
        values outside it are refused, naming the symbol.
    failure
        The probability with which the statement may fail, e.g. ``2 * delta``.
    title, reference
        One line naming the statement; where it is stated (a label or citation).
    precondition
        A sympy relation the statement needs (``None``: none).
    proved, proved_failure, proved_precondition
        The ``proved`` variant; each defaults to the stated one.
    kind
        ``upper`` (a high-probability gap bound), ``lower`` or ``regret``.

    Raises
    ------
    ValueError
        Naming the field: an expression uses a symbol ``domains`` does not declare.
    """
    expression, failure = _symbolic("expression", expression), _symbolic("failure", failure)
    proved = expression if proved is None else _symbolic("proved", proved)
    proved_failure = failure if proved_failure is None else _symbolic("proved_failure",
                                                                      proved_failure)
    proved_precondition = precondition if proved_precondition is None else proved_precondition
    declared = {str(symbol) for symbol in domains}
    for name, expr in (("expression", expression), ("failure", failure),
                       ("precondition", precondition), ("proved", proved),
                       ("proved_failure", proved_failure),
                       ("proved_precondition", proved_precondition)):
        if expr is None:
            continue
        missing = sorted(str(symbol) for symbol in expr.free_symbols
                         if str(symbol) not in declared)
        if missing:
            raise ValueError(f"{name}: symbol {missing[0]!r} has no domain in domains "
                             f"(declared: {', '.join(sorted(declared))})")
    names = tuple(sorted(declared))
    return Bound(id=id, title=title or id, paper_ref=reference, parameters=names,
                 expressions={"stated": expression, "proved": proved},
                 preconditions={"stated": precondition, "proved": proved_precondition},
                 failure_probability={"stated": failure, "proved": proved_failure},
                 kind=kind, own_domains={str(symbol): domain
                                         for symbol, domain in domains.items()})


def _symbolic(name: str, value: Any) -> sp.Expr:
    """``value`` as a sympy expression: an expression, or a plain number (never text)."""
    if isinstance(value, sp.Expr):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return sp.Integer(value)
    if isinstance(value, float):
        return sp.Float(value)
    raise ValueError(f"{name}: must be a sympy expression or a number, got "
                     f"{type(value).__name__}")
