"""`moves` and `apply` of docs/notation.md: read positions (file, stdin, .jsonl batches) and answer."""

from __future__ import annotations

import json
from collections.abc import Iterator

from casino_sim.core.errors import USER_ERRORS, InputError
from casino_sim.core.jsontext import parse_json, read_text
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position


def load_position(source: str) -> Position:
    """One position from a file or `-`."""
    return Position.from_json(parse_json(read_text(source), "the position"))


def is_jsonl(source: str, jsonl_flag: bool) -> bool:
    return jsonl_flag or source.endswith(".jsonl")


def moves_json(engine, pos: Position) -> list[dict]:
    return [m.to_json() for m in engine.legal_moves(pos)]


def no_move_reason(pos: Position) -> str:
    """Why the player to move has no legal move, in words (shown instead of an empty answer)."""
    p = pos.to_move
    if not pos.hands[p]:
        return (
            f"no legal move: player {p} (to move) holds no card; in a round the next cards are dealt first "
            "(moves and apply play single moves and never deal)"
        )
    return f"no legal move: no play of player {p}'s cards keeps the rules' obligations"


def moves_jsonl_lines(engine, source: str) -> Iterator[str]:
    """One JSON array per position line; a bad line answers {"error": ...} and the rest go on."""
    for line in read_text(source).splitlines():
        if not line.strip():
            continue
        try:
            answer = moves_json(engine, Position.from_json(parse_json(line, "the position")))
        except USER_ERRORS as e:
            answer = {"error": str(e)}
        yield json.dumps(answer, separators=(",", ":"))


def numbered_lines(pos: Position, legal: list[Move]) -> list[str]:
    """The legal moves in words, each after its number: the numbers `apply`, `analyse` and `play` use."""
    width = len(str(len(legal)))
    return [f"{i:>{width}}  {m.describe(pos.to_move)}" for i, m in enumerate(legal, 1)]


def apply_text(engine, source: str, move_text: str, on_ready=None) -> str:
    """The position after the move (its JSON, or its number in the list `moves` prints), as JSON text;
    on_ready() runs once the input is known to be good."""
    pos = load_position(source)
    given = parse_json(move_text, "the move")
    number = isinstance(given, int) and not isinstance(given, bool)
    move = None if number else Move.from_json(given)
    engine.check_rules(pos.rules)
    if on_ready is not None:
        on_ready()
    if number:
        legal = engine.legal_moves(pos)
        if not 1 <= given <= len(legal):
            raise InputError(f"no move number {given}: the position has {len(legal)} legal move(s), 1 to {len(legal)}")
        move = legal[given - 1]
    return json.dumps(engine.apply_move(pos, move).to_json())
