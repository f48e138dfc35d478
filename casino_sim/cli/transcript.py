"""A round told as a person would tell it, and the score table by category."""

from __future__ import annotations

from rich.table import Table

from casino_sim.core.cards import is_spade, pretty_cards
from casino_sim.core.deal import batches
from casino_sim.core.rules import RuleSet
from casino_sim.reference.moves import PLAYER_NAMES
from casino_sim.reference.round import RoundResult
from casino_sim.reference.score import CATEGORIES, CATEGORY_LABELS, Score, side_piles
from casino_sim.reference.seats import sides, turn_order


def side_names(rules: RuleSet) -> list[str]:
    """The name of each side: A, B, ... or, with teams, A+C and B+D."""
    return ["+".join(PLAYER_NAMES[p] for p in side) for side in sides(rules, rules.players)]


def round_story(result: RoundResult) -> list[str]:
    """Lines: each deal, each play (numbered), sweeps, the remainder, a void round; with three or four players,
    the piles of each side at the end."""
    rules = result.final.rules
    order = [PLAYER_NAMES[p] for p in turn_order(result.dealer, rules.players)]
    lines = [f"Dealer {order[-1]}; {order[0]} plays first."]
    if rules.teams:
        lines[0] += f" Partners: {' against '.join(side_names(rules))}."
    ply = 0
    for e in result.events:
        if e.kind == "deal":
            last = " (last)" if e.batch == batches(rules.players) - 1 else ""
            *hands, table = e.cards
            held = "; ".join(f"{name} holds {pretty_cards(hand)}" for name, hand in zip(order, hands))
            lines.append(f"Batch {e.batch + 1}{last}: {held}" + (f"; table {pretty_cards(table)}" if table else ""))
        elif e.kind == "play":
            ply += 1
            lines.append(f"{ply:3d}. {e.move.describe(e.player)}")
            if e.sweep:
                lines.append(f"     {PLAYER_NAMES[e.player]} sweeps")
        elif e.kind == "remainder":
            lines.append(f"{PLAYER_NAMES[e.player]} takes the remainder: {pretty_cards(e.cards)} (not a sweep)")
        elif e.kind == "void":
            lines.append("Nobody captured: the round is void and scores nothing.")
    if piles_told(rules) and not result.void:
        piles = side_piles(rules, result.final.captured)
        lines.append(f"Piles: {'; '.join(map(pile_text, side_names(rules), piles))}.")
    return lines


def piles_told(rules: RuleSet) -> bool:
    """Whether a round's end tells each side's pile (cards, spades): with three or four players; two players' score
    table has always said it alone (the one place that words differ by player count, not a rule)."""
    return rules.players > 2


def counted(n: int, noun: str) -> str:
    """'1 card', '3 cards'."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def pile_text(name: str, pile, sweeps: int | None = None) -> str:
    """A capture pile in words: 'A 5 cards, 2 spades' (', 1 sweep' when sweeps are given)."""
    text = f"{name} {counted(len(pile), 'card')}, {counted(sum(map(is_spade, pile)), 'spade')}"
    return text if sweeps is None else f"{text}, {counted(sweeps, 'sweep')}"


def score_table(score: Score, title: str = "Score", names: list[str] | None = None) -> Table:
    """Points per category for each side (A and B by default), with totals."""
    names = names or list(PLAYER_NAMES[: len(score.points)])
    table = Table(title=title)
    table.add_column("category")
    for name in names:
        table.add_column(name, justify="right")
    for cat in CATEGORIES:
        table.add_row(CATEGORY_LABELS[cat], *(str(side[cat]) for side in score.points))
    table.add_row("total", *map(str, score.totals), style="bold")
    return table
