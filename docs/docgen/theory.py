r"""Generate the theory pages (bounds, claims, errata) from the package at build time.

Nothing on these pages is typed by hand except the plain-words statements in
``docs/docgen/statements/<id>.md``: the formulas are ``sympy.latex`` of the registry's
expressions, the claims and errata come from the claims registry, and the figures come
from a quick validation run made during the build.  When a part of the package is not
there yet, its page says so instead of showing anything made up.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Imported now: docs/ is on sys.path only while the hooks load.
from docgen import validation_run
from docgen.rst_math import convert, headings_to_bold

#: The bound ids of the paper, in the order of the paper (CONTRIBUTING.md fixes them).
BOUND_IDS = (
    "thm1-inf", "thm1-one", "thm2-lower", "cor1-cascade",
    "lem-llm-std", "thm3-llm", "thm-llm-online", "thm4-im",
)
STATEMENTS = Path(__file__).resolve().parent / "statements"
VARIANTS = ("stated", "proved")


@dataclass(frozen=True)
class GeneratedPage:
    """A file added to the site during the build: its path in the site and its content."""

    path: str
    content: str | bytes


def not_available(what: str, detail: str) -> str:
    """The admonition a page shows when a part of the package it needs is missing."""
    return (f'!!! warning "{what} is not yet available"\n'
            f"    {detail}\n    This page shows nothing in its place rather than made-up "
            "content; it fills in as soon as the package provides it.\n")


def _import(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and name.startswith(error.name):
            return None
        raise


def bound_registry() -> dict[str, Any] | None:
    """``offcmab.bounds.registry.BOUNDS``, or None while the module does not exist."""
    module = _import("offcmab.bounds.registry")
    return None if module is None else dict(module.BOUNDS)


def latex(expression: Any) -> str:
    """LaTeX of a sympy expression or relational (imported lazily: the docs build only)."""
    import sympy

    return str(sympy.latex(expression))


def success_probability(failure: Any) -> Any:
    r"""The probability a bound holds, :math:`1 - p`, as an unevaluated sympy sum.

    Every term of the failure probability :math:`p` is subtracted on its own, so a
    compound :math:`p = \delta + \delta/(2n)` reads :math:`1 - \delta - \delta/(2n)` and
    no reader can take the second term as added.
    """
    import sympy

    terms = [-term for term in sympy.Add.make_args(failure) if term != 0]
    return sympy.Add(sympy.Integer(1), *terms, evaluate=False)


def success_latex(failure: Any) -> str:
    """LaTeX of :func:`success_probability`, the 1 first."""
    import sympy

    return str(sympy.latex(success_probability(failure), order="none"))


def display(tex: str) -> str:
    """A display-math block for arithmatex."""
    return f"\n$$\n{tex}\n$$\n"


#: Example parameter values per bound for the "try it" command of each page.  The first
#: four reuse the tour's cascade instance (``docs/examples``), whose exact coefficients
#: ``offcmab coefficients cascade mu=... k=3 data=uniform`` prints.
EXAMPLES: dict[str, str] = {
    "thm1-inf": "alpha=1 B1=1 K2bar=2.316 C_inf=3.247 m=8 n=10000 delta=0.05 p_star=0.3032",
    "thm1-one": "alpha=1 B1=1 Kbar=1.88 C_one=6.136 m=8 n=10000 delta=0.05 p_star=0.3032",
    "thm2-lower": "k=3 C_inf=4 n=10000",
    "cor1-cascade": "k=3 C_one=6.136 m=8 n=10000 delta=0.05 p_star=0.3032",
    "lem-llm-std": "m=100 n=100000 delta=0.05 nu_inv_sum=60",
    "thm3-llm": "m=100 n=100000 delta=0.05 nu_inv_sum=60",
    "thm-llm-online": "m=100 T=100000 delta=0.05",
    "thm4-im": "V=100 d_max=5 sigma_star=10 eta=0.5 gamma=0.2 E=300 n=1000000 delta=0.05",
}


def _parameters(text: str) -> dict[str, float]:
    return {name: float(value) for name, value in
            (item.split("=") for item in text.split())}


def _formula_section(bound: Any) -> str:
    parts = ["## The bound as a formula\n"]
    if bound.latex("stated") == bound.latex("proved"):
        parts.append("The `stated` variant (as printed in the paper) and the `proved` "
                     "variant (what the proof's chain of inequalities yields) are the "
                     "same expression:\n")
        parts.append(display(bound.latex("stated")))
    else:
        for variant in VARIANTS:
            what = ("as printed in the paper" if variant == "stated"
                    else "what the proof's chain of inequalities yields")
            parts.append(f"**`{variant}`** ({what}):\n")
            parts.append(display(bound.latex(variant)))
    parts.append("\n## Preconditions and failure probability\n")
    parts.append("| variant | precondition | holds with probability at least |\n|---|---|---|")
    for variant in VARIANTS:
        condition = bound.precondition_latex(variant)
        shown = "none" if condition is None else f"${condition}$"
        success = success_latex(bound.failure_probability[variant])
        parts.append(f"| `{variant}` | {shown} | ${success}$ |")
    kind = {"upper": "an upper bound on the suboptimality gap, with high probability",
            "lower": "a minimax lower bound on the expected gap",
            "regret": "an upper bound on the cumulative regret over T rounds"}
    parts.append(f"\nKind: {kind.get(bound.kind, bound.kind)}.\n")
    optional = ", ".join(f"`{name}`" for name in bound.optional_parameters)
    parameters = ", ".join(f"`{name}`" for name in bound.parameters)
    parts.append(f"\n## Parameters and a worked example\n\nParameters: {parameters}"
                 + (f"; optional (precondition or alternative forms): {optional}" if optional
                    else "") + ".\n")
    example = EXAMPLES.get(bound.id)
    if example:
        values = _parameters(example)
        stated = bound.evaluate("stated", **values)
        proved = bound.evaluate("proved", **values)
        parts.append(f"\n{{{{ run(\"offcmab bound {bound.id} {example}\") }}}}\n")
        parts.append(f"At these values the `stated` bound is {stated:.6g} and the `proved` "
                     f"bound is {proved:.6g} (`--variant proved`). `--solve-n eps=EPS` "
                     "returns the smallest n for which the bound is at most EPS and the "
                     "precondition holds.\n")
    if bound.derivation:
        body = headings_to_bold(convert(bound.derivation)).strip()
        indented = "\n".join(f"    {line}" if line else "" for line in body.splitlines())
        parts.append('\n??? abstract "How the `proved` variant follows from the proof '
                     '(from the docstring of its module in `offcmab.bounds.theorems`)"\n'
                     f"{indented}\n")
    return "\n".join(parts)


#: Which bound pages show the claims of each module of ``offcmab.bounds.claims`` (the registry
#: groups claims by area; the proof steps of one area belong to its bounds).
CLAIM_AREAS: dict[str, tuple[str, ...]] = {
    "general": ("thm1-inf", "thm1-one"),
    "lower_bound": ("thm2-lower",),
    "cascade": ("cor1-cascade",),
    "llm": ("lem-llm-std", "thm3-llm"),
    "online": ("thm-llm-online",),
    "im": ("thm4-im",),
    "table": (),
}
#: Claims whose label ties them to one bound of a shared area.
CLAIM_LABELS: dict[str, tuple[str, ...]] = {
    "eq:cauchy_here": ("thm1-inf",),
    "apdx_eq:general_1_norm_end": ("thm1-one",),
    "apdx_sec:app_LLM_cache_std": ("lem-llm-std",),
    "eq:app_llm_std_gap": ("lem-llm-std",),
    "alg:CLCB-LLM_std": ("lem-llm-std",),
    "apdx_eq:LLM_cache_TPM_smooth": ("lem-llm-std",),
    "thm:LLM_cache_main": ("thm3-llm",),
    "apdx_eq:LLM_first_term": ("thm3-llm",),
    "apdx_eq:LLM_reduce_to_prev": ("thm3-llm",),
    "apdx_lem:vec_concen": ("thm3-llm",),
    "eq:app_llm_improve_gap_2": ("thm3-llm",),
    "alg:CLCB-LLM": ("thm3-llm",),
}
_CLAIMS_CACHE: dict[str, Any] = {}


def claim_results() -> list[Any] | None:
    """``offcmab.bounds.claims.check_all()`` once per build (every check), or None if missing."""
    if "results" not in _CLAIMS_CACHE:
        module = _import("offcmab.bounds.claims")
        _CLAIMS_CACHE["results"] = None if module is None else module.check_all(include_slow=True)
    return _CLAIMS_CACHE["results"]


def _area(claim: Any) -> str:
    for area in CLAIM_AREAS:
        module = _import(f"offcmab.bounds.claims.{area}")
        if module is not None and claim in getattr(module, "CLAIMS", ()):
            return area
    return "table"


def bounds_of(claim: Any) -> tuple[str, ...]:
    """The bound pages a claim is listed on."""
    return CLAIM_LABELS.get(claim.label, CLAIM_AREAS[_area(claim)])


def all_claims() -> list[dict[str, Any]] | None:
    """Every claim as ``offcmab claims --json`` prints it, plus the bound pages it is on."""
    results = claim_results()
    if results is None:
        return None
    return [{**result.as_dict(), "bounds": bounds_of(result.claim)} for result in results]


def claims_for(bound_id: str) -> list[dict[str, Any]] | None:
    """The claims registry rows about one bound, or None while the registry is missing."""
    rows = all_claims()
    return None if rows is None else [row for row in rows if bound_id in row["bounds"]]


def all_errata() -> list[dict[str, Any]] | None:
    """Every erratum as ``offcmab errata --json`` prints it."""
    results = claim_results()
    module = _import("offcmab.bounds.errata")
    if results is None or module is None:
        return None
    return [erratum.as_dict() for erratum in module.errata_from(results)]


def _escape(text: Any) -> str:
    """Plain text safe inside a Markdown table cell (no emphasis, math or HTML)."""
    text = str(text).replace("\\", "\\\\")
    for char in "|*_$`[]":
        text = text.replace(char, "\\" + char)
    return text.replace("<", "&lt;").replace("\n", " ")


def _code(value: Any) -> str:
    """Text for an inline code span inside a table cell."""
    return str(value).replace("|", r"\|").replace("`", "'").replace("\n", " ")


def _claims_table(rows: Iterable[dict[str, Any]]) -> str:
    lines = ["| claim | paper | what it says | status (method) | what the check found |",
             "|---|---|---|---|---|"]
    for row in rows:
        status = f"**{row['status']}**"
        if row["status"] == "counterexample":
            status = f"[**counterexample**](../errata.md#{_anchor(row['id'])})"
        lines.append("| " + " | ".join([
            f"`{row['id']}`", _escape(row["paper_ref"]), _escape(row["statement"]),
            f"{status} ({row['method']})", _escape(row["detail"])]) + " |")
    return "\n".join(lines) + "\n"


def _anchor(claim_id: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in claim_id.lower())


def _figure_section(bound_id: str, figures: dict[str, bytes], summary: str | None) -> str:
    head = "## Empirical gaps against the bound\n\n"
    if bound_id not in figures:
        return head + not_available(
            "The validation figure",
            "`offcmab validate --quick` did not produce rows for this bound in this build.")
    text = (f"![Measured suboptimality gaps of {bound_id} against its bound]"
            f"(figures/{bound_id}.png)\n\n")
    return head + text + (summary or "")


def event_sentence(bound_id: str, name: str) -> str:
    """One proof event in words and math, rendered from :mod:`offcmab.bounds.events`."""
    from offcmab.bounds import events  # the docs build only
    from offcmab.bounds.symbols import LATEX_NAMES

    def tex(expression: Any) -> str:
        import sympy

        return str(sympy.latex(expression, symbol_names=LATEX_NAMES))

    found = events.event(bound_id, name)
    failure = tex(found.failure)
    if isinstance(found, events.HoeffdingEvent):
        factor = tex(events.radius_factor(bound_id, name))
        return (f"${found.symbol}$: every interval of half-width "
                f"$\\sqrt{{\\log({factor}/\\delta)/(2N)}}$ covers its mean, at once over "
                f"${tex(found.arms)}$ base arms and ${tex(found.counts)}$ values of $N$; "
                f"it fails with probability at most ${failure}$")
    condition = ("" if found.condition is None
                 else f" when ${tex(found.condition)}$")
    return f"${found.symbol}$ fails with probability at most ${failure}${condition}"


def spread_certificate_sentence(bound_id: str) -> str:
    """The failure of an IM certificate, exact and estimated, rendered from
    :mod:`offcmab.bounds.certificates`."""
    from offcmab.bounds import certificates  # the docs build only
    from offcmab.bounds.symbols import LATEX_NAMES

    def tex(expression: Any) -> str:
        import sympy

        return str(sympy.latex(expression, symbol_names=LATEX_NAMES))

    record = certificates.certificate_of(bound_id)
    if not isinstance(record, certificates.SpreadCertificateRecord):
        raise ValueError(f"bound id: {bound_id} has no spread certificate")
    names = ", ".join(f"${one.symbol}$" for one in record.events)
    return (f"the events {names} together, failure at most ${tex(record.failure)}$ with exact "
            f"spreads; with estimated spreads ${tex(record.estimated_failure)}$, each estimate "
            f"moved outwards by ${tex(record.spread_error)}$")


def events_section(bound_id: str) -> str:
    """The events the proof of ``bound_id`` rests on, or nothing for a bound without any."""
    from offcmab.bounds import events  # the docs build only

    if bound_id not in events.EVENTS:
        return ""
    lines = ["## Events of the proof\n",
             "The proof holds on these events together; their failure probabilities add up "
             f"to ${latex(events.total_failure(bound_id))}$ "
             "(`offcmab.bounds.events`).\n"]
    lines += [f"* `{found.name}` ({found.paper_ref}): {event_sentence(bound_id, found.name)}."
              for found in events.events_of(bound_id)]
    return "\n".join(lines) + "\n"


def bound_page(bound_id: str, registry: dict[str, Any] | None, figures: dict[str, bytes],
               summaries: dict[str, str]) -> str:
    """The Markdown of the page of one bound id."""
    bound = None if registry is None else registry.get(bound_id)
    title = getattr(bound, "title", None) or bound_id
    parts = [f"# `{bound_id}`: {title}\n"]
    if bound is not None and getattr(bound, "paper_ref", None):
        parts.append(f"Paper: {bound.paper_ref}\n")
    parts.append("## Statement\n")
    parts.append((STATEMENTS / f"{bound_id}.md").read_text(encoding="utf-8"))
    if bound is None:
        parts.append("## The bound as a formula\n")
        parts.append(not_available(
            "The sympy form of this bound",
            f"`offcmab.bounds.registry.BOUNDS[{bound_id!r}]` does not exist in this build."))
    else:
        parts.append(_formula_section(bound))
    parts.append(events_section(bound_id))
    parts.append("## Proof steps in the claims registry\n")
    rows = claims_for(bound_id)
    if rows is None:
        parts.append(not_available("The claims registry",
                                   "`offcmab.bounds.claims` does not exist in this build."))
    elif not rows:
        parts.append("The claims registry has no row for this bound.\n")
    else:
        parts.append(_claims_table(rows))
    parts.append(_figure_section(bound_id, figures, summaries.get(bound_id)))
    return "\n".join(parts)


def bounds_index(registry: dict[str, Any] | None) -> str:
    """The landing page of the bounds section."""
    lines = ["# Bounds\n",
             "Every guarantee of the paper has an id. Each page below gives the statement in "
             "plain words, the bound as a sympy formula in its `stated` and `proved` variants, "
             "its preconditions, the claims-registry rows for its proof steps, and a figure of "
             "measured gaps against it. The pages are generated from the package during the "
             "docs build.\n",
             "| id | title | paper |", "|---|---|---|"]
    for bound_id in BOUND_IDS:
        bound = None if registry is None else registry.get(bound_id)
        title = getattr(bound, "title", "not yet in the registry")
        ref = getattr(bound, "paper_ref", "")
        lines.append(f"| [`{bound_id}`]({bound_id}.md) | {title} | {ref} |")
    return "\n".join(lines) + "\n"


SLOW_NOTE = ("Every check runs during the docs build, the statistical (simulation) ones "
             "included, as `offcmab claims` runs them. The one exception is the rate row behind "
             "a `checked-indirectly` claim, a validation run stored in the package: "
             "`offcmab claims --regenerate` reruns it, and the test suite fails when the "
             "stored numbers are not what the code gives.\n\n")


def claims_page() -> str:
    """Every encoded claim of the paper with how it was checked."""
    head = ("# Claims\n\nEvery claim of the paper that the package encodes: our restatement, "
            "where it sits in the paper's source, and what its machine check found. "
            "Generated from the claims registry during the build (`offcmab claims --json` "
            "prints the same rows). " + SLOW_NOTE)
    rows = all_claims()
    if rows is None:
        return head + not_available("The claims registry",
                                    "`offcmab.bounds.claims` does not exist in this build.")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    summary = ", ".join(f"{count} {status}" for status, count in sorted(counts.items()))
    table = _claims_table(rows).replace("](../errata.md", "](errata.md")
    return (head + f"{len(rows)} claims: {summary}.\n\n" + _status_legend(counts)
            + "\n" + table)


def _status_legend(counts: dict[str, int]) -> str:
    """What each status means, for the statuses the registry reports."""
    module = _import("offcmab.bounds.claims.record")
    meanings = getattr(module, "STATUS_MEANINGS", {})
    lines = ["| status | claims | meaning |", "|---|---|---|"]
    lines += [f"| **{status}** | {counts.get(status, 0)} | {_escape(meaning)} |"
              for status, meaning in meanings.items()]
    return "\n".join(lines) + "\n"


def _evidence_table(evidence: dict[str, Any]) -> str:
    if not evidence:
        return ""
    lines = ["| evidence | value |", "|---|---|"]
    lines += [f"| `{key}` | `{_code(value)}` |" for key, value in evidence.items()]
    return "\n".join(lines) + "\n"


def errata_page() -> str:
    """The failed claims with evidence, correction and impact."""
    head = ("# Errata\n\nThe claims of the paper whose check found a counterexample: what the "
            "paper says, what we found with the exact numbers that show it, the smallest "
            "correction, and what it changes downstream. Generated from the claims registry "
            "during the build (`offcmab errata --json` prints the same data); the "
            "[Claims](claims.md) page lists every claim, including those that hold. "
            + SLOW_NOTE)
    rows = all_errata()
    if rows is None:
        return head + not_available("The errata",
                                    "`offcmab.bounds.errata` does not exist in this build.")
    if not rows:
        return head + "No claim failed its check.\n"
    parts = [head, f"{len(rows)} errata.\n"]
    for row in rows:
        parts.append(f"## `{row['id']}` {{ #{_anchor(row['id'])} }}\n")
        parts.append(f"Paper: {row['paper_ref']}. Check: {row['method']}.\n")
        parts.append(f"**The claim.** {_escape(row['claim'])}\n")
        parts.append(f"**What we found.** {_escape(row['finding'])}\n")
        parts.append(_evidence_table(row.get("evidence", {})))
        parts.append(f"**Correction.** {_escape(row['correction'])}\n")
        parts.append(f"**Impact.** {_escape(row['impact'])}\n")
    return "\n".join(parts)


def theory_links(root: Path, path: str) -> str:
    """Links to the bound pages named by the ``THEORY`` tuple of a module of ``reference/``."""
    module = importlib.import_module("offcmab." + ".".join(Path(path).with_suffix("").parts))
    ids = getattr(module, "THEORY", None)
    if ids is None:
        raise ValueError(f"{path} declares no THEORY tuple")
    return ", ".join(f"[`{i}`](../bounds/{i}.md)" for i in ids)


def generated_pages(root: Path,
                    run: Callable[[Path], validation_run.Report | None] = validation_run.quick
                    ) -> list[GeneratedPage]:
    """All pages and figures generated from the package."""
    registry = bound_registry()
    report = run(root)
    figures = {} if report is None else report.figures(BOUND_IDS)
    summaries = {} if report is None else report.summaries(BOUND_IDS)
    pages = [GeneratedPage("bounds/index.md", bounds_index(registry)),
             GeneratedPage("claims.md", claims_page()),
             GeneratedPage("errata.md", errata_page())]
    for bound_id in BOUND_IDS:
        pages.append(GeneratedPage(f"bounds/{bound_id}.md",
                                   bound_page(bound_id, registry, figures, summaries)))
    pages.extend(GeneratedPage(f"bounds/figures/{i}.png", png) for i, png in figures.items())
    return pages
