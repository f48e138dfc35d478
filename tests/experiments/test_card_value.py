"""The card-value experiment: pairs move exactly one card, and the 10♦ is worth holding."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.cards import BIG_CASINO
from casino_sim.core.rules import STRICT
from casino_sim.experiments.card_value import card_values, deal_slot, paired_decks
from casino_sim.reference.position import Position
from casino_sim.reference.round import deal_batch
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import LOADER, get_policy


@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_slots_follow_the_engines_dealing_order(dealer):
    deck = list(np.random.default_rng(dealer).permutation(52))
    pos = Position(rules=STRICT)
    for batch in range(6):
        pos = deal_batch(pos, deck, batch, dealer)
        start = 0 if batch == 0 else 12 + (batch - 1) * 8
        for i in range(start, start + (12 if batch == 0 else 8)):
            seat, b = deal_slot(i, dealer)
            assert b == batch + 1
            assert deck[i] in (pos.loose if seat == 2 else pos.hands[seat])


def test_each_pair_moves_one_card_to_the_opponent_or_a_later_batch():
    deck = np.random.default_rng(3).permutation(52).astype(np.int8)
    pairs = list(paired_decks(deck, 1, np.random.default_rng(0)))
    assert {v for *_, v, _ in pairs} == {"opponent", "stock"}
    for card, seat, batch, variant, paired in pairs:
        moved = np.flatnonzero(paired != deck)
        assert len(moved) == 2 and sorted(paired.tolist()) == list(range(52))
        new_index = int(np.flatnonzero(paired == card)[0])
        new_seat, new_batch = deal_slot(new_index, 1)
        if variant == "opponent":
            assert (new_seat, new_batch) == (1 - seat, batch)
        else:
            assert new_batch > batch
    # a card of the last batch has no stock to go to
    assert all(b < 6 for _, _, b, v, _ in pairs if v == "stock")


def test_the_big_casino_is_worth_holding():
    df = card_values(get_policy("greedy"), 300, seed=4)
    ten = df[(df.card == BIG_CASINO) & (df.variant == "opponent")]["diff"]
    assert len(ten) > 200
    assert ten.mean() - 2.5 * ten.std(ddof=1) / np.sqrt(len(ten)) > 1.0


def test_card_value_command_writes_the_heatmap(tmp_path):
    proc = run("card-value", "--policy", "greedy", "--deals", "60", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    for name in ("card_swaps.csv", "card_swap_heatmap.png", "card_swap_heatmap.svg", "ten_diamonds_swaps_by_batch.png"):
        assert (tmp_path / name).stat().st_size > 0
    page = (tmp_path / "index.html").read_text()
    assert (
        "<h2>Value of holding each card, swap replays</h2>" in page and "swapped away" in page
    )  # its words, not only tables
    assert "card moved to the opponent: the 10♦ is worth" in page
    for text in (page, " ".join(proc.stdout.split())):  # per place moved to: a most valuable card only with its
        # lead over every other card clear of 0, else equal within the margin, or how many deals would decide
        said = sum(
            text.count(claim)
            for claim in (
                "most valuable:",
                "too few deals of each card to rank the cards:",
                "nothing to rank the cards",
            )
        )
        assert said == 2, text
    assert_one_line_error(run("card-value", "--deals", "0"), "--deals")
    assert_one_line_error(run("card-value", "--policy", "nobody"), "unknown policy")


def test_simulate_pairs_the_first_deals_as_card_value_does(tmp_path):
    from casino_sim.experiments.simulate import SimConfig, play_chunk

    config = SimConfig(
        deals=300,
        policy_a="greedy",
        policy_b="greedy",
        seed=4,
        mirrored=False,
        chunk_deals=200,
        card_deals=250,
    ).resolve(LOADER)
    cards = [play_chunk(config, c)["cards"] for c in (0, 1)]
    assert cards[0]["deal_id"].max() == 199 and cards[1]["deal_id"].between(200, 249).all()
    alone = card_values(get_policy("greedy"), 200, seed=4)  # the same rows as simulate's first chunk
    assert (cards[0]["diff"].to_numpy() == alone["diff"].to_numpy()).all()
    assert (cards[0]["card"].to_numpy() == alone["card"].to_numpy()).all()


def test_a_mirrored_run_pairs_both_seatings_and_reports_card_values(tmp_path):
    out = tmp_path / "run"
    assert (
        run(
            "simulate",
            "--deals",
            "40",
            "--card-deals",
            "30",
            "--policy",
            "expert",
            "--vs",
            "greedy",
            "--no-charts",
            "--out",
            str(out),
        ).returncode
        == 0
    )
    cards = pd.read_parquet(out / "cards")
    assert set(cards["holder"]) == {"expert", "greedy"} and cards["deal_id"].max() == 29
    values = pd.read_csv(out / "report" / "card_swaps.csv")
    assert set(values["variant"]) == {"opponent", "stock"}
    text = (out / "report" / "report.md").read_text()
    assert "## Value of holding each card, swap replays" in text and "Against the deal's estimate: " in text
    again = run("report", "card-swap", str(out), "--out", str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "again" / "card_swaps.csv"), values)
    bare = tmp_path / "bare"
    assert run("simulate", "--deals", "10", "--card-deals", "0", "--no-charts", "--out", str(bare)).returncode == 0
    assert not (bare / "cards").exists()
    assert_one_line_error(run("report", "card-swap", str(bare)), "--card-deals")


def test_every_card_is_paired_once_or_twice_per_deal():
    from casino_sim.experiments.card_value import PAIRS_PER_DEAL

    for dealer in (0, 1):
        deck = np.random.default_rng(dealer).permutation(52).astype(np.int8)
        assert len(list(paired_decks(deck, dealer, np.random.default_rng(0)))) == PAIRS_PER_DEAL


def test_card_value_command_prints_every_card_with_progress_and_keeps_earlier_results(tmp_path):
    from casino_sim.experiments.card_value import PAIRS_PER_DEAL
    from casino_sim.reports.cardvalue import card_label

    out = tmp_path / "cv"
    proc = run("card-value", "--policy", "greedy", "--deals", "30", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    for c in range(52):
        assert card_label(c) in proc.stdout, card_label(c)
    total = 30 * (1 + PAIRS_PER_DEAL)
    assert f"{total}/{total}" in proc.stdout  # the progress bar counts base and paired rounds
    assert_one_line_error(
        run("card-value", "--policy", "greedy", "--deals", "5", "--out", str(out)), "not empty", "--force"
    )
    forced = run("card-value", "--policy", "greedy", "--deals", "5", "--force", "--out", str(out))
    assert forced.returncode == 0, forced.stderr
    assert pd.read_csv(out / "card_swaps.csv")["n"].max() <= 10  # the table of the 5-deal run replaced it
