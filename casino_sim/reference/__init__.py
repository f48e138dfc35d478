"""The plain-Python rules engine: the executable form of docs/rules.md."""

from casino_sim.reference.apply import IllegalMove, apply_move, check_move
from casino_sim.reference.movegen import legal_moves
from casino_sim.reference.moves import Move
from casino_sim.reference.play import play
from casino_sim.reference.position import Build, Position, PositionError

__all__ = [
    "Build",
    "IllegalMove",
    "Move",
    "Position",
    "PositionError",
    "apply_move",
    "check_move",
    "legal_moves",
    "play",
]
