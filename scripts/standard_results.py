#!/usr/bin/env python3
"""Regenerate results/: the standard experiment's summaries and charts, from a fixed seed (issue 5).

One command makes everything in results/: the ladder, the knockouts of expert
and tuned and the regret table, four matchups (greedy vs
random; expert vs greedy under each rule set) with every round report, the
value of each card (paired deals, a 52-card heatmap), and a tournament of the
heuristic policies over whole games. Run folders with Parquet records stay in a
temporary folder (out of git); only reports (CSV/JSON tables, PNG/SVG charts,
markdown) are copied. results/README.md explains each chart in two sentences
with its headline numbers.

    python scripts/standard_results.py [--deals 50000] [--seed 2026] [--out results] [--quick] [--only seats]

`--only seats` regenerates just the three- and four-player sections (results/seats/ and their part of
results/README.md), for when only they changed; `--only equity` the equity tables (results/equity/), `--only
findings` the findings along the strength ladder (results/findings/), `--only frontier` strength for cost
(results/frontier/; `--only frontier-costs` times the policies again around the round robin already there),
`--only objective` playing for the game against playing for the round (results/objective/), `--only convergence`
the findings along the searcher by compute (results/findings/convergence/; hours, so never part of the whole run),
`--only ismcts` OpenSpiel's IS-MCTS against expert, tuned and the searcher (results/openspiel/).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pandas as pd  # noqa: E402
from equity_results import equity_section  # noqa: E402
from findings_convergence import convergence_section  # noqa: E402
from findings_results import findings_section  # noqa: E402
from frontier_results import frontier_costs_section, frontier_section, play_tournament  # noqa: E402
from ismcts_results import ismcts_section  # noqa: E402
from ladder import run_ladder  # noqa: E402
from objective_results import objective_section  # noqa: E402
from seat_results import seat_section  # noqa: E402

from casino_sim.api.policies import loader  # noqa: E402
from casino_sim.experiments.card_value import card_values  # noqa: E402
from casino_sim.experiments.simulate import SimConfig, play_run  # noqa: E402
from casino_sim.reports.cardlines import card_verdict  # noqa: E402
from casino_sim.reports.cardvalue import TEN_DIAMONDS, card_label  # noqa: E402
from casino_sim.reports.headlines import SEAT_SECTIONS  # noqa: E402
from casino_sim.reports.index import write_all  # noqa: E402
from casino_sim.reports.kinds import card_swap  # noqa: E402
from casino_sim.reports.separation import beats  # noqa: E402
from casino_sim.reports.skills import knockout_verdict  # noqa: E402
from casino_sim.reports.tournament import WIN_TEST, strongest  # noqa: E402
from casino_sim.reports.verdict import RATE  # noqa: E402
from casino_sim.runner.rundir import RunDir  # noqa: E402

FINDINGS_LADDER = "random,greedy,expert,tuned,endgame,searcher"
MATCHUPS = [
    ("greedy", "random", "strict"),
    ("expert", "greedy", "strict"),
    ("expert", "greedy", "brazilian"),
    ("expert", "greedy", "italian"),
]
TOURNAMENT = ("random", "greedy", "builder", "defensive", "hold-casinos", "expert")
KNOCKOUTS = ("expert", "tuned")
REGRET = ("random", "greedy", "expert", "tuned", "rollout", "searcher")


def _clear_wins(ladder: pd.DataFrame) -> str:
    """Whether every rung is a clear win (its interval's lower end above zero), naming any that is not."""
    bounds = ", ".join(f"{x:+.2f}" for x in ladder["ci_lo"])
    weak = ladder[~ladder["clear_win"]]
    if weak.empty:
        return f"Each rung is a clear win: the lower bounds are {bounds}."
    names = ", ".join(f"{r.policy} vs {r.vs} ({r.rules})" for r in weak.itertuples())
    return f"Not a clear win (the interval reaches zero): {names}. The lower bounds are {bounds}."


def _sentence(lines: list[str]) -> str:
    return " ".join(line.removeprefix("- ").rstrip(".") + "." for line in lines)


def matchups(args, tmp: Path) -> list[str]:
    """Simulate each matchup and copy its reports; the README lines for them."""
    out = []
    for a, b, rules in MATCHUPS:
        name = f"{a}-vs-{b}-{rules}"
        config = SimConfig(deals=args.deals, policy_a=a, policy_b=b, rules=rules, seed=args.seed, card_deals=0).resolve(
            loader()
        )  # the card values have their own, larger experiment below
        run = RunDir(tmp / name)
        play_run(config, run, [sys.executable, *sys.argv])
        target = args.out / name
        shutil.rmtree(target, ignore_errors=True)
        results = write_all(run.path, target)
        s = results["summary"].iloc[0]
        print(f"{name}: {s['diff_mean']:+.3f} [{s['diff_ci_lo']:+.3f}, {s['diff_ci_hi']:+.3f}]", flush=True)
        out += [
            f"## {a} vs {b} ({rules} rules, {args.deals:,} mirrored deals)",
            "",
            f"All charts and tables: [{name}/report.md]({name}/report.md).",
            "",
        ]
        for kind, title, chart, what, headline in SEAT_SECTIONS:
            if kind not in results:  # the games and the card values: not played in these runs
                continue
            out += [
                f"**{title}** ([{chart}.png]({name}/{chart}.png), [svg]({name}/{chart}.svg)). {what} "
                f"{_sentence(headline(results[kind]))}",
                "",
            ]
    return out


def card_values_section(args) -> list[str]:
    """The 52-card heatmap and the 10♦ by batch, from paired deals with expert in both seats."""
    target = args.out / "card-values-expert-strict"
    shutil.rmtree(target, ignore_errors=True)
    values = card_swap(card_values(loader()("expert"), args.card_deals, "strict", args.seed), target)
    opp = values[values["variant"] == "opponent"].sort_values("mean", ascending=False)
    ten = opp[opp["card"] == TEN_DIAMONDS].iloc[0]
    top = ", ".join(f"{card_label(int(r.card))} {r.mean:+.2f}" for r in opp.head(5).itertuples())
    low = opp.iloc[-1]
    ranked = card_verdict(opp)  # a most valuable card only where the test of its lead says so
    print(f"card values: 10♦ {ten['mean']:+.2f} [{ten['ci_lo']:+.2f}, {ten['ci_hi']:+.2f}]", flush=True)
    d = target.name
    return [
        f"## The value of each card (expert vs expert, strict rules, {args.card_deals:,} deals)",
        "",
        f"**Card-swap heatmap** ([card_swap_heatmap.png]({d}/card_swap_heatmap.png), "
        f"[svg]({d}/card_swap_heatmap.svg); table [card_swaps.csv]({d}/card_swaps.csv)). Each deal is "
        "replayed with one card swapped into the opponent's hand (top panel) or into the stock (bottom panel), "
        "so the cell is what holding that card is worth in points per deal, with its 95% interval. "
        f"Swapped with the opponent, the 10♦ is worth {ten['mean']:+.2f} [{ten['ci_lo']:+.2f}, "
        f"{ten['ci_hi']:+.2f}] points; the highest means are {top}, the lowest "
        f"{card_label(int(low['card']))} {low['mean']:+.2f}; {ranked}.",
        "",
        f"**The 10♦ by batch** ([ten_diamonds_swaps_by_batch.png]({d}/ten_diamonds_swaps_by_batch.png), "
        f"[svg]({d}/ten_diamonds_swaps_by_batch.svg)). The value of holding the 10♦ by the batch (1–6) in which it "
        f"is dealt, for both kinds of swap. Swapped with the opponent, its value dealt in batch 1 is "
        f"{_batch(target, 1)} and in batch 6 {_batch(target, 6)} (card_swaps_by_batch.csv has every figure).",
        "",
    ]


def _batch(folder: Path, batch: int) -> str:
    """The 10♦'s value when dealt in `batch` (opponent swap), with its interval, as text; a few swapped deals may
    never deal it in that batch, which says so."""
    t = pd.read_csv(folder / "card_swaps_by_batch.csv")
    rows = t[(t["card"] == TEN_DIAMONDS) & (t["variant"] == "opponent") & (t["batch"] == batch)]
    if rows.empty:
        return "unmeasured (no swapped deal dealt it then)"
    r = rows.iloc[0]
    return f"{r['mean']:+.2f} [{r['ci_lo']:+.2f}, {r['ci_hi']:+.2f}]"


def decided_pairings(matches: pd.DataFrame) -> str:
    """How many pairings name a stronger side by their own test (a win rate's interval clear of 50%), each pairing
    once (matches holds it from both sides)."""
    pairs = matches[matches["policy"] < matches["opponent"]]
    decided = sum(
        beats(r.policy, r.opponent, r.win_rate_mean, r.win_rate_ci_lo, r.win_rate_ci_hi, r.games, RATE, 0.5).leader
        is not None
        for r in pairs.itertuples()
    )
    return f"{decided} of {len(pairs)} pairings name the stronger side ({WIN_TEST}; tournament.md says which)."


def tournament_section(args, tmp: Path) -> list[str]:
    """A round-robin of the heuristic policies over mirrored whole games."""
    tables = play_tournament(TOURNAMENT, args.games, args.seed, tmp / "tournament", args.out / "tournament")
    r, matches = tables["ratings"], tables["matches"]
    best, worst = r.iloc[0], r.iloc[-1]
    said = strongest(matches, r)  # the pairings' own tests, not the ratings' order
    print(f"tournament: {said}", flush=True)
    return [
        f"## Tournament ({len(TOURNAMENT)} policies, {args.games:,} mirrored pairs of whole games per pairing, "
        "strict rules)",
        "",
        "**Win-rate and margin matrices with ratings** ([tournament.png](tournament/tournament.png), "
        "[svg](tournament/tournament.svg); [tournament.md](tournament/tournament.md)). Each cell is the share "
        "of whole games the row policy wins against the column policy, and its final points margin, with 95% "
        "intervals; the ratings are a Bradley-Terry fit on the Elo scale with bootstrap intervals. "
        f"{said} {decided_pairings(matches)} The highest rating is {best['policy']}'s, "
        f"{best['elo']:.0f} [{best['elo_ci_lo']:.0f}, {best['elo_ci_hi']:.0f}], winning {best['win_rate']:.1%} "
        f"of its games; the lowest {worst['policy']}'s, {worst['elo']:.0f}.",
        "",
    ]


def _casino_sim(*args: str) -> None:
    """Run one casino-sim command as a user would (its tables and charts are the results)."""
    subprocess.run([sys.executable, "-m", "casino_sim", *args], check=True)


def _ci(r, prefix: str, fmt: str = "+.3f") -> str:
    return f"{r[prefix + 'mean']:{fmt}} [{r[prefix + 'ci_lo']:{fmt}}, {r[prefix + 'ci_hi']:{fmt}}]"


def skills_section(args) -> list[str]:
    """What each skill of expert and tuned is worth (knockout), and how far each policy is from best play (regret)."""
    out = ["## What each skill is worth, and how far from best play (strict rules)", ""]
    for policy in KNOCKOUTS:
        target = args.out / f"knockout-{policy}"
        _casino_sim(
            "knockout",
            policy,
            "--deals",
            str(args.knockout_deals),
            "--seed",
            str(args.seed),
            "--out",
            str(target),
            "--force",
        )
        t = pd.read_csv(target / "knockout.csv", dtype={"given_out": str}).fillna({"given_out": ""})  # none out
        played = t[t["deals"] > 0]
        top, low = played.iloc[0], played.iloc[-1]
        out += [
            f"**Knockout of {policy}** ([knockout.png]({target.name}/knockout.png), "
            f"[svg]({target.name}/knockout.svg), [table]({target.name}/knockout.csv)). {policy} against itself "
            "with one feature's weight set to zero, on the same mirrored deals for every feature: what that "
            f"feature is worth in points per deal. The highest mean is {top['feature']}'s "
            f"{_ci(top, 'worth_')}, the lowest {low['feature']}'s {_ci(low, 'worth_')}. {knockout_verdict(t)}",
            "",
        ]
    target = args.out / "regret"
    sizes = ["--decisions", str(args.regret_decisions)] if args.regret_decisions else []  # else each kind's default
    _casino_sim("regret", *REGRET, *sizes, "--seed", str(args.seed), "--out", str(target), "--force")
    t = pd.read_csv(target / "regret.csv")
    lines = ", ".join(
        f"{r['policy']} {_ci(r, 'best_', '.1%')} best, {_ci(r, 'lost_per_round_', '.2f')} points lost a round"
        for _, r in t.iterrows()
    )
    out += [
        "**Regret** ([regret.png](regret/regret.png), [svg](regret/regret.svg), [table](regret/regret.csv)). "
        "Every last-batch decision of each policy (every card is known then, so the exact solver is the truth), "
        f"in its own seeded rounds: the share of best moves and the points lost against best play. {lines}.",
        "",
    ]
    return out


def splice_section(old: list[str], lines: list[str]) -> list[str]:
    """results/README.md with its sections from lines' first heading up to the next heading not in `lines`
    replaced by `lines` (inserted before the card values when absent)."""

    def key(line: str) -> str:  # a heading without its sizes: "## Title (... deals)"
        return line.split(" (")[0] if line.startswith("## ") else ""

    heads = {key(x) for x in lines} - {""}
    starts = [i for i, x in enumerate(old) if key(x) in heads]
    if not starts:
        at = next(i for i, x in enumerate(old) if x.startswith("## The value of each card"))
        return old[:at] + lines + old[at:]
    end = next(
        (i for i in range(starts[0] + 1, len(old)) if old[i].startswith("## ") and old[i] not in heads), len(old)
    )
    return old[: starts[0]] + lines + old[end:]


# --only's sections: each plays its part, writes its folder of results/ and returns its lines of results/README.md
SECTIONS = {
    "seats": seat_section,
    "equity": equity_section,
    "findings": findings_section,
    "convergence": convergence_section,  # hours at its defaults: only with --only convergence
    "frontier": frontier_section,
    "frontier-costs": frontier_costs_section,
    "objective": objective_section,
    "ismcts": ismcts_section,
}


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50_000, help="mirrored deals per matchup")
    ap.add_argument("--card-deals", type=int, default=2_000, help="deals for the card values")
    ap.add_argument("--games", type=int, default=2_000, help="mirrored pairs of games per tournament pairing")
    ap.add_argument("--ladder-deals", type=int, default=20_000)
    ap.add_argument("--search-deals", type=int, default=2_000, help="mirrored deals for rungs of rollout or searcher")
    ap.add_argument("--knockout-deals", type=int, default=20_000, help="most mirrored deals per knocked-out feature")
    ap.add_argument("--regret-decisions", type=int, default=None, help="decisions per policy (default: regret's own)")
    ap.add_argument("--seat-deals", type=int, default=50_000, help="deals per three- and four-player run")
    ap.add_argument("--equity-policy", default="tuned", help="the policy whose rounds make the equity tables")
    ap.add_argument("--equity-deals", type=int, default=100_000, help="mirrored deals per equity table")
    ap.add_argument("--equity-games", type=int, default=4_000, help="whole games per score the tables are checked from")
    ap.add_argument("--findings-deals", type=int, default=70_000, help="the most deals of a findings run")
    ap.add_argument(
        "--findings-precision", type=float, default=0.1, help="half-width the strongest findings reach (0: off)"
    )
    # rollout is off the frontier (results/frontier/: the searcher costs less and beats it), and its runs to the
    # precision below would cost about what the searcher's do: the standard ladder goes from endgame to the searcher
    ap.add_argument("--findings-policies", default=FINDINGS_LADDER, help="the findings' ladder, weakest first")
    ap.add_argument("--findings-precise-rungs", type=int, default=2, help="rungs carried to --findings-precision")
    ap.add_argument("--findings-runs", type=Path, default=None, help="keep (or finish) the findings' runs here")
    ap.add_argument("--convergence-multiples", type=_ints, default=[1, 4, 16], help="the searcher's worlds times")
    ap.add_argument("--convergence-deals", type=int, default=30_000, help="the most deals a rung plays")
    ap.add_argument("--convergence-pair-deals", type=int, default=6_000, help="mirrored deals a rung against the next")
    ap.add_argument("--convergence-precision", type=float, default=0.1, help="half-width every rung reaches")
    ap.add_argument("--convergence-threads", type=int, default=0, help="threads of the convergence runs (0: all)")
    ap.add_argument("--convergence-runs", type=Path, default=None, help="keep (or finish) the convergence runs here")
    ap.add_argument("--frontier-games", type=int, default=200, help="mirrored pairs of games per frontier pairing")
    ap.add_argument("--bench-deals", type=int, default=20_000, help="rounds timed per heuristic (searching: / 1000)")
    ap.add_argument("--objective-pairs", type=int, default=1_000, help="mirrored pairs of games, game against round")
    ap.add_argument("--objective-table-deals", type=int, default=20_000, help="deals of the objective's equity table")
    ap.add_argument(
        "--only",
        choices=("all", *SECTIONS),
        default="all",
        help=f"{', '.join(SECTIONS)}: only that section",
    )
    ap.add_argument("--ismcts-simulations", type=_ints, default=[10, 30, 100], help="IS-MCTS budgets, e.g. 10,30,100")
    ap.add_argument("--ismcts-deals", type=_ints, default=[20, 8, 4], help="mirrored deals a cell, one per budget")
    ap.add_argument("--ismcts-workers", type=int, default=1, help="processes playing the IS-MCTS cells")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=Path("results"))
    ap.add_argument("--quick", action="store_true", help="tiny sizes, to check the script (not for results/)")
    args = ap.parse_args()
    if args.quick:
        args.deals, args.card_deals, args.games, args.ladder_deals, args.search_deals = 500, 20, 50, 500, 10
        args.knockout_deals, args.regret_decisions, args.seat_deals = 1_000, 100, 200
        args.equity_deals, args.equity_games, args.findings_deals = 500, 100, 100
        args.frontier_games, args.bench_deals, args.objective_pairs, args.objective_table_deals = 4, 2_000, 2, 500
        args.ismcts_simulations, args.ismcts_deals = [2], [1]
        args.convergence_multiples, args.convergence_deals, args.convergence_pair_deals = [1, 2], 20, 4
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only != "all":
        section = SECTIONS[args.only]
        with tempfile.TemporaryDirectory(prefix="casino-standard-") as tmp:
            lines = section(args, Path(tmp))
        readme = args.out / "README.md"
        readme.write_text("\n".join(splice_section(readme.read_text().splitlines(), lines)))
        return
    ladder = run_ladder(args.ladder_deals, args.search_deals, args.seed, args.out)
    index = [
        "# Standard results",
        "",
        "Regenerate everything here with `python scripts/standard_results.py` (seed "
        f"{args.seed}). Every figure carries a 95% confidence interval; each deal is played twice with the "
        "seats swapped (mirrored), and the two rounds of a deal count as one sample.",
        "",
        "## The ladder",
        "",
        *(args.out / "ladder.md").read_text().splitlines()[2:],
        "",
        _clear_wins(ladder),
        "",
    ]
    with tempfile.TemporaryDirectory(prefix="casino-standard-") as tmp:
        index += skills_section(args)
        index += tournament_section(args, Path(tmp))
        index += seat_section(args, Path(tmp))
        index += equity_section(args, Path(tmp))
        index += findings_section(args, Path(tmp))
        index += frontier_section(args, Path(tmp))
        index += objective_section(args, Path(tmp))
        index += ismcts_section(args, Path(tmp))
        index += card_values_section(args)
        index += matchups(args, Path(tmp))
    (args.out / "README.md").write_text("\n".join(index))


if __name__ == "__main__":
    main()
