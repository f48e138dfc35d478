"""The scripts in scripts/ load against today's package: a name they import that a refactor moved or removed is
found here, not when results/ is next regenerated (standard_results.py once imported a table list that had gone)."""

from __future__ import annotations

import argparse
import importlib
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"

LOAD_ALL = """
import runpy, sys
sys.path.insert(0, sys.argv[1])  # the scripts import each other as the folder's modules
for path in sys.argv[2:]:
    runpy.run_path(path, run_name="loaded_by_test")  # not "__main__": nothing runs
"""


def test_every_script_imports_what_it_names():
    paths = sorted(str(p) for p in SCRIPTS.glob("*.py"))
    assert len(paths) >= 8
    proc = subprocess.run([sys.executable, "-c", LOAD_ALL, str(SCRIPTS), *paths], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_the_frontier_rates_every_built_in_policy():
    from tests.support.policies import builtin_policies

    built_in = [name for name, policy in builtin_policies().items() if policy.source == "built-in"]  # not registered
    assert sorted(_frontier_results().POLICIES) == sorted(built_in)


def _script(name: str):
    """A script of scripts/ as a module (they import each other as the folder's modules)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(SCRIPTS))


def _frontier_results():
    return _script("frontier_results")


def test_the_frontier_is_retimed_around_the_round_robin_already_there(tmp_path, monkeypatch):
    """--only frontier-costs: the committed round robin's ratings with the costs given back make the committed
    frontier table again; a round robin of other policies is refused in one line."""
    frontier_results = _frontier_results()
    results = SCRIPTS.parent / "results" / "frontier"
    committed = pd.read_csv(results / "frontier.csv")
    costs = dict(zip(committed["policy"], committed["us_per_decision"], strict=True))
    monkeypatch.setattr(frontier_results, "_us_per_decision", lambda policy, deals: costs[policy])
    (tmp_path / "frontier" / "tournament").mkdir(parents=True)
    for table in ("ratings.csv", "matches.csv"):
        shutil.copy(results / "tournament" / table, tmp_path / "frontier" / "tournament")
    args = argparse.Namespace(out=tmp_path, frontier_games=200, bench_deals=20_000, seed=2026)
    lines = frontier_results.frontier_costs_section(args, tmp_path)
    assert (tmp_path / "frontier" / "frontier.csv").read_text() == (results / "frontier.csv").read_text()
    assert (tmp_path / "frontier" / "frontier.md").read_text() == (results / "frontier.md").read_text()
    assert lines[0].startswith("## Strength for cost")
    ratings = pd.read_csv(results / "tournament" / "ratings.csv")
    ratings[ratings["policy"] != "trail"].to_csv(tmp_path / "frontier" / "tournament" / "ratings.csv", index=False)
    with pytest.raises(SystemExit, match="other policies"):
        frontier_results.frontier_costs_section(args, tmp_path)


def _standard_results():
    return _script("standard_results")


def test_a_batch_the_ten_of_diamonds_was_never_swapped_in_says_so(tmp_path):
    """--quick's few swapped deals may never deal the 10♦ in batch 1 or 6: the sentence says so (no row), not a
    traceback."""
    standard_results = _standard_results()
    ten = standard_results.TEN_DIAMONDS
    rows = [
        {"variant": "opponent", "card": ten, "batch": 2, "mean": 3.0, "ci_lo": 2.0, "ci_hi": 4.0},
        {"variant": "stock", "card": ten, "batch": 1, "mean": 1.0, "ci_lo": 0.5, "ci_hi": 1.5},
        {"variant": "opponent", "card": ten + 1, "batch": 1, "mean": 1.0, "ci_lo": 0.5, "ci_hi": 1.5},
    ]
    pd.DataFrame(rows).to_csv(tmp_path / "card_swaps_by_batch.csv", index=False)
    assert standard_results._batch(tmp_path, 2) == "+3.00 [+2.00, +4.00]"
    assert standard_results._batch(tmp_path, 1) == "unmeasured (no swapped deal dealt it then)"


def test_the_tournament_section_counts_the_pairings_their_own_test_decides():
    """Each pairing once (matches holds both sides); decided only where the win rate's interval clears 50%."""
    matches = pd.DataFrame(
        [
            ("a", "b", 0.60, 0.55, 0.65),  # a beats b
            ("b", "a", 0.40, 0.35, 0.45),
            ("a", "c", 0.52, 0.47, 0.57),  # undecided
            ("c", "a", 0.48, 0.43, 0.53),
            ("b", "c", 0.30, 0.25, 0.35),  # c beats b, read from b's side
            ("c", "b", 0.70, 0.65, 0.75),
        ],
        columns=["policy", "opponent", "win_rate_mean", "win_rate_ci_lo", "win_rate_ci_hi"],
    ).assign(games=400)
    said = _standard_results().decided_pairings(matches)
    assert said.startswith("2 of 3 pairings name the stronger side")


def test_the_best_place_needs_its_lead_over_every_place_clear_with_the_half_widths_added():
    """The places' advantages share each deal: a lead clear of 0 in quadrature but not with the half-widths added
    names no place; team rows (sides of a partnership game) are not places."""
    seat_results = _script("seat_results")
    rows = [("first", 0.30, 0.20, 0.40), ("second", 0.13, 0.03, 0.23), ("team_first", 0.9, 0.85, 0.95)]
    places = pd.DataFrame(rows, columns=["place", "advantage", "ci_lo", "ci_hi"])
    said = seat_results.best_place("strict:players=3", places, 1_000)
    assert said.startswith("strict:players=3, too few deals to name the best place")  # 0.17 < 0.1 + 0.1
    assert 0.17 - math.hypot(0.1, 0.1) > 0  # in quadrature it would have been named
    clear = places.assign(advantage=[0.30, 0.05, 0.9])
    assert (
        seat_results.best_place("strict:players=3", clear, 1_000) == "strict:players=3, first +0.300 [+0.200, +0.400]"
    )


def test_the_findings_section_plays_each_rule_set_into_its_own_folder_and_resumes(tmp_path, monkeypatch):
    """One findings command per rule set (strict alone here: the others differ only in their tables), its runs
    kept in --findings-runs, its tables, findings.md and charts copied into results/findings/<rules>/; the
    same call again plays nothing (each command resumes its folder)."""
    findings_results = _script("findings_results")
    assert findings_results.RULE_SETS == {
        "strict": ("2",),
        "brazilian": ("2", "3", "4", "teams"),
        "italian": ("2", "3", "4", "teams"),
    }
    monkeypatch.setattr(findings_results, "RULE_SETS", {"strict": ("2",)})
    kept = tmp_path / "results" / "findings" / "convergence" / "convergence.md"  # another section's: left alone
    kept.parent.mkdir(parents=True)
    kept.write_text("# Does it converge?\n")
    (kept.parent.parent / "findings.csv").write_text("the single run of before\n")
    args = argparse.Namespace(
        out=tmp_path / "results",
        findings_deals=40,
        findings_precision=1.0,
        findings_policies="random,greedy",
        findings_precise_rungs=2,
        findings_runs=tmp_path / "runs",
        seed=3,
    )
    lines = findings_results.findings_section(args, tmp_path)
    made = args.out / "findings" / "strict"
    assert {"findings.csv", "verdicts.csv", "findings.md", "seat_2_players.png", "ten_diamonds.svg"} <= {
        p.name for p in made.iterdir()
    }
    assert "### strict" in lines and any(x.startswith("- Precision under greedy: asked ±1") for x in lines)
    assert any(x.startswith("- Precision under random: ") for x in lines)  # the two strongest: both rungs
    chunks = sorted((args.findings_runs / "strict" / "runs").glob("*/*/rounds/chunk-*.parquet"))
    stamps = [p.stat().st_mtime_ns for p in chunks]
    findings_results.findings_section(args, tmp_path)
    assert [p.stat().st_mtime_ns for p in chunks] == stamps
    assert kept.exists() and not (kept.parent.parent / "findings.csv").exists()


def test_a_compute_rung_is_a_searcher_with_its_worlds_multiplied(tmp_path):
    from casino_sim.api.policies import loader

    convergence = _script("findings_convergence")
    rungs = convergence.rung_files(tmp_path, (1, 4))
    assert rungs[0] == "searcher" and rungs[1].endswith("searcher-x4.toml")
    built_in, x4 = loader()("searcher"), loader()(rungs[1])
    assert x4.name == "searcher-x4" and x4.params == {**built_in.params, "worlds": 4 * built_in.params["worlds"]}


def test_a_rung_is_called_stronger_only_by_the_test_of_its_difference(tmp_path, monkeypatch):
    """Each rung against the one below: stronger when the interval is above 0, weaker below, else not shown
    stronger with the deals that would decide."""
    convergence = _script("findings_convergence")
    pairs = iter([(0.30, 0.10, 0.50, 2_000), (0.05, -0.15, 0.25, 2_000), (-0.30, -0.50, -0.10, 2_000)])
    small = iter([(0.053, 0.007, 0.099, 6_000), (0.01, -0.05, 0.07, 6_000)])
    monkeypatch.setattr(convergence, "play_pair", lambda *pair: next(pairs))
    args = argparse.Namespace(convergence_threads=1, convergence_pair_deals=2_000)
    names = ["searcher", "searcher-x4", "searcher-x16", "searcher-x64"]
    lines, stronger = convergence.strength_lines(tmp_path, names, names, args)
    assert lines[0].endswith("over 2,000 fresh mirrored deals: stronger.")
    assert "not shown stronger; too few mirrored deals to tell it stronger: about" in lines[1]
    assert lines[2].endswith("weaker, not stronger.")
    assert not stronger  # the top rung, searcher-x64, was not shown stronger than searcher-x16
    caveat = convergence.caveat(names, [1, 4, 16, 64], stronger)
    assert caveat[0].startswith("searcher-x64 was not shown stronger than searcher-x16 (above), so a finding")
    assert "64x the worlds moves it by less than its margin from 16x" in caveat[0]
    assert convergence.caveat(names, [1, 4, 16, 64], True) == []
    monkeypatch.setattr(convergence, "play_pair", lambda *pair: next(small))
    lines, stronger = convergence.strength_lines(tmp_path, names[:3], names[:3], args)
    assert lines[0].endswith("stronger (by less than 0.1 points a deal).") and not stronger  # above 0, inside ±0.1
    assert lines[1].endswith(
        "not shown stronger; nothing to tell it stronger: they are equal to within ±0.1 (the "
        "95% interval of their difference lies inside that margin)."
    )


def test_each_finding_is_converging_moving_or_undetermined_between_the_two_dearest_rungs():
    convergence = _script("findings_convergence")
    table = pd.DataFrame(
        [
            ("seat advantage, two players", "dealer minus first", "searcher-x4", 0.20, 0.15, 0.25),
            ("sweeps per round", "a player's", "searcher-x4", 0.30, 0.29, 0.31),
            ("value of the 10♦", "10♦", "searcher-x4", 3.5, 3.0, 4.0),
        ],
        columns=["finding", "place", "policy", "value", "ci_lo", "ci_hi"],
    )
    verdicts = pd.DataFrame(
        [
            ("seat advantage, two players", "dealer minus first", "settled", 0.01, -0.05, 0.07, 0.1),
            ("sweeps per round", "a player's", "moves with strength", 0.05, 0.04, 0.06, 0.01),
            ("value of the 10♦", "10♦", "undetermined", 0.3, -0.4, 1.0, 0.1),
        ],
        columns=["finding", "place", "verdict", "diff", "diff_lo", "diff_hi", "margin"],
    ).assign(policies="searcher, searcher-x4")
    said = convergence.convergence_sentences(verdicts, table)
    assert said[0].startswith("- Seat advantage, two players (dealer minus first): converging, to +0.200 [+0.150,")
    assert said[1].startswith("- Sweeps per round (a player's): still moving with compute, 0.300 [0.290, 0.310]")
    assert said[2].startswith("- Value of the 10♦: undetermined, +3.500") and "times the deals would decide" in said[2]


def test_the_convergence_section_plays_its_rungs_at_a_tiny_size(tmp_path):
    """The whole section at a tiny size: the pair, the findings along the rungs, the folder and its page."""
    convergence = _script("findings_convergence")
    args = argparse.Namespace(
        out=tmp_path / "results",
        convergence_multiples=[1, 2],
        convergence_deals=6,
        convergence_pair_deals=2,
        convergence_precision=5.0,
        convergence_threads=1,
        convergence_runs=tmp_path / "runs",
        seed=5,
    )
    lines = convergence.convergence_section(args, tmp_path)
    made = args.out / "findings" / "convergence"
    assert {"findings.csv", "verdicts.csv", "convergence.md", "seat_2_players.png"} <= {p.name for p in made.iterdir()}
    assert any(x.startswith("- searcher-x2 against searcher: ") for x in lines)
    assert any(x.startswith("- Seat advantage, two players (dealer minus first): ") for x in lines)
    assert (made / "convergence.md").read_text().startswith("# Does it converge?")
    said = _script("readme_headline").convergence_lines(args.out)  # the README's part of it, from the same folder
    assert any(x.startswith("- searcher-x2 against searcher: ") for x in said)
    assert "| finding | searcher | searcher-x2 | verdict, searcher to searcher-x2 |" in said
    row = next(x for x in said if x.startswith("| seat advantage, two players (dealer minus first), points a round |"))
    assert row.count(" [") == 3  # both rungs' values and their difference, each with its interval
    assert any(x.startswith("- Seat advantage, two players (dealer minus first): ") for x in said)
    page = (made / "convergence.md").read_text()
    assert "searcher-x2 was not shown stronger than searcher (above)" in page  # 2 deals tell nothing apart
    assert any(x.startswith("searcher-x2 was not shown stronger than searcher") for x in said)  # the README says it too


def test_the_readme_headline_findings_are_what_results_findings_say():
    """The README's headline table and sentences are written from the committed results, never by hand: after a
    run of results/findings/, `python scripts/readme_headline.py` brings them up to date."""
    headline = _script("readme_headline")
    readme = (SCRIPTS.parent / "README.md").read_text(encoding="utf-8").splitlines()
    start, end = readme.index(headline.START), readme.index(headline.END)
    assert readme[start : end + 1] == headline.headline_block(SCRIPTS.parent / "results")


def test_a_headline_sentence_is_said_only_when_every_rule_set_bears_it_out():
    headline = _script("readme_headline")

    def row(value, lo, hi, verdict="undetermined"):
        return pd.Series({"value": value, "ci_lo": lo, "ci_hi": hi, "verdict": verdict})

    inside = [
        ("seat advantage, two players", r, row(0.02, -0.03, 0.07), row(-0.7, -0.75, -0.65), row(0, 0, 0))
        for r in ("strict", "italian")
    ]
    said = headline.ladder_sentences(inside)
    assert said == [
        "Between two searchers the dealer's edge with two players lies within ±0.1 points of zero (strict, italian: "
        "its 95% interval inside that margin), where endgame's players gave the first player 0.70 of a point."
    ]
    wide = [
        inside[0],
        ("seat advantage, two players", "italian", row(0.08, -0.02, 0.18), row(0.1, 0.05, 0.15), row(0, 0, 0)),
    ]
    assert headline.ladder_sentences(wide) == [
        "Between two searchers the dealer's edge with two players is +0.02 to +0.08 points a round (strict, italian)."
    ]
    assert headline.precision(wide) == "within ±0.1 points (±0.02 for sweeps)"
    loose = [("seat advantage, two players", "strict", row(0.1, -0.1, 0.3), row(0, 0, 0), row(0, 0, 0))]
    assert headline.precision(loose) == "given with its 95% interval"  # a half-width of 0.2 is not within ±0.1


def test_a_larger_pair_size_carries_a_played_pair_on_as_if_played_at_once(tmp_path):
    """The convergence ladder's pairs (and the compute sweep's) grow with --convergence-pair-deals: a finished pair
    is resumed to the larger size, never read back short, and gives what a fresh run of that size gives."""
    sweep = _script("compute_sweep")
    args = argparse.Namespace(threads=1)
    short = sweep.play_pair(tmp_path / "grown", "greedy", "random", args, 11, 4)
    grown = sweep.play_pair(tmp_path / "grown", "greedy", "random", args, 11, 8)
    fresh = sweep.play_pair(tmp_path / "fresh", "greedy", "random", args, 11, 8)
    assert short[3] == 4 and grown[3] == 8 and grown == fresh
    assert sweep.play_pair(tmp_path / "grown", "greedy", "random", args, 11, 4) == grown  # a smaller size reads back
