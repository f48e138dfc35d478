"""simulate --check: the per-play invariants catch a broken state, cost nothing when off, and hold over many rounds."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from casino_sim.core.rules import get_rules
from casino_sim.experiments.simulate import SimConfig, play_run, start_run
from casino_sim.kernels.check import BAD_BUILD, BAD_CARDS, BAD_OWNER, BAD_POINTS, _check_end, _check_play
from casino_sim.kernels.layout import BUILD, CAPTURED, HAND, LAST_CAPTURER, LOOSE, OWNER, PLY, S_TOTAL, SCORE_FIELDS
from casino_sim.kernels.rows import _raise_broken
from casino_sim.kernels.score import _finish, _score
from casino_sim.kernels.state import _start_round, new_state
from casino_sim.runner.deals import deal_rows, rotations
from casino_sim.runner.play import play
from casino_sim.runner.rundir import RunDir
from casino_sim.runner.seating import seatings
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import LOADER, get_policy
from tests.support.positions import cards

STRICT = get_rules("strict").as_array()
DECK = np.arange(52, dtype=np.int64)  # deal order: A♠ A♥ A♦ A♣ to the non-dealer, ...


def mask(text: str) -> int:
    return sum(1 << c for c in cards(text))


def fresh() -> np.ndarray:
    st = new_state()
    _start_round(st, get_rules("strict").as_array(), DECK, 1)
    return st


def test_a_fresh_deal_passes():
    assert _check_play(fresh(), STRICT, DECK) == 0


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda st: st.__setitem__(LOOSE, st[LOOSE] | mask("KS")),  # a stock card also on the table
        lambda st: st.__setitem__(HAND, st[HAND] & ~mask("AS")),  # a card lost
        lambda st: st.__setitem__(CAPTURED + 1, st[HAND]),  # a card in a hand and a pile
    ],
)
def test_cards_out_of_place_are_caught(corrupt):
    st = fresh()
    corrupt(st)
    assert _check_play(st, STRICT, DECK) == BAD_CARDS


def build_of(st, value: int, text: str, owner: int) -> None:
    """Move loose cards `text` into a build owned by `owner`."""
    st[LOOSE] &= ~mask(text)
    st[BUILD + value] = mask(text)
    st[OWNER + value] = owner


def test_builds_are_checked_against_their_owner_and_their_cards():
    st = fresh()  # the non-dealer (0) holds the aces, the dealer (1) the 2s, the table the 3s
    build_of(st, 6, "3S 3H", 1)  # 1 holds no 6
    assert _check_play(st, STRICT, DECK) == BAD_OWNER

    def swapped():  # 0 holds A♠ A♥ A♦ 3♣; the table 3♠ 3♥ 3♦ A♣
        st = fresh()
        st[HAND], st[LOOSE] = mask("AS AH AD 3C"), mask("3S 3H 3D AC")
        return st

    st = swapped()
    build_of(st, 3, "3S 3H", 0)  # a sound multiple build, covered by 0's 3♣
    assert _check_play(st, STRICT, DECK) == 0
    st[OWNER + 3] = -1  # a build without an owner
    assert _check_play(st, STRICT, DECK) == BAD_BUILD
    st = swapped()
    build_of(st, 3, "3S AC", 0)  # 4 is no multiple of 3
    assert _check_play(st, STRICT, DECK) == BAD_BUILD
    st = swapped()
    build_of(st, 3, "3S", 0)  # a build holds at least two cards
    assert _check_play(st, STRICT, DECK) == BAD_BUILD


def test_points_that_do_not_add_up_are_caught():
    st = fresh()
    rules = get_rules("strict").as_array()
    st[CAPTURED] = (1 << 52) - 1 - st[HAND + 1]
    st[CAPTURED + 1] = st[HAND + 1]
    st[HAND] = st[HAND + 1] = st[LOOSE] = 0
    st[LAST_CAPTURER], st[PLY] = 0, 48
    assert _finish(st)
    score = np.zeros((2, SCORE_FIELDS), dtype=np.int64)
    _score(st, rules, score)
    assert _check_end(st, rules, score) == 0
    score[1, S_TOTAL] += 1
    assert _check_end(st, rules, score) == BAD_POINTS


def test_a_broken_round_is_named_by_its_deal():
    rows = deal_rows(1, 100, 3, rotations([0, 1], True))
    status = np.array([0, 0, 0, BAD_BUILD, 0, 0])
    out = np.zeros((6, 60), dtype=np.int64)
    with pytest.raises(RuntimeError, match=r"engine bug: a build .* deal 101 \(mirror 1, round seed \d+\)"):
        _raise_broken(rows, status, out)


@pytest.mark.parametrize("rules", ["strict", "brazilian", "italian", "brazilian:players=3", "italian:players=4"])
def test_checking_changes_no_result(rules):
    """Every play checked, on the one row kernel of every player count: no invariant breaks, no record changes."""
    ruleset, pa, pb = get_rules(rules), get_policy("expert"), get_policy("random")
    rows = deal_rows(3, 0, 300 // (ruleset.players - 1), seatings(ruleset))
    plain = play("numba", rows, ruleset, (pa, pb))
    checked = play("numba", rows, ruleset, (pa, pb), check=True)
    assert plain.equals(checked)


def test_simulate_check_runs_and_is_kept_in_the_manifest(tmp_path):
    proc = run("simulate", "--deals", "200", "--check", "--no-charts", "--out", str(tmp_path / "r"), "--threads", "1")
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["config"]["checked"] is True


def test_check_refuses_the_reference_engine(tmp_path):
    assert_one_line_error(
        run("simulate", "--deals", "2", "--check", "--engine", "reference", "--out", str(tmp_path / "r")), "--check"
    )


@pytest.mark.slow
def test_a_million_checked_rounds(tmp_path):
    config = SimConfig(
        deals=500_000, policy_a="greedy", policy_b="random", seed=2024, chunk_deals=50_000, checked=True
    ).resolve(LOADER)
    run_dir = RunDir(tmp_path / "million")
    start_run(config, run_dir, ["test"])
    t = time.perf_counter()
    play_run(config, run_dir)
    print(f"1,000,000 checked rounds in {time.perf_counter() - t:.1f} s")
    assert len(run_dir.read_rounds(["deal_id"])) == 1_000_000


@pytest.mark.parametrize("spec", ["italian:players=3", "brazilian:players=4"])
def test_the_per_play_check_counts_the_deal_of_n_players(spec):
    """After every play of an n-player round the check passes; a stock card on the table too is caught (the
    dealt cards of n players: 4n + 4, then 4n a batch)."""
    from casino_sim.kernels.codec import position_to_state
    from casino_sim.reference.play import play
    from casino_sim.reference.round import play_round

    rules, deck, codes = get_rules(spec), np.random.default_rng(4).permutation(52), []
    n, arr = rules.players, rules.as_array()

    def choose(pos, moves):
        move = next((m for m in moves if m.kind == "capture"), moves[0])  # a table that stays small
        st = position_to_state(play(pos, move))
        st[PLY] = ply = len(codes) + 1
        dealt = 4 * n + 4 + 4 * n * ((ply - 1) // (4 * n))
        codes.append(_check_play(st, arr, deck))
        if dealt < 52:
            st[LOOSE] |= 1 << int(deck[dealt])  # the next card of the stock
            codes[-1] += 100 * _check_play(st, arr, deck)
        return move

    play_round(rules, [int(c) for c in deck], 1, choose)
    assert codes == [100 * BAD_CARDS] * (48 - 4 * n) + [0] * (4 * n)
