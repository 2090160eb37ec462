r"""Reproductions of the paper's experiments: one module per figure.

Each module exposes ``TITLE`` (one line), ``PAPER`` (what the paper reports, as text)
and ``run(out_dir: Path, seed: int, quick: bool) -> dict``, which writes
``<name>.png``, ``<name>.pdf`` and ``<name>.csv`` into ``out_dir`` and returns the
headline numbers (for the comparison table in the docs).  No module imports matplotlib
before its ``run`` is called, so that listing the figures stays cheap.
"""

from types import ModuleType

from offcmab.validation.reproduce import (
    fig1a,
    fig2,
    fig3a,
    im_real,
    llm_real,
    online_cache,
    width_sweep,
)

#: Figure name -> module, in the order ``offcmab reproduce all`` runs them.
FIGURES: dict[str, ModuleType] = {
    "fig1a": fig1a,
    "fig2": fig2,
    "fig3a": fig3a,
    "width-sweep": width_sweep,
    "online-cache": online_cache,
    "llm-real": llm_real,
    "im-real": im_real,
}
