"""results/equity/: the game's equity table per rule set, two players and two teams, checked against whole games.

Imported by standard_results.py, which runs it with the rest (or alone: `--only equity`). For each game, a
`casino-sim simulate` of one policy against itself gives the rounds, `casino-sim equity` the table and heatmap
(docs/equity.md); then whole games started from a few scores (`simulate --games --start-score`) check it.
Only the tables and charts are kept.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from casino_sim.api.policies import loader
from casino_sim.experiments.simulate import SimConfig, play_run
from casino_sim.reports.equity import write_equity
from casino_sim.reports.stats import wilson
from casino_sim.runner.rundir import RunDir

GAMES = ("strict", "brazilian", "italian", "brazilian:players=4,teams=true", "brazilian:target=31")
CHECK_SCORES = ((0, 0), (10, 15), (15, 10), (18, 18))  # A's side's score, then B's
KEEP = ("equity.csv", "equity.png", "equity.svg")


def _play(config: SimConfig, path: Path) -> RunDir:
    """Play one run as `casino-sim simulate` would, records only (no reports)."""
    run = RunDir(path)
    play_run(config, run, [sys.executable, *sys.argv])
    return run


def self_play_rounds(args, rules: str, deals: int, path: Path) -> RunDir:
    """A run of `deals` mirrored deals of the equity policy against itself: the rounds an equity table is made of."""
    config = SimConfig(
        deals=deals,
        policy_a=args.equity_policy,
        policy_b=args.equity_policy,
        rules=rules,
        seed=args.seed,
        card_deals=0,
    ).resolve(loader())
    return _play(config, path)


def _name(rules: str) -> str:
    return rules.replace(":", "-").replace(",", "-").replace("=", "")


def _checks(args, rules: str, table: pd.DataFrame, tmp: Path) -> list[dict]:
    """The table at each CHECK_SCORES pair (the first dealer is drawn, so both dealer cells weigh half) beside
    A's share of whole games started there (A on side 0 of every game, not mirrored)."""
    rows = []
    for a, b in CHECK_SCORES:
        config = SimConfig(
            deals=args.equity_games,
            policy_a=args.equity_policy,
            policy_b=args.equity_policy,
            rules=rules,
            seed=args.seed,
            games=True,
            mirrored=False,
            card_deals=0,
            start_score=f"{a}-{b}",
        ).resolve(loader())
        games = _play(config, tmp / f"{_name(rules)}-games-{a}-{b}").read_table("games")
        won = wilson(float((games["winner"] == 0).sum()), float(len(games)))
        cells = table[(table["player_score"] == a) & (table["opponent_score"] == b)]
        rows.append(
            {
                "rules": rules,
                "start": f"{a}-{b}",
                "table": cells["win_chance"].mean(),
                "table_ci_lo": cells["ci_lo"].mean(),
                "table_ci_hi": cells["ci_hi"].mean(),
                "games": len(games),
                "games_won": won.mean,
                "games_ci_lo": won.lo,
                "games_ci_hi": won.hi,
                "agree": bool(max(cells["ci_lo"].mean(), won.lo) <= min(cells["ci_hi"].mean(), won.hi)),
            }
        )
    return rows


def equity_section(args, tmp: Path) -> list[str]:
    """The equity table of every game in GAMES under one policy, its 0-0 cells and its check against games."""
    out_dir = args.out / "equity"
    out_dir.mkdir(parents=True, exist_ok=True)
    starts, checks = [], []
    for rules in GAMES:
        run = self_play_rounds(args, rules, args.equity_deals, tmp / f"{_name(rules)}-rounds")
        report = tmp / f"{_name(rules)}-equity"
        table, _ = write_equity(run.path, report, seed=args.seed)
        target = out_dir / _name(rules)
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        for f in KEEP:
            shutil.copy(report / f, target / f)
        zero = table[(table["player_score"] == 0) & (table["opponent_score"] == 0)].set_index("player_deals")
        starts.append({"rules": rules, **{k: zero.loc[False, k] for k in ("win_chance", "ci_lo", "ci_hi")}})
        checks += _checks(args, rules, table, tmp)
        print(f"equity {rules}: done", flush=True)
    checked = pd.DataFrame(checks)
    checked.to_csv(out_dir / "checked_against_games.csv", index=False)
    return _lines(args, pd.DataFrame(starts), checked)


def _pct(mean: float, lo: float, hi: float) -> str:
    return f"{mean:.1%} [{lo:.1%}, {hi:.1%}]"


def _lines(args, starts: pd.DataFrame, checked: pd.DataFrame) -> list[str]:
    policy = args.equity_policy
    out = [
        f"## The game's equity table ({policy} against itself, {args.equity_deals:,} mirrored deals a game)",
        "",
        "The chance of winning the whole game from every score, dealing the next round or not (docs/equity.md), "
        "from the rounds of a run of one policy against itself: a heatmap per game with contours at 10, 25, 50, "
        "75 and 90%, and the table with 95% bootstrap intervals (the deals resampled). Along the diagonal the "
        "scores are equal; the difference between the two panels is what the deal is worth at that score.",
        "",
        "| game | heatmap | table | from 0-0, the player who does not deal wins |",
        "| --- | --- | --- | --- |",
    ]
    for r in starts.itertuples():
        d = _name(r.rules)
        out.append(
            f"| {r.rules} | [png](equity/{d}/equity.png), [svg](equity/{d}/equity.svg) | "
            f"[csv](equity/{d}/equity.csv) | {_pct(r.win_chance, r.ci_lo, r.ci_hi)} |"
        )
    agree = int(checked["agree"].sum())
    out += [
        "",
        f"**Checked against whole games** ([checked_against_games.csv](equity/checked_against_games.csv)). "
        f"{args.equity_games:,} whole games of {policy} from each of "
        + ", ".join(f"{a}-{b}" for a, b in CHECK_SCORES)
        + " (first dealer drawn, so the table's value is the mean of its two dealer cells) against the table: "
        f"the two intervals overlap in {agree} of {len(checked)} cases.",
        "",
        "| game | start | table | games won | games |",
        "| --- | --- | --- | --- | ---: |",
    ]
    for r in checked.itertuples():
        out.append(
            f"| {r.rules} | {r.start} | {_pct(r.table, r.table_ci_lo, r.table_ci_hi)} | "
            f"{_pct(r.games_won, r.games_ci_lo, r.games_ci_hi)} | {r.games:,} |"
        )
    out.append("")
    if not np.all(checked["agree"]):
        print("equity: some checks against games disagree (see checked_against_games.csv)", flush=True)
    return out
