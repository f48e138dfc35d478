"""casino_sim/kernels/value_weights.py: the weights of the value estimate a searcher's cut play-outs stop with.

    python scripts/fit_value.py [--rounds 1000000] [--seed 4601] [--play POLICY] [--out PATH]

--play fits to the rounds of another policy against itself (played by the engine, then replayed to each batch end).

Plays `tuned` against itself in strict rounds (random decks and dealers from the seed), and at the end of each of
the first four batches reads the value estimate's features from player 0's view (kernels/value.py _features);
each batch end's weights are the least-squares fit of the round's final margin less the sure margin so far
(without a constant: the features change sign with the view, and so does the margin). The fit's residual
variance by batch end is printed beside the margin's own. docs/policies.md, "Play-outs cut at a batch's end".
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from numba import njit

from casino_sim.api.policies import loader
from casino_sim.core.rows import DealRows
from casino_sim.core.rules import STRICT
from casino_sim.engines import get_engine
from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.buffers import _new_scratch
from casino_sim.kernels.rollout import _base_seats, _play_out
from casino_sim.kernels.score import _finish, _score
from casino_sim.kernels.state import _deal_batch, _start_round
from casino_sim.kernels.tables import split_table
from casino_sim.kernels.value import N_VALUE, VALUE_FEATURES, _features

ROOT = Path(__file__).resolve().parent.parent
ENDS = 4  # batch ends a play-out may stop at (kernels/rollout.py _stop: never the last batch's start)


@njit
def _collect(rules, tbl, decks, dealers, seeds, buf, feats, sure, final):
    """Round r of tuned against itself: feats[r, b] and sure[r, b] at the end of batch b (player 0's view), and
    final[r], player 0's margin at the round's end."""
    st = np.zeros(L.STATE_SIZE, np.int64)
    stream = np.zeros(1, np.uint64)
    for r in range(decks.shape[0]):
        _start_round(st, rules, decks[r], dealers[r])
        stream[0] = seeds[r]
        for b in range(ENDS):
            if _play_out(st, rules, tbl, decks[r], buf, stream, (b + 1) * L.PLIES_PER_BATCH) != L.OK:
                return r
            sure[r, b], x = _features(st, rules, tbl, 0, buf.f)
            for j in range(N_VALUE):
                feats[r, b, j] = x[j]
        if _play_out(st, rules, tbl, decks[r], buf, stream, L.PLIES) != L.OK:
            return r
        _finish(st)
        _score(st, rules, buf.score)
        final[r] = buf.score[0, L.S_TOTAL] - buf.score[1, L.S_TOTAL]
    return -1


@njit
def _replay(rules, tbl, decks, dealers, traces, buf, feats, sure, final):
    """_collect's numbers from rounds already played (traces[r]: round r's moves, the engine's trace)."""
    st = np.zeros(L.STATE_SIZE, np.int64)
    for r in range(decks.shape[0]):
        _start_round(st, rules, decks[r], dealers[r])
        for ply in range(L.PLIES):
            if (st[L.HAND] | st[L.HAND + 1]) == 0:
                _deal_batch(st, decks[r], ply // L.PLIES_PER_BATCH, 2)
            t = traces[r, ply]
            _apply(st, rules, t[0], t[1], t[2], t[3], t[4])
            if (ply + 1) % L.PLIES_PER_BATCH == 0 and ply + 1 <= ENDS * L.PLIES_PER_BATCH:
                b = ply // L.PLIES_PER_BATCH
                sure[r, b], x = _features(st, rules, tbl, 0, buf.f)
                for j in range(N_VALUE):
                    feats[r, b, j] = x[j]
        _finish(st)
        _score(st, rules, buf.score)
        final[r] = buf.score[0, L.S_TOTAL] - buf.score[1, L.S_TOTAL]


def played(policy: str, decks, dealers, seeds, chunk: int = 20_000) -> np.ndarray:
    """(rounds, PLIES, MOVE_FIELDS): the moves of each round of `policy` against itself, played by the engine."""
    player = loader()(policy)
    traces = np.zeros((len(decks), L.PLIES, L.MOVE_FIELDS), np.int64)
    for a in range(0, len(decks), chunk):
        n = min(chunk, len(decks) - a)
        rows = DealRows(np.arange(n, dtype=np.int64), np.zeros(n, np.int8), decks[a : a + n].astype(np.int8),
                        dealers[a : a + n].astype(np.int8), seeds[a : a + n],
                        np.tile(np.arange(2, dtype=np.int8), (n, 1)))  # fmt: skip
        get_engine("numba").play(rows, STRICT, (player, player), trace=traces[a : a + n])
    return traces


def batch_ends(rounds: int, seed: int, play: str = "tuned"):
    """(features (rounds, ENDS, N_VALUE), sure margin (rounds, ENDS), final margin (rounds,)) of `rounds` rounds of
    `play` against itself, read from player 0's view."""
    rng = np.random.default_rng(seed)
    decks = np.argsort(rng.random((rounds, 52)), axis=1).astype(np.int64)
    dealers = rng.integers(0, 2, rounds).astype(np.int64)
    seeds = rng.integers(1, 2**63, rounds, dtype=np.uint64)
    weights = loader()("tuned").weights
    buf = _new_scratch(L.MOVE_CAP * 8, L.SCRATCH_BITS + 6)  # room for any table: no replay
    _base_seats(L.HEURISTIC, weights, (weights != 0).astype(np.int64), buf.base)
    feats, sure, final = np.zeros((rounds, ENDS, N_VALUE)), np.zeros((rounds, ENDS)), np.zeros(rounds)
    if play != "tuned":
        traces = played(play, decks, dealers, seeds)
        _replay(STRICT.as_array(), split_table(), decks, dealers, traces, buf, feats, sure, final)
        return feats, sure, final
    failed = _collect(STRICT.as_array(), split_table(), decks, dealers, seeds, buf, feats, sure, final)
    if failed >= 0:
        raise SystemExit(f"error: round {failed} needed larger buffers")
    return feats, sure, final


def fit(rounds: int, seed: int, play: str = "tuned") -> np.ndarray:
    """(ENDS, N_VALUE) weights from `rounds` rounds of `play` against itself."""
    feats, sure, final = batch_ends(rounds, seed, play)
    coef = np.zeros((ENDS, N_VALUE))
    for b in range(ENDS):
        target = final - sure[:, b]
        coef[b] = np.linalg.lstsq(feats[:, b], target, rcond=None)[0]
        left = target - feats[:, b] @ coef[b]
        print(f"end of batch {b + 1}: margin variance {target.var():.3f}, left after the fit {left.var():.3f}")
    return coef


def module_text(coef: np.ndarray, rounds: int, seed: int, play: str = "tuned") -> str:
    rows = "\n".join(f"        [{', '.join(f'{c:.4f}' for c in row)}]," for row in coef)
    names = "\n".join(f"# {j:2d}: {name}" for j, name in enumerate(VALUE_FEATURES))
    return (
        '"""The value estimate\'s weights (kernels/value.py): written by scripts/fit_value.py, not by hand."""\n\n'
        "from __future__ import annotations\n\nimport numpy as np\n\n"
        f"# VALUE_COEF[b, j]: feature j's weight at the end of batch b + 1; {rounds} strict rounds of {play} against\n"
        f"# itself, seed {seed}. The features:\n{names}\n"
        f"VALUE_COEF = np.array(\n    [\n{rows}\n    ]\n)\n"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=4601)
    ap.add_argument("--play", default="tuned", help="the policy whose rounds against itself the fit reads")
    ap.add_argument("--out", type=Path, default=ROOT / "casino_sim" / "kernels" / "value_weights.py")
    args = ap.parse_args()
    t = time.perf_counter()
    coef = fit(args.rounds, args.seed, args.play)
    args.out.write_text(module_text(coef, args.rounds, args.seed, args.play), encoding="utf-8")
    print(f"wrote {args.out} ({time.perf_counter() - t:.0f} s)")


if __name__ == "__main__":
    main()
