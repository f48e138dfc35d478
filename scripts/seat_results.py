"""results/seats/: the seat advantage with 2, 3 and 4 players and what a partnership is worth (issue 14).

Imported by standard_results.py, which runs it with the rest (or alone: `--only seats`). Every run is a
`casino-sim simulate` of expert against expert (each deal played in every seating, so every place is expert's)
or, for the partnerships, of four-player brazilian teams seated with `--seats`; only the small tables and the
seat charts are kept.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pandas as pd

from casino_sim.api.policies import loader
from casino_sim.experiments.simulate import SimConfig, play_run
from casino_sim.reports.index import write_all
from casino_sim.reports.separation import ahead
from casino_sim.reports.stats import mean_ci
from casino_sim.reports.tables import a_rounds
from casino_sim.reports.verdict import POINTS
from casino_sim.reports.verdict import Verdict as Difference
from casino_sim.reports.views import view_of
from casino_sim.runner.rundir import RunDir

SEAT_RULES = ("brazilian", "italian")
PLAYERS = (2, 3, 4)
# brazilian:players=4 plays partnerships, players 0 and 2 against 1 and 3: (--seats, A's team, the other team)
PARTNERSHIPS = (
    ("expert,greedy,expert,greedy", "expert+expert", "greedy+greedy"),
    ("expert,greedy,greedy,greedy", "expert+greedy", "greedy+greedy"),
    ("expert,expert,expert,greedy", "expert+expert", "expert+greedy"),
)
KEEP = ("seat_advantage.csv", "seat_advantage.png", "seat_advantage.svg", "summary.csv", "report.md")


def _simulate(config: SimConfig, tmp: Path, target: Path | None) -> tuple[Path, dict]:
    """Play one run as `casino-sim simulate` would, its reports into tmp (KEEP copied to `target`)."""
    name = f"{config.rules}-{config.seats or config.policy_a + '-vs-' + config.policy_b}".replace(":", "-")
    run = RunDir(tmp / name.replace(",", "-"))
    play_run(config, run, [sys.executable, *sys.argv])
    report = run.path / "report-all"
    results = write_all(run.path, report)
    if target is not None:
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        for f in KEEP:
            shutil.copy(report / f, target / f)
    return run.path, results


def _place_rows(rules: str, players: int, seat: pd.DataFrame) -> list[dict]:
    """Each place's points and advantage (its points less the mean of the other sides') from a seat table."""
    base = {"rules": rules, "players": players}
    if players == 2:  # the two-player table: dealer and first player, and dealer minus first
        both = seat[seat["policy"] == "(both)"]  # both policies pooled; expert against expert has one row
        r = (both if len(both) else seat).iloc[0]
        d, lo, hi = r["diff_mean"], r["diff_ci_lo"], r["diff_ci_hi"]
        return [
            {**base, "place": "first", "points": r["first_mean"], "advantage": -d, "ci_lo": -hi, "ci_hi": -lo},
            {**base, "place": "dealer", "points": r["dealer_mean"], "advantage": d, "ci_lo": lo, "ci_hi": hi},
        ]
    rows = seat[seat["policy"] == "all"]
    return [
        {
            **base,
            "place": r["side"],
            "points": r["points_mean"],
            "advantage": r["advantage_mean"],
            "ci_lo": r["advantage_ci_lo"],
            "ci_hi": r["advantage_ci_hi"],
        }
        for _, r in rows.iterrows()
    ]


def _fmt(mean: float, lo: float, hi: float) -> str:
    return f"{mean:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def seat_section(args, tmp: Path) -> list[str]:
    """The seat advantage of every place with 2, 3 and 4 players (expert everywhere) and the partnerships."""
    out_dir = args.out / "seats"
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for rules in SEAT_RULES:
        for n in PLAYERS:
            name = rules if n == 2 else f"{rules}:players={n}"
            config = SimConfig(
                deals=args.seat_deals, policy_a="expert", policy_b="expert", rules=name, seed=args.seed
            ).resolve(loader())
            _, results = _simulate(replace_cards(config), tmp, out_dir / name.replace(":", "-"))
            rows += _place_rows(name, n, results["seat"])
            print(f"seats {name}: done", flush=True)
    seats = pd.DataFrame(rows)
    seats.to_csv(out_dir / "seat_advantage.csv", index=False)
    partners = partnership_table(args, tmp)
    partners.to_csv(out_dir / "partnerships.csv", index=False)
    return _seat_lines(args, seats) + _partner_lines(args, partners)


def replace_cards(config: SimConfig) -> SimConfig:
    """No card values in these runs (results/card-values-* has them)."""
    return replace(config, card_deals=0)


def _deal_margins(path: Path) -> pd.Series:
    """A's team's margin per deal of a run (the mean over its seatings), indexed by deal."""
    sides = view_of(path).sides
    on_a = a_rounds(sides)
    return pd.Series(sides.column("margin", on_a)).groupby(sides.column("deal_id", on_a)).mean()


def partnership_table(args, tmp: Path) -> pd.DataFrame:
    """Each team pairing's margin per deal (A's team less the other, over both seatings), and the synergy: how
    much more two experts together gain over two greedy players than the two steps of one expert each, on the
    same deals: (EE - GG) - (EG - GG) - (EE - EG)."""
    margins, rows = [], []
    for seats, a, b in PARTNERSHIPS:
        config = replace_cards(
            SimConfig(deals=args.seat_deals, seats=seats, rules="brazilian:players=4", seed=args.seed).resolve(loader())
        )
        path, _ = _simulate(config, tmp, None)
        m = _deal_margins(path)
        margins.append(m)
        est = mean_ci(m.to_numpy())
        rows.append({"team": a, "vs": b, "deals": len(m), "mean": est.mean, "ci_lo": est.lo, "ci_hi": est.hi})
    both = pd.concat(margins, axis=1, join="inner").to_numpy()  # the deals all three runs scored
    synergy = mean_ci(both[:, 0] - both[:, 1] - both[:, 2])
    rows.append(
        {
            "team": "synergy",
            "vs": "(EE-GG) - (EG-GG) - (EE-EG)",
            "deals": len(both),
            "mean": synergy.mean,
            "ci_lo": synergy.lo,
            "ci_hi": synergy.hi,
        }
    )
    return pd.DataFrame(rows)


def _seat_lines(args, seats: pd.DataFrame) -> list[str]:
    out = [
        f"## Three and four players: the seat advantage (expert everywhere, {args.seat_deals:,} deals each)",
        "",
        "Each deal is played once in every seating, so every place is played by expert on the same cards; a "
        "place's advantage is its points per round less the mean of the other sides' (with brazilian's four, "
        "the sides are the two teams: the first and third places against the second and the dealer; the place "
        "rows are each player's own pile, its team's prizes apart). Table "
        "[seats/seat_advantage.csv](seats/seat_advantage.csv); each run's seat chart and report are in "
        "[seats/](seats/).",
        "",
        "| rules | players | place | points per round | advantage, 95% interval |",
        "| --- | ---: | --- | ---: | --- |",
    ]
    for r in seats.itertuples():
        out.append(f"| {r.rules} | {r.players} | {r.place} | {r.points:.2f} | {_fmt(r.advantage, r.ci_lo, r.ci_hi)} |")
    out += [
        "",
        "The best place in each game, named only where its advantage less every other place's has its 95% interval "
        "above 0 (the half-widths added, not in quadrature: the places' advantages share every deal and sum to "
        "zero, and the sum bounds their difference's spread whatever the correlation): "
        + "; ".join(best_place(rules, g, args.seat_deals) for rules, g in seats.groupby("rules", sort=False))
        + ".",
        "",
    ]
    return out


def best_place(rules: str, places: pd.DataFrame, deals: int) -> str:
    """`rules`: the place of highest advantage when its lead over every other place clears 0, else why none (the
    team rows of a partnership game are sides, not places: left out)."""
    places = places[~places["place"].str.startswith("team_")]
    top = places.loc[places["advantage"].idxmax()]
    half = (top.ci_hi - top.ci_lo) / 2
    tests = [
        Difference(d, d - half - (r.ci_hi - r.ci_lo) / 2, d + half + (r.ci_hi - r.ci_lo) / 2, POINTS)
        for r in places.itertuples()
        if r.place != top.place
        for d in [top.advantage - r.advantage]
    ]
    verdict = ahead(top.place, tests, deals)
    if verdict.leader:
        return f"{rules}, {top.place} {_fmt(top.advantage, top.ci_lo, top.ci_hi)}"
    return f"{rules}, {verdict.no_leader('name the best place', 'deals', 'the top places')}"


def _partner_lines(args, partners: pd.DataFrame) -> list[str]:
    out = [
        f"## What a partnership is worth (brazilian, four players as two teams, {args.seat_deals:,} deals each)",
        "",
        "Teams seated with `--seats` (players 0 and 2 against 1 and 3), each deal played twice with the teams "
        "swapped; the margin is A's team's points per round less the other team's. The synergy compares two "
        "experts together with the two steps of adding one expert at a time, on the same deals: zero if an "
        "expert is worth the same whoever the partner is. Table [seats/partnerships.csv](seats/partnerships.csv).",
        "",
        "| team | vs | deals | margin per round, 95% interval |",
        "| --- | --- | ---: | --- |",
    ]
    for r in partners.itertuples():
        out.append(f"| {r.team} | {r.vs} | {r.deals:,} | {_fmt(r.mean, r.ci_lo, r.ci_hi)} |")
    s = partners.iloc[-1]
    word = "more" if s["ci_lo"] > 0 else "less" if s["ci_hi"] < 0 else "neither more nor less (the interval holds 0)"
    out += [
        "",
        f"Two experts together gain {word} than the sum of their single steps: "
        f"{_fmt(s['mean'], s['ci_lo'], s['ci_hi'])}.",
        "",
    ]
    return out
