"""The per-round record of a simulation (its columns: core/record.py), read off a played round: the recorders' spec."""

from __future__ import annotations

from casino_sim.core.cards import is_spade
from casino_sim.core.record import CATEGORIES, REMAINDER_PLY, TEAMS, TRACKED, record_columns
from casino_sim.reference.round import RoundResult
from casino_sim.reference.score import pile_points
from casino_sim.reference.seats import place_names, sides, turn_order

__all__ = ["record_columns", "round_record"]


def round_record(result: RoundResult) -> dict[str, int]:
    """The record of one played round (a void round: zeros, captured_by -1); columns: core/record.py.

    Each player's columns are their place's in the turn order (first, ..., dealer), for every player count; with
    teams, the teams' too.
    """
    final = result.final
    rules, n = final.rules, final.players
    rec = dict.fromkeys(record_columns(n, rules.teams), 0)
    rec["dealer"], rec["void"], rec["last_capturer"] = result.dealer, int(result.void), -1
    order = turn_order(result.dealer, n)
    place = dict(zip(order, place_names(n)))
    for p, name in place.items():
        rec[f"{name}_seat"] = p
    for name in TRACKED:
        rec[f"{name}_captured_by"] = -1
    for e in result.events:
        if e.kind == "deal":
            for holder, cards in zip((*order, n), e.cards):  # the hands in turn order, then the table (n)
                for name, card in TRACKED.items():
                    if card in cards:
                        rec[f"{name}_dealt_to"], rec[f"{name}_dealt_batch"] = holder, e.batch + 1
        elif e.kind == "play":
            rec["plies"] += 1
            _count_play(rec, e, place.get)
            if e.sweep:
                rec[f"{place[e.player]}_n_sweeps"] += 1
                rec[f"{place[e.player]}_sweeps_b{e.batch + 1}"] += 1
            if e.move.kind == "capture":
                rec["last_capturer"] = e.player
            for name, card in TRACKED.items():
                if card in e.taken:
                    rec[f"{name}_captured_by"], rec[f"{name}_captured_ply"] = e.player, rec["plies"]
        elif e.kind == "remainder":
            rec["remainder"] = len(e.cards)
            for name, card in TRACKED.items():
                if card in e.cards:
                    rec[f"{name}_captured_by"], rec[f"{name}_captured_ply"] = e.player, REMAINDER_PLY
    if result.void:
        return rec
    for p, name in place.items():
        pile = final.captured[p]
        rec[f"{name}_n_cards"], rec[f"{name}_n_spades"] = len(pile), sum(map(is_spade, pile))
        own = (
            result.score.points[p]
            if not rules.teams
            else {"cards": 0, "spades": 0, **pile_points(rules, pile, final.sweeps[p])}
        )
        for cat in CATEGORIES:
            rec[f"{name}_{cat}"] = own[cat]
        rec[f"{name}_total"] = sum(own.values())
    if rules.teams:
        for side, members in enumerate(sides(rules, n)):
            team, points = TEAMS[result.dealer in members], result.score.points[side]
            rec[f"team_{team}_total"] = sum(points.values())
            rec[f"team_{team}_cards"], rec[f"team_{team}_spades"] = points["cards"], points["spades"]
            rec[f"team_{team}_n_cards"] = sum(len(final.captured[p]) for p in members)
            rec[f"team_{team}_n_spades"] = sum(sum(map(is_spade, final.captured[p])) for p in members)
    return rec


def _count_play(rec: dict[str, int], e, key) -> None:
    """The anatomy of one play: its kind, and the builds it makes (docs/rules.md section 3: the mover becomes the
    owner of a build that was not theirs) or captures (counted for the build's owner: captured by themselves, or lost).
    key(player): the prefix of a player's columns, their place's name."""
    p, kind = e.player, e.move.kind
    rec[f"{key(p)}_plays_{kind}"] += 1
    if kind == "capture":
        for owner in e.owners:
            rec[f"{key(owner)}_builds_captured_own" if owner == p else f"{key(owner)}_builds_lost"] += 1
    elif kind != "trail" and p not in e.owners:  # a new build, or another player's taken over
        rec[f"{key(p)}_builds_made"] += 1
