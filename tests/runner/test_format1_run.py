"""A run folder of format 1 (two players' records by seat, s0_/s1_, as versions before format 2 wrote them) reads as
format 2, reports as its own version reported it, and resumes into a run equal to a fresh one.

tests/data/format1-run is such a folder, kept as that version wrote it (`simulate --deals 300 --policy expert --vs
greedy --seed 7 --chunk-deals 100`, its report folder left out; its manifest's command names no folder of the
machine that made it), and tests/data/format1-report holds the tables that version's reports wrote of it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import casino_sim as cs
from casino_sim.core.errors import InputError
from casino_sim.experiments.simulate import SimConfig, play_run, write_reports
from casino_sim.reports.output import csv_bytes
from casino_sim.runner.records import read_file
from casino_sim.runner.rundir import RunDir, record_format
from tests.support.cli import run
from tests.support.policies import LOADER

DATA = Path(__file__).parent.parent / "data"
FOLDER, REPORT = DATA / "format1-run", DATA / "format1-report"
OPTIONS = "--policy expert --vs greedy --seed 7 --chunk-deals 100".split()


@pytest.fixture
def copy(tmp_path) -> Path:
    """A copy of the format-1 folder, to report or resume (the committed one stays as it was)."""
    return Path(shutil.copytree(FOLDER, tmp_path / "format1-run"))


def test_the_folder_is_of_format_1():
    names = pq.read_schema(FOLDER / "rounds" / "chunk-000000.parquet").names
    assert "s0_total" in names and "first_total" not in names
    manifest = json.loads((FOLDER / "manifest.json").read_text())
    assert "format_version" not in manifest and record_format(manifest) == 1


def test_its_records_read_as_format_2_each_player_in_its_place():
    rounds = RunDir(FOLDER).read_rounds()
    assert len(rounds) == 600 and not any(c.startswith(("s0_", "s1_")) for c in rounds.columns)
    assert list(rounds.columns[:6]) == ["chunk", "deal_id", "mirror", "policy_0", "policy_1", "rules"]
    by_deal = rounds.set_index(["deal_id", "mirror"])
    # deal 100 (chunk 1), seating 0: seat 1 dealt; seat 0 (expert) had 8 points, 3 for most cards, 2 builds
    assert by_deal.loc[(100, 0), ["dealer", "first_seat", "dealer_seat"]].tolist() == [1, 0, 1]
    assert by_deal.loc[(100, 0), ["first_total", "dealer_total", "first_cards", "dealer_cards"]].tolist() == [
        8,
        3,
        3,
        0,
    ]
    assert by_deal.loc[(100, 0), ["first_plays_build", "dealer_plays_build", "last_capturer"]].tolist() == [2, 1, 1]
    # deal 101: seat 0 dealt; seating 0, s0 9 points and s1 2; seating 1, s0 7 and s1 4 (s1: 1 build, s0: 3)
    assert by_deal.loc[(101, 0), ["dealer", "first_seat", "dealer_seat"]].tolist() == [0, 1, 0]
    assert by_deal.loc[(101, 0), ["first_total", "dealer_total", "first_cards", "dealer_cards"]].tolist() == [
        2,
        9,
        0,
        3,
    ]
    assert by_deal.loc[
        (101, 1), ["first_total", "dealer_total", "first_plays_build", "dealer_plays_build"]
    ].tolist() == [
        4,
        7,
        1,
        3,
    ]
    assert (rounds["first_seat"] == 1 - rounds["dealer"]).all() and (rounds["dealer_seat"] == rounds["dealer"]).all()


def test_a_folder_of_both_formats_reads_as_one(copy):
    """A format-1 run resumed by this version holds chunks of both formats: each file is read by its own columns."""
    whole = RunDir(copy).read_rounds()
    chunk = copy / "rounds" / "chunk-000001.parquet"
    read_file(chunk).to_pandas().to_parquet(chunk, index=False)  # chunk 1 rewritten in format 2
    assert "first_total" in pq.read_schema(chunk).names
    pd.testing.assert_frame_equal(RunDir(copy).read_rounds(), whole)
    some = ["deal_id", "dealer_seat", "dealer_total"]
    pd.testing.assert_frame_equal(RunDir(copy).read_rounds(some), whole[some])


def test_it_reports_what_its_version_reported(copy):
    proc = run("report", "all", str(copy))
    assert proc.returncode == 0, proc.stderr
    expected = sorted(REPORT.glob("*.csv"))
    assert len(expected) == 9
    for table in expected:  # its swap replays' tables are card_swaps* now; card_values* are the deal's
        now = table.name.replace("card_values", "card_swaps")
        assert (copy / "report" / now).read_bytes() == table.read_bytes(), table.name
    assert (copy / "report" / "card_values.csv").exists()  # its rounds dealt again from its seed
    assert "Anatomy of a round" in (copy / "report" / "report.md").read_text()


def test_the_api_opens_it_and_gives_its_rounds_in_format_2(copy):
    opened = cs.open_run(copy)
    assert opened.rounds["dealer_total"].sum() == RunDir(FOLDER).read_rounds()["dealer_total"].sum()
    assert "s0_total" not in opened.rounds.columns
    assert csv_bytes(opened.summary) == (REPORT / "summary.csv").read_bytes()


def test_it_resumes_into_the_run_a_fresh_one_plays(copy, tmp_path):
    """--resume with more deals plays the chunks it lacks in today's format beside the old ones (the last, and the
    first, whose paired card deals a longer run changes), seeded by chunk as its version seeded them (no `seeding`
    in its manifest: version 1, runner/chunk_seeding.py): its records and every table are those of the same run
    played whole with that seeding."""
    kept = ("chunk-000001.parquet", "chunk-000002.parquet")  # their deals and paired deals stay as they were
    old = {name: (copy / "rounds" / name).read_bytes() for name in kept}
    proc = run("simulate", "--resume", str(copy), "--deals", "400", "--no-charts")
    assert proc.returncode == 0, proc.stderr
    assert RunDir(copy).finished_chunks() == {0, 1, 2, 3}
    assert {name: (copy / "rounds" / name).read_bytes() for name in kept} == old  # in format 1, as they were
    assert RunDir(copy).read_manifest()["config"]["seeding"] == 1
    fresh = tmp_path / "fresh"
    config = SimConfig(deals=400, policy_a="expert", policy_b="greedy", seed=7, chunk_deals=100, seeding=1)
    play_run(config.resolve(LOADER), RunDir(fresh), ["test"])
    write_reports(RunDir(fresh), charts=False)
    pd.testing.assert_frame_equal(RunDir(copy).read_rounds(), RunDir(fresh).read_rounds())
    tables = sorted((fresh / "report").glob("*.csv"))
    assert len(tables) == 11  # the round tables, the deal's card values and the swap replays'
    for table in tables:
        assert (copy / "report" / table.name).read_bytes() == table.read_bytes(), table.name


def test_a_newer_record_format_is_refused(copy):
    manifest = json.loads((copy / "manifest.json").read_text())
    (copy / "manifest.json").write_text(json.dumps(manifest | {"format_version": 3}))
    with pytest.raises(InputError, match="newer version of casino-sim .record format 3"):
        RunDir(copy).read_manifest()
    (copy / "manifest.json").write_text(json.dumps(manifest | {"format_version": 2}))
    assert record_format(RunDir(copy).read_manifest()) == 2
