r"""Regenerate "What validate can catch" (``docs/what-validate-can-catch.md``) from a real run.

Usage (from the repository root)::

    python docs/regenerate_power.py                      # runs the default profile (minutes)
    python docs/regenerate_power.py --from offcmab-report  # a finished run's folder

It runs ``offcmab validate --seed 2025 --out DIR`` (the default profile, which runs the
negative controls of :mod:`offcmab.validation.controls` on the trap instances), then writes the
page, the power figures (``docs/assets/power/<id>-power.png``) and ``power.json`` (the
numbers the page shows, with the seed, date and git commit).  Tightness comes from the
regression corpus ``validation/corpus/*.json`` when it exists.  The files are committed;
the docs build only reads them (a default run takes minutes, too long for every build).
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from offcmab.validation.runner import power as power_module
from offcmab.validation.theorems import THEOREMS

ROOT = Path(__file__).resolve().parents[1]
ASSETS = ROOT / "docs" / "assets" / "power"
PAGE = ROOT / "docs" / "what-validate-can-catch.md"
CORPUS = ROOT / "validation" / "corpus"
SEED = 2025
#: Detection probability at which a row's smallest detectable exceedance rate is quoted.
POWER = 0.9


def git_commit() -> str:
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() or "unknown"


def run_validate(out: Path) -> None:
    command = [sys.executable, "-m", "validation", "validate", "--seed", str(SEED),
               "--out", str(out)]
    done = subprocess.run(command, cwd=ROOT, check=False)
    if done.returncode not in (0, 1, 3):
        raise SystemExit(f"validate exited {done.returncode}")


def detectable_rate(trials: int, allowed: int) -> float:
    r"""Smallest exceedance probability :math:`q` that a row flags with probability
    :data:`POWER`: :math:`P(\mathrm{Binomial}(T, q) > A) \ge 0.9` (bisection)."""
    from scipy.stats import binom

    if allowed >= trials:
        return float("inf")
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = (low + high) / 2
        if binom.sf(allowed, trials, middle) >= POWER:
            high = middle
        else:
            low = middle
    return high


def _rate(row: Mapping[str, Any]) -> float:
    """The row's detectable exceedance rate: the report's, else computed here."""
    rate = row.get("detectable_rate")
    if rate is None:
        rate = detectable_rate(row["trials"], row["allowed_violations"])
    return float(rate)


def detectability(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per bound id: rows with power and vacuous rows; the upper-bound rows' detectable
    rates in multiples of their failure probability."""
    found: dict[str, dict[str, Any]] = {}
    for bound_id in dict.fromkeys(row["id"] for row in rows
                                  if not str(row["id"]).startswith("event-")):
        mine = [row for row in rows if row["id"] == bound_id]
        ratios = [_rate(row) / row["failure_probability"] for row in mine
                  if row.get("verdict") in ("pass", "FAIL")
                  and row.get("allowed_violations") is not None
                  and (row.get("failure_probability") or 0) > 0]
        found[bound_id] = {
            "power": sum(row.get("verdict") in ("pass", "FAIL") for row in mine),
            "vacuous": sum(row.get("verdict") == "vacuous" for row in mine),
            "rows": len(ratios)} | ({
                "best": min(ratios), "median": statistics.median(ratios),
                "worst": max(ratios)} if ratios else {})
    return found


def largest_tightness(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per bound id: the reference row of this run with the largest tightness."""
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        value = row.get("tightness")
        if value is None or row.get("gap_quantile") is None:
            continue  # lower-bound rows state tightness the other way round
        best = found.get(row["id"])
        if best is None or value > best["tightness"]:
            found[row["id"]] = {"tightness": value, "instance": row["instance"],
                                "n": row["n"], "variant": row["variant"]}
    return found


def corpus() -> list[dict[str, Any]]:
    """The tightest instances kept by ``offcmab tightness`` (empty when not computed)."""
    entries: list[dict[str, Any]] = []
    for path in sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries.extend(data if isinstance(data, list) else [data])
    return entries


def _number(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return "∞" if value == float("inf") else f"{value:.3g}"
    return str(value)


def page(record: Mapping[str, Any]) -> str:
    """The markdown page from the numbers in ``record``."""
    from offcmab.validation.runner.report import headline

    run = record["run"]
    power = record["power"]
    lines = [
        "# What validate can catch",
        "",
        "<!-- generated by docs/regenerate_power.py from a real run; do not edit by hand -->",
        "",
        "`offcmab validate` passes when the measured gaps stay within the paper's bounds. "
        "A pass only means something if a broken algorithm would have failed. This page "
        "measures that: every bound id has *negative controls*, copies of its reference "
        "algorithm with one expression broken (`validation/controls/`, listed by each "
        "theorem's record in `validation/theorems/`), and *trap "
        "instances* (`validation/scenarios/traps.py`) on which an algorithm that trusts "
        "few samples or ignores the data has a gap above the bound while the real "
        "algorithm has none. The default profile runs every control on its bound id's "
        "traps with the same datasets as the reference and judges it with the same rows "
        "at the same level. A control never changes the exit code 1 (that is reserved "
        "for the real algorithm); `--require-power` exits 3 when a control a trap should "
        "catch goes unflagged. The controls that no row can flag (listed under No power, "
        "with the reason) run their trap trials only in `--full`. Each control also runs "
        "its bound id's event rows (the proofs' confidence events, checked on the "
        "statistics the control computed); a flag by an event row counts.",
        "",
        f"Numbers below: `{run['command']}` at commit `{run['git_commit']}` "
        f"(page generated {run['date']}); {run['rows']} report rows, reference trials "
        f"{run['reference_seconds']:.1f} s, control trials {run['control_seconds']:.1f} s "
        f"(the cost of measuring power), wall time {run['wall_seconds']:.0f} s.",
        "",
        "## Power table",
        "",
        f"**{headline(power)}**",
        "",
        "| control | bound id | what is broken | rows | flagged by | flagged |",
        "|---|---|---|---|---|---|",
    ]
    controls = {theorem.id: theorem.controls for theorem in THEOREMS}
    for entry in power["table"]:
        flagged_by = ", ".join(entry["flagged_by"]) or "—"
        control = controls.get(entry["id"], {}).get(entry["control"])
        broken = power_module.broken(control) if control is not None else entry["broken"]
        lines.append(f"| `{entry['control']}` | {entry['id']} | {broken} | "
                     f"{entry['rows']} | {flagged_by} | "
                     f"{'yes' if entry['flagged'] else '**no**'} |")
    unflagged = [entry for entry in power["table"] if not entry["flagged"]]
    if unflagged:
        lines += ["", "## No power", "",
                  "Controls that no row of their bound id flags, and why.", "",
                  "| control | bound id | reason |", "|---|---|---|"]
        lines += [f"| `{e['control']}` | {e['id']} | {e['reason']} |" for e in unflagged]
    lines += ["", "## Gap quantile against bound", "",
              "One point per row with a bound: the empirical (1 - delta)-quantile of the gap "
              "against the bound, log-log. Points above the dashed diagonal exceed their "
              "bound; blue is the reference, red the controls.", ""]
    for bound_id in record["figures"]:
        lines += [f"![{bound_id}: gap quantile against bound]"
                  f"(assets/power/{bound_id}-power.png)", ""]
    lines += ["## Detectability per row", "",
              "Rows with power can fail; a *vacuous* row's bound is at least the largest gap "
              "its instance allows, so it cannot. For each upper-bound row with power: the "
              "smallest probability of exceeding the bound that the row's exact binomial test "
              f"(its trials, its level) flags with probability {POWER}, in multiples of the "
              "row's failure probability delta (a correct bound allows delta). Lower-bound "
              "rows (Hoeffding on a mean) are counted but have no rate.", "",
              "| bound id | rows with power | vacuous rows | upper rows | best | median | worst |",
              "|---|---|---|---|---|---|---|"]
    for bound_id, found in record["detectability"].items():
        lines.append(f"| {bound_id} | {found['power']} | {found['vacuous']} | {found['rows']} | "
                     f"{_number(found.get('best'))} | {_number(found.get('median'))} | "
                     f"{_number(found.get('worst'))} |")
    lines += ["", "## Tightness per bound", "",
              "Largest tightness (gap quantile over bound) among this run's reference rows:",
              "", "| bound id | tightness | instance | n | variant |", "|---|---|---|---|---|"]
    for bound_id, found in record["tightness"].items():
        lines.append(f"| {bound_id} | {_number(found['tightness'])} | {found['instance']} | "
                     f"{_number(found['n'])} | {found['variant']} |")
    lines += [""]
    if record["corpus"]:
        lines += ["Tightest instances found by `offcmab tightness` (`validation/corpus/`):",
                  "", "| bound id | ratio | bound | gap quantile | n |", "|---|---|---|---|---|"]
        lines += [f"| {e['bound_id']} | {_number(e.get('ratio'))} | {_number(e.get('bound'))} | "
                  f"{_number(e.get('gap_quantile'))} | {_number(e.get('n'))} |"
                  for e in record["corpus"]]
    else:
        lines += ["The tightness search (`offcmab tightness`) has not been run into "
                  "`validation/corpus/` yet: not yet computed."]
    lines += ["", "Regenerate with `python docs/regenerate_power.py`.", ""]
    return "\n".join(lines)


def build(report_dir: Path, assets: Path = ASSETS) -> dict[str, Any]:
    """The page's numbers from a run's folder; copies its power figures into ``assets``."""
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    profile = "" if report["profile"] == "default" else f" --{report['profile']}"
    command = f"offcmab validate{profile} --seed {report['seed']}"
    if "power" not in report:
        raise SystemExit(f"{report_dir}: the run has no power section (quick without "
                         "--require-power, or --no-power)")
    rows = report["rows"]
    power = report["power"]
    assets.mkdir(parents=True, exist_ok=True)
    figures = []
    for bound_id in dict.fromkeys(row["id"] for row in rows):
        png = report_dir / "figures" / f"{bound_id}-power.png"
        if png.is_file():
            shutil.copyfile(png, assets / png.name)
            figures.append(bound_id)
    timings = report["timings"]
    return {
        "run": {"command": command, "profile": report["profile"], "seed": report["seed"],
                "git_commit": report.get("git_commit") or git_commit(),
                "date": datetime.datetime.now(datetime.timezone.utc)
                .strftime("%Y-%m-%d %H:%M UTC"),
                "rows": len(rows), "wall_seconds": timings["wall_seconds"],
                "reference_seconds": sum(timings["trial_seconds_by_id"].values()),
                "control_seconds": power["trial_seconds"]},
        "power": {key: power[key] for key in ("table", "flagged", "controls", "missing")},
        "figures": figures,
        "detectability": detectability(rows),
        "tightness": largest_tightness(rows),
        "corpus": corpus(),
    }


def main() -> None:
    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, default=None,
                        help="a finished run's --out folder (default: run validate now)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = args.source
        if source is None:
            source = Path(tmp)
            run_validate(source)
        record = build(source)
    (ASSETS / "power.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    PAGE.write_text(page(record), encoding="utf-8")
    print(f"written {PAGE.relative_to(ROOT)} and {ASSETS.relative_to(ROOT)}/", file=sys.stderr)


if __name__ == "__main__":
    main()
