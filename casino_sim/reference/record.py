"""The per-round record of a simulation (its columns: core/record.py), read off a played round: the recorders' spec."""

from __future__ import annotations

from casino_sim.core.cards import is_spade
from casino_sim.core.record import CATEGORIES, REMAINDER_PLY, TABLE, TRACKED, record_columns
from casino_sim.reference.round import RoundResult

__all__ = ["record_columns", "round_record"]


def round_record(result: RoundResult) -> dict[str, int]:
    """The record of one played round (a void round: zeros, captured_by -1)."""
    rec = dict.fromkeys(record_columns(), 0)
    rec["dealer"] = result.dealer
    rec["void"] = int(result.void)
    first = 1 - result.dealer
    ply = 0
    for e in result.events:
        if e.kind == "deal":
            first_hand, dealer_hand, table = e.cards
            for name, card in TRACKED.items():
                holder = (
                    first
                    if card in first_hand
                    else result.dealer
                    if card in dealer_hand
                    else TABLE
                    if card in table
                    else None
                )
                if holder is not None:
                    rec[f"{name}_dealt_to"], rec[f"{name}_dealt_batch"] = holder, e.batch + 1
        elif e.kind == "play":
            ply += 1
            _count_play(rec, e)
            if e.move.kind == "capture":
                rec["last_capturer"] = e.player
                for name, card in TRACKED.items():
                    if card in e.taken:
                        rec[f"{name}_captured_by"], rec[f"{name}_captured_ply"] = e.player, ply
            if e.sweep:
                rec[f"s{e.player}_n_sweeps"] += 1
                rec[f"s{e.player}_sweeps_b{e.batch + 1}"] += 1
        elif e.kind == "remainder":
            rec["remainder"] = len(e.cards)
            for name, card in TRACKED.items():
                if card in e.cards:
                    rec[f"{name}_captured_by"], rec[f"{name}_captured_ply"] = e.player, REMAINDER_PLY
    rec["plies"] = ply
    if result.void:
        rec["last_capturer"] = -1
        for name in TRACKED:
            rec[f"{name}_captured_by"] = -1
        return rec
    for s in (0, 1):
        for cat in CATEGORIES:
            rec[f"s{s}_{cat}"] = result.score.points[s][cat]
        rec[f"s{s}_total"] = result.score.totals[s]
        pile = result.final.captured[s]
        rec[f"s{s}_n_cards"] = len(pile)
        rec[f"s{s}_n_spades"] = sum(map(is_spade, pile))
    return rec


def _count_play(rec: dict[str, int], e) -> None:
    """The anatomy of one play: its kind, and the builds it makes (RULES.md 3: the mover becomes the owner of
    a build that was not theirs) or captures (counted for the build's owner: captured by themselves, or lost)."""
    p, kind = e.player, e.move.kind
    rec[f"s{p}_plays_{kind}"] += 1
    if kind == "capture":
        for owner in e.owners:
            rec[f"s{owner}_builds_captured_own" if owner == p else f"s{owner}_builds_lost"] += 1
    elif kind != "trail" and p not in e.owners:  # a new build, or the opponent's taken over
        rec[f"s{p}_builds_made"] += 1
