"""The effect of a play on a position (RULES.md section 2, decision 1 merges, italian must_act)."""

from __future__ import annotations

from dataclasses import replace

from casino_sim.reference.moves import Move
from casino_sim.reference.position import Build, Position


def _set(pair: tuple, p: int, value) -> tuple:
    return (value, pair[1]) if p == 0 else (pair[0], value)


def play(pos: Position, move: Move) -> Position:
    """The position after a structurally valid move, obligations not checked."""
    p = pos.to_move
    hand = pos.hands[p] - {move.card}
    loose = pos.loose - set(move.loose)
    builds = {b.value: b for b in pos.builds}
    captured, sweeps, last_capturer = pos.captured, pos.sweeps, pos.last_capturer

    if move.kind == "trail":
        loose = loose | {move.card}
    elif move.kind == "capture":
        taken = {move.card, *move.loose}
        for v in move.builds:
            taken |= builds.pop(v).cards
        captured = _set(captured, p, captured[p] | taken)
        last_capturer = p
        if not loose and not builds:
            sweeps = _set(sweeps, p, sweeps[p] + 1)
    else:  # build, add, increase: all cards end in one build of the move's value, owned by the mover
        cards = {move.card, *move.loose}
        for v in move.builds:
            cards |= builds.pop(v).cards
        builds[move.value] = Build(move.value, frozenset(cards), p)

    must_act = pos.must_act
    if pos.rules.next_turn_obligation:
        other = 1 - p
        must_act = _set(must_act, p, move.kind in ("build", "increase", "add"))
        must_act = _set(must_act, other, must_act[other] and move.kind == "trail")

    return replace(
        pos,
        to_move=1 - p,
        hands=_set(pos.hands, p, hand),
        loose=loose,
        builds=tuple(builds[v] for v in sorted(builds)),
        captured=captured,
        sweeps=sweeps,
        last_capturer=last_capturer,
        must_act=must_act,
    )
