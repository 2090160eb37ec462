r"""``--graph FILE``: the graph CSV of ``offcmab solve im-node``/``im-edge``, ``offcmab
im-oracle`` and ``offcmab spread``, read so that every error names the option.

:func:`offcmab.reference.im.graph_io.read_graph_csv` names what it reads (the file, the header,
a row).  An error about the file itself (missing, a folder, unreadable) names the option the
user gave it with, ``--graph``; an error inside it names the line and the column, as
``solve --data`` does.
"""

from __future__ import annotations

from pathlib import Path

from offcmab.reference.errors import InputError
from offcmab.reference.im.graph import ICGraph
from offcmab.reference.im.graph_io import read_graph_csv

#: The field :func:`offcmab.reference.dataset_io.open_text` names for the file itself.
FILE_FIELD = "data"


def read_graph_option(path: Path, option: str = "graph", need_p: bool = True) -> ICGraph:
    """The graph in ``path`` (with edge probabilities unless ``need_p`` is false); an
    ``InputError`` on the file is on ``option``."""
    try:
        return read_graph_csv(path, need_p=need_p)
    except InputError as error:
        if error.field == FILE_FIELD and error.line is None:  # missing, a folder, unreadable
            raise InputError(option, error.message) from None
        raise
