"""Round-record reports: each number against a direct computation over the rows, voids, files."""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.errors import InputError
from casino_sim.reference.score import CATEGORIES
from casino_sim.reports import kinds, tables
from casino_sim.reports.index import write_all
from casino_sim.reports.load import prepare, read_rounds
from casino_sim.reports.stats import mean_ci
from casino_sim.reports.views import view_of
from tests.support.report_data import mirrored_rounds, same_policy_rounds, void_copy, write_run

PLACES = ("first", "dealer")  # two players' places


def policy_points(df: pd.DataFrame, policy: str, column: str, role: str | None = None) -> list[float]:
    """Direct: the values of {place}_column for every non-void place the policy holds (the dealer's or the first
    player's only, by `role`)."""
    out = []
    for r in df.to_dict("records"):
        if r["void"]:
            continue
        for place in PLACES:
            if r[f"policy_{r[f'{place}_seat']}"] != policy or role not in (None, place):
                continue
            out.append(r[f"{place}_{column}"])
    return out


def player_total(r: dict, player: int) -> int:
    """Direct: the points of `player` (0 or 1) in round record r."""
    return next(r[f"{place}_total"] for place in PLACES if r[f"{place}_seat"] == player)


def direct_pairs(df: pd.DataFrame) -> list[float]:
    """Direct: per deal, the mean over its non-void rounds of (points of A's player - the other player's)."""
    diffs = defaultdict(list)
    for r in df.to_dict("records"):
        if r["void"]:
            continue
        a = r["mirror"]  # A's player
        diffs[r["deal_id"]].append(player_total(r, a) - player_total(r, 1 - a))
    return [float(np.mean(diffs[d])) for d in sorted(diffs)]


def place_columns(df: pd.DataFrame) -> list[str]:
    """Every column of a place but its seat: what a void round zeroes."""
    return [c for c in df.columns if c.startswith(("first_", "dealer_")) and not c.endswith("_seat")]


def row(t: pd.DataFrame, **match) -> pd.Series:
    sel = t
    for k, v in match.items():
        sel = sel[sel[k] == v]
    assert len(sel) == 1, (match, len(sel))
    return sel.iloc[0]


@pytest.fixture(scope="module")
def mirrored():
    return mirrored_rounds()


@pytest.fixture(scope="module")
def same():
    return same_policy_rounds()


def test_prepare_names_policies_and_clusters_deals(mirrored):
    df = prepare(mirrored)
    assert set(df["matchup"].astype(str)) == {"greedy vs random"}
    assert (df["policy_a"].astype(str) == "greedy").all()
    assert df.groupby("deal_id")["cluster"].nunique().max() == 1  # both seatings of a deal: one cluster
    assert df["cluster"].nunique() == df["deal_id"].nunique()
    assert "mu" not in mirrored.columns  # the caller's frame is untouched


def test_score_breakdown_matches_direct_means(mirrored, same):
    t = tables.score_breakdown_table(mirrored)
    for policy in ("greedy", "random"):
        for cat in (*CATEGORIES, "total"):
            x = policy_points(mirrored, policy, cat)
            r = row(t, policy=policy, category=cat)
            assert r["mean"] == pytest.approx(np.mean(x))
            assert r["n"] == len(x) == 100
            assert r["ci_lo"] <= r["mean"] <= r["ci_hi"]
        parts = t[(t["policy"] == policy) & (t["category"] != "total")]["mean"].sum()
        assert parts == pytest.approx(row(t, policy=policy, category="total")["mean"])
    # one policy in both seats: pooled over both seats
    t2 = tables.score_breakdown_table(same)
    r = row(t2, policy="random", category="total")
    assert r["n"] == 80
    assert r["mean"] == pytest.approx(np.mean(policy_points(same, "random", "total")))


def test_greedy_outscores_random(mirrored):
    t = tables.summary_table(mirrored)
    assert t.loc[0, "diff_ci_lo"] > 0  # greedy takes more points than random play, even on 50 deals


def test_sweep_tables_match_direct_counts(mirrored):
    df = prepare(mirrored)
    rates, dist = tables.sweep_rate_table(df), tables.sweep_distribution_table(df)
    for policy in ("greedy", "random"):
        x = policy_points(mirrored, policy, "n_sweeps")
        assert row(rates, policy=policy, batch=0)["mean"] == pytest.approx(np.mean(x))
        for b in range(1, 7):
            assert row(rates, policy=policy, batch=b)["mean"] == pytest.approx(
                np.mean(policy_points(mirrored, policy, f"sweeps_b{b}"))
            )
        by_batch = rates[(rates["policy"] == policy) & (rates["batch"] > 0)]["mean"].sum()
        assert by_batch == pytest.approx(np.mean(x))
        d = dist[dist["policy"] == policy]
        assert d["share"].sum() == pytest.approx(1.0)
        for k, share in zip(d["sweeps"], d["share"]):
            assert share == pytest.approx(np.mean(np.array(x) == k))
        assert ((d["ci_lo"] >= 0) & (d["ci_hi"] <= 1)).all()


def test_seat_advantage_matches_direct_means(mirrored):
    t = tables.seat_advantage_table(mirrored)
    assert list(t["policy"]) == ["greedy", "random", "(both)"]
    for policy in ("greedy", "random"):
        r = row(t, policy=policy)
        dealer = policy_points(mirrored, policy, "total", "dealer")
        first = policy_points(mirrored, policy, "total", "first")
        assert r["dealer_mean"] == pytest.approx(np.mean(dealer))
        assert r["first_mean"] == pytest.approx(np.mean(first))
        assert r["diff_mean"] == pytest.approx(np.mean(dealer) - np.mean(first))
        assert r["dealer_n"] + r["first_n"] == 100
        assert r["diff_ci_lo"] < r["diff_mean"] < r["diff_ci_hi"]
    both = row(t, policy="(both)")
    all_dealer = [r["dealer_total"] for r in mirrored.to_dict("records")]
    assert both["dealer_mean"] == pytest.approx(np.mean(all_dealer))


def test_summary_matches_direct_pairs(mirrored):
    t = tables.summary_table(mirrored)
    assert len(t) == 1
    r = t.iloc[0]
    pairs = direct_pairs(mirrored)
    est = mean_ci(pairs)
    assert (r["policy_a"], r["policy_b"], bool(r["mirrored"])) == ("greedy", "random", True)
    assert (r["rounds"], r["void_rounds"], r["deals"]) == (100, 0, 50)
    assert r["diff_mean"] == pytest.approx(est.mean)
    assert (r["diff_ci_lo"], r["diff_ci_hi"]) == pytest.approx((est.lo, est.hi))
    a_tot = policy_points(mirrored, "greedy", "total")
    b_tot = policy_points(mirrored, "random", "total")
    assert r["total_a_mean"] == pytest.approx(np.mean(a_tot))
    assert r["total_b_mean"] == pytest.approx(np.mean(b_tot))
    wins = []
    for x in mirrored.to_dict("records"):
        d = player_total(x, x["mirror"]) - player_total(x, 1 - x["mirror"])
        wins.append(1.0 if d > 0 else 0.5 if d == 0 else 0.0)
    assert r["win_rate_a_mean"] == pytest.approx(np.mean(wins))
    assert 0 <= r["win_rate_a_ci_lo"] < r["win_rate_a_mean"] < r["win_rate_a_ci_hi"] <= 1


def test_convergence_ends_at_the_headline(mirrored, same):
    for data, deals in ((mirrored, 50), (same, 40)):
        df = prepare(data)
        conv, summ = tables.convergence_table(df), tables.summary_table(df)
        last = conv.iloc[-1]
        assert last["deals"] == deals
        assert last["mean"] == pytest.approx(summ.loc[0, "diff_mean"])
        assert (last["ci_lo"], last["ci_hi"]) == pytest.approx((summ.loc[0, "diff_ci_lo"], summ.loc[0, "diff_ci_hi"]))
        assert np.all(np.diff(conv["deals"]) > 0)
        k = int(conv.iloc[len(conv) // 2]["deals"])  # any point: the mean of the first k deals
        assert conv.iloc[len(conv) // 2]["mean"] == pytest.approx(np.mean(direct_pairs(data)[:k]))


def test_convergence_is_downsampled():
    from casino_sim.reports.synthetic import synthetic_rounds

    conv = tables.convergence_table(synthetic_rounds(20_000, seed=1), points=300)
    assert len(conv) <= 300
    assert conv["deals"].iloc[0] == 1 and conv["deals"].iloc[-1] == 10_000


def test_void_rounds_are_counted_but_not_averaged(mirrored):
    with_void = pd.concat([mirrored, void_copy(mirrored.iloc[:20])], ignore_index=True)
    base, voided = prepare(mirrored), prepare(with_void)
    for make in (
        tables.score_breakdown_table,
        tables.sweep_rate_table,
        tables.sweep_distribution_table,
        tables.seat_advantage_table,
        tables.convergence_table,
    ):
        pd.testing.assert_frame_equal(make(base), make(voided))  # means, intervals and n alike
    s = tables.summary_table(voided).iloc[0]
    assert (s["rounds"], s["void_rounds"], s["deals"]) == (120, 20, 50)
    assert s["diff_mean"] == pytest.approx(tables.summary_table(base).loc[0, "diff_mean"])


def test_one_void_seating_leaves_the_other(mirrored):
    df = mirrored.copy()
    df.loc[0, place_columns(df)] = 0
    df.loc[0, "void"] = 1  # deal 0, mirror 0 void: deal 0's pair value is its mirror-1 seating alone
    s = tables.summary_table(df).iloc[0]
    assert s["deals"] == 50
    assert s["diff_mean"] == pytest.approx(np.mean(direct_pairs(df)))
    one = df.loc[1].to_dict()  # mirror 1: A is player 1
    assert direct_pairs(df)[0] == player_total(one, 1) - player_total(one, 0)


def test_write_all_writes_every_file(mirrored, tmp_path):
    run = write_run(mirrored, tmp_path / "run")
    results = write_all(run)
    out = run / "report"
    for name in ("summary", "score_breakdown", "sweeps", "seat_advantage", "anatomy", "convergence"):
        for ext in ("png", "svg", "csv", "json"):
            assert (out / f"{name}.{ext}").stat().st_size > 0, (name, ext)
    assert (out / "sweeps_distribution.csv").stat().st_size > 0
    assert (out / "summary.png").read_bytes()[:4] == b"\x89PNG"
    assert b"<svg" in (out / "summary.svg").read_bytes()[:2000]
    js = json.loads((out / "summary.json").read_text())
    assert js[0]["diff_mean"] == pytest.approx(results["summary"].loc[0, "diff_mean"])
    md = (out / "report.md").read_text()
    for name in ("summary.png", "score_breakdown.png", "sweeps.png", "seat_advantage.png", "convergence.png"):
        assert name in md
    assert f"{results['summary'].loc[0, 'diff_mean']:+.3f}" in md
    assert "casino-sim simulate --deals 50" in md


def test_csv_and_json_write_a_missing_number_alike(mirrored, tmp_path):
    """The first deal of the convergence has no interval: the JSON says null and the CSV an empty cell."""
    import csv

    write_all(write_run(mirrored, tmp_path / "run"))
    out = tmp_path / "run" / "report"
    for path in out.glob("*.csv"):
        assert "inf" not in path.read_text().lower(), path.name
    rows = list(csv.DictReader((out / "convergence.csv").open()))
    records = json.loads((out / "convergence.json").read_text())
    assert records[0]["ci_lo"] is None and rows[0]["ci_lo"] == ""
    for row_csv, record in zip(rows, records, strict=True):
        assert {k for k, v in row_csv.items() if v == ""} == {k for k, v in record.items() if v is None}


def test_reading_a_run_folder(mirrored, tmp_path):
    run = write_run(mirrored, tmp_path / "run", files=3)
    df = read_rounds(run)
    assert len(df) == len(mirrored)
    for c in ("first_total", "dealer_total", "dealer_seat"):
        assert df[c].sum() == mirrored[c].sum()
    t = kinds.summary(run, tmp_path / "out")  # a kind takes a folder as well as a frame
    assert t.loc[0, "deals"] == 50
    assert (tmp_path / "out" / "summary.csv").exists()


def test_bad_input_is_named(mirrored, tmp_path):
    with pytest.raises(InputError, match="no round records"):
        read_rounds(tmp_path)
    with pytest.raises(InputError, match="deal_id"):
        prepare(mirrored.drop(columns="deal_id"))
    with pytest.raises(InputError, match="dealer_total"):
        view_of(write_run(mirrored.drop(columns="dealer_total"), tmp_path / "old"))


def test_write_all_on_synthetic_rounds_is_fast(tmp_path):
    """The scale path on 100,000 rounds (its speed is measured by scripts/bench_reports.py)."""
    from casino_sim.reports.synthetic import synthetic_rounds

    df = synthetic_rounds(100_000, seed=2)
    results = write_all(tmp_path, data=df)
    assert results["summary"].loc[0, "rounds"] == 100_000


def a_always_wins(df: pd.DataFrame) -> pd.DataFrame:
    """The same rounds, rescored so that policy A takes 5 points and B none in every one."""
    out = df.copy()
    for place in PLACES:
        out[f"{place}_total"] = np.where(out[f"{place}_seat"] == out["mirror"], 5, 0)  # A sits at player mirror
    return out


def test_a_win_rate_of_every_round_keeps_a_wilson_interval(mirrored):
    from casino_sim.reports.stats import wilson

    s = tables.summary_table(a_always_wins(mirrored)).iloc[0]
    assert s["win_rate_a_mean"] == 1 and s["win_rate_a_ci_hi"] == 1
    assert s["win_rate_a_ci_lo"] == pytest.approx(wilson(100, 100).lo)  # not the collapsed [100%, 100%]
    assert s["win_rate_a_ci_lo"] < 0.97


def test_sweep_shares_of_none_and_all_keep_their_intervals(mirrored):
    df = mirrored.copy()
    for place in PLACES:  # random never sweeps
        policy = np.where(df[f"{place}_seat"] == 0, df["policy_0"], df["policy_1"])
        df.loc[policy == "random", f"{place}_n_sweeps"] = 0
    dist = tables.sweep_distribution_table(df)
    rand = dist[dist["policy"] == "random"]
    never, always = rand[rand["share"] == 0], rand[rand["share"] == 1]
    assert len(never) > 0 and len(always) == 1
    assert (never["ci_lo"] == 0).all() and (never["ci_hi"] > 0.01).all()  # not "0% [0%, 0%]"
    assert always["ci_hi"].iloc[0] == 1 and always["ci_lo"].iloc[0] < 0.99


def test_few_deals_get_t_intervals_and_one_deal_says_so(mirrored):
    from casino_sim.reports.headlines import ci_text
    from casino_sim.reports.stats import t975

    two = tables.summary_table(mirrored.iloc[:4]).iloc[0]  # 2 mirrored deals
    d = direct_pairs(mirrored.iloc[:4])
    assert two["deals"] == 2
    half = (two["diff_ci_hi"] - two["diff_ci_lo"]) / 2
    assert half == pytest.approx(t975(1) * abs(d[0] - d[1]) / 2)
    one = tables.summary_table(mirrored.iloc[:2]).iloc[0]
    text = ci_text(one, "diff_")
    assert "too few deals" in text and "inf" not in text and text.startswith(f"{one['diff_mean']:+.3f}")
    assert ci_text(one, "win_rate_a_", ".1%").count("%") == 3  # a proportion's interval exists from one deal


def caption_of_svg(path) -> str:
    """Every text of a saved SVG chart (matplotlib writes each text as a comment beside its path)."""
    import re

    return " ".join(re.findall(r"<!-- (.*?) -->", path.read_text(encoding="utf-8")))


def test_every_chart_names_its_run(mirrored, tmp_path):
    run = write_run(mirrored, tmp_path / "run")
    config = {
        "deals": 50,
        "policy_a": "greedy",
        "policy_b": "random",
        "rules": "strict",
        "seed": 7,
        "mirrored": True,
        "games": False,
    }
    (run / "manifest.json").write_text(
        json.dumps({"kind": "simulate", "command": ["casino-sim", "simulate"], "config": config})
    )
    write_all(run)
    charts = sorted((run / "report").glob("*.svg"))
    assert len(charts) == 6  # summary, score, sweeps, seat, anatomy, convergence
    for chart in charts:
        text = caption_of_svg(chart)
        for fragment in ("greedy vs random", "rules strict", "50 deals", "seed 7"):
            assert fragment in text, (chart.name, fragment)


def test_every_maker_reads_three_player_records_as_report_all_does(tmp_path):
    """One set of makers for every player count: given a three-player run (its folder, or its records), each
    maker makes the tables by place that make_all makes for that kind (reports/views.py)."""
    from casino_sim.reports.index import make_all
    from casino_sim.reports.views import ROUND_KINDS
    from tests.support.runs import simulate_dir

    run_dir = tmp_path / "run"
    records = simulate_dir(run_dir, deals=4, rules="italian:players=3", card_deals=0, threads=1, engine="reference")
    every = make_all(run_dir)
    assert list(every) == list(ROUND_KINDS)
    for kind in ROUND_KINDS:
        for data in (run_dir, records):
            made = kinds.MAKERS[kind](data)
            assert list(made.tables) == list(every[kind].tables)
            for name, table in made.tables.items():
                pd.testing.assert_frame_equal(table, every[kind].tables[name])


def test_whole_games_of_three_players_report_their_games(tmp_path):
    """report.md of a run of whole games of three players opens with its games and has their section."""
    from tests.support.runs import simulate_dir

    run_dir = tmp_path / "run"
    simulate_dir(run_dir, deals=3, rules="italian:players=3", games=True, card_deals=0, threads=1, engine="reference")
    results = write_all(run_dir, charts=False)
    md = (run_dir / "report" / "report.md").read_text()
    assert "games" in results and "Whole games: " in md and "## Whole games" in md
    assert f"{results['games'].loc[0, 'games']} games" in md
