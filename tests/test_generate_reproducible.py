"""Generated instances depend on the run seed alone, not on what the process imported before.

Hypothesis mixes in literals collected from every local module imported so far; a module
full of such literals, imported before drawing, must not change the instances.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DRAW = """
import json, sys
sys.path[:0] = [{root!r}, {extra!r}]
if {noisy}:
    import noisy_constants  # literals hypothesis could pick up
from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.parts.theorem import find
from offcmab.validation.theorems import THEOREMS
out = {{}}
for bound_id in ("cor1-cascade", "thm1-inf", "thm3-llm"):
    scenario = find(THEOREMS, bound_id).scenario
    drawn = scenario.instances(PROFILES["full"], 2025)
    out[bound_id] = [[i.name, i.params, i.delta] for i in drawn]
print(json.dumps(out, sort_keys=True, default=str))
"""


def _draw(tmp_path: Path, noisy: bool) -> dict:
    code = DRAW.format(root=str(ROOT), extra=str(tmp_path), noisy=noisy)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=tmp_path)
    return json.loads(done.stdout)


def test_instances_do_not_depend_on_imported_modules(tmp_path: Path) -> None:
    literals = ", ".join([str(i) for i in range(-50, 200)] +
                         [repr(0.5 + i / 997) for i in range(200)] + ["1e-3", "0.999"])
    (tmp_path / "noisy_constants.py").write_text(f"VALUES = [{literals}]\n")
    assert _draw(tmp_path, noisy=False) == _draw(tmp_path, noisy=True)
