"""The per-round record of a simulation (its columns: core/record.py), read off a played round: the recorders' spec."""

from __future__ import annotations

from casino_sim.core.cards import is_spade
from casino_sim.core.record import CATEGORIES, REMAINDER_PLY, TABLE, TEAMS, TRACKED, record_columns
from casino_sim.reference.round import RoundResult
from casino_sim.reference.score import pile_points
from casino_sim.reference.seats import place_names, sides, turn_order

__all__ = ["record_columns", "round_record"]


def round_record(result: RoundResult) -> dict[str, int]:
    """The record of one played round (a void round: zeros, captured_by -1); columns: core/record.py.

    Two players: seats 0 and 1, as always. Three or four: seats by their place in the turn order, and the
    teams (many_record_columns).
    """
    if result.final.players != 2:
        return _many_record(result)
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
            _count_play(rec, e, lambda p: f"s{p}")
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


def _count_play(rec: dict[str, int], e, key) -> None:
    """The anatomy of one play: its kind, and the builds it makes (docs/rules.md section 3: the mover becomes the
    owner of a build that was not theirs) or captures (counted for the build's owner: captured by themselves, or lost).
    key(player): the prefix of a player's columns (s0, or a place's name)."""
    p, kind = e.player, e.move.kind
    rec[f"{key(p)}_plays_{kind}"] += 1
    if kind == "capture":
        for owner in e.owners:
            rec[f"{key(owner)}_builds_captured_own" if owner == p else f"{key(owner)}_builds_lost"] += 1
    elif kind != "trail" and p not in e.owners:  # a new build, or another player's taken over
        rec[f"{key(p)}_builds_made"] += 1


def _many_record(result: RoundResult) -> dict[str, int]:
    """The record of a three- or four-player round (core/record.py many_record_columns)."""
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
