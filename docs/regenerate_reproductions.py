r"""Regenerate the reproduction artifacts shown on "Reproducing the paper".

Usage (from the repository root)::

    python docs/regenerate_reproductions.py            # every figure (about 10 minutes)
    python docs/regenerate_reproductions.py fig1a fig3a

For each figure it runs the same code as ``offcmab reproduce FIGURE --out DIR`` at the
paper's settings (not ``--quick``) with the default seed, and keeps in
``docs/assets/reproductions/`` the PNG (and the module's ``EXTRA_FIGURES``) and a JSON
file with the headline numbers, the seed, the UTC date and the git commit.  Then it
rewrites ``comparison.csv`` (:mod:`offcmab.validation.reproduce.comparison`) from every JSON file
there, as ``offcmab reproduce all`` does from its own run.  Those files are committed;
the docs build reads them (the slowest reproductions take minutes, too long for every
build), and the page shows the date and commit each one was made at.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "assets" / "reproductions"
SEED = 2025


def git_commit() -> str:
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() or "unknown"


def regenerate(name: str) -> None:
    from offcmab.validation.output import jsonable
    from offcmab.validation.reproduce import FIGURES

    module = FIGURES[name]
    started = datetime.datetime.now(datetime.timezone.utc)
    with tempfile.TemporaryDirectory() as tmp:
        summary = module.run(Path(tmp), SEED, False)
        OUT.mkdir(parents=True, exist_ok=True)
        extra = getattr(module, "EXTRA_FIGURES", {})
        for stem in (name, *extra):
            png = Path(tmp) / f"{stem}.png"
            if not png.is_file():
                raise SystemExit(f"{name}: the reproduction wrote no {stem}.png")
            shutil.copyfile(png, OUT / f"{stem}.png")
    record = {
        "figure": name,
        "title": module.TITLE,
        "paper": module.PAPER,
        "command": f"offcmab reproduce {name} --out DIR --seed {SEED}",
        "seed": SEED,
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "git_commit": git_commit(),
        "summary": jsonable(summary),
        "extra_figures": dict(getattr(module, "EXTRA_FIGURES", {})),
    }
    (OUT / f"{name}.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(f"{name}: written", file=sys.stderr)


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from offcmab.validation.reproduce import FIGURES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("figures", nargs="*", metavar="FIGURE",
                        help=f"some of {', '.join(FIGURES)} (default: all)")
    names = parser.parse_args().figures or list(FIGURES)
    if unknown := [name for name in names if name not in FIGURES]:
        parser.error(f"unknown figure(s): {', '.join(unknown)}")
    for name in names:
        regenerate(name)
    write_comparison_table()


def write_comparison_table() -> None:
    """``comparison.csv`` from every committed artifact (a missing one reads as missing)."""
    from offcmab.validation.reproduce import FIGURES
    from offcmab.validation.reproduce.comparison import comparison_rows, write_comparison

    summaries = {}
    for name in FIGURES:
        path = OUT / f"{name}.json"
        summaries[name] = json.loads(path.read_text(encoding="utf-8"))["summary"] \
            if path.is_file() else None
    write_comparison(OUT / "comparison.csv", comparison_rows(summaries))
    print("comparison.csv: written", file=sys.stderr)


if __name__ == "__main__":
    main()
