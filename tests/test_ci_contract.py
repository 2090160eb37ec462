"""CI runs exactly the README's two set-up commands, read from README.md by ``.ci/run``."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CI_RUN = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")

spec = importlib.util.spec_from_file_location("readme_command", ROOT / ".ci" / "readme_command.py")
assert spec is not None and spec.loader is not None
readme_command = importlib.util.module_from_spec(spec)
spec.loader.exec_module(readme_command)

# The contract of the developers' guide: what a new user types on a fresh machine.
TEST_COMMAND = 'pip install -e ".[test]" && pytest'
MAIN_COMMAND = "pip install -e . && offcmab validate"


def test_readme_states_the_two_contract_commands() -> None:
    assert readme_command.setup_commands(README) == {"test": TEST_COMMAND, "main": MAIN_COMMAND}


def test_ci_runs_the_commands_it_reads_from_the_readme() -> None:
    assert '.ci/readme_command.py test)' in CI_RUN
    assert '.ci/readme_command.py main)' in CI_RUN
    assert 'bash -c "$test_command"' in CI_RUN
    assert 'bash -c "$main_command --quick"' in CI_RUN
    # No copy of either command that could drift from the README.
    assert TEST_COMMAND not in CI_RUN and MAIN_COMMAND not in CI_RUN
    # Each stage starts from a new virtual environment.
    stages = CI_RUN.split('echo "== ')[1:]
    assert len(stages) == 3
    assert all("fresh_venv " in stage for stage in stages)


def test_ci_script_parses() -> None:
    done = subprocess.run(["bash", "-n", str(ROOT / ".ci" / "run")], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("text", "role"), [
    ("no commands at all", "test"),
    (f"```bash\n{TEST_COMMAND}\n```\n```bash\n{MAIN_COMMAND}\n{MAIN_COMMAND}\n```", "main"),
    (f"```bash\n{MAIN_COMMAND}\n```\n```bash\n{TEST_COMMAND}\n"
     'pip install -e ".[test,docs]" && pytest\n```', "test"),
])
def test_a_readme_without_exactly_one_command_per_role_is_refused(text: str, role: str) -> None:
    with pytest.raises(ValueError, match=f"exactly one {role} command"):
        readme_command.setup_commands(text)


def test_extractor_prints_the_command_for_ci(capsys: pytest.CaptureFixture[str]) -> None:
    assert readme_command.main(["test"]) == 0
    assert capsys.readouterr().out.strip() == TEST_COMMAND
    assert readme_command.main(["deploy"]) == 2
