"""A round told as a person would tell it, and the score table by category."""

from __future__ import annotations

from rich.table import Table

from casino_sim.core.cards import pretty_cards
from casino_sim.reference.moves import PLAYER_NAMES
from casino_sim.reference.round import BATCHES, RoundResult
from casino_sim.reference.score import CATEGORIES, CATEGORY_LABELS, Score


def round_story(result: RoundResult) -> list[str]:
    """Lines: each deal, each play (numbered), sweeps, the remainder, a void round."""
    dealer = PLAYER_NAMES[result.dealer]
    first = PLAYER_NAMES[1 - result.dealer]
    lines = [f"Dealer {dealer}; {first} plays first."]
    ply = 0
    for e in result.events:
        if e.kind == "deal":
            last = " (last)" if e.batch == BATCHES - 1 else ""
            first_hand, dealer_hand, table = e.cards
            lines.append(
                f"Deal {e.batch + 1}{last}: {first} holds {pretty_cards(first_hand)}; "
                f"{dealer} holds {pretty_cards(dealer_hand)}" + (f"; table {pretty_cards(table)}" if table else "")
            )
        elif e.kind == "play":
            ply += 1
            lines.append(f"{ply:3d}. {e.move.describe(e.player)}")
            if e.sweep:
                lines.append(f"     {PLAYER_NAMES[e.player]} sweeps")
        elif e.kind == "remainder":
            lines.append(f"{PLAYER_NAMES[e.player]} takes the remainder: {pretty_cards(e.cards)} (not a sweep)")
        elif e.kind == "void":
            lines.append("Nobody captured: the round is void and scores nothing.")
    return lines


def score_table(score: Score, title: str = "Score") -> Table:
    """Points per category for A and B, with totals."""
    table = Table(title=title)
    table.add_column("category")
    for name in PLAYER_NAMES:
        table.add_column(name, justify="right")
    for cat in CATEGORIES:
        table.add_row(CATEGORY_LABELS[cat], str(score.points[0][cat]), str(score.points[1][cat]))
    a, b = score.totals
    table.add_row("total", str(a), str(b), style="bold")
    return table
