"""The words of report.md on card values: the deal's estimate (every run), the swap replays' (when asked for), and
whether the two agree."""

from __future__ import annotations

import pandas as pd

from casino_sim.core.cards import pretty_card
from casino_sim.reports.cardagree import agreement
from casino_sim.reports.cardvalue import TEN_DIAMONDS
from casino_sim.reports.headlines import Section, ci_text
from casino_sim.reports.separation import AHEAD, leader
from casino_sim.reports.verdict import POINTS

HEADLINE_CARDS = ("TD", "2S", "AS", "AH", "AD", "AC")  # the cards that score, named in report.md


def _named(row: pd.Series, prefix: str) -> pd.Series:
    """A deal-estimate row's interval under the names ci_text reads (mean, ci_lo, ci_hi)."""
    lo, hi = ("ci_lo", "ci_hi") if prefix == "" else ("table_ci_lo", "table_ci_hi")
    mean = "to_me_minus_to_opponent" if prefix == "" else "to_me_minus_to_table"
    return pd.Series({"mean": row[mean], "ci_lo": row[lo], "ci_hi": row[hi]})


def deal_lines(t: pd.DataFrame) -> list[str]:
    """The scoring cards' values from the deal, and the most valuable card by the verdict rule."""
    by = t.set_index("card")
    out = []
    for code in HEADLINE_CARDS:
        r = by.loc[code]
        out.append(
            f"- {pretty_card_of(code)}: dealt to me rather than to an opponent "
            f"{ci_text(_named(r, ''), fmt='+.2f', unit='rounds')} points per round; rather than to the table "
            f"{ci_text(_named(r, 'table'), fmt='+.2f', unit='rounds')} ({int(r['rounds']):,} rounds dealt to a hand)."
        )
    rows = t.assign(label=t["card"].map(pretty_card_of), mean=t["to_me_minus_to_opponent"])
    return [*out, f"- {card_verdict(rows, 'rounds', int(t['rounds'].min()))}."]


def pretty_card_of(code: str) -> str:
    """'10♦' of 'TD'."""
    from casino_sim.core.cards import parse_card

    return pretty_card(parse_card(code))


def swap_lines(t: pd.DataFrame) -> list[str]:
    out = []
    for variant, g in t.groupby("variant", sort=True):
        ten = g[g["card"] == TEN_DIAMONDS]
        head = f"the 10♦ is worth {ci_text(ten.iloc[0], fmt='+.2f')} points per deal; " if len(ten) else ""
        out.append(f"- card moved to the {variant}: {head}{card_verdict(g, 'deals of each card')}.")
    return out


def agreement_lines(results: dict) -> list[str]:
    """One line: whether the swap replays agree with the deal's values (reports/cardagree.py), when both exist."""
    if "card-value" not in results or "card-swap" not in results:
        return []
    return [f"- Against the deal's estimate: {agreement(results['card-value'], results['card-swap']).sentence()}."]


def card_verdict(g: pd.DataFrame, unit: str = "deals of each card", n: int | None = None) -> str:
    """The most valuable card of one set of values (label, mean, ci_lo, ci_hi, n), named only when its lead over
    every other card is clear of 0 (reports/separation.py); else the highest means, and whether they are equal
    within 0.1 points or how many samples would decide."""
    best = g.sort_values("mean", ascending=False)
    n = int(best["n"].iloc[0]) if n is None else n
    verdict = leader(zip(best["label"], best["mean"], best["ci_lo"], best["ci_hi"]), n, POINTS)
    if verdict.leader:
        top = ci_text(best.iloc[0], fmt="+.2f")
        return f"most valuable: {verdict.leader} {top}, ahead of every other card ({AHEAD})"
    top = ", ".join(f"{r['label']} {ci_text(r, fmt='+.2f')}" for _, r in best.head(2).iterrows())
    return f"highest means {top}; " + verdict.no_leader("rank the cards", unit)


CARD_SECTIONS: list[Section] = [
    (
        "card-value",
        "Value of holding each card",
        "card_value_heatmap",
        "From the run's own rounds: the deal sends each card to a hand or the table by chance, so the margin of a "
        "player dealt it against that of a player whose opponent was dealt it is what holding it is worth (per "
        "round, own side's points less the mean of the other sides'; docs/reports.md). The heatmap shows every "
        "card; ten_diamonds_by_batch.png the 10♦ by the batch it is dealt in.",
        deal_lines,
    ),
    (
        "card-swap",
        "Value of holding each card, swap replays",
        "card_swap_heatmap",
        "Each of the first deals replayed with one dealt card swapped away (to the opponent, or into the "
        "stock): the controlled experiment; ten_diamonds_swaps_by_batch.png shows the 10♦ by batch.",
        swap_lines,
    ),
]
JOINT = {"card-swap": agreement_lines}  # lines read from both card reports
