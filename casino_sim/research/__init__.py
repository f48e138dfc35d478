"""The framework-free core of the research adapters (casino_sim.openspiel, and PettingZoo's): a round or whole
games as one sequence of int actions, what each player may see, and worlds resampled from what they saw.

Built on the engines' public face (legal moves in canonical order, apply a move) and the reference engine's deal
and score; it imports no framework, and importing casino_sim does not import it (docs/research.md).
"""

from casino_sim.research.game_state import CHANCE, TERMINAL, GameState, replay
from casino_sim.research.resample import resample
from casino_sim.research.round_state import IllegalAction, RoundState
from casino_sim.research.views import View, view_layout

__all__ = [
    "CHANCE",
    "TERMINAL",
    "GameState",
    "IllegalAction",
    "RoundState",
    "View",
    "replay",
    "resample",
    "view_layout",
]
