"""results/findings/: every headline finding along the strength ladder in each rule set (`casino-sim findings`,
docs/findings.md): strict with two players, brazilian and italian with two, three and four players and two teams.

Imported by standard_results.py, which runs it with the rest (or alone: `--only findings`). One findings command per
rule set plays its runs in a folder out of git (`--findings-runs` names one to keep: a second call finishes what
the first left, each command resuming its own folder); --findings-precision carries the strongest policy's runs
until its headline findings are that precise (--findings-deals the cap). Only the tables, findings.md and the
charts are copied into results/findings/<rules>/.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

RULE_SETS = {"strict": ("2",), "brazilian": ("2", "3", "4", "teams"), "italian": ("2", "3", "4", "teams")}
KEEP = ("findings.csv", "findings.json", "findings.md", "verdicts.csv", "verdicts.json")
# What the run took, from its run folders' manifests (started, finished, deals played): 2026-12-05, the two cores of
# the machine that runs CI, nothing else running; the pause for a CI run in the middle taken out
RUN_TIME = (
    "What the run took (2026-12-05, two cores, `--findings-deals 70000`): strict 10 minutes, brazilian 44, italian "
    "39. With two players the aces, the 2♠ and the 10♦ are the last findings to reach ±0.1: the searcher played "
    "59,000 deals (strict), 58,000 (brazilian) and 59,000 (italian), endgame 60,000 to 62,000. With three or four "
    "players the headline findings are that precise sooner (the searcher's runs stopped at 6,000 deals with three "
    "players, 5,000 with four and 14,000 as two teams in brazilian; 4,000, 2,000 and 14,000 in italian; each deal "
    "played from every seat), and those rounds cost the searcher about six times a two-player round (it plays out "
    "to the round's end there). The cheap rungs took minutes."
)


def findings_command(args, rules: str, players: tuple[str, ...], out: Path) -> list[str]:
    """`casino-sim findings`'s words for one rule set into `out`."""
    command = ["findings", "--rules", rules, "--players", ",".join(players), "--deals", str(args.findings_deals)]
    if args.findings_policies:
        command += ["--policies", args.findings_policies]
    if args.findings_precision:
        command += ["--precision", f"{args.findings_precision:g}"]
        command += ["--precise-rungs", str(args.findings_precise_rungs)]
    return [*command, "--seed", str(args.seed), "--out", str(out)]


def findings_section(args, tmp: Path) -> list[str]:
    """Run the findings command in each rule set and copy its tables and charts; the README lines."""
    runs = args.findings_runs or tmp / "findings"
    target = args.out / "findings"
    for old in target.glob("*"):  # the rule sets' folders and the single brazilian run of before; not convergence/
        if old.is_file():
            old.unlink()
        elif old.name in RULE_SETS:
            shutil.rmtree(old)
    precision = f", the strongest to ±{args.findings_precision:g} points" if args.findings_precision else ""
    lines = [
        f"## Findings along the strength ladder (strict, brazilian and italian rules, at most "
        f"{args.findings_deals:,} deals a run{precision})",
        "",
        "`casino-sim findings` in each rule set: every player of a run plays the same policy, every policy the same "
        "deals; each run stops when its seat advantage's interval is 0.25 points wide or at the cap"
        + (
            f", and the strongest policy's runs go on until its seat advantage, the 10♦, the 2♠ and each ace are "
            f"within ±{args.findings_precision:g} points and sweeps, plays and builds per round within "
            f"±{args.findings_precision / 5:g} (`--precision`)"
            if args.findings_precision
            else ""
        )
        + ". Between the two strongest policies a finding is settled only when the 95% interval of their "
        "difference lies inside a margin (±0.1 points a round, ±0.01 for a per-round count or share, ±0.5 "
        "percentage points of equity), moves with strength when it excludes 0, and is otherwise undetermined "
        "(docs/findings.md). " + RUN_TIME,
        "",
    ]
    for rules, players in RULE_SETS.items():
        command = findings_command(args, rules, players, runs / rules)
        subprocess.run([sys.executable, "-m", "casino_sim", *command], check=True)
        lines += _copy(runs / rules, target / rules, command)
    return lines


def _copy(runs: Path, target: Path, command: list[str]) -> list[str]:
    """Copy one rule set's tables and charts into `target`; its README lines."""
    target.mkdir(parents=True)
    for f in [*KEEP, *(p.name for p in runs.glob("*.png")), *(p.name for p in runs.glob("*.svg"))]:
        shutil.copy(runs / f, target / f)
    ladder = list(dict.fromkeys(pd.read_csv(target / "findings.csv")["policy"]))
    said = [x for x in (target / "findings.md").read_text().splitlines() if x.startswith(("- ", "Precision"))]
    rules = target.name
    return [
        f"### {rules}",
        "",
        f"`casino-sim {' '.join(command[:-2])}`. Policies from weakest to strongest: {', '.join(ladder)}. The table "
        f"with every value: [findings/{rules}/findings.md](findings/{rules}/findings.md) "
        f"([csv](findings/{rules}/findings.csv), [verdicts](findings/{rules}/verdicts.csv)); one chart a finding in "
        f"[findings/{rules}/](findings/{rules}/).",
        "",
        *(x if x.startswith("- ") else f"- {x}" for x in said),
        "",
    ]
