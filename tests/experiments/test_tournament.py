"""casino-sim tournament: round-robin tables, ratings, resume, and bad input."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.errors import InputError
from casino_sim.reports.load import label_matchups
from casino_sim.reports.tournament import matches_table, ratings_table
from tests.support.cli import assert_one_line_error, run
from tests.support.page_tables import csv_rows, read_page
from tests.support.policies import LOADER


def synthetic_games(results: dict[tuple[str, str], list[int]]) -> pd.DataFrame:
    """Games of mirrored pairs: results[(A, B)] lists A's wins (0, 1 or 2) in each pair of games."""
    rows = []
    for (a, b), pair_wins in results.items():
        for g, w in enumerate(pair_wins):
            for mirror in (0, 1):
                a_won = mirror < w if w != 1 else mirror == 0  # w=1: A wins the first game only
                a_seat = mirror
                winner = a_seat if a_won else 1 - a_seat
                pts = (21, 15) if winner == 0 else (15, 21)
                rows.append(
                    {
                        "game_id": g,
                        "mirror": mirror,
                        "policy_0": a if mirror == 0 else b,
                        "policy_1": b if mirror == 0 else a,
                        "rules": "strict",
                        "first_dealer": 0,
                        "winner": winner,
                        "s0_final": pts[0],
                        "s1_final": pts[1],
                        "rounds": 3,
                        "void_rounds": 0,
                    }
                )
    df = pd.DataFrame(rows)
    for c in ("policy_0", "policy_1", "rules"):
        df[c] = df[c].astype("category")
    return label_matchups(df, "game_id")


def test_each_pairing_appears_both_ways_and_adds_up():
    games = synthetic_games({("x", "y"): [2] * 30 + [1] * 10, ("x", "z"): [1] * 40, ("y", "z"): [0] * 5 + [2] * 35})
    m = matches_table(games, ["x", "y", "z"]).set_index(["policy", "opponent"])
    assert len(m) == 6
    assert m.loc[("x", "y"), "win_rate_mean"] == pytest.approx(70 / 80)
    for a, b in [("x", "y"), ("x", "z"), ("y", "z")]:
        assert m.loc[(a, b), "win_rate_mean"] + m.loc[(b, a), "win_rate_mean"] == pytest.approx(1)
        assert m.loc[(a, b), "margin_mean"] == pytest.approx(-m.loc[(b, a), "margin_mean"])
        assert m.loc[(a, b), "win_rate_ci_lo"] == pytest.approx(1 - m.loc[(b, a), "win_rate_ci_hi"])
        assert m.loc[(a, b), "wins"] + m.loc[(b, a), "wins"] == m.loc[(a, b), "games"] == 80


def test_ratings_order_policies_by_their_results_with_intervals_around_them():
    games = synthetic_games(
        {("x", "y"): [2] * 25 + [1] * 15, ("y", "z"): [2] * 25 + [1] * 15, ("x", "z"): [2] * 35 + [1] * 5}
    )
    r = ratings_table(games, ["z", "y", "x"])
    assert list(r["policy"]) == ["x", "y", "z"]
    assert r["elo"].mean() == pytest.approx(1500)
    assert ((r["elo_ci_lo"] <= r["elo"]) & (r["elo"] <= r["elo_ci_hi"])).all()
    assert (r["elo_ci_hi"] - r["elo_ci_lo"] > 0).all()
    even = ratings_table(synthetic_games({("x", "y"): [1] * 40}), ["x", "y"])
    assert even["elo"].to_numpy() == pytest.approx([1500, 1500])


@pytest.fixture(scope="module")
def small_tournament(tmp_path_factory):
    root = tmp_path_factory.mktemp("t") / "tour"
    r = run(
        "tournament",
        "random",
        "greedy",
        "expert",
        "--games",
        "40",
        "--chunk-deals",
        "20",
        "--seed",
        "3",
        "--out",
        str(root),
    )
    assert r.returncode == 0, r.stderr
    return root, r


def test_tournament_writes_matrices_ratings_and_heatmap(small_tournament):
    root, r = small_tournament
    report = root / "report"
    for name in ("tournament.png", "tournament.svg", "tournament.md", "matches.csv", "ratings.json"):
        assert (report / name).stat().st_size > 0, name
    win = pd.read_csv(report / "win_rate_matrix.csv", index_col="policy")
    assert list(win.index) == list(win.columns) == ["random", "greedy", "expert"]
    assert np.isnan(np.diag(win.to_numpy())).all()
    assert (win.to_numpy() + win.to_numpy().T)[~np.eye(3, dtype=bool)] == pytest.approx(np.ones(6))
    ratings = json.loads((report / "ratings.json").read_text())
    assert [x["policy"] for x in ratings] == ["expert", "greedy", "random"]  # the ladder, in whole games
    assert "Elo" in r.stdout and "expert" in r.stdout
    page = read_page(report / "index.html")  # the page: the chart and every table, as the files hold them
    assert page.charts == ["tournament"]
    assert page.tables == {p.name: csv_rows(p) for p in report.glob("*.csv")} and len(page.tables) == 4
    assert dict(page.manifest)["kind"] == "tournament"


def test_a_pairing_is_the_same_as_simulate_games_with_the_same_options(small_tournament, tmp_path):
    root, _ = small_tournament
    alone = tmp_path / "alone"
    r = run(
        "simulate",
        "--games",
        "--policy",
        "greedy",
        "--vs",
        "expert",
        "--deals",
        "40",
        "--chunk-deals",
        "20",
        "--seed",
        "3",
        "--out",
        str(alone),
    )
    assert r.returncode == 0, r.stderr
    a = pd.read_csv(alone / "report" / "games.csv")
    matches = pd.read_csv(root / "report" / "matches.csv").set_index(["policy", "opponent"])
    assert matches.loc[("greedy", "expert"), "win_rate_mean"] == pytest.approx(a.loc[0, "win_rate_a_mean"])
    assert matches.loc[("greedy", "expert"), "margin_mean"] == pytest.approx(a.loc[0, "margin_mean"])


def test_an_interrupted_tournament_resumes_to_the_same_tables(small_tournament, tmp_path):
    import shutil

    root, _ = small_tournament
    cut = tmp_path / "cut"
    shutil.copytree(root, cut)
    shutil.rmtree(cut / "report")
    shutil.rmtree(cut / "pairs" / "greedy-vs-expert")  # never started
    pair = cut / "pairs" / "random-vs-expert"
    (pair / "rounds" / "chunk-000001.parquet").unlink()  # cut mid-way
    manifest = json.loads((pair / "manifest.json").read_text())
    (pair / "manifest.json").write_text(json.dumps(dict(manifest, status="running")))
    r = run("tournament", "--resume", str(cut))
    assert r.returncode == 0, r.stderr
    for name in ("matches.csv", "ratings.csv", "win_rate_matrix.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(cut / "report" / name), pd.read_csv(root / "report" / name))


def test_a_finished_tournament_resumed_says_so_and_a_changed_option_shows_its_values(small_tournament, tmp_path):
    import shutil

    root = tmp_path / "done"
    shutil.copytree(small_tournament[0], root)
    assert not (root / "rounds").exists()  # a tournament's records are its pairings'
    before = {p.name: p.stat().st_mtime_ns for p in (root / "report").iterdir()}
    r = run("tournament", "--resume", str(root))
    assert r.returncode == 0, r.stderr
    assert f"{root} is already complete: 40 games a pairing; nothing to play" in " ".join(r.stdout.split())
    assert {p.name: p.stat().st_mtime_ns for p in (root / "report").iterdir()} == before  # not rewritten
    wrong = run("tournament", "--resume", str(root), "--games", "100", "--seed", "5")
    assert_one_line_error(wrong, "--games 100 and --seed 5 differ from the run's (40, 3)")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["greedy"], "2 to 16 policies"),
        (["greedy", "greedy"], "named twice"),
        (["greedy", "nosuchpolicy"], "nosuchpolicy"),
        (["greedy", "random", "--games", "0"], "--deals"),
        (["greedy", "random", "--rules", "klondike"], "klondike"),
    ],
)
def test_bad_tournaments_are_refused_in_one_line(args, fragment, tmp_path):
    assert_one_line_error(run("tournament", *args, "--out", str(tmp_path / "t")), fragment)
    assert not (tmp_path / "t").exists()


def rendered(table) -> str:
    from rich.console import Console

    console = Console(width=250, record=True)
    console.print(table)
    return console.export_text()


def test_a_clean_sweep_keeps_its_wilson_interval():
    from casino_sim.cli.ui import ratings_table as printed_ratings
    from casino_sim.reports.tournament import render_tournament

    games = synthetic_games({("x", "y"): [2] * 200})  # x wins all 400 games
    m = matches_table(games, ["x", "y"])
    r = ratings_table(games, ["x", "y"])
    md = render_tournament(m, r)
    assert "x beats y in 100.0% [99.0%, 100.0%] of 400 games" in md  # not [100.0%, 100.0%]
    low = m.set_index(["policy", "opponent"]).loc[("y", "x")]
    assert low["win_rate_mean"] == 0 and low["win_rate_ci_hi"] > 0
    assert (r["win_rate_ci_lo"] < r["win_rate"]).iloc[0] and (r["win_rate_ci_hi"] > 0).all()
    assert "wins 100.0% [99.0%, 100.0%] of 400 games" in md
    text = rendered(printed_ratings(r, m))
    assert "100.0% [99.0%, 100.0%]" in text and "0.0% [0.0%, 1.0%]" in text


def test_heatmap_cells_of_a_clean_sweep_do_not_round_to_a_point():
    from casino_sim.reports.charts import tournament_chart
    from casino_sim.reports.tournament import matrix

    games = synthetic_games({("x", "y"): [2] * 1000})  # 2000 games: the bound is 0.2% from the edge
    m, r = matches_table(games, ["x", "y"]), ratings_table(games, ["x", "y"])
    win = tuple(matrix(m, ["x", "y"], f"win_rate_{k}") for k in ("mean", "ci_lo", "ci_hi"))
    margin = tuple(matrix(m, ["x", "y"], f"margin_{k}") for k in ("mean", "ci_lo", "ci_hi"))
    cells = sorted(t.get_text() for t in tournament_chart(win, margin, r).axes[0].texts)
    assert cells == ["0.0%\n[0.0%, 0.2%]", "100.0%\n[99.8%, 100.0%]"]  # not "0% [0%, 0%]"


def test_the_heatmap_rows_follow_the_printed_ratings_and_its_text_is_readable():
    from casino_sim.cli.ui import ratings_table as printed_ratings
    from casino_sim.reports.charts import tournament_chart
    from casino_sim.reports.tournament import matrix

    policies = ["p1", "p2", "p3", "p4", "p5", "p6"]  # given worst first: the ratings put them best first
    results = {(a, b): [0] * 25 + [1] * (5 + 2 * i) for i, a in enumerate(policies) for b in policies[i + 1 :]}
    games = synthetic_games(results)
    m, r = matches_table(games, policies), ratings_table(games, policies)
    assert list(r["policy"]) == policies[::-1]
    win = tuple(matrix(m, policies, f"win_rate_{k}") for k in ("mean", "ci_lo", "ci_hi"))
    margin = tuple(matrix(m, policies, f"margin_{k}") for k in ("mean", "ci_lo", "ci_hi"))
    fig = tournament_chart(win, margin, r)
    table = printed_ratings(r, m)
    rows = list(table.columns[0]._cells)
    assert rows == list(r["policy"])
    for ax in fig.axes[:2]:
        assert [t.get_text() for t in ax.get_yticklabels()] == rows
        assert [t.get_text() for t in ax.get_xticklabels()] == rows
        assert min(t.get_fontsize() for t in ax.texts) >= 9  # was 7 pt: too small to read
    cell = {tuple(np.round(t.get_position()).astype(int)): t.get_text() for t in fig.axes[0].texts}
    top = m.set_index(["policy", "opponent"]).loc[(rows[0], rows[1])]  # row 0 against column 1
    assert cell[(1, 0)].startswith(f"{top['win_rate_mean']:.1%}\n[{top['win_rate_ci_lo']:.1%}, ")


def test_report_all_regenerates_a_tournament_folder(small_tournament, tmp_path):
    import re
    import shutil

    root, _ = small_tournament
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    shutil.rmtree(copy / "report")
    r = run("report", "all", str(copy))
    assert r.returncode == 0, r.stderr
    assert "Elo" in r.stdout
    for name in ("matches.csv", "ratings.csv", "win_rate_matrix.csv", "margin_matrix.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(copy / "report" / name), pd.read_csv(root / "report" / name))
    assert (copy / "report" / "tournament.md").read_text() == (root / "report" / "tournament.md").read_text()
    svg = " ".join(re.findall(r"<!-- (.*?) -->", (copy / "report" / "tournament.svg").read_text(encoding="utf-8")))
    for fragment in ("random, greedy, expert", "rules strict", "40 mirrored pairs of games", "seed 3"):
        assert fragment in svg, fragment
    assert_one_line_error(run("report", "summary", str(copy)), "tournament", "report all")
    (copy / "report" / "index.html").unlink()
    assert run("report", "html", str(copy)).returncode == 0
    assert read_page(copy / "report" / "index.html").tables == read_page(root / "report" / "index.html").tables


def test_the_tournament_chart_is_sized_to_its_policies_and_shown_at_its_own_size():
    """Four policies made a 2,673 px wide PNG (three panels side by side), its text shrunk on any screen: the panels
    are stacked now, the width grows with the policies, and a page (1,100 px wide) shows it unshrunk."""
    from casino_sim.reports.charts import tournament_chart
    from casino_sim.reports.output import PNG_DPI
    from casino_sim.reports.tournament import matrix

    widths = []
    for k in (2, 4, 8):
        policies = [f"p{i}" for i in range(k)]
        games = synthetic_games({(a, b): [1, 2] * 5 for i, a in enumerate(policies) for b in policies[i + 1 :]})
        m, r = matches_table(games, policies), ratings_table(games, policies)
        win = tuple(matrix(m, policies, f"win_rate_{q}") for q in ("mean", "ci_lo", "ci_hi"))
        margin = tuple(matrix(m, policies, f"margin_{q}") for q in ("mean", "ci_lo", "ci_hi"))
        fig = tournament_chart(win, margin, r)
        widths.append(fig.get_figwidth() * PNG_DPI)
        assert min(t.get_fontsize() for ax in fig.axes[:2] for t in ax.texts) >= 9
    assert widths == sorted(widths) and widths[0] < widths[-1]
    assert widths[1] <= 1_070, widths  # four policies: within the page's width


def test_force_replaces_a_tournament_and_its_pairings(tmp_path):
    from casino_sim.experiments.tournament import TournamentConfig, start_tournament

    config = TournamentConfig(policies=("random", "greedy"), games=2).resolve(LOADER)
    start_tournament(config, tmp_path, ["first"])
    (tmp_path / "pairs" / "random-vs-greedy").mkdir(parents=True)
    (tmp_path / "pairs" / "random-vs-greedy" / "manifest.json").write_text('{"status": "complete"}')
    with pytest.raises(InputError, match="--resume finishes what was cut short, --force replaces it"):
        start_tournament(config, tmp_path, ["second"])
    start_tournament(config, tmp_path, ["second"], force=True)
    assert not (tmp_path / "pairs").exists()  # an old pairing would pass for the new tournament's
    assert json.loads((tmp_path / "manifest.json").read_text())["command"] == ["second"]


def test_tournament_has_force_as_simulate_has(tmp_path):
    (tmp_path / "manifest.json").write_text("{}")
    assert_one_line_error(run("tournament", "random", "greedy", "--out", str(tmp_path)), "--force replaces it")
    both = run("tournament", "random", "greedy", "--force", "--resume", str(tmp_path))
    assert_one_line_error(both, "give one of them")


def test_a_tournament_manifest_records_its_policy_names(small_tournament):
    root, _ = small_tournament
    manifest = json.loads((root / "manifest.json").read_text())
    assert manifest["policy_names"] == {"random": "random", "greedy": "greedy", "expert": "expert"}
    assert "resolved" not in manifest["config"]  # the resolved objects are never kept, only their names
    pair = json.loads((root / "pairs" / "greedy-vs-expert" / "manifest.json").read_text())
    assert pair["policy_names"] == {"greedy": "greedy", "expert": "expert"}


def test_a_tournament_is_reported_by_the_names_it_recorded(tmp_path):
    """A policy file is read once, when the tournament starts: its report names it as the manifest recorded it,
    even once the file is gone; a folder from before policy_names were kept still reports."""
    policy = tmp_path / "mine.toml"
    policy.write_text('name = "careful"\n[weights]\ncards_taken = 1.0\n')
    root = tmp_path / "tour"
    r = run("tournament", str(policy), "random", "--games", "4", "--out", str(root))
    assert r.returncode == 0, r.stderr
    manifest = json.loads((root / "manifest.json").read_text())
    assert manifest["policy_names"] == {str(policy): "careful", "random": "random"}
    assert (root / "pairs" / "careful-vs-random").is_dir()
    policy.unlink()
    again = run("report", "all", str(root))
    assert again.returncode == 0, again.stderr
    assert sorted(x["policy"] for x in json.loads((root / "report" / "ratings.json").read_text())) == [
        "careful",
        "random",
    ]
    policy.write_text('name = "careful"\n[weights]\ncards_taken = 1.0\n')
    del manifest["policy_names"]  # a folder written before: its policies named by loading them
    (root / "manifest.json").write_text(json.dumps(manifest))
    old = run("report", "all", str(root))
    assert old.returncode == 0, old.stderr
