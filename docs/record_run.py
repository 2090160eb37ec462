r"""Run an ``offcmab`` command and store its run record under ``docs/assets/runs/``.

Usage (from the repository root, on a committed tree)::

    python docs/record_run.py NAME -- offcmab calibrate --only cor1-cascade --runs 200 --json

The record (``docs/assets/runs/NAME.json``) holds the command, the commit, the date, a summary
of the machine (cores, Python, platform) and the command's ``--json`` output; pages quote its
numbers with ``{{ figure("NAME", "path.in.result") }}`` (``docs/docgen/figures.py``).  The
files are committed; the docs build only reads them.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "docs" / "assets" / "runs"


def machine() -> dict[str, object]:
    """Cores, Python version and platform of this machine."""
    return {"cores": os.cpu_count(), "python": platform.python_version(),
            "platform": f"{platform.system()} {platform.machine()}"}


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--" or argv[2] != "offcmab":
        print("usage: python docs/record_run.py NAME -- offcmab ...", file=sys.stderr)
        return 2
    name, command = argv[0], argv[2:]
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.strip()
    if dirty:
        print("record_run: the tree has uncommitted changes; commit first", file=sys.stderr)
        return 2
    date = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1, 3):  # 3: a calibration stopped undecided, with counts
        print(f"record_run: {shlex.join(command)} exited {done.returncode}:\n{done.stderr}",
              file=sys.stderr)
        return 1
    record = {"command": shlex.join(command), "commit": commit, "date": date,
              "machine": machine(), "exit_code": done.returncode,
              "result": json.loads(done.stdout)}
    RUNS.mkdir(parents=True, exist_ok=True)
    (RUNS / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
