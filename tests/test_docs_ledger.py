"""The docs' slack-ledger tables render from the stored run records, one row per record."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))

from docgen import figures, ledger_table  # noqa: E402

from offcmab.bounds.certificates import CERTIFICATES  # noqa: E402


@pytest.mark.parametrize("kind", list(ledger_table.KINDS))
def test_the_ledger_table_shows_every_stored_record(kind: str) -> None:
    table = ledger_table.table(kind)
    records = sorted(figures.RUNS.glob(f"{kind}-*.json"))
    assert records, f"no {kind}-ID run records under {figures.RUNS}"
    for path in records:
        result = json.loads(path.read_text())["result"]
        bound_id = path.stem.removeprefix(f"{kind}-")
        row = next(line for line in table.splitlines() if line.startswith(f"| `{bound_id}` |"))
        for column, _ in ledger_table.COLUMNS:
            ratio = result["ledger"][column]
            vacuous = " (vacuous)" if column in result["ledger_run"]["vacuous"] else ""
            expected = (f"absent: {result['ledger_run']['reasons'][column]}" if ratio is None
                        else f"{float(ratio):.3g}{vacuous}")
            assert f"| {expected} |" in row + " |", (bound_id, column)
        assert result["ledger_run"]["trials"] > 0


def test_a_ledger_table_names_the_ids_without_a_record(tmp_path: Path) -> None:
    stored = figures.RUNS / "ledger-corpus-thm1-inf.json"
    (tmp_path / stored.name).write_text(stored.read_text())
    table = ledger_table.table("ledger-corpus", tmp_path)
    assert table.count("\n| `") == 1  # one row, the others named under it
    assert "`thm2-lower`: " in table and "lower bound" in table
    with pytest.raises(figures.FigureError):
        ledger_table.table("ledger-corpus", tmp_path / "empty")


def test_the_certificate_derivations_have_a_row_per_record() -> None:
    text = ledger_table.certificate_derivations()
    for bound_id, record in CERTIFICATES.items():
        assert f"| `{bound_id}` |" in text
        assert f"`{record.event_name}` of `{record.event_of}`" in text
