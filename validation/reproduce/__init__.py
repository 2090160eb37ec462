r"""Reproductions of the paper's experiments: one module per figure.

Each module exposes ``TITLE`` (one line), ``PAPER`` (what the paper reports, as text)
and ``run(out_dir: Path, seed: int, quick: bool) -> dict``, which writes
``<name>.png``, ``<name>.pdf`` and ``<name>.csv`` into ``out_dir`` and returns the
headline numbers (for the comparison table in the docs).
"""

#: Figure name -> module, in the order ``offcmab reproduce all`` runs them.
FIGURES: dict[str, str] = {
    "fig1a": "offcmab.validation.reproduce.fig1a",
    "fig2": "offcmab.validation.reproduce.fig2",
    "fig3a": "offcmab.validation.reproduce.fig3a",
    "width-sweep": "offcmab.validation.reproduce.width_sweep",
    "online-cache": "offcmab.validation.reproduce.online_cache",
    "llm-real": "offcmab.validation.reproduce.llm_real",
    "im-real": "offcmab.validation.reproduce.im_real",
}
