"""Names shared by the Python policies and the numba kernels: move features, policy kinds and a policy's int row.

They sit at the bottom layer so that both the kernels and the policies can import them.
"""

from __future__ import annotations

FEATURES: tuple[tuple[str, str], ...] = (
    ("cards_taken", "cards the play puts in the mover's pile, the played card included"),
    ("spades_taken", "spades among them"),
    ("aces_taken", "aces among them"),
    ("big_casino_taken", "1 if the 10♦ is among them"),
    ("little_casino_taken", "1 if the 2♠ is among them"),
    ("sweep", "a sweep's points in the rule set played if the play sweeps (strict, italian: 1; brazilian: 0)"),
    ("build_made", "1 if the play creates, increases or adds to a build"),
    ("build_cards", "cards in the build the play makes or strengthens (what its capture will bring)"),
    ("points_at_risk", "expected sure points (aces, 10♦, 2♠) the opponent can capture next turn"),
    ("cards_at_risk", "expected number of cards the opponent can capture next turn"),
    ("sweep_open", "probability that the opponent can sweep next turn, times a sweep's points in the rule set"),
    ("trail_points", "sure points of the card trailed (0 for any other play)"),
    ("casinos_exposed", "sure points of the 10♦ and 2♠ left loose on the table after the play"),
    ("last_capture_cards", "in the last batch, loose cards a capture leaves for the last capturer"),
    ("trail", "1 if the play is a trail"),
)
FEATURE_NAMES = tuple(name for name, _ in FEATURES)
FEATURE_INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}
N_FEATURES = len(FEATURES)

POLICY_KINDS = ("random", "heuristic", "rollout", "python", "searcher", "trail")
KIND_ID = {k: i for i, k in enumerate(POLICY_KINDS)}  # how numba kernels tell policies apart
SEARCH_KINDS = ("rollout", "searcher")  # kinds that choose by play-outs in the numba kernels, with a base policy

# A policy as the kernels read it: one int row per seat (policies/arrays.py writes it, kernels/layout.py re-exports)
P_KIND = 0  # KIND_ID of the seat's policy
P_WORLDS = 1  # rollout, searcher: sampled worlds per decision
P_CRN = 2  # rollout, searcher: 1 to play every candidate move in the same worlds (common random numbers)
P_BASE_KIND = 3  # rollout, searcher: KIND_ID of the base policy that plays the worlds out
P_RACE = 4  # rollout, searcher: worlds between cuts of a racing search (0: every move plays every world)
P_RACE_Z = 5  # rollout, searcher: how many standard errors behind the leader a move is cut, in thousandths
P_EXACT_SKIP = 6  # searcher: plays of the last batch before its exact search starts (0: the whole batch is searched)
P_TOP = 7  # rollout, searcher: only the moves its heuristic base scores highest are played out (0: every move)
P_HORIZON = 8  # rollout, searcher: batch ends a play-out plays to before its value estimate (0: the round's end)
P_INTS = 9  # the row's length


def p_holds_any(unseen: int, hand: int, k: int) -> float:
    """P(a hand of `hand` cards drawn from `unseen` holds one of k given cards): 1 - C(unseen-k, hand)/C(unseen, hand).

    Written as a float product in one fixed order; the numba engine compiles this same function, so both engines
    get the same bits.
    """
    if k == 0 or hand == 0:
        return 0.0
    none = 1.0
    for i in range(hand):
        none *= (unseen - k - i) / (unseen - i)
    return 1.0 - none
