"""The effect of a play on a position (docs/rules.md section 3; merges: section 6, answer 1; italian must_act)."""

from __future__ import annotations

from dataclasses import replace

from casino_sim.reference.moves import Move
from casino_sim.reference.position import Build, Position
from casino_sim.reference.seats import opponents

BUILD_KINDS = ("build", "increase", "add")


def _set(entries: tuple, p: int, value) -> tuple:
    """The per-player tuple with player p's entry replaced."""
    return tuple(value if i == p else e for i, e in enumerate(entries))


def next_obligations(pos: Position, move: Move) -> tuple[bool, ...]:
    """italian must_act after the mover's play (docs/rules.md sections 4 and 11).

    The mover is bound exactly when this play creates, increases or adds to a build; another player's
    obligation ends when an opponent of theirs (never a partner) captures or builds, and survives a trail.
    """
    p = pos.to_move
    acts = move.kind != "trail"
    return tuple(
        move.kind in BUILD_KINDS if q == p else bound and not (acts and opponents(pos.rules, p, q))
        for q, bound in enumerate(pos.must_act)
    )


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

    must_act = next_obligations(pos, move) if pos.rules.next_turn_obligation else pos.must_act

    return replace(
        pos,
        to_move=pos.next_player(p),
        hands=_set(pos.hands, p, hand),
        loose=loose,
        builds=tuple(builds[v] for v in sorted(builds)),
        captured=captured,
        sweeps=sweeps,
        last_capturer=last_capturer,
        must_act=must_act,
    )
