"""One check, three doors: ``validate --algorithm``, ``check()`` and ``offcmab_check`` agree.

Statistical content.  The correct example (``pessimistic_list``) passes a default-profile
run with probability at least 1 - 1e-6 (the run's false-alarm budget: exact binomial
tails, Bonferroni over the rows with power); all doors run it at the fixed seed 2025, so
the comparison itself is exact (identical trial streams give identical rows).  The
outcome-blind ranking ``most_examined`` is flagged by the default profile at seed 2025:
on the generated instance ``generated-2`` of cor1-cascade 83 of 104 trials (n=5000) and
100 of 104 (n=20000) exceed the bound where 15 are allowed (binomial tails below 1e-80),
and on the corpus instance ``tightest`` 47 of 47 exceed the proved variant.  The quick
profile passes it (4 rows with power, all pass): that is why the fixture's default
profile is ``default``.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_cli_solve import run_cli
from test_pytest_plugin import plugin_arguments

from offcmab.validation.output import jsonable

pytest_plugins = ["pytester"]

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
TIMING = {"seconds"}


def comparable(report: dict[str, Any]) -> str:
    """The rows as ``report.json`` writes them, without the fields that time the run."""
    return json.dumps([{k: v for k, v in row.items() if k not in TIMING}
                       for row in jsonable(report["rows"])], sort_keys=True)


@pytest.fixture
def own_cascade(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delitem(sys.modules, "own_cascade", raising=False)
    return __import__("own_cascade")


FIXTURE_RUN = f"""
import sys
sys.path.insert(0, {str(EXAMPLES)!r})
import own_cascade


def test_through_the_fixture(offcmab_check):
    offcmab_check(own_cascade.pessimistic_list, "cor1-cascade", out=OUT)
"""


def test_three_doors_give_the_same_rows_and_verdicts(tmp_path: Path, own_cascade: Any) -> None:
    from offcmab.validation import check

    target = f"{EXAMPLES / 'own_cascade.py'}:pessimistic_list"
    assert run_cli(["validate", "--only", "cor1-cascade", "--algorithm", target,
                    "--out", str(tmp_path / "cli"), "--no-figures"]) == 0
    cli = json.loads((tmp_path / "cli" / "report.json").read_text())
    api = check(own_cascade.pessimistic_list, "cor1-cascade").report
    # a plain subprocess, not pytester: pytester would drop the modules check() imported
    inner = tmp_path / "inner" / "test_door.py"
    inner.parent.mkdir()
    inner.write_text(FIXTURE_RUN.replace("OUT", repr(str(tmp_path / "fixture"))))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", *plugin_arguments(), "-p",
                           "no:cacheprovider", str(inner)], cwd=inner.parent,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout
    fixture = json.loads((tmp_path / "fixture" / "report.json").read_text())

    assert cli["profile"] == api["profile"] == fixture["profile"] == "default"
    assert any(row["instance"] == "tightest" for row in cli["rows"])  # the corpus runs
    assert comparable(api) == comparable(cli) == comparable(fixture)
    assert api["summary"] == cli["summary"] == fixture["summary"]
    assert api["algorithm"] == cli["algorithm"] == fixture["algorithm"]
    doors = [report["provenance"]["invocation"]["door"] for report in (cli, api, fixture)]
    assert doors == ["offcmab validate", "offcmab.validation.check",
                     "pytest fixture offcmab_check"]
    assert cli["provenance"]["invocation"]["argv"][:3] == ["offcmab", "validate", "--only"]
    assert fixture["provenance"]["invocation"]["arguments"]["profile"] == "default"
    assert cli["provenance"]["package"] == api["provenance"]["package"] == \
        fixture["provenance"]["package"]


def test_provenance_names_package_seed_call_and_subject(own_cascade: Any) -> None:
    from offcmab.validation import check
    from offcmab.validation.theorems import THEOREMS

    report = check(own_cascade.greedy_list, "cor1-cascade", profile="quick", seed=7).report
    provenance = report["provenance"]
    package = provenance["package"]
    assert package["version"] and len(package["files_sha256"]) == 64
    assert package["git_commit"] is None or len(package["git_commit"]) == 40
    assert provenance["seed"] == 7 == report["seed"]
    assert provenance["invocation"]["arguments"] == {
        "function": "own_cascade:greedy_list", "bound_id": "cor1-cascade",
        "profile": "quick", "seed": 7, "jobs": 1, "backend": None, "out": None,
        "theorems": [theorem.id for theorem in THEOREMS], "allow_unchecked": False,
        "trial_timeout": 600.0}
    digest = hashlib.sha256((EXAMPLES / "own_cascade.py").read_bytes()).hexdigest()
    assert provenance["subject"] == {
        "spec": f"file:{EXAMPLES / 'own_cascade.py'}:greedy_list@{digest[:16]}",
        "sha256": digest}


BLIND = f"""
import sys
sys.path.insert(0, {str(EXAMPLES)!r})
import own_cascade


def test_most_examined(offcmab_check):
    offcmab_check(own_cascade.most_examined, "cor1-cascade")
"""


def test_fixture_fails_an_outcome_blind_ranking_without_options(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_blind=BLIND)
    result = pytester.runpytest_subprocess(*plugin_arguments(), "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*most_examined (*own_cascade.py) violates * row(s) of cor1-cascade "
        "(profile default, seed 2025):",
        "*id=cor1-cascade, instance=*, variant=stated, *violations=*"])


# --- check(jobs=N) from a plain script, without a __main__ guard -----------------------------

PLAIN = f"""
import json, sys
sys.path.insert(0, {str(EXAMPLES)!r})
import own_cascade
from offcmab.validation import check

report = check(own_cascade.greedy_list, "cor1-cascade", profile="quick", jobs=int(sys.argv[1]))
print(json.dumps([{{k: v for k, v in r.items() if k != "seconds"}} for r in report.rows]))
"""

OWN = """
import sys
import numpy as np
from offcmab.validation import check


def first(dataset, k, delta):
    return np.arange(k)


report = check(first, "cor1-cascade", profile="quick", jobs=int(sys.argv[1]))
print(report.algorithm["kind"], len(report.rows))
"""


def run_script(path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(path), *arguments], cwd=path.parent,
                          capture_output=True, text=True, timeout=600, check=False)


def test_check_with_two_jobs_needs_no_main_guard(tmp_path: Path) -> None:
    script = tmp_path / "plain.py"
    script.write_text(PLAIN, encoding="utf-8")
    serial, parallel = run_script(script, "1"), run_script(script, "2")
    for done in (serial, parallel):
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr and "Error" not in done.stderr
    assert json.loads(parallel.stdout) == json.loads(serial.stdout)
    assert any(row["verdict"] == "FAIL" for row in json.loads(serial.stdout))


def test_a_function_of_an_unguarded_script_runs_serially_and_refuses_workers(
        tmp_path: Path) -> None:
    script = tmp_path / "own.py"
    script.write_text(OWN, encoding="utf-8")
    serial = run_script(script, "1")
    assert serial.returncode == 0, serial.stderr
    assert serial.stdout.startswith("object ")  # run in this process, never re-imported
    parallel = run_script(script, "2")
    assert parallel.returncode == 1
    assert parallel.stderr.strip().splitlines()[-1] == (
        "ValueError: function: 'first' is defined in own.py, which worker processes would "
        "import and so run again; put the script's calls under "
        "`if __name__ == \"__main__\":` or use jobs=1")
    assert parallel.stdout == ""  # refused before any trial ran


def test_signature_table_lists_what_event_rows_read() -> None:
    from offcmab.validation.api import signature_table
    from offcmab.validation.events.subject import CACHE_FIELDS, NODE_FIELDS
    from offcmab.validation.theorems import THEOREMS

    table = signature_table().splitlines()
    assert table[0].endswith("| it returns | event rows read |")
    for theorem, line in zip(THEOREMS, table[2:], strict=True):
        assert line.startswith(f"| {theorem.id} |")
        read = line.rsplit("|", 2)[1].strip()
        assert read == (", ".join(f"`{name}`" for name in theorem.signature.exposes) or "—")
    exposed = {theorem.signature.exposes for theorem in THEOREMS}
    assert {("counts", "lcb"), CACHE_FIELDS, NODE_FIELDS} <= exposed
