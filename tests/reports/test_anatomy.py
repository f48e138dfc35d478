"""The anatomy of a round: the record's counts on a hand-made round, the table against direct counts over the
rows and its hand-checkable sums, and `report anatomy` / `report all` on run folders, old ones included."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from casino_sim.core.cards import parse_card
from casino_sim.core.errors import InputError
from casino_sim.core.record import ANATOMY, PLAY_KINDS
from casino_sim.core.rules import STRICT
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position
from casino_sim.reference.record import round_record
from casino_sim.reference.round import Event, RoundResult
from casino_sim.reference.score import score_round
from casino_sim.reports.anatomy import QUANTITIES, anatomy_table
from casino_sim.reports.index import write_all
from casino_sim.reports.stats import cluster_mean_ci, cluster_wilson
from casino_sim.runner.records import frame_as_format2
from casino_sim.runner.rundir import RunDir
from tests.support.cli import assert_one_line_error, run
from tests.support.report_data import (
    in_seats,
    mirrored_rounds,
    played_rounds,
    same_policy_rounds,
    void_copy,
    write_run,
)
from tests.support.runs import simulate_dir

COLUMNS = ["rules", "matchup", "policy", "quantity", "unit", "mean", "ci_lo", "ci_hi", "n"]
PLACES = ("first", "dealer")  # two players' places


def c(*names: str) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names)


def play(player: int, kind: str, card: str, loose=(), builds=(), value=None, owners=()) -> Event:
    return Event("play", player=player, move=Move(kind, *c(card), c(*loose), builds, value), owners=owners)


def test_a_hand_made_round_counts_plays_and_the_fates_of_builds():
    """The worked example of docs/rules.md section 9 (A builds 7, adds to it, captures it), then B builds 4, A takes
    it over by increasing it to 6, and B captures that build of A's: lost for A, and B's build 4 is neither A's nor
    lost."""
    events = [
        play(0, "build", "2H", ("5C",), (), 7),
        play(1, "trail", "KC"),
        play(0, "add", "7D", (), (7,), 7, owners=(0,)),
        play(1, "trail", "3C"),
        play(0, "capture", "7S", (), (7,), 7, owners=(0,)),
        play(1, "build", "AD", ("3C",), (), 4),
        play(0, "increase", "2S", (), (4,), 6, owners=(1,)),
        play(1, "capture", "6H", (), (6,), 6, owners=(0,)),
    ]
    piles = (frozenset(c("2H", "5C", "7D", "7S")), frozenset(set(range(52)) - set(c("2H", "5C", "7D", "7S"))))
    final = Position(rules=STRICT, captured=piles, last_capturer=1)
    record = round_record(RoundResult(1, events, final, score_round(STRICT, piles, (0, 0))))
    rec = frame_as_format2(pd.DataFrame([record])).iloc[0]  # player 1 deals: player 0 is first
    assert {k: rec[f"first_{k}"] for k in ANATOMY} == {
        "plays_trail": 0,
        "plays_capture": 1,
        "plays_build": 1,
        "plays_increase": 1,
        "plays_add": 1,
        "builds_made": 2,  # the build of 7, and B's build taken over
        "builds_captured_own": 1,
        "builds_lost": 1,
    }
    assert {k: rec[f"dealer_{k}"] for k in ANATOMY} == {
        "plays_trail": 2,
        "plays_capture": 1,
        "plays_build": 1,
        "plays_increase": 0,
        "plays_add": 0,
        "builds_made": 1,
        "builds_captured_own": 0,  # the build of 6 it captured was A's
        "builds_lost": 0,  # its build of 4 was taken over, not captured
    }


@pytest.fixture(scope="module")
def rounds():
    return mirrored_rounds()


@pytest.fixture(scope="module")
def table(rounds):
    return anatomy_table(rounds)


def q(t: pd.DataFrame, policy: str, quantity: str) -> pd.Series:
    sel = t[(t["policy"] == policy) & (t["quantity"] == quantity)]
    assert len(sel) == 1, (policy, quantity)
    return sel.iloc[0]


def test_the_table_has_every_quantity_with_an_interval(table):
    assert list(table.columns) == COLUMNS
    assert list(table["quantity"]) == [name for name, _, _ in QUANTITIES] * 2
    assert set(table["policy"]) == {"greedy", "random"}
    assert (table["ci_lo"] <= table["mean"]).all() and (table["mean"] <= table["ci_hi"]).all()
    assert (table["ci_hi"] > table["ci_lo"]).all()  # no collapsed interval, not even at a share of 0
    shares = table[table["unit"] != "per round"]
    assert ((shares["ci_lo"] >= 0) & (shares["ci_hi"] <= 1)).all()
    plays = table[table["unit"] == "share of plays"]
    assert (plays["n"] == 100 * 24).all()  # 100 rounds of 24 plays for each policy (no void round here)


def seat_values(df: pd.DataFrame, policy: str, column: str) -> tuple[np.ndarray, np.ndarray]:
    """Direct: the policy's non-void values of {place}_column, each place it holds, and their deal ids."""
    x, deal = [], []
    for r in df.to_dict("records"):
        for place in PLACES:
            if not r["void"] and r[f"policy_{r[f'{place}_seat']}"] == policy:
                x.append(r[f"{place}_{column}"])
                deal.append(r["deal_id"])
    return np.array(x, dtype=np.float64), np.array(deal)


def test_each_number_is_a_direct_count_over_the_rows(rounds, table):
    for policy in ("greedy", "random"):
        plays = sum(seat_values(rounds, policy, f"plays_{k}")[0] for k in PLAY_KINDS)
        for k in PLAY_KINDS:
            count, deal = seat_values(rounds, policy, f"plays_{k}")
            r = q(table, policy, f"share_{k}")
            assert r["mean"] == pytest.approx(count.sum() / plays.sum())
            assert r["ci_lo"] == pytest.approx(cluster_wilson(count / plays, deal, trials=plays).lo)
        for name in ("builds_made", "builds_captured_own", "builds_lost"):
            x, deal = seat_values(rounds, policy, name)
            est, r = cluster_mean_ci(x, deal), q(table, policy, name)
            assert (r["mean"], r["ci_hi"]) == pytest.approx((est.mean, est.hi))
        cards, _ = seat_values(rounds, policy, "n_cards")
        assert q(table, policy, "cards")["mean"] == pytest.approx(cards.mean())
        won, deal = seat_values(rounds, policy, "cards")  # most-cards points: 3 when won
        assert q(table, policy, "most_cards_won")["mean"] == pytest.approx((won > 0).mean())
        assert q(table, policy, "most_cards_won")["ci_lo"] == pytest.approx(cluster_wilson(won > 0, deal).lo)
    direct = [r["remainder"] for r in rounds.to_dict("records") if r[f"policy_{r['last_capturer']}"] == "greedy"]
    assert q(table, "greedy", "remainder_cards")["mean"] == pytest.approx(sum(direct) / 100)


def test_hand_checkable_sums(rounds, table):
    for policy in ("greedy", "random"):
        shares = table[(table["policy"] == policy) & (table["unit"] == "share of plays")]
        assert shares["mean"].sum() == pytest.approx(1)
    for prize in ("most_cards", "most_spades"):  # won by greedy, by random, or by nobody
        tied = q(table, "greedy", "most_cards_tied")["mean"] if prize == "most_cards" else 0  # 13 spades never tie
        won = q(table, "greedy", f"{prize}_won")["mean"] + q(table, "random", f"{prize}_won")["mean"]
        assert won + tied == pytest.approx(1)
    assert q(table, "greedy", "most_cards_tied")["mean"] > 0  # the sample holds a 26-26 round
    last = q(table, "greedy", "last_capture")["mean"] + q(table, "random", "last_capture")["mean"]
    assert last == pytest.approx(1)
    live = rounds[rounds["void"] == 0]
    # docs/rules.md section 7: every card ends in a pile (the last capturer takes the remainder; no build is left)
    assert (live["first_n_cards"] + live["dealer_n_cards"] == 52).all()
    assert (live["first_n_spades"] + live["dealer_n_spades"] == 13).all()
    for p in PLACES:  # each capture of a build ends one the owner made; the rest were taken over or merged
        assert (live[f"{p}_builds_captured_own"] + live[f"{p}_builds_lost"] <= live[f"{p}_builds_made"]).all()
        assert sum(live[f"{p}_plays_{k}"] for k in PLAY_KINDS).eq(24).all()


def test_a_policy_against_itself_pools_both_seats():
    t = anatomy_table(played_rounds(30, "random", "random", False, seed=11))
    assert set(t["policy"]) == {"random"} and len(t) == len(QUANTITIES)
    assert q(t, "random", "last_capture")["mean"] == pytest.approx(0.5)  # one of the two seats, every round
    won, tied = q(t, "random", "most_cards_won")["mean"], q(t, "random", "most_cards_tied")["mean"]
    assert 2 * won + tied == pytest.approx(1)


def test_records_without_the_anatomy_columns_are_named():
    with pytest.raises(InputError, match="plays_trail.*run simulate again"):
        anatomy_table(mirrored_rounds().drop(columns=["first_plays_trail"]))


@pytest.mark.parametrize("rounds", [mirrored_rounds, same_policy_rounds], ids=["two-policies", "one-policy"])
def test_two_players_by_seat_read_as_by_place(rounds):
    """The anatomy of two-player records written by seat (format 1, as older versions wrote them) is that of the
    same rounds by place (format 2), to the last digit: void rounds and a policy in both seats included."""
    df = rounds()
    df = pd.concat([df, void_copy(df.head(6))], ignore_index=True)
    assert "s0_plays_trail" in in_seats(df).columns
    pd.testing.assert_frame_equal(anatomy_table(in_seats(df)), anatomy_table(df))


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("anatomy") / "run"
    simulate_dir(path, deals=30, policy_a="builder", policy_b="greedy", seed=5, card_deals=0)
    return path


def test_report_anatomy_on_a_run_folder(run_dir, tmp_path):
    proc = run("report", "anatomy", str(run_dir), "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    for ext in ("csv", "json", "png", "svg"):
        assert (tmp_path / "out" / f"anatomy.{ext}").stat().st_size > 0
    t = pd.read_csv(tmp_path / "out" / "anatomy.csv")
    assert list(t.columns) == COLUMNS and set(t["policy"]) == {"builder", "greedy"}
    assert q(t, "builder", "builds_made")["mean"] > 0
    js = json.loads((tmp_path / "out" / "anatomy.json").read_text())
    assert js[0]["quantity"] == "share_trail" and js[0]["mean"] == pytest.approx(t.loc[0, "mean"])
    svg = (tmp_path / "out" / "anatomy.svg").read_text(encoding="utf-8")
    assert "builder vs greedy" in svg and "seed 5" in svg  # the caption footer names the run


def test_report_all_writes_the_anatomy_and_its_lines(run_dir):
    results = write_all(run_dir)
    md = (run_dir / "report" / "report.md").read_text()
    assert "## Anatomy of a round" in md and "anatomy.png" in md
    made = q(results["anatomy"], "builder", "builds_made")
    assert f"made {made['mean']:.2f} [{made['ci_lo']:.2f}, {made['ci_hi']:.2f}]" in md


def test_an_older_run_reports_all_but_the_anatomy(run_dir, tmp_path):
    """A run of a version before the anatomy: its records by seat (format 1), without plays and builds."""
    old = tmp_path / "old"
    rounds = in_seats(RunDir(run_dir).read_rounds())
    write_run(rounds.drop(columns=[c for c in rounds.columns if "_plays_" in c or "_builds_" in c]), old)
    names = pq.read_schema(next((old / "rounds").glob("*.parquet"))).names
    assert "s0_total" in names and "s0_plays_trail" not in names
    results = write_all(old)
    assert "anatomy" not in results and "summary" in results
    assert not (old / "report" / "anatomy.csv").exists()
    assert "Anatomy" not in (old / "report" / "report.md").read_text()
    (old / "manifest.json").write_text((run_dir / "manifest.json").read_text())
    assert_one_line_error(run("report", "anatomy", str(old)), "first_plays_trail", "run simulate again")
