"""results/findings/: every headline finding along the strength ladder (`casino-sim findings`, docs/findings.md).

Imported by standard_results.py, which runs it with the rest (or alone: `--only findings`). The command plays its
runs in a folder out of git (`--findings-runs` names one to keep, and a second call finishes or reuses it); only
findings.csv/.json/.md and the charts are copied into results/findings/.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

RULES = "brazilian"  # the rule set with three, four and team tables
KEEP = ("findings.csv", "findings.json", "findings.md")


def findings_section(args, tmp: Path) -> list[str]:
    """Run the findings command over the default ladder and copy its tables and charts; the README lines."""
    runs = args.findings_runs or tmp / "findings"
    command = ["findings", "--rules", RULES, "--deals", str(args.findings_deals), "--seed", str(args.seed)]
    command += ["--out", str(runs)]
    subprocess.run([sys.executable, "-m", "casino_sim", *command], check=True)
    target = args.out / "findings"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for f in [*KEEP, *(p.name for p in runs.glob("*.png")), *(p.name for p in runs.glob("*.svg"))]:
        shutil.copy(runs / f, target / f)
    table = pd.read_csv(target / "findings.csv")
    ladder = list(dict.fromkeys(table["policy"]))
    said = [x for x in (target / "findings.md").read_text().splitlines() if x.startswith("- ")]  # its sentences
    return [
        f"## Findings along the strength ladder ({RULES} rules, at most {args.findings_deals:,} deals a run)",
        "",
        f"`casino-sim {' '.join(command[:-2])}`: every player of a run plays the same policy, every policy the "
        "same deals; each run stops when its seat advantage's interval is 0.25 points wide or at the cap. "
        "A finding has settled when the two strongest policies' 95% intervals overlap (docs/findings.md). "
        f"Policies from weakest to strongest: {', '.join(ladder)}. The table with every value: "
        "[findings/findings.md](findings/findings.md) ([csv](findings/findings.csv)); one chart a finding in "
        "[findings/](findings/).",
        "",
        *said,
        "",
    ]
