"""The numba engine: the rules of docs/rules.md as bitmask kernels. The names below are its one public face.

Everything else in the package is private. Modules, one job each: layout (every
offset and constant), codec (the only door to the reference engine's types),
buffers (the Scratch bundle and its grow-and-replay helper), bits and tables
(card constants, the split table), state (a fresh round, the deal), movegen,
apply, score, rng, features and choose (the simple policies), play (the one
round loop), rollout (with its play-outs' own loop), value (the estimate a cut
play-out stops with; value_weights its fitted weights), exact, search (the
rollout and searcher seats' choice), factored and tables_api (the research
adapters' tables: a round in the factored encoding, or many stepped together;
observe their views, batch_step a batch's whole step in one kernel, first_actions its turns' legal first
actions without listing the moves),
lastbatch (played rounds judged by the exact search), check (--check's
invariants), rows (simulate's parallel rows), api and decide (calls on
positions), compiled (is a compile due).
Stale caches are guarded by casino_sim.core.numba_cache.

The kernels called once a move or more (movegen, apply, rng, features, choose,
the play-out) are compiled with `_nrt=False`: they only index arrays their
caller owns, and without the runtime they skip the atomic reference counts of
every array handed to them (measured: a fifth of a rollout's time). numba
refuses to compile an allocation in such a kernel, so the flag cannot hide a leak.
"""

# first, each on import: the CPU numba compiles for, and a cache keyed on the engine's sources, not its install
from casino_sim.core import numba_locator, numba_target  # noqa: F401
from casino_sim.kernels.calls import (
    IllegalMove,
    PositionError,
    apply_move,
    legal_move_rows,
    legal_moves,
    play_round_scripted,
    play_round_scripted_raw,
    warmup,
)
from casino_sim.kernels.codec import move_of_row, position_to_state, row_of_move, state_to_position
from casino_sim.kernels.compiled import will_compile
from casino_sim.kernels.decide import exact_values, rollout_diffs, rollout_points, search_choose
from casino_sim.kernels.lastbatch import judge_last_batch
from casino_sim.kernels.layout import MOVE_FIELDS, P_BASE_KIND, P_CRN, P_INTS, P_KIND, P_WORLDS, PLIES
from casino_sim.kernels.rows import play_rows
from casino_sim.kernels.tables_api import ILLEGAL, OK, OVERFLOW, Table, Tables, decks_of

__all__ = [
    "ILLEGAL",
    "OK",
    "OVERFLOW",
    "Table",
    "Tables",
    "decks_of",
    "MOVE_FIELDS",
    "PLIES",
    "P_BASE_KIND",
    "P_CRN",
    "P_INTS",
    "P_KIND",
    "P_WORLDS",
    "IllegalMove",
    "PositionError",
    "apply_move",
    "exact_values",
    "judge_last_batch",
    "legal_move_rows",
    "legal_moves",
    "move_of_row",
    "play_round_scripted",
    "play_round_scripted_raw",
    "play_rows",
    "position_to_state",
    "rollout_diffs",
    "rollout_points",
    "row_of_move",
    "search_choose",
    "state_to_position",
    "warmup",
    "will_compile",
]
