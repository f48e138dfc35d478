"""The findings along a strength ladder, collated from the report tables of each policy's runs (docs/findings.md).

Every number comes from the maker that reports it for a single run (reports/kinds.py, reports/cardvalue.py,
reports/equity.py), with its 95% interval; this module picks the rows, writes them as one table (findings.csv), draws
one chart per finding of its value along the ladder, and gives in verdicts.csv and findings.md each finding's verdict
between the two strongest policies (reports/verdict.py: settled only inside a margin, an equivalence test).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from casino_sim.reports.captions import add_caption, fit_label
from casino_sim.reports.cardlines import pretty_card_of
from casino_sim.reports.charts import yerr
from casino_sim.reports.equity import run_equity
from casino_sim.reports.forked import run_tasks
from casino_sim.reports.headlines import ci_text
from casino_sim.reports.kinds import MAKERS
from casino_sim.reports.load import read_manifest
from casino_sim.reports.output import atomic_write, save_figure, write_table
from casino_sim.reports.verdict import EQUITY as EQUITY_MARGIN
from casino_sim.reports.verdict import POINTS, RATE, UNDETERMINED, difference, needed_text
from casino_sim.reports.views import view_of

COLUMNS = ["finding", "table", "place", "policy", "value", "ci_lo", "ci_hi", "n"]
SEAT = {
    "2": "seat advantage, two players",
    "3": "seat advantage, three players",
    "4": "seat advantage, four players",
    "teams": "seat advantage, two teams",
}
EQUITY = {"2": "equity at 0-0, two players", "teams": "equity at 0-0, two teams"}
EACH_CARD = "value of each card"
# the anatomy's quantities (reports/anatomy.py) each finding shows, under the names the findings give them
ANATOMY = {
    "plays by kind": {"share_trail": "trail", "share_capture": "capture", "share_build": "build"},
    "builds per round": {"builds_made": "made", "builds_captured_own": "kept", "builds_lost": "lost"},
}
# the file stem of each finding's chart (the value of each card has its CSV rows only)
CHARTS = {
    **{f: f"seat_{k}" if k == "teams" else f"seat_{k}_players" for k, f in SEAT.items()},
    "sweeps per round": "sweeps",
    "plays by kind": "plays",
    "builds per round": "builds",
    "value of the 10♦": "ten_diamonds",
    "value of the 2♠": "two_spades",
    "value of the aces": "aces",
    **{f: "equity_teams" if k == "teams" else "equity_2_players" for k, f in EQUITY.items()},
}
# what each finding's value is counted in (its chart's axis)
UNITS = {
    **dict.fromkeys(SEAT.values(), "advantage, points per round"),
    SEAT["2"]: "dealer less first player, points per round",
    "sweeps per round": "a player's sweeps per round",
    "plays by kind": "share of a player's plays",
    "builds per round": "a player's builds per round",
    **dict.fromkeys(EQUITY.values(), "chance to win the game"),
}
CARD_FINDINGS = {
    "value of the 10♦": ("10♦",),
    "value of the 2♠": ("2♠",),
    "value of the aces": ("A♠", "A♥", "A♦", "A♣"),
}
# --precision's findings (docs/findings.md): each finding's 95% half-width is asked to the precision in points, or a
# RATE_SHARE-th of it for the per-round counts and shares (0.1 points, 0.02 sweeps a round)
POINT_TARGETS = (*SEAT.values(), *CARD_FINDINGS)
RATE_TARGETS = ("sweeps per round", *ANATOMY)
RATE_SHARE = 5
VERDICT_COLUMNS = ["finding", "place", "verdict", "diff", "diff_lo", "diff_hi", "margin", "policies"]
# the places as a sentence names them (findings.csv keeps the seat table's names)
PLACE_WORDS = {"team_first": "the first player's team", "team_dealer": "the dealer's team"}
CAPTION = (
    "error bars: 95% confidence intervals; every player of a run plays the same policy, and every policy the same "
    "deals; policies from weakest (left) to strongest"
)


def _row(finding: str, place: str, mean: float, lo: float, hi: float, n: int) -> dict:
    return {"finding": finding, "place": place, "value": mean, "ci_lo": lo, "ci_hi": hi, "n": int(n)}


def seat_rows(seat: pd.DataFrame, key: str) -> list[dict]:
    """The seat advantage of table `key` from its seat table: two players, the dealer's points less the first
    player's; three or four, each place's points less the mean of the other sides'; teams, each team's."""
    if key == "2":
        both = seat[seat["policy"] == "(both)"]  # one policy in both seats: its one row
        r = (both if len(both) else seat).iloc[0]
        return [_row(SEAT[key], "dealer minus first", r["diff_mean"], r["diff_ci_lo"], r["diff_ci_hi"], r["first_n"])]
    rows = seat[(seat["policy"] == "all") & (seat["side"].str.startswith("team_") == (key == "teams"))]
    return [
        _row(SEAT[key], r.side, r.advantage_mean, r.advantage_ci_lo, r.advantage_ci_hi, r.rounds)
        for r in rows.itertuples()
    ]


def play_rows(view, manifest: dict) -> list[dict]:
    """A player's sweeps per round and the anatomy's shares of plays and fates of builds (two players)."""
    sweeps = MAKERS["sweeps"](view, manifest).table
    r = sweeps[sweeps["batch"] == 0].iloc[0]  # batch 0: the whole round
    rows = [_row("sweeps per round", "a player's", r["mean"], r["ci_lo"], r["ci_hi"], r["n"])]
    anatomy = MAKERS["anatomy"](view, manifest).table.set_index("quantity")
    for finding, names in ANATOMY.items():
        for quantity, place in names.items():
            q = anatomy.loc[quantity]
            rows.append(_row(finding, place, q["mean"], q["ci_lo"], q["ci_hi"], q["n"]))
    return rows


def card_rows(values: pd.DataFrame) -> list[dict]:
    """The value of holding each card rather than an opponent, from the run's own deals (reports/dealt.py; with one
    policy in every seat the holder's and the opponent's play are alike, so the value is the card's)."""
    values = values.assign(label=values["card"].map(pretty_card_of)).set_index("label")
    cols = ["to_me_minus_to_opponent", "ci_lo", "ci_hi", "rounds"]
    rows = []
    for finding, labels in CARD_FINDINGS.items():
        rows += [_row(finding, c, *values.loc[c, cols]) for c in labels]
    return rows + [_row(EACH_CARD, c, *v[cols]) for c, v in values.iterrows()]


def equity_row(path: Path, key: str, resamples: int, n: int) -> dict:
    """The chance that the side that does not deal wins the game from 0-0, from the run's equity table
    (`casino-sim equity RUN` draws the whole table)."""
    table = run_equity(path, resamples)[0]
    r = table[(table["player_score"] == 0) & (table["opponent_score"] == 0) & ~table["player_deals"]].iloc[0]
    return _row(EQUITY[key], "the non-dealer's side", r["win_chance"], r["ci_lo"], r["ci_hi"], n)


def run_rows(path: Path, key: str, resamples: int | None) -> list[dict]:
    """Every finding of one run (the policy in every seat at table `key`); `resamples` None leaves the equity out
    (its bootstrap is the dear part, and no precision is asked of it)."""
    manifest = read_manifest(path)
    view = view_of(path)
    rows = seat_rows(MAKERS["seat"](view, manifest).table, key)
    if key == "2":
        rows += play_rows(view, manifest)
        rows += card_rows(MAKERS["card-value"](view, manifest).table)
    if key in EQUITY and resamples is not None:
        rows.append(equity_row(path, key, resamples, rows[0]["n"]))
    return rows


def target(finding: str, precision: float) -> float | None:
    """The 95% half-width --precision asks of `finding`: the precision for points, a RATE_SHARE-th of it for a
    per-round count or share; None for a finding it asks nothing of (each card beyond the scoring ones, equity)."""
    if finding in POINT_TARGETS:
        return precision
    return precision / RATE_SHARE if finding in RATE_TARGETS else None


def shortfall(rows, precision: float) -> float:
    """How many times its samples the least precise targeted finding of `rows` (findings rows: finding, ci_lo, ci_hi)
    needs to reach its target, (half-width / target) squared: at most 1 when every one is met; inf for a finding
    with no interval yet."""
    worst = 0.0
    for r in rows:
        want = target(r["finding"], precision)
        if want is None:
            continue
        half = (r["ci_hi"] - r["ci_lo"]) / 2
        worst = max(worst, (half / want) ** 2 if np.isfinite(half) else np.inf)
    return worst


def precision_line(table: pd.DataFrame, policy: str, precision: float) -> str:
    """Whether `policy`'s findings reached --precision: every targeted half-width within its target, or those
    still wider, each with its half-width."""
    rows = table[table["policy"] == policy]
    wide = [
        f"{r['place'] if r['finding'] in CARD_FINDINGS else f'{r.finding} ({_words(r.place)})'} "
        f"±{(r['ci_hi'] - r['ci_lo']) / 2:.3f}"
        for _, r in rows.iterrows()
        if target(r["finding"], precision) is not None and shortfall([r], precision) > 1
    ]
    asked = f"±{precision:g} points a round, ±{precision / RATE_SHARE:g} for a per-round count or share"
    if not wide:
        return f"Precision under {policy}: every headline finding's 95% half-width is within {asked}."
    return f"Precision under {policy}: asked {asked}; still wider (the run's --deals cap): {'; '.join(wide)}."


def collate(runs: list[tuple[str, str, Path]], resamples: int) -> pd.DataFrame:
    """The findings table (COLUMNS) of runs given as (policy name, table key, run folder)."""
    rows = []
    for policy, key, path in runs:
        table = read_manifest(path)["config"]["rules"]
        rows += [{**r, "table": table, "policy": policy} for r in run_rows(path, key, resamples)]
    return pd.DataFrame(rows, columns=COLUMNS)


def margin_of(finding: str) -> float:
    """The finding's equivalence margin: points a round, a per-round count or share, or a chance (equity)."""
    if finding.startswith("equity"):
        return EQUITY_MARGIN
    return POINTS if finding.startswith(("seat", "value")) else RATE


def verdicts(table: pd.DataFrame, ladder: list[str]) -> pd.DataFrame:
    """verdicts.csv (VERDICT_COLUMNS): per finding and place, the stronger of the two strongest policies that have it
    less the weaker, its 95% interval, the margin and the verdict (reports/verdict.py); `ladder` is weakest first.
    A place measured under fewer than two policies is undetermined, with no difference."""
    order = {p: i for i, p in enumerate(ladder)}
    rows = []
    for (finding, place), g in table.groupby(["finding", "place"], sort=False):
        top = g.assign(rank=g["policy"].map(order)).sort_values("rank").tail(2)
        row = {"finding": finding, "place": place, "margin": margin_of(finding), "policies": ", ".join(top["policy"])}
        if len(top) < 2:
            rows.append({**row, "verdict": UNDETERMINED, "diff": np.nan, "diff_lo": np.nan, "diff_hi": np.nan})
            continue
        a, b = (tuple(float(r[c]) for c in ("value", "ci_lo", "ci_hi")) for _, r in top.iterrows())
        v = difference(a, b, row["margin"])
        rows.append({**row, "verdict": v.verdict, "diff": v.diff, "diff_lo": v.lo, "diff_hi": v.hi})
    return pd.DataFrame(rows, columns=VERDICT_COLUMNS)


def value_format(finding: str) -> str:
    """Signed where the finding is a difference (a seat's advantage, a card's value), plain for rates and chances."""
    return "+.3f" if finding.startswith(("seat", "value")) else ".3f"


def _value(r) -> str:
    return ci_text({"mean": r["value"], "ci_lo": r["ci_lo"], "ci_hi": r["ci_hi"]}, fmt=value_format(r["finding"]))


def _words(place: str) -> str:
    return PLACE_WORDS.get(place, place)


def _diff_text(v) -> str:
    interval = ci_text({"mean": v.diff, "ci_lo": v.diff_lo, "ci_hi": v.diff_hi})
    return f"difference {interval} against a margin of ±{v.margin:g}"


def sentence(finding: str, part: pd.DataFrame, verdict: pd.DataFrame, played: dict) -> str:
    """One sentence: is `finding` settled between the two strongest policies, does it move with strength, or is it
    undetermined (and about how many more deals would decide it: `played`, each run's deals by table and policy)?"""
    if (verdict["policies"].str.count(",") < 1).any():
        return f"{finding.capitalize()}: measured under fewer than two policies; nothing to compare."
    weaker, stronger = verdict["policies"].iloc[0].split(", ")
    if finding == EACH_CARD:
        count = verdict["verdict"].value_counts()
        # each verdict's count, and the cards of the rarer ones (a list of the 45 undetermined says nothing)
        said = ", ".join(
            f"{count[k]} {k}" + (f" ({', '.join(verdict[verdict['verdict'] == k]['place'])})" if count[k] < 26 else "")
            for k in count.index
        )
        return (
            f"Value of each card between {weaker} and {stronger} (a margin of ±{verdict['margin'].iloc[0]:g} "
            f"points a round): {said}."
        )
    if _alike(part, weaker, stronger):
        values = "; ".join(
            f"{_words(p) + ' ' if len(verdict) > 1 else ''}{_value(b)}" for p, (_, b) in _pairs(part, weaker, stronger)
        )
        return (
            f"{finding.capitalize()}: {weaker} and {stronger} play alike here, so the ladder's top step cannot say "
            f"whether it has settled; {values}."
        )
    runs = {played.get((t, p)) for t in set(part["table"]) for p in (weaker, stronger)}
    deals = runs.pop() if len(runs) == 1 else None  # runs of unequal deals: say how many times each run's
    parts = []
    values = dict(_pairs(part, weaker, stronger))
    for v in verdict.itertuples():
        a, b = values[v.place]
        where = f"{_words(v.place)}: " if len(verdict) > 1 else ""
        parts.append(
            f"{where}{v.verdict}, {_value(a)} under {weaker}, {_value(b)} under {stronger} ({_diff_text(v)})"
            + needed_text(difference_of(v), deals)
        )
    return f"{finding.capitalize()}: " + "; ".join(parts) + "."


def difference_of(v):
    """A verdicts.csv row as reports/verdict.py's Verdict."""
    from casino_sim.reports.verdict import Verdict

    return Verdict(v.diff, v.diff_lo, v.diff_hi, v.margin)


def _alike(part: pd.DataFrame, weaker: str, stronger: str) -> bool:
    """Whether two policies gave the same numbers everywhere (a searcher with 3 or 4 players is a rollout)."""
    cols = ["value", "ci_lo", "ci_hi"]
    return all(a[cols].equals(b[cols]) for _, (a, b) in _pairs(part, weaker, stronger))


def _pairs(part: pd.DataFrame, weaker: str, stronger: str):
    for place, g in part.groupby("place", sort=False):
        by = g.set_index("policy")
        if weaker in by.index and stronger in by.index:
            yield place, (by.loc[weaker], by.loc[stronger])


def sentences(table: pd.DataFrame, ladder: list[str]) -> list[str]:
    """One sentence per finding, in the table's order."""
    said, played = verdicts(table, ladder), deals_played(table)
    return [
        sentence(finding, part, said[said["finding"] == finding], played)
        for finding, part in table.groupby("finding", sort=False)
    ]


def deals_played(table: pd.DataFrame) -> dict[tuple[str, str], int]:
    """The deals each run played, by (table, policy): its seat advantage's samples, one a deal. Not --deals, the
    cap: a run stops at --until-ci, and --precision carries the strongest on past the others."""
    seat = table[table["finding"].str.startswith("seat advantage")]
    return {(r.table, r.policy): int(r.n) for r in seat.itertuples()}


def finding_chart(part: pd.DataFrame, ladder: list[str], finding: str, about: str = "") -> Figure:
    """The value of one finding along the ladder, weakest policy on the left, a series per place with its bars;
    `about` (the rules, deals and seed of the runs) opens the caption."""
    fig = Figure(figsize=(7.0, 4.2), layout="constrained")
    ax = fig.subplots()
    places = list(dict.fromkeys(part["place"]))
    x = np.arange(len(ladder))
    for i, place in enumerate(places):
        g = part[part["place"] == place].set_index("policy").reindex(ladder).reset_index()
        shift = (i - (len(places) - 1) / 2) * 0.08
        ax.errorbar(x + shift, g["value"], yerr=yerr(g, mean="value"), marker="o", capsize=4, label=place)
    if value_format(finding).startswith("+"):  # a difference: where nothing moves it
        ax.axhline(0, color="0.6", linewidth=0.8)
    ax.set_xticks(x, [fit_label(p) for p in ladder])
    ax.set_xlabel("policy in every seat, weakest to strongest")
    ax.set_ylabel(UNITS.get(finding, "value, points per deal"), fontsize=9)
    ax.set_title(finding)
    if len(places) > 1:
        ax.legend(fontsize=8)
    return add_caption(fig, f"{about}; {CAPTION}" if about else CAPTION)


def markdown(table: pd.DataFrame, ladder: list[str], precision: float | None = None, rungs: int = 1) -> str:
    """findings.md: the sentences, the table of every finding but each card's (findings.csv has those), the charts;
    with `precision` (--precision), whether the `rungs` strongest policies' findings reached it."""
    shown = _along_ladder(table[table["finding"] != EACH_CARD], ladder)
    lines = [
        "# Findings along the strength ladder",
        "",
        f"Policies from weakest to strongest: {', '.join(ladder)}. Every player of a run plays the same policy, and "
        "every policy plays the same deals. Between the two strongest policies a finding is settled only when the "
        "95% interval of their difference lies inside a margin (±0.1 points a round, ±0.01 for a per-round count or "
        "share, ±0.5 percentage points of equity), moves with strength when it excludes 0, and is otherwise "
        "undetermined (verdicts.csv; docs/findings.md).",
        "",
        *(f"- {s}" for s in sentences(table, ladder)),
        *([] if precision is None else ["", *(precision_line(table, p, precision) for p in ladder[-rungs:])]),
        "",
        "| finding | table | place | policy | value, 95% interval | n |",
        "| --- | --- | --- | --- | --- | ---: |",
        *(
            f"| {r['finding']} | {r['table']} | {r['place']} | {r['policy']} | {_value(r)} | {r['n']:,} |"
            for _, r in shown.iterrows()
        ),
        "",
        "Every card's value is in [findings.csv](findings.csv). Charts: "
        + ", ".join(f"[{f}]({CHARTS[f]}.png)" for f in dict.fromkeys(shown["finding"]) if f in CHARTS)
        + ".",
        "",
    ]
    return "\n".join(lines)


def _along_ladder(table: pd.DataFrame, ladder: list[str]) -> pd.DataFrame:
    """The rows by finding and place (in the order they came), each place's policies weakest first."""
    keys = [table[c].map({v: i for i, v in enumerate(dict.fromkeys(table[c]))}) for c in ("finding", "place")]
    rank = table["policy"].map({p: i for i, p in enumerate(ladder)})
    return table.assign(_f=keys[0], _p=keys[1], _r=rank).sort_values(["_f", "_p", "_r"], kind="stable")


def write_findings(
    table: pd.DataFrame,
    ladder: list[str],
    out: Path,
    about: str = "",
    precision: float | None = None,
    rungs: int = 1,
) -> pd.DataFrame:
    """findings.csv (and .json), verdicts.csv (and .json), findings.md and one chart per finding (PNG and SVG,
    `about` in each caption) into `out`; returns the table. `precision`: --precision's, said of the `rungs`
    strongest policies."""
    out = Path(out)
    write_table(table, out, "findings")
    write_table(verdicts(table, ladder), out, "verdicts")
    atomic_write(out / "findings.md", markdown(table, ladder, precision, rungs).encode())
    draw = {
        CHARTS[finding]: partial(_save_chart, part, ladder, finding, out, about)
        for finding, part in table.groupby("finding", sort=False)
        if finding in CHARTS
    }
    run_tasks(draw, in_child=tuple(draw)[::2])  # drawing is most of the time: every other chart on a second core
    return table


def _save_chart(part: pd.DataFrame, ladder: list[str], finding: str, out: Path, about: str) -> None:
    save_figure(finding_chart(part, ladder, finding, about), out, CHARTS[finding])
