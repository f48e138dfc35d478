"""The reference engine behind the Engine interface: slow, exact, and the one that plays Python-callable policies."""

from __future__ import annotations

import numpy as np

from casino_sim.engines.registry import lazy
from casino_sim.reference.movegen import first_legal_move, legal_moves
from casino_sim.reference.record import record_columns, round_record
from casino_sim.reference.round import play_round


def moves_for(seats):
    """The moves each seat of a round chooses among: all the legal ones, but only the first for a trail seat (its
    choice), so that a table it piles high costs nothing to write out (reference/movegen.py first_legal_move)."""
    return lambda pos: [first_legal_move(pos)] if seats[pos.to_move].kind == "trail" else legal_moves(pos)


class ReferenceEngine:
    """reference/: the executable spec every other engine is held to."""

    name = "reference"

    legal_moves = lazy("casino_sim.reference", "legal_moves")

    def check_rules(self, rules):
        """Every rule set and player count of docs/rules.md: nothing to refuse."""

    apply_move = lazy("casino_sim.reference", "apply_move")

    def play_scripted(self, rules, deck, dealer, script):
        plays = iter(script)
        result = play_round(rules, deck, dealer, lambda pos, moves: moves[int(next(plays)) % len(moves)])
        return result.moves, round_record(result)

    def plays(self, policy):
        return not policy.searches  # rollout and searcher are numba kernels

    def play(self, rows, rules, lineup, check=False, trace=None):
        cols = record_columns(rules.players, rules.teams)
        out = np.zeros((len(rows), len(cols)), dtype=np.int64)
        for i in range(len(rows)):
            seats = tuple(lineup[int(w)] for w in rows.seating[i])  # player p plays the policy rows.seating names
            rng = np.random.default_rng(int(rows.seeds[i]))
            result = play_round(
                rules,
                rows.decks[i],
                int(rows.dealer[i]),
                lambda pos, moves, seats=seats, rng=rng: seats[pos.to_move].choose(pos, moves, rng),
                moves_for(seats),
            )
            rec = round_record(result)
            if trace is not None and i < len(trace):
                from casino_sim.kernels import row_of_move  # deferred: loads numba only when moves are traced

                trace[i] = [row_of_move(m) for m in result.moves]
            out[i] = [rec[c] for c in cols]
        return {c: out[:, j] for j, c in enumerate(cols)}
