"""Decision regret of the searcher's play-outs: how often, and by how much, its worlds pick the worse of two moves.

    python scripts/decision_regret.py [--rounds 60] [--seed 7] [--reference 2000] [--worlds 24,48,96,192]
                                      [--runs 2] [--horizons 0,1] [--work DIR]

The yardstick docs/policies.md ("Play-outs cut at a batch's end") chose the cut with before playing games. The
decisions: every play before the last batch of `--rounds` strict rounds of the built-in searcher against itself
where `tuned` has two or more moves, between its two best; each pair's true difference D is its mean over
`--reference` worlds of play-outs to the round's end (common random numbers; kept in --work, computed once). An
estimator (play-outs to the round's end, horizon 0, or cut at the batch's end, horizon 1; `--worlds` worlds) has
regret |D| when it picks the move of lower D, averaged over the decisions and `--runs` independent runs of its
worlds; a cut estimator stops with the value estimate (kernels/value.py). Printed:
regret a decision by batch and overall, and the plays a decision plays out.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from numba import njit

from casino_sim.api.policies import loader
from casino_sim.core.rules import STRICT
from casino_sim.engines import get_engine
from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.buffers import _new_scratch
from casino_sim.kernels.movegen import _movegen
from casino_sim.kernels.rollout import _base_seats, _keep_top, _sorted_unseen, _stop, _world_diffs, _world_seed
from casino_sim.kernels.state import _deal_batch, _start_round
from casino_sim.kernels.tables import split_table
from casino_sim.runner.deals import DealRows

BATCHES = 5  # the batches before the last, where the searcher plays out sampled worlds


@njit
def _decisions(rules, tbl, deck, dealer, trace, w, want, buf, states, moves):
    """The round of `trace` replayed: at each play before the last batch where tuned has two or more moves, the
    state into states[k] and tuned's two best moves into moves[k]. Returns how many."""
    st = np.zeros(L.STATE_SIZE, np.int64)
    _start_round(st, rules, deck, dealer)
    k = 0
    for ply in range(L.PLIES):
        if (st[L.HAND] | st[L.HAND + 1]) == 0:
            _deal_batch(st, deck, st[L.PLY] // L.PLIES_PER_BATCH, 2)
        if ply < BATCHES * L.PLIES_PER_BATCH and _movegen(st, rules, tbl, buf.mv, buf.sc_code, buf.sc_mask) >= 2:
            n = _movegen(st, rules, tbl, buf.mv, buf.sc_code, buf.sc_mask)
            _keep_top(st, rules, tbl, n, 2, w, want, buf)
            states[k] = st
            moves[k] = buf.mv[:2]
            k += 1
        _apply(st, rules, trace[ply, 0], trace[ply, 1], trace[ply, 2], trace[ply, 3], trace[ply, 4])
    return k


@njit
def _values(st, rules, tbl, buf, worlds, seed, cut, out):
    """out[k, i]: move i's margin (or estimate) in world k of `worlds` from `seed`, play-outs stopping at play `cut`
    (rollout.py _world_diffs)."""
    n_unseen = _sorted_unseen(st, rules, False, buf.sorted_unseen)
    rng = np.zeros(1, np.uint64)
    no_points = np.empty((0, 2))
    for k in range(worlds):
        out[k, 0] = out[k, 1] = 0.0
        world = (_world_seed(seed, k), True, rng)
        if _world_diffs(st, rules, tbl, 2, world, False, n_unseen, buf, out[k], no_points, cut) != L.OK:
            return False
    return True


class Yardstick:
    def __init__(self, args):
        self.rules, self.tbl = STRICT.as_array(), split_table()
        weights = loader()("tuned").weights
        self.w, self.want = weights, (weights != 0).astype(np.int64)
        self.buf = _new_scratch(L.MOVE_CAP * 8, L.SCRATCH_BITS + 6)  # room for any table: no replay
        _base_seats(L.HEURISTIC, self.w, self.want, self.buf.base)
        path = args.work / f"decisions-{args.rounds}-{args.seed}-{args.reference}.npz"
        if not path.exists():
            self.states, self.moves = self.collect(args.rounds, args.seed)
            diffs = [self.values(st, mv, args.reference, 10**9 + k, (L.PLIES, 0)) for k, (st, mv) in enumerate(self)]
            np.savez(path, states=self.states, moves=self.moves, truth=np.array([d.mean() for d in diffs]))
        saved = np.load(path)
        self.states, self.moves, self.truth = saved["states"], saved["moves"], saved["truth"]

    def __iter__(self):
        return iter(zip(self.states, self.moves, strict=True))

    def collect(self, rounds: int, seed: int):
        searcher = loader()("searcher")
        rng = np.random.default_rng(seed)
        states, moves = np.zeros((0, L.STATE_SIZE), np.int64), np.zeros((0, 2, L.MOVE_FIELDS), np.int64)
        for r in range(rounds):
            deck = rng.permutation(52).astype(np.int64)
            played = self.played(deck, r % 2, searcher, int(rng.integers(2**62)))
            st, mv = np.zeros((L.PLIES, L.STATE_SIZE), np.int64), np.zeros((L.PLIES, 2, L.MOVE_FIELDS), np.int64)
            k = _decisions(self.rules, self.tbl, deck, r % 2, np.ascontiguousarray(played), self.w, self.want,
                           self.buf, st, mv)  # fmt: skip
            states, moves = np.concatenate([states, st[:k]]), np.concatenate([moves, mv[:k]])
        return states, moves

    @staticmethod
    def played(deck, dealer: int, policy, seed: int) -> np.ndarray:
        """The moves (PLIES, MOVE_FIELDS) of one strict round of `policy` against itself."""
        seating = np.arange(2, dtype=np.int8).reshape(1, 2)
        rows = DealRows(np.zeros(1, np.int64), np.zeros(1, np.int8), deck.astype(np.int8).reshape(1, 52),
                        np.array([dealer], np.int8), np.array([seed], np.uint64), seating)  # fmt: skip
        trace = np.zeros((1, L.PLIES, L.MOVE_FIELDS), np.int64)
        get_engine("numba").play(rows, STRICT, (policy, policy), trace=trace)
        return trace[0]

    def values(self, st, mv, worlds: int, seed: int, cut: int) -> np.ndarray:
        """Each world's difference, the first move less the second."""
        self.buf.mv[:2] = mv
        out = np.zeros((worlds, 2))
        if not _values(st, self.rules, self.tbl, self.buf, worlds, np.uint64(seed), cut, out):
            raise SystemExit("error: a play-out needed larger buffers")
        return out[:, 0] - out[:, 1]

    def regret(self, horizon: int, worlds: list[int], runs: int):
        """{worlds: regret a decision by batch}, and the plays a decision plays out by batch, for one world."""
        batch = self.states[:, L.PLY] // L.PLIES_PER_BATCH
        regret = {w: np.zeros(len(self.truth)) for w in worlds}
        plays = np.zeros(len(self.truth))
        for k, (st, mv) in enumerate(self):
            stop = _stop(st, self.rules, horizon)
            plays[k] = 2 * (stop - st[L.PLY])
            for run in range(runs):
                summed = np.cumsum(self.values(st, mv, max(worlds), 7919 * k + 104729 * run, stop))
                for w in worlds:
                    second = summed[w - 1] < 0  # the kernel keeps the first of equal means
                    regret[w][k] += abs(self.truth[k]) * (second == (self.truth[k] > 0)) / runs
        by_batch = {w: [r[batch == b].mean() for b in range(BATCHES)] for w, r in regret.items()}
        return by_batch, [plays[batch == b].mean() for b in range(BATCHES)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--reference", type=int, default=2000)
    ap.add_argument("--worlds", default="24,48,96,192")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--horizons", default="0,1")
    ap.add_argument("--work", type=Path, default=Path.home() / ".cache" / "casino-sim" / "decision-regret")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    worlds = [int(w) for w in args.worlds.split(",")]
    yardstick = Yardstick(args)
    print(f"{len(yardstick.truth)} decisions; mean |D| {np.abs(yardstick.truth).mean():.3f}")
    horizons = [int(h) for h in args.horizons.split(",")]
    for horizon in horizons:
        by_batch, plays = yardstick.regret(horizon, worlds, args.runs)
        print(f"horizon {horizon}: plays a decision per world, by batch "
              f"{' '.join(f'{p:.1f}' for p in plays)}")  # fmt: skip
        for w in worlds:
            cells = " ".join(f"{r:.4f}" for r in by_batch[w])
            print(f"  {w:4d} worlds: regret by batch {cells}, a decision {np.mean(by_batch[w]):.4f}, "
                  f"plays {w * np.mean(plays):,.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
