r"""MkDocs hooks: generate the theory pages from the package and pull source into the pages.

Registered in ``mkdocs.yml`` (``hooks: [docs/hooks.py]``).  Nothing here touches the
network.  What the hooks do:

* ``on_startup``: lay out the package as installed for the API pages (``.docs-view``).
* ``on_config``: fail early, with the command to run, when the KaTeX assets that
  ``docs/install-katex.sh`` installs from the npm registry are missing.
* ``on_files``: add the pages generated from the package (one page per bound id, the
  claims and the errata) and the figures of the validation run behind them.
* ``on_page_markdown``: expand the directives written in the hand-written pages:

  ``{{ side_by_side("reference/clcb.py", "clcb", "helper"...) }}``
      the paper's pseudo-code beside the code that implements each labelled line;
  ``{{ listing("reference/clcb.py", "clcb") }}``
      a line-numbered listing of one definition as it is in the file;
  ``{{ run("offcmab solve cascade --data ...") }}``
      the command and its real output, captured during the build (an optional second
      argument is the expected exit code, 0 by default);
  ``{{ theory("reference/clcb.py") }}``
      links to the bound pages named by the module's ``THEORY`` tuple;
  ``{{ reproduction_table() }}`` and ``{{ reproduction_figures("fig1a", ...) }}``
      our reproductions against the paper's numbers, from ``docs/assets/reproductions``;
  ``{{ signature_table() }}``
      the call signature a user's algorithm needs per bound id (``validate --signatures``);
  ``{{ proof_event("thm1-inf", "arm") }}``
      one event of a proof (its radius, the union it runs over, its failure probability),
      rendered from :mod:`offcmab.bounds.events`;
  ``{{ spread_certificate("thm4-im") }}``
      the failure probability of influence maximization's certificate, exact and estimated,
      rendered from :mod:`offcmab.bounds.certificates`;
  ``{{ count("claims") }}``, ``{{ count("rows with power", run="/tmp/DIR") }}``
      a count computed from the package (or from the report a ``run`` block above wrote),
      never typed: :mod:`docgen.counts` lists the names;
  ``{{ figure("record", "path.in.result", unit="s") }}`` and ``{{ provenance("record") }}``
      a measured figure from a stored run record (``docs/assets/runs/``) with its command,
      commit and date beside it; ``{{ corpus_table() }}`` the tightness corpus from its runs;
      ``{{ calibration_table("record") }}`` a stored ``offcmab calibrate --json`` run;
      ``{{ ledger_table("ledger-corpus") }}`` the slack ledger of every id from its stored runs,
      ``{{ certificate_derivations() }}`` each certificate's event beside its proof's;
  ``{{ value("false-alarm budget") }}``
      a setting of the package (not a measurement): :mod:`docgen.figures` lists the names.

Any failure (a missing file, a pseudo-code label without code, a command with the wrong
exit code) stops the build with a message naming the page.
"""

from __future__ import annotations

import ast
import logging
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS))
sys.path.insert(0, str(ROOT))

from docgen import (  # noqa: E402
    calibration_table,
    commands,
    corpus_table,
    counts,
    figures,
    ledger_table,
    reproductions,
    sources,
    theory,
)

log = logging.getLogger("mkdocs.hooks.offcmab")

NAMES = ("side_by_side|listing|run|theory|reproduction_table|reproduction_figures"
         "|signature_table|count|proof_event|figure|provenance|value|corpus_table"
         "|calibration_table|ledger_table|certificate_derivations|spread_certificate")
DIRECTIVE = re.compile(r"(?<!\\)\{\{\s*(" + NAMES + r")\((.*?)\)\s*\}\}", re.S)
KATEX = DOCS / "assets" / "katex" / "katex.min.js"


#: Where the API pages find the package: ``offcmab/`` with the three layers linked into it, as
#: an installed wheel lays it out (``mkdocs.yml`` points mkdocstrings here; the folders of the
#: layers stay at the top of the repository).
VIEW = ROOT / ".docs-view"


def build_view() -> None:
    """Lay out ``.docs-view/offcmab`` as installed: the package files and links to the layers."""
    package = VIEW / "offcmab"
    package.mkdir(parents=True, exist_ok=True)
    for source in (ROOT / "offcmab").glob("*.py"):
        (package / source.name).write_bytes(source.read_bytes())
    for layer in ("reference", "bounds", "validation"):
        link = package / layer
        if not link.is_symlink():
            link.symlink_to(ROOT / layer, target_is_directory=True)


def on_startup(command: str, dirty: bool) -> None:
    build_view()  # before mkdocstrings reads its search paths in its own on_config


def on_config(config: Any) -> Any:
    if not KATEX.is_file():
        raise PluginError(
            "KaTeX is not installed in docs/assets/katex: run `bash docs/install-katex.sh` "
            "(it fetches the pinned katex package from the npm registry)")
    return config


def on_files(files: Files, config: Any) -> Files:
    for page in theory.generated_pages(ROOT):
        files.append(File.generated(config, page.path, content=page.content))
    return files


def _arguments(text: str) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Positional and keyword arguments of a directive, each a Python literal."""
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        assert isinstance(call, ast.Call)
        args = tuple(ast.literal_eval(arg) for arg in call.args)
        kwargs = {str(kw.arg): ast.literal_eval(kw.value) for kw in call.keywords}
    except (SyntaxError, ValueError) as error:
        raise PluginError(f"directive arguments must be literals: {text!r}") from error
    return args, kwargs


def _expand(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    if name == "side_by_side":
        return sources.side_by_side(ROOT, *args, **kwargs)
    if name == "listing":
        return sources.listing(ROOT, *args, **kwargs)
    if name == "run":
        return commands.run_block(ROOT, *args, **kwargs)
    if name == "reproduction_table":
        return reproductions.table(ROOT)
    if name == "reproduction_figures":
        return reproductions.figures(ROOT, *args)
    if name == "count":
        return counts.count(*args, **kwargs)
    if name == "figure":
        return figures.figure(*args, **kwargs)
    if name == "provenance":
        return figures.provenance(*args, **kwargs)
    if name == "value":
        return figures.value(*args, **kwargs)
    if name == "calibration_table":
        return calibration_table.table(*args)
    if name == "corpus_table":
        return corpus_table.table(ROOT)
    if name == "ledger_table":
        return ledger_table.table(*args)
    if name == "certificate_derivations":
        return ledger_table.certificate_derivations()
    if name == "proof_event":
        return theory.event_sentence(*args, **kwargs)
    if name == "spread_certificate":
        return theory.spread_certificate_sentence(*args)
    if name == "signature_table":
        from offcmab.validation.api import signature_table

        return signature_table()
    return theory.theory_links(ROOT, *args, **kwargs)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    def replace(match: re.Match[str]) -> str:
        try:
            return _expand(match.group(1), *_arguments(match.group(2)))
        except (sources.DocsSourceError, commands.CommandError, counts.CountError,
                figures.FigureError,
                OSError) as error:
            raise PluginError(f"{page.file.src_uri}: {error}") from error

    return DIRECTIVE.sub(replace, markdown).replace("\\{{", "{{")
