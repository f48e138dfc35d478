"""Every offset, index and size the numba kernels share, in one place.

The state of a round, the rule set's array, the deal, move and score records,
policy rows, status codes, buffer sizes and the columns of the per-round
record. Kernels index with these module constants, which numba compiles as
literals.
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.deal import HAND_SIZE, PLIES, batches
from casino_sim.core.featurespec import (  # noqa: F401
    KIND_ID,
    P_BASE_KIND,
    P_CRN,
    P_EXACT_SKIP,
    P_INTS,
    P_KIND,
    P_RACE,
    P_RACE_Z,
    P_TOP,
    P_WORLDS,
    POLICY_KINDS,
)
from casino_sim.core.limits import MOVE_LIMIT
from casino_sim.core.record import (
    BUILD_FATES,
    CATEGORIES,
    PLAY_KINDS,
    TEAM_FIELDS,
    TEAMS,
    TRACKED,
    column_owner,
    record_columns,
)
from casino_sim.core.rules import ENGINE_FIELDS

# --- the state: one int64 array per round (room for 4 players; slots of absent players stay 0)
MAX_PLAYERS = 4
HAND = 0  # HAND + p: hand of player p (card mask)
LOOSE = 4  # loose cards on the table (card mask, figures included)
CAPTURED = 5  # CAPTURED + p: capture pile of player p (card mask)
BUILD = 8  # BUILD + v, v in 1..10 -> 9..18: cards of the build of value v (0 = no build)
OWNER = 18  # OWNER + v -> 19..28: owner of the build of value v (-1 = no build)
SWEEPS = 29  # SWEEPS + p: sweep count of player p
LAST_CAPTURER = 33  # -1 for nobody yet
MUST_ACT = 34  # MUST_ACT + p: italian next-turn obligation (0/1)
TO_MOVE = 38  # player to move
PLY = 39  # plays made so far in the round
DEALER = 40  # dealer of the round
STATE_SIZE = 44  # 41 used, padded to whole 32-byte vectors for the copies (measured: 36 with two players only)

# --- rules: one index per RuleSet field, in RuleSet.as_array() order (core/rules.py ENGINE_FIELDS); numba
# reads each as an integer literal, and a renamed field stops the import here instead of reading a wrong slot
_R = {name: i for i, name in enumerate(ENGINE_FIELDS)}
R_SWEEP_POINTS = _R["sweep_points"]
R_MOST_CARDS_POINTS = _R["most_cards_points"]
R_MOST_CARDS_AT_LEAST = _R["most_cards_at_least"]
R_MOST_SPADES_POINTS = _R["most_spades_points"]
R_MOST_SPADES_AT_LEAST = _R["most_spades_at_least"]
R_FIGURE_CAPTURE = _R["figure_capture"]
R_NO_TRAIL_WHILE_OWNER = _R["no_trail_while_owner"]
R_NEXT_TURN_OBLIGATION = _R["next_turn_obligation"]
R_TARGET = _R["target"]
R_ROUND_WIN_POINTS = _R["round_win_points"]
R_SINGLE_ROUND = _R["single_round"]
R_PLAYERS = _R["players"]
R_TEAMS = _R["teams"]
R_MOST_BY_COUNT = _R["most_by_count"]  # italian: most cards / spades to any side reaching *_AT_LEAST
N_RULES = len(ENGINE_FIELDS)

# --- the deal (core/deal.py HAND_SIZE, PLIES; n players: state.py _batch_start(n, b)); PLIES_PER_BATCH: the plays
# of a two-player batch, whose last the searcher searches exactly (a two-player rule: docs/policies.md)
PLIES_PER_BATCH = 2 * HAND_SIZE
assert PLIES == batches(2) * PLIES_PER_BATCH
# teams: the side of player p (0 and 2 against 1 and 3); a round's score rows: one per player, then the sides'
SIDE_OF = np.array([0, 1, 0, 1], dtype=np.int64)
SCORE_ROWS = MAX_PLAYERS + 2

# --- move records: one row (kind, card, loose, builds, value)
TRAIL = 0  # the order of the kinds in docs/notation.md
CAPTURE = 1
BUILD_K = 2
INCREASE = 3
ADD = 4
M_KIND = 0
M_CARD = 1
M_LOOSE = 2  # mask of the loose cards taken or put into a build
M_BUILDS = 3  # mask of build values (bit v) captured / increased (+ merged) / added to
M_VALUE = 4  # capture: the card's value (-1 for a figure); build, increase, add: the build's value; trail: -1
MOVE_FIELDS = 5

# --- score rows: one per player (rows 0..n-1); with teams, rows n and n+1 are sides 0 and 1 (score.py)
S_CARDS = 0  # points for most cards; S_CARDS .. S_SWEEPS follow CATEGORIES
S_SPADES = 1  # points for most spades
S_ACES = 2
S_TEN_DIAMONDS = 3
S_TWO_SPADES = 4
S_SWEEPS = 5  # sweep points
S_TOTAL = 6
S_N_CARDS = 7  # cards taken (raw count)
S_N_SPADES = 8  # spades taken
S_N_SWEEPS = 9  # sweeps made
SCORE_FIELDS = 10
CATEGORY_COLUMNS = CATEGORIES

# --- policies: a kind and an int row per seat (the row's offsets P_KIND .. P_INTS, imported above for the kernels'
# L.P_*, live beside the kinds in core/featurespec.py)
RANDOM = KIND_ID["random"]
HEURISTIC = KIND_ID["heuristic"]
ROLLOUT = KIND_ID["rollout"]
SEARCHER = KIND_ID["searcher"]
ALWAYS_TRAIL = KIND_ID["trail"]  # the trail policy: the first legal move in canonical order (trails sort first)
SCRIPTED = len(POLICY_KINDS)  # the engine's own: plays the moves a script names (replays, warmup, tests)

# --- statuses of the round kernels (0 = fine)
OK = 0
NEED_MOVES = 1  # the move buffer is too small: the caller grows the buffers and replays
NEED_SCRATCH = 2  # the subset scratch is too small: the same
NO_MOVES = 3  # a player had no legal move (cannot happen under docs/rules.md; reported, never hidden)
CALLER_CHOOSES = 4  # a rollout, searcher or scripted seat is to choose among the moves in the buffer: caller decides
# codes 10 and up are broken invariants (kernels/check.py)

# --- buffer sizes
MOVE_CAP = 512  # move buffer rows to start with; grown on demand
SCRATCH_BITS = 12  # subset scratch of 2**12 rows to start with; grown on demand
MAX_MOVE_CAP = MOVE_LIMIT  # a position with more legal moves stops both engines (core/limits.py)
MAX_SCRATCH_BITS = 22  # 2**22 subsets; past that many loose number cards movegen counts by value (crowded.py)
BLOCK = 32  # rows a thread plays with one set of buffers

# --- the per-round record (core/record.py): every player count writes it with one kernel, reading where each
# field goes from a table of columns (record_layout); the first five columns are the same for every count
C_DEALER, C_VOID, C_PLIES, C_LAST, C_REMAINDER = range(5)
assert record_columns(2)[:5] == ["dealer", "void", "plies", "last_capturer", "remainder"]
TRACK_CARDS = np.array(list(TRACKED.values()), dtype=np.int64)
TRACK_MASK = sum(1 << int(c) for c in TRACK_CARDS)  # both tracked cards as a card mask
# record_layout's table: tab[G_*, dealer, player] is the first column of that player's group of fields (-1: none)
G_SEAT = 0  # `{place}_seat`, the player in that place
G_SCORE = 1  # its score row's fields S_CARDS .. S_N_SWEEPS, in that order
G_PLAYS = 2  # its plays by kind, TRAIL .. ADD
G_FATES = 3  # its builds made, then captured by itself and lost (OWN, LOST from it)
G_SWEEPS = 4  # its sweeps by batch, 1 ..
G_TEAM = 5  # tab[G_TEAM, dealer, side]: the team's fields (TEAM_SCORE) of side 0 or 1 (with teams only)
G_TRACK = 6  # tab[G_TRACK, 0, t]: tracked card t's dealt_to, dealt_batch, captured_by, captured_ply
GROUPS = 7
OWN, LOST = 1, 2
TEAM_SCORE = np.array([S_TOTAL, S_CARDS, S_SPADES, S_N_CARDS, S_N_SPADES], dtype=np.int64)  # TEAM_FIELDS order
_FIELDS = {  # each group's fields in column order, as core/record.py names them
    G_SCORE: (*CATEGORIES, "total", "n_cards", "n_spades", "n_sweeps"),
    G_PLAYS: tuple(f"plays_{k}" for k in PLAY_KINDS),
    G_FATES: BUILD_FATES,
}
assert TEAM_FIELDS == ("total", "cards", "spades", "n_cards", "n_spades") and len(_FIELDS[G_SCORE]) == SCORE_FIELDS


def record_layout(players: int, teams: bool) -> tuple[list[str], np.ndarray]:
    """The record's columns (core/record.py record_columns) and the table of where the row kernel writes each
    player's fields given the dealer (GROUPS, MAX_PLAYERS, MAX_PLAYERS): the columns of the player's place in the
    turn order (column_owner), for every player count."""
    cols = record_columns(players, teams)
    at = {name: i for i, name in enumerate(cols)}
    tab = np.full((GROUPS, MAX_PLAYERS, MAX_PLAYERS), -1, dtype=np.int64)
    for d in range(players):
        for p in range(players):
            who = column_owner(players, d, p)
            tab[G_SEAT, d, p] = at[f"{who}_seat"]
            for g, fields in _FIELDS.items():
                tab[g, d, p] = at[f"{who}_{fields[0]}"]
                assert cols[tab[g, d, p] : tab[g, d, p] + len(fields)] == [f"{who}_{f}" for f in fields]
            tab[G_SWEEPS, d, p] = at[f"{who}_sweeps_b1"]
        for t, team in enumerate(TEAMS if teams else ()):  # team_first: the first place's side; team_dealer
            side = SIDE_OF[(d + 1) % players if t == 0 else d]
            tab[G_TEAM, d, side] = at[f"team_{team}_total"]
            assert cols[tab[G_TEAM, d, side] :][: len(TEAM_FIELDS)] == [f"team_{team}_{f}" for f in TEAM_FIELDS]
    for t, name in enumerate(TRACKED):
        tab[G_TRACK, 0, t] = at[f"{name}_dealt_to"]
    return cols, tab
