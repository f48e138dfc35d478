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
# What the full run takes (--findings-precision 0.1): the searcher's time a round at each table, one thread, from
# `casino-sim bench --policy searcher --threads 1 --rules R` (20 to 40 rounds, 2026-12-05, a machine loaded about
# 6x: 2 players 65-73 ms, 3 players 418-419 ms, 4 alone 462-665 ms, two teams 422 ms), scaled by 0.43 ms a decision
# on a quiet machine (README.md's policy table: 21 ms a two-player round, 3.5x less), times the deals each table
# needs at the searcher's half-widths (results/findings at 2,000 deals; the 2♠ ±0.42 at 1,500 deals of two players,
# issue 47) scaled as 1/sqrt(n), a tenth over (findings_precision.py SLACK)
RUN_TIME = (
    "What the full run takes: the searcher's rounds cost about 21 ms with two players, 120 ms with three, 130 to "
    "190 ms with four alone and 120 ms as two teams on one quiet core (`casino-sim bench --policy searcher "
    "--threads 1`, measured 3.5x slower on a loaded machine), and ±0.1 points asks about 29,000 deals at two "
    "players (the 2♠ and the aces, ±0.42 from 1,500 deals), 6,000 at three, 4,000 at four and 14,000 as teams: "
    "about 10 minutes for strict and an hour each for brazilian and italian, some 2.2 core-hours for the top "
    "rung; rollout, the next rung down and the dearest a decision, adds about 1.7 core-hours to stop at "
    "`--until-ci 0.25`, the cheap rungs minutes. About 4 core-hours in all, 2 hours on two cores; the command "
    "resumes where it stops."
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
