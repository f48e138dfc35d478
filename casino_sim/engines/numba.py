"""The numba engine behind the Engine interface: a thin adapter over its public calls, imported when first used."""

from __future__ import annotations

from casino_sim.core.rules import two_players_only
from casino_sim.engines.registry import lazy

ENGINE = "the numba engine"  # two_players_only guards its calls until it plays three and four players


class NumbaEngine:
    """engine/: the bitmask kernels; fast, parallel, and the only one that plays rollout and searcher."""

    name = "numba"

    _legal_moves = lazy("casino_sim.engine", "legal_moves")
    _apply_move = lazy("casino_sim.engine", "apply_move")

    def check_rules(self, rules):
        two_players_only(rules, ENGINE)

    def legal_moves(self, pos):
        self.check_rules(pos.rules)
        return self._legal_moves(pos)

    def apply_move(self, pos, move):
        self.check_rules(pos.rules)
        return self._apply_move(pos, move)

    def play_scripted(self, rules, deck, dealer, script):
        from casino_sim.engine import move_of_row, play_round_scripted_raw

        moves, record = play_round_scripted_raw(rules, deck, dealer, script)
        return [move_of_row(m) for m in moves], record

    def plays(self, policy):
        return policy.kind != "python"  # a Python callable cannot enter a kernel

    def play_rows(self, rows, rules, policy_a, policy_b, check=False, trace=None, others=()):
        from casino_sim.engine import play_rows, play_rows_n
        from casino_sim.policies.arrays import policy_arrays

        arrays = policy_arrays((policy_a, policy_b, *others))
        if rules.players != 2:  # three or four players: their own row kernel (--check is two-player so far)
            return play_rows_n(rows, rules, *arrays, trace=trace)
        return play_rows(rows, rules, *arrays, check=check, trace=trace)
