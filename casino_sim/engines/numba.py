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

    def play(self, rows, rules, lineup, check=False, trace=None):
        from casino_sim.kernels import play_rows

        return play_rows(rows, rules, *policy_arrays(tuple(lineup)), check=check, trace=trace)
