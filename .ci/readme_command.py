"""Print one of the README's two set-up commands, exactly as a new user would copy it.

``python .ci/readme_command.py test`` prints the test command, ``... main`` the main
command.  ``.ci/run`` runs what this prints, so CI and the README cannot drift apart.

The README's fenced ``bash`` blocks are scanned for single-line commands that start with
``pip install``; the test command is the one that runs ``pytest``, the main command the one
that runs ``offcmab validate``.  Anything else (none, or two candidates for one role) is an
error with exit status 1, so a README edit that breaks the contract fails CI loudly.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
FENCE = re.compile(r"^```bash[ \t]*\n(.*?)^```", re.M | re.S)
ROLES = {"test": re.compile(r"&&\s*pytest\s*$"), "main": re.compile(r"&&\s*offcmab validate\s*$")}


def setup_commands(text: str) -> dict[str, str]:
    """The README's test and main commands, keyed by role; ``ValueError`` unless one each."""
    found: dict[str, list[str]] = {role: [] for role in ROLES}
    for block in FENCE.findall(text):
        for line in block.splitlines():
            line = line.strip()
            if not line.startswith("pip install"):
                continue
            for role, pattern in ROLES.items():
                if pattern.search(line):
                    found[role].append(line)
    for role, lines in found.items():
        if len(lines) != 1:
            raise ValueError(f"README.md must hold exactly one {role} command "
                             f"('pip install ... && {'pytest' if role == 'test' else 'offcmab validate'}'"
                             f" in a bash block), found {len(lines)}: {lines}")
    return {role: lines[0] for role, lines in found.items()}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ROLES:
        print("usage: readme_command.py test|main", file=sys.stderr)
        return 2
    try:
        commands = setup_commands(README.read_text(encoding="utf-8"))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(commands[argv[0]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
