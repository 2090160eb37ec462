r"""Results of checks too slow to rerun on every ``offcmab claims``, stored in the package.

A claim whose own statement cannot fail at any size a machine can run (its bound exceeds
every possible gap there) is checked through a consequence instead, and that check is a
simulation run by :mod:`offcmab.validation` (a layer this one may not import).  Its result
is stored here, in ``stored_checks.json``, keyed by claim id: ``offcmab claims
--regenerate`` reruns every stored check and rewrites the file, and the test suite reruns
them and fails when the stored numbers are no longer what the code gives.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The file of stored results, beside this module (installed as package data).
STORED = Path(__file__).with_name("stored_checks.json")

#: The command that recomputes every stored result.
REGENERATE = "offcmab claims --regenerate"


def stored_result(claim_id: str, path: Path = STORED) -> dict[str, Any] | None:
    """The stored result of ``claim_id``'s slow check, or ``None`` when none is stored."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    result = data.get(claim_id)
    return dict(result) if isinstance(result, dict) else None


def store_results(results: dict[str, dict[str, Any]], path: Path = STORED) -> None:
    """Write the stored results (claim id -> plain JSON data), replacing the file."""
    text = json.dumps(results, indent=1, sort_keys=True) + "\n"
    scratch = path.with_suffix(".json.tmp")
    scratch.write_text(text, encoding="utf-8")
    scratch.replace(path)
