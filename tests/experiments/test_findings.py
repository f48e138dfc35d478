"""The findings along a ladder (experiments/findings.py, reports/findings.py): common deals, every finding for every
policy, the settled rule, and a resume that never replays what was finished. Tiny runs of cheap policies."""

from __future__ import annotations

import json
import math
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.errors import InputError
from casino_sim.core.fields import FieldError
from casino_sim.experiments.door import Hooks
from casino_sim.experiments.findings import FindingsRequest, FindingsRun
from casino_sim.experiments.findings_precision import SLACK, narrower
from casino_sim.experiments.simulate import config_of
from casino_sim.experiments.simulate_door import Simulation
from casino_sim.reports.findings import CHARTS, EACH_CARD, SEAT, difference_of, run_rows, sentences, shortfall, verdicts
from casino_sim.reports.verdict import about
from casino_sim.runner.deals import seeding_of
from casino_sim.runner.rundir import RunDir
from tests.support.policies import LOADER

LADDER = ("random", "greedy")
REQUEST = FindingsRequest(
    policies=LADDER, players=("2", "3"), deals=60, until_ci=None, chunk_deals=30, resamples=100, threads=1
)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The findings of random and greedy at two and three players, played in one go."""
    root = tmp_path_factory.mktemp("findings")
    door = FindingsRun.new(REQUEST, LOADER, root, ["test"])
    return door, door.execute()


def _runs(door, table: str) -> list:
    return [r for r in door.runs if r.table == table]


def test_every_policy_plays_the_same_deals(made):
    door, _ = made
    for table in REQUEST.players:
        runs = [RunDir(r.path) for r in _runs(door, table)]
        configs = [config_of(run) for run in runs]
        for chunk in range(configs[0].n_chunks):
            rows = [
                seeding_of(c.seed, c.seeding).rows(chunk * c.chunk_deals, c.chunk_size(chunk), c.seatings())
                for c in configs
            ]
            assert np.array_equal(rows[0].decks, rows[1].decks) and np.array_equal(rows[0].seeds, rows[1].seeds)
        rounds = [run.read_rounds(["deal_id", "dealer"]) for run in runs]
        pd.testing.assert_frame_equal(rounds[0], rounds[1])
        assert rounds[0]["deal_id"].nunique() == REQUEST.deals
    assert not any((r.path / "cards").exists() for r in door.runs)  # card values come from the deals: no swaps


def test_the_table_has_every_finding_for_every_policy(made):
    door, table = made
    assert door.ladder == list(LADDER)
    written = pd.read_csv(door.root / "findings.csv")
    assert list(written.columns) == ["finding", "table", "place", "policy", "value", "ci_lo", "ci_hi", "n"]
    expected = {
        SEAT["2"],
        SEAT["3"],
        "sweeps per round",
        "plays by kind",
        "builds per round",
        "value of the 10♦",
        "value of the 2♠",
        "value of the aces",
        EACH_CARD,
        "equity at 0-0, two players",
    }
    for policy in LADDER:
        mine = written[written["policy"] == policy]
        assert set(mine["finding"]) == expected
        assert set(mine[mine["finding"] == SEAT["3"]]["place"]) == {"first", "second", "dealer"}
        assert len(mine[mine["finding"] == "value of the aces"]) == 4
    assert (written["ci_lo"] <= written["value"]).all() and (written["value"] <= written["ci_hi"]).all()
    assert (written["n"] > 0).all()
    for finding in expected - {EACH_CARD}:
        assert (door.root / f"{CHARTS[finding]}.png").exists() and (door.root / f"{CHARTS[finding]}.svg").exists()
    text = (door.root / "findings.md").read_text()
    assert all(f"- {s}" in text for s in sentences(table, door.ladder))
    said = pd.read_csv(door.root / "verdicts.csv")
    assert list(said.columns) == ["finding", "place", "verdict", "diff", "diff_lo", "diff_hi", "margin", "policies"]
    assert set(said["verdict"]) <= {"settled", "moves with strength", "undetermined"}
    assert len(said) == len(written.drop_duplicates(["finding", "place"]))
    svg = (door.root / "sweeps.svg").read_text(encoding="utf-8")  # the caption names the runs
    assert "brazilian rules, at most 60 deals a run, seed 0" in svg
    manifest = json.loads((door.root / "manifest.json").read_text())  # the table's JSON does not overwrite it
    assert manifest["kind"] == "findings" and manifest["request"]["policies"] == list(LADDER)
    assert len(json.loads((door.root / "findings.json").read_text())) == len(written)


def _table(rows: list[tuple]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["finding", "place", "policy", "value", "ci_lo", "ci_hi"]).assign(table="t", n=9)


def test_a_verdict_is_settled_only_inside_the_margin_and_moves_only_clear_of_zero():
    ladder = ["weak", "mid", "strong"]
    t = _table(
        [
            ("seat advantage, two players", "dealer minus first", "strong", 0.52, 0.50, 0.54),  # rows out of order
            ("seat advantage, two players", "dealer minus first", "weak", -3.0, -3.1, -2.9),
            ("seat advantage, two players", "dealer minus first", "mid", 0.50, 0.48, 0.52),  # +0.02 ± 0.03: settled
            ("sweeps per round", "a player's", "weak", 0.9, 0.85, 0.95),
            ("sweeps per round", "a player's", "mid", 0.5, 0.45, 0.55),
            ("sweeps per round", "a player's", "strong", 0.2, 0.15, 0.25),  # -0.3: moves
            ("value of the 10♦", "10♦", "mid", 2.0, 0.0, 4.0),  # overlapping wide intervals: not settled
            ("value of the 10♦", "10♦", "strong", 2.5, 0.5, 4.5),
            ("value of the 2♠", "2♠", "strong", 1.0, 0.5, 1.5),
            ("equity at 0-0, two teams", "the non-dealer's side", "mid", 0.49, 0.48, 0.5),
            ("equity at 0-0, two teams", "the non-dealer's side", "strong", 0.49, 0.48, 0.5),  # the same play
            ("seat advantage, two teams", "team_first", "mid", -0.5, -0.6, -0.4),
            ("seat advantage, two teams", "team_first", "strong", -0.5, -0.6, -0.4),
            ("seat advantage, two teams", "team_dealer", "mid", 0.5, 0.4, 0.6),
            ("seat advantage, two teams", "team_dealer", "strong", 0.55, 0.45, 0.65),
        ]
    )
    v = verdicts(t, ladder).set_index(["finding", "place"])
    assert list(verdicts(t, ladder).columns) == [
        "finding", "place", "verdict", "diff", "diff_lo", "diff_hi", "margin", "policies"
    ]  # fmt: skip
    seat = v.loc[("seat advantage, two players", "dealer minus first")]
    assert seat["verdict"] == "settled" and seat["policies"] == "mid, strong" and seat["margin"] == 0.1
    assert math.isclose(seat["diff"], 0.02) and math.isclose(seat["diff_hi"] - seat["diff"], math.hypot(0.02, 0.02))
    sweeps = v.loc[("sweeps per round", "a player's")]
    assert sweeps["verdict"] == "moves with strength" and sweeps["margin"] == 0.01 and sweeps["diff_hi"] < 0
    assert v.loc[("value of the 10♦", "10♦"), "verdict"] == "undetermined"  # overlap is not agreement
    assert v.loc[("equity at 0-0, two teams", "the non-dealer's side"), "margin"] == 0.005
    said = sentences(t, ladder)
    assert said[0].startswith("Seat advantage, two players: settled, +0.500 [+0.480, +0.520] under mid")
    assert "against a margin of ±0.1" in said[0]
    assert said[1].startswith("Sweeps per round: moves with strength, 0.500 [0.450, 0.550] under mid")
    assert said[2].startswith("Value of the 10♦: undetermined,") and "more deals a run would decide it" in said[2]
    assert said[3] == "Value of the 2♠: measured under fewer than two policies; nothing to compare."
    assert said[4].startswith("Equity at 0-0, two teams: mid and strong play alike here") and ": settled" not in said[4]
    assert "the first player's team" in said[5] and "the dealer's team: " in said[5] and "team_" not in said[5]
    t.loc[2, "ci_lo"], t.loc[0, "ci_hi"] = 0.35, 0.70  # wider: the interval of the difference leaves the margin
    assert verdicts(t, ladder).iloc[0]["verdict"] == "undetermined"


def test_how_many_more_deals_counts_from_the_deals_each_run_played():
    """Not --deals, the cap: each run's own deals (its seat advantage's samples); runs of unequal deals (--precision
    carried the strongest further) are told as a multiple of each run's deals."""
    ladder = ["mid", "strong"]
    t = _table(
        [
            ("seat advantage, two players", "dealer minus first", "mid", 0.5, 0.4, 0.6),
            ("seat advantage, two players", "dealer minus first", "strong", 0.6, 0.5, 0.7),
            ("value of the 10♦", "10♦", "mid", 2.0, 0.0, 4.0),
            ("value of the 10♦", "10♦", "strong", 2.5, 0.5, 4.5),
        ]
    ).assign(n=[400, 400, 380, 390])
    ten = next(v for v in verdicts(t, ladder).itertuples() if v.finding == "value of the 10♦")
    more = (difference_of(ten).times_more() - 1) * 400
    assert f"about {about(more)} more deals a run would decide it" in sentences(t, ladder)[1]
    t.loc[1, "n"] = 1_600  # the strongest played on
    assert "times the deals would decide it" in sentences(t, ladder)[1]


def test_an_undetermined_verdict_says_how_many_deals_would_decide_it():
    from casino_sim.reports.verdict import Verdict, difference

    wide = difference((0.0, -0.2, 0.2), (0.05, -0.15, 0.25), 0.1)  # +0.05 ± 0.28: neither inside nor clear of 0
    k = wide.times_more()
    assert wide.verdict == "undetermined" and k > 1
    half = (wide.hi - wide.lo) / 2 / math.sqrt(k)  # the half-width after k times the deals: it now decides
    assert Verdict(wide.diff, wide.diff - half, wide.diff + half, 0.1).verdict == "settled"


class _CutAt(Hooks):
    """Ctrl-C once the first chunk of `label`'s run is written."""

    def __init__(self, label: str):
        self.label = label

    @contextmanager
    def progress(self, label: str, unit: str):
        def update(done: int, total: int) -> None:
            if label.startswith(self.label) and done > 0:
                raise KeyboardInterrupt

        yield update


def test_a_resumed_ladder_plays_only_what_was_left_and_equals_one_played_at_once(tmp_path, made):
    door, _ = made
    with pytest.raises(KeyboardInterrupt):
        FindingsRun.new(REQUEST, LOADER, tmp_path, ["test"]).execute(hooks=_CutAt("greedy · 2"))
    first = FindingsRun.new(REQUEST, LOADER, tmp_path, ["test"]).runs
    files = [p for r in first for p in sorted((r.path / "rounds").glob("chunk-*.parquet"))]
    stamps = {p: p.stat().st_mtime_ns for p in files}
    assert len(files) == 2 * 2 + 1  # random's two runs and greedy's first chunk
    again = FindingsRun.new(REQUEST, LOADER, tmp_path, ["test"])
    again.execute()
    assert all(p.stat().st_mtime_ns == t for p, t in stamps.items())  # nothing finished is played again
    assert (tmp_path / "findings.csv").read_bytes() == (door.root / "findings.csv").read_bytes()


def test_a_folder_whose_runs_swapped_cards_still_resumes_and_gives_the_same_table(tmp_path, made):
    """Findings played card swaps (--card-deals, 500 deals by default) before they read the card values from each
    run's own deals: a folder of then, its two-player run cut short with its swaps, still finishes, and the swaps
    change no finding."""
    door, _ = made
    with pytest.raises(KeyboardInterrupt):
        FindingsRun.new(REQUEST, LOADER, tmp_path, ["test"]).execute(hooks=_CutAt("greedy · 2"))
    old = next(r for r in FindingsRun.new(REQUEST, LOADER, tmp_path, ["test"]).runs if r.table == "2")
    swapped = Simulation.new({**old.options, "card_deals": "8"}, frozenset(), LOADER, old.path, ["test"], force=True)
    with pytest.raises(KeyboardInterrupt):
        swapped.execute(hooks=_CutAt(""))
    FindingsRun.new(REQUEST, LOADER, tmp_path, ["test"]).execute()
    assert config_of(RunDir(old.path)).card_deals == 8  # finished as it was started
    assert (tmp_path / "findings.csv").read_bytes() == (door.root / "findings.csv").read_bytes()


def test_a_changed_option_or_another_folder_is_refused(tmp_path, made):
    door, _ = made
    changed = FindingsRequest(**{**REQUEST.__dict__, "seed": 1})
    with pytest.raises(InputError, match="--seed 1 differs"):
        FindingsRun.new(changed, LOADER, door.root, ["test"]).execute()
    (tmp_path / "other.txt").write_text("mine")
    with pytest.raises(InputError, match="holds no findings"):
        FindingsRun.new(REQUEST, LOADER, tmp_path, ["test"])


def test_findings_default_to_a_folder_of_their_own_under_results_runs():
    """Not results/findings (the repository's standard results, which refused a run from the root): a folder
    under results/runs named by the request, so the same command again still finishes it."""
    from pathlib import Path

    import typer.main

    from casino_sim.cli.app import app
    from casino_sim.experiments.findings import FindingsRequest, default_out

    [out] = [p for p in typer.main.get_command(app).commands["findings"].params if p.name == "out"]
    assert out.default is None
    one = default_out(FindingsRequest(policies=("random", "greedy"), players=("2",)))
    assert one.parent == Path("results/runs") and one.name.startswith("findings-brazilian-random-greedy")
    assert one == default_out(FindingsRequest(policies=("random", "greedy"), players=("2",)))
    assert one != default_out(FindingsRequest(policies=("random", "expert"), players=("2",)))


PRECISE = FindingsRequest(
    policies=LADDER, players=("2",), deals=1_200, until_ci=20.0, chunk_deals=50, resamples=100, threads=1
)


def _deals(run) -> int:
    return RunDir(run.path).read_rounds(["deal_id"])["deal_id"].nunique()


def test_precision_carries_the_strongest_policys_runs_on_until_its_findings_are_that_precise(tmp_path):
    """--until-ci 20 stops every run after its first chunk; --precision 0.7 carries greedy's (the top rung) on until
    its seat advantage, scoring cards (±0.7) and per-round counts (±0.14) are that precise, random's not at all; the
    same command again plays nothing, and findings.md says the precision was reached."""
    request = FindingsRequest(**{**PRECISE.__dict__, "deals": 3_000, "precision": 0.7})
    door = FindingsRun.new(request, LOADER, tmp_path, ["test"])
    door.execute()
    weak, top = door.runs
    assert _deals(weak) == 50 and 50 < _deals(top) < request.deals
    assert shortfall(run_rows(top.path, "2", None), 0.7) <= 1
    files = sorted(top.path.glob("rounds/chunk-*.parquet"))
    stamps = [p.stat().st_mtime_ns for p in files]
    FindingsRun.new(request, LOADER, tmp_path, ["test"]).execute()
    assert [p.stat().st_mtime_ns for p in sorted(top.path.glob("rounds/chunk-*.parquet"))] == stamps
    md = (tmp_path / "findings.md").read_text()
    assert "Precision under greedy: every headline finding's 95% half-width is within ±0.7 points a round" in md


def test_precision_stops_at_the_deals_cap_and_says_what_is_still_wide(tmp_path):
    """A folder played without --precision is carried on by it (old folders resume); --deals caps the run, and
    findings.md names the findings still wider than asked."""
    FindingsRun.new(PRECISE, LOADER, tmp_path, ["test"]).execute()
    request = FindingsRequest(**{**PRECISE.__dict__, "deals": 300, "precision": 0.05})
    with pytest.raises(InputError, match="--deals 300 differs"):  # a run's cap only grows
        FindingsRun.new(request, LOADER, tmp_path, ["test"]).execute()
    request = FindingsRequest(**{**PRECISE.__dict__, "precision": 0.3})
    door = FindingsRun.new(request, LOADER, tmp_path, ["test"])
    door.execute()
    weak, top = door.runs
    assert _deals(weak) == 50 and _deals(top) == PRECISE.deals  # the 10♦ needs more than 1,200 deals at ±0.3
    said = next(x for x in (tmp_path / "findings.md").read_text().splitlines() if x.startswith("Precision"))
    assert said.startswith("Precision under greedy: asked ±0.3 points a round, ±0.06 for a per-round count or share")
    assert "10♦ ±0." in said and "sweeps per round" not in said
    FindingsRun.new(PRECISE, LOADER, tmp_path, ["test"]).execute()  # the same folder again without --precision
    assert "Precision" not in (tmp_path / "findings.md").read_text()


def test_narrower_aims_the_headline_width_at_the_deals_the_least_precise_finding_needs():
    stop = {"until_ci_stop": {"reached": True, "width": 0.4, "deals": 1_000}}
    assert math.isclose(narrower(stop, 4.0), 0.4 / math.sqrt(4.0 * SLACK))  # 4x the deals: half the width
    assert narrower(stop, 1.0) is None  # every target met
    assert narrower({"until_ci_stop": {"reached": False, "width": 0.4, "deals": 1_000}}, 4.0) is None  # the cap
    assert narrower({}, 4.0) is None  # played to its cap without --until-ci
    assert narrower(stop, math.inf) == 0.2  # a finding with no interval yet: on a while


def test_precision_must_be_a_positive_half_width():
    for bad in (0.0, -1.0, math.nan):
        with pytest.raises(FieldError, match="precision"):
            FindingsRequest(**{**PRECISE.__dict__, "precision": bad}).check()


def test_precise_rungs_carries_the_k_strongest_on(tmp_path):
    """A compute ladder asks the precision of every rung: --precise-rungs 2 carries random's runs on too."""
    request = FindingsRequest(**{**PRECISE.__dict__, "deals": 400, "precision": 1.5, "precise_rungs": 2})
    door = FindingsRun.new(request, LOADER, tmp_path, ["test"])
    door.execute()
    assert all(_deals(r) > 50 for r in door.runs)
    said = [x for x in (tmp_path / "findings.md").read_text().splitlines() if x.startswith("Precision")]
    assert [x.split(":")[0] for x in said] == ["Precision under random", "Precision under greedy"]


def test_each_card_sentence_names_the_cards_of_the_rarer_verdicts():
    """'45 undetermined, 7 moves with strength (...)': the cards whose verdict is rare are named, the common one's
    are not (a list of 45 cards says nothing a count does not)."""
    rows = [(EACH_CARD, f"c{i}", p, 0.0, -0.3, 0.3) for i in range(30) for p in ("mid", "strong")]  # undetermined
    rows += [(EACH_CARD, "up", "mid", 0.0, -0.01, 0.01), (EACH_CARD, "up", "strong", 1.0, 0.99, 1.01)]  # moves
    said = sentences(_table(rows), ["mid", "strong"])[0]
    assert said.startswith("Value of each card between mid and strong (a margin of ±0.1 points a round): ")
    assert "30 undetermined, 1 moves with strength (up)." in said and "c0" not in said
