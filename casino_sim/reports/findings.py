"""The findings along a strength ladder, collated from the report tables of each policy's runs (docs/findings.md).

Every number comes from the maker that reports it for a single run (reports/kinds.py, reports/cardvalue.py,
reports/equity.py), with its 95% interval; this module picks the rows, writes them as one table (findings.csv), draws
one chart per finding of its value along the ladder, and says in findings.md which findings have settled: the two
strongest policies' intervals overlap.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from casino_sim.reports.captions import add_caption, fit_label
from casino_sim.reports.cardvalue import card_value_table
from casino_sim.reports.charts import yerr
from casino_sim.reports.equity import run_equity
from casino_sim.reports.forked import run_tasks
from casino_sim.reports.headlines import ci_text
from casino_sim.reports.kinds import MAKERS
from casino_sim.reports.load import read_cards, read_manifest
from casino_sim.reports.output import atomic_write, save_figure, write_table
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


def card_rows(cards: pd.DataFrame) -> list[dict]:
    """The value of holding each card, swapped with a card an opponent was dealt in the same batch (with one policy
    in every seat the holder's and the opponent's play are alike, so the value is the card's, not a policy's)."""
    values = card_value_table(cards)
    values = values[values["variant"].astype(str) == "opponent"].set_index("label")
    rows = []
    for finding, labels in CARD_FINDINGS.items():
        rows += [_row(finding, c, *values.loc[c, ["mean", "ci_lo", "ci_hi", "n"]]) for c in labels if c in values.index]
    return rows + [_row(EACH_CARD, c, v["mean"], v["ci_lo"], v["ci_hi"], v["n"]) for c, v in values.iterrows()]


def equity_row(path: Path, key: str, resamples: int, n: int) -> dict:
    """The chance that the side that does not deal wins the game from 0-0, from the run's equity table
    (`casino-sim equity RUN` draws the whole table)."""
    table = run_equity(path, resamples)[0]
    r = table[(table["player_score"] == 0) & (table["opponent_score"] == 0) & ~table["player_deals"]].iloc[0]
    return _row(EQUITY[key], "the non-dealer's side", r["win_chance"], r["ci_lo"], r["ci_hi"], n)


def run_rows(path: Path, key: str, resamples: int) -> list[dict]:
    """Every finding of one run (the policy in every seat at table `key`)."""
    manifest = read_manifest(path)
    view = view_of(path)
    rows = seat_rows(MAKERS["seat"](view, manifest).table, key)
    if key == "2":
        rows += play_rows(view, manifest)
        cards = read_cards(path)
        if cards is not None:
            rows += card_rows(cards)
    if key in EQUITY:
        rows.append(equity_row(path, key, resamples, rows[0]["n"]))
    return rows


def collate(runs: list[tuple[str, str, Path]], resamples: int) -> pd.DataFrame:
    """The findings table (COLUMNS) of runs given as (policy name, table key, run folder)."""
    rows = []
    for policy, key, path in runs:
        table = read_manifest(path)["config"]["rules"]
        rows += [{**r, "table": table, "policy": policy} for r in run_rows(path, key, resamples)]
    return pd.DataFrame(rows, columns=COLUMNS)


def settled(table: pd.DataFrame, ladder: list[str]) -> pd.DataFrame:
    """Per finding and place: the two strongest policies that have it (`ladder` is weakest first) and whether
    their 95% intervals overlap (an interval that is not finite settles nothing)."""
    order = {p: i for i, p in enumerate(ladder)}
    rows = []
    for (finding, place), g in table.groupby(["finding", "place"], sort=False):
        top = g.assign(rank=g["policy"].map(order)).sort_values("rank").tail(2)
        lo, hi = top["ci_lo"].to_numpy(float), top["ci_hi"].to_numpy(float)
        finite = len(top) == 2 and bool(np.isfinite([*lo, *hi]).all())
        rows.append(
            {
                "finding": finding,
                "place": place,
                "policies": list(top["policy"]),
                "settled": finite and lo.max() <= hi.min(),
            }
        )
    return pd.DataFrame(rows)


def _fmt(finding: str) -> str:
    """Signed where the finding is a difference (a seat's advantage, a card's value), plain for rates and chances."""
    return "+.3f" if finding.startswith(("seat", "value")) else ".3f"


def _value(r) -> str:
    return ci_text({"mean": r["value"], "ci_lo": r["ci_lo"], "ci_hi": r["ci_hi"]}, fmt=_fmt(r["finding"]))


def sentence(finding: str, part: pd.DataFrame, verdict: pd.DataFrame) -> str:
    """One sentence: has `finding` settled (every place's two strongest intervals overlap), or does it still move?"""
    if (verdict["policies"].map(len) < 2).any():
        return f"{finding.capitalize()}: measured under fewer than two policies; nothing to compare."
    weaker, stronger = verdict["policies"].iloc[0]
    moving = verdict[~verdict["settled"]]["place"].tolist()
    if finding == EACH_CARD:
        still = f"; still moving: {', '.join(moving)}" if moving else ""
        return (
            f"Value of each card: {len(verdict) - len(moving)} of {len(verdict)} cards settled between "
            f"{weaker} and {stronger}{still}."
        )
    values = "; ".join(
        f"{place + ' ' if len(verdict) > 1 else ''}{_value(a)} under {weaker}, {_value(b)} under {stronger}"
        for place, (a, b) in _pairs(part, weaker, stronger)
    )
    if _alike(part, weaker, stronger):
        return (
            f"{finding.capitalize()}: {weaker} and {stronger} play alike here, so the ladder's top step cannot say "
            f"whether it has settled; {values}."
        )
    if not moving:
        return f"{finding.capitalize()}: settled; {values} (the two strongest policies' intervals overlap)."
    where = f" ({', '.join(moving)})" if len(verdict) > 1 else ""
    return f"{finding.capitalize()}: still moves with strength{where}; {values} (intervals apart)."


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
    verdicts = settled(table, ladder)
    return [
        sentence(finding, part, verdicts[verdicts["finding"] == finding])
        for finding, part in table.groupby("finding", sort=False)
    ]


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
    if _fmt(finding).startswith("+"):  # a difference: where nothing moves it
        ax.axhline(0, color="0.6", linewidth=0.8)
    ax.set_xticks(x, [fit_label(p) for p in ladder])
    ax.set_xlabel("policy in every seat, weakest to strongest")
    ax.set_ylabel(UNITS.get(finding, "value, points per deal"), fontsize=9)
    ax.set_title(finding)
    if len(places) > 1:
        ax.legend(fontsize=8)
    return add_caption(fig, f"{about}; {CAPTION}" if about else CAPTION)


def markdown(table: pd.DataFrame, ladder: list[str]) -> str:
    """findings.md: the sentences, the table of every finding but each card's (findings.csv has those), the charts."""
    shown = _along_ladder(table[table["finding"] != EACH_CARD], ladder)
    lines = [
        "# Findings along the strength ladder",
        "",
        f"Policies from weakest to strongest: {', '.join(ladder)}. Every player of a run plays the same policy, and "
        "every policy plays the same deals. A finding has settled when the two strongest policies' 95% intervals "
        "overlap (docs/findings.md).",
        "",
        *(f"- {s}" for s in sentences(table, ladder)),
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


def write_findings(table: pd.DataFrame, ladder: list[str], out: Path, about: str = "") -> pd.DataFrame:
    """findings.csv (and .json), findings.md and one chart per finding (PNG and SVG, `about` in each caption) into
    `out`; returns the table."""
    out = Path(out)
    write_table(table, out, "findings")
    atomic_write(out / "findings.md", markdown(table, ladder).encode())
    draw = {
        CHARTS[finding]: partial(_save_chart, part, ladder, finding, out, about)
        for finding, part in table.groupby("finding", sort=False)
        if finding in CHARTS
    }
    run_tasks(draw, in_child=tuple(draw)[::2])  # drawing is most of the time: every other chart on a second core
    return table


def _save_chart(part: pd.DataFrame, ladder: list[str], finding: str, out: Path, about: str) -> None:
    save_figure(finding_chart(part, ladder, finding, about), out, CHARTS[finding])
