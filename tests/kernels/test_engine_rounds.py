"""Whole scripted rounds: both engines choose moves[r[i] % n] from the same stream of integers."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.rules import BRAZILIAN, ITALIAN, STRICT
from casino_sim.reference.round import play_round

RULESETS = (STRICT, BRAZILIAN, ITALIAN)
# rounds a rule set plays by default, and more behind the `long` marker (.ci/run runs them after the suite)
ROUNDS = {"default": (0, 200), "long": (200, 1000)}


def _reference_scripted(rules, deck, dealer, r):
    ply = [0]

    def choose(pos, moves):
        m = moves[int(r[ply[0]]) % len(moves)]
        ply[0] += 1
        return m

    res = play_round(rules, deck, dealer, choose)
    return res.moves, res.score, res.void


@pytest.mark.parametrize("rounds", [pytest.param("default"), pytest.param("long", marks=pytest.mark.long)])
@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_scripted_rounds_equal_reference(rules, rounds):
    """Rounds first..last of one seeded stream: the long run goes on where the default one stops."""
    first, last = ROUNDS[rounds]
    rng = np.random.default_rng({"strict": 1, "brazilian": 2, "italian": 3}[rules.name])
    sweeps = 0
    nonzero_sweep_points = 0
    for i in range(last):
        deck = rng.permutation(52)
        dealer = int(rng.integers(2))
        r = rng.integers(0, 2**32, 48, dtype=np.uint64).astype(np.uint32)
        if i < first:  # drawn, to keep the stream's place, and played by the default run
            continue
        moves, score = engine.play_round_scripted(rules, deck, dealer, r)
        ref_moves, ref_score, ref_void = _reference_scripted(rules, deck, dealer, r)
        assert moves == ref_moves, f"round {i}: transcripts differ at ply " + str(
            next(k for k, (a, b) in enumerate(zip(moves, ref_moves)) if a != b)
        )
        assert score == ref_score, f"round {i}: {score} != {ref_score}"
        sweeps += sum(m.kind == "capture" for m in moves)
        nonzero_sweep_points += score.points[0]["sweeps"] + score.points[1]["sweeps"]
    assert sweeps > 0
    if rules.sweep_points:
        assert nonzero_sweep_points > 0


def test_scripted_round_is_a_permutation_of_the_deck():
    rng = np.random.default_rng(9)
    deck = rng.permutation(52)
    r = rng.integers(0, 2**32, 48, dtype=np.uint64)
    transcript, rec = engine.play_round_scripted_raw(STRICT, deck, 1, r)
    played = sorted(int(c) for c in transcript[:, 1])
    # every card dealt to a hand is played exactly once (the first 8 and the 40 of the stock, not the table 4)
    assert played == sorted(int(c) for c in np.concatenate([deck[:8], deck[12:]]))
    assert rec["plies"] == 48 and rec["dealer"] == 1
    if not rec["void"]:
        assert rec["first_n_cards"] + rec["dealer_n_cards"] == 52  # all cards end in a pile
        assert rec["first_aces"] + rec["dealer_aces"] == 4  # the four aces
        assert (rec["first_seat"], rec["dealer_seat"]) == (0, 1)


def test_scripted_round_rejects_bad_arguments():
    with pytest.raises(ValueError):
        engine.play_round_scripted(STRICT, np.arange(51), 0, np.zeros(48))
    with pytest.raises(ValueError):
        engine.play_round_scripted(STRICT, np.zeros(52), 0, np.zeros(48))
    with pytest.raises(ValueError):
        engine.play_round_scripted(STRICT, np.arange(52), 2, np.zeros(48))
    with pytest.raises(ValueError):
        engine.play_round_scripted(STRICT, np.arange(52), 0, np.zeros(10))
