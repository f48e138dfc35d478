"""The numba engine behind the Engine interface: a thin adapter over its public calls, imported when first used
(inside the methods: importing the kernels loads numba, which the CLI's start-up must not wait for)."""

from __future__ import annotations

from casino_sim.engines.registry import lazy
from casino_sim.policies.arrays import policy_arrays


class NumbaEngine:
    """kernels/: the bitmask kernels; fast, parallel, and the only one that plays rollout and searcher."""

    name = "numba"

    legal_moves = lazy("casino_sim.kernels", "legal_moves")
    apply_move = lazy("casino_sim.kernels", "apply_move")

    def check_rules(self, rules):
        """Positions of every rule set and player count of docs/rules.md: nothing to refuse."""

    def play_scripted(self, rules, deck, dealer, script):
        from casino_sim.kernels import move_of_row, play_round_scripted_raw

        moves, record = play_round_scripted_raw(rules, deck, dealer, script)
        return [move_of_row(m) for m in moves], record

    def plays(self, policy):
        return not policy.plays_in_python  # a Python callable cannot enter a kernel

    def play_rows(self, rows, rules, policy_a, policy_b, check=False, trace=None, others=()):
        from casino_sim.kernels import play_rows

        return play_rows(rows, rules, *policy_arrays((policy_a, policy_b, *others)), check=check, trace=trace)

    def play_sides(self, rules, decks, dealers, seats, seeds):
        from casino_sim.kernels.api import play_rounds_n

        ints, weights, _ = policy_arrays(tuple(seats))
        return side_points(rules, play_rounds_n(rules, decks, dealers, ints, weights, seeds))


def side_points(rules, totals):
    """(each side's points (k, n_sides), void (k,)) of rounds' score-row totals (k, rows): the players' rows, or
    with teams the two team rows after them (kernels/layout.py)."""
    n = rules.players
    points = totals[:, n : n + 2] if rules.teams else totals[:, :n]
    return points, ~points.any(axis=1)  # a round somebody captured in scores its four aces: void == no points
