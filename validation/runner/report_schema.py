r"""What a ``report.json`` must hold for the commands that read it back.

``offcmab compare``, ``validate --baseline`` and ``offcmab cite`` read a run's report that
anyone may have edited, truncated or replaced.  Before any of them uses a field (and before
``validate --baseline`` starts its trials), the whole file is checked here: JSON no deeper
than :data:`~offcmab.reference.jsonsafe.MAX_DEPTH` levels, each row an object with a text
``id`` and ``verdict``, ``instances`` an object of lists of named instances, ``provenance``
and ``summary`` objects whose fields have the types the readers print.  The first problem
is an :class:`~offcmab.reference.errors.InputError` naming the file and the field
(``rows[3].verdict: missing``), the command line's exit 2.  Fields no reader uses are not
checked, so a report of a newer offcmab with more fields still reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from offcmab.reference.errors import InputError
from offcmab.reference.jsonsafe import read_json
from offcmab.validation.schema import (
    any_text,
    integer,
    list_of,
    mapping,
    nullable,
    obj,
    scalar,
    text,
)

#: The report's name in a run folder.
REPORT_NAME = "report.json"

#: One row: what compare pairs rows by and the verdict it compares.
ROW = obj({"id": text, "verdict": text},
          {"instance": scalar, "n": nullable(integer(0)), "variant": scalar,
           "bound_ids": list_of(text, min_size=0)}, others=True)

#: The provenance block: what the package, seed, command and subject of the run were.
PROVENANCE = obj({}, {
    "package": obj({}, {"version": nullable(text), "git_commit": nullable(text),
                        "files_sha256": nullable(text)}, others=True),
    "seed": scalar,
    "invocation": obj({}, {"argv": list_of(any_text, min_size=0)}, others=True),
    "subject": obj({}, {"spec": nullable(text), "sha256": nullable(text)}, others=True),
    "theorems": list_of(obj({"id": text}, {"path": nullable(text), "module": nullable(text),
                                           "sha256": nullable(text)}, others=True),
                        min_size=0),
}, others=True)

#: A whole report.
REPORT = obj({"rows": list_of(ROW, min_size=0)}, {
    "seed": scalar, "profile": scalar, "bound_scale": scalar, "subject": text,
    "instances": mapping(list_of(obj({"name": text}, others=True), min_size=0)),
    "provenance": PROVENANCE,
    "summary": obj({}, {"power": integer(0), "FAIL": integer(0)}, others=True),
}, others=True)


def read_report(folder: Path, field: str, needs: Sequence[str] = ()) -> dict[str, Any]:
    """``report.json`` of the run folder ``folder``, checked against :data:`REPORT`.

    ``needs`` are top-level keys the caller cannot do without.  ``InputError`` on ``field``
    naming the file and the first invalid field.
    """
    path = Path(folder) / REPORT_NAME
    if not path.is_file():
        raise InputError(field, f"{path} not found (a folder written by `offcmab validate "
                         "--out`)")
    report = read_json(path, field)
    try:
        REPORT(report, "")
        for key in needs:
            if key not in report:
                raise ValueError(f"{key}: missing")
    except ValueError as error:
        raise InputError(field, f"{path}: {error}") from None
    return dict(report)
