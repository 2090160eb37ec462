r"""The regression corpus: the tightest instance found per bound id, kept in the repository.

``validation/corpus/<bound id>.json`` are files written by ``offcmab tightness`` (see
:mod:`offcmab.validation.tightness.files`).  ``offcmab validate`` runs each of them in the
profiles its ``profiles`` key lists (``default`` and ``full`` unless one evaluation
costs too much for the default profile's time budget), as instances of origin
``corpus`` at the ``n``, ``delta`` and name they were searched with, so under the
run seed they were searched with (2025, the default) their rows are the search's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from offcmab.validation.parts.spec import Instance
from offcmab.validation.parts.theorem import Theorem
from offcmab.validation.tightness.files import read_instances

#: Where the corpus lives.
CORPUS = Path(__file__).resolve().parent.parent / "corpus"
#: Profiles that run a corpus file without a ``profiles`` key.
DEFAULT_PROFILES = ("default", "full")


def corpus_files(folder: Path = CORPUS) -> list[Path]:
    """The corpus files, sorted by name."""
    return sorted(folder.glob("*.json"))


def corpus_instances(profile: str, theorems: Sequence[Theorem],
                     folder: Path = CORPUS) -> tuple[tuple[str, Instance], ...]:
    """``(bound id, instance)`` of every corpus file of ``theorems`` that runs in ``profile``.
    """
    found = read_instances(corpus_files(folder), "corpus", theorems)
    return tuple((bound_id, instance) for bound_id, instance, document in found
                 if profile in document.get("profiles", DEFAULT_PROFILES))
