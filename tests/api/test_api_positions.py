"""cs.moves, cs.analyse and cs.tournament give what `casino-sim moves`, `analyse` and `tournament` print or write."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from matplotlib.figure import Figure

import casino_sim as cs
from tests.support.cli import EXAMPLE
from tests.support.cli import run as cli

NOTATION = ["kind", "card", "loose", "builds", "value"]
MID_ROUND = {  # the golden analyse position: the opponent's hand unknown
    "rules": "strict",
    "to_move": 0,
    "hands": [["7D", "TD", "2S", "KH"], None],
    "loose": ["3C", "4H", "KC", "TS"],
    "captured": [[], []],
}


def _notation(frame: pd.DataFrame) -> list[dict]:
    """The rows of a moves frame as docs/notation.md move records (an absent value as null)."""
    rows = frame[NOTATION].astype(object).where(frame[NOTATION].notna(), None)
    return [dict(r) for r in rows.to_dict(orient="records")]


@pytest.mark.parametrize("engine", ["numba", "reference"])
def test_moves_are_the_commands_moves_in_its_order(engine, example_file):
    proc = cli("moves", str(example_file), "--format", "json", "--engine", engine)
    assert proc.returncode == 0, proc.stderr
    text = cli("moves", str(example_file), "--engine", engine).stdout.splitlines()
    frame = cs.moves(EXAMPLE, engine=engine)
    assert _notation(frame) == json.loads(proc.stdout)
    numbered = [line.strip().split("  ", 1) for line in text]  # `moves` writes each move after its number
    assert frame["text"].tolist() == [words for _, words in numbered]
    assert frame["number"].tolist() == [int(n) for n, _ in numbered] == list(range(1, len(text) + 1))
    pd.testing.assert_frame_equal(cs.moves(json.dumps(EXAMPLE), engine=engine), frame)  # JSON text
    pd.testing.assert_frame_equal(cs.moves(example_file, engine=engine), frame)  # a file (a Path)


def test_analyse_ranks_the_moves_as_the_command_does(tmp_path):
    (tmp_path / "pos.json").write_text(json.dumps(MID_ROUND))
    proc = cli("analyse", str(tmp_path / "pos.json"), "--worlds", "200", "--seed", "4", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    want = json.loads(proc.stdout)["moves"]
    got = cs.analyse(MID_ROUND, worlds=200, seed=4)
    assert got["number"].tolist() == [m["number"] for m in want]
    assert _notation(got) == [m["move"] for m in want]
    assert [round(x, 4) for x in got["mean"]] == [m["mean"] for m in want]
    assert [[round(lo, 4), round(hi, 4)] for lo, hi in zip(got["ci_lo"], got["ci_hi"])] == [m["ci95"] for m in want]
    assert [round(x, 4) for x in got["best_share"]] == [m["best_share"] for m in want]
    assert got["exact"].isna().all() and got.attrs["worlds"] == 200 and got.attrs["policy"] == "expert"


def test_analyse_gives_exact_values_in_the_last_batch():
    held = {"7D", "2S", "5C", "KH", "5D", "2C"}  # the hands and the table; every other card is in a pile
    piles = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC" if f"{r}{s}" not in held]
    last = {
        "rules": "strict",
        "to_move": 0,
        "hands": [["7D", "2S"], ["5C", "KH"]],
        "loose": ["5D", "2C"],
        "captured": [piles[:23], piles[23:]],
        "last_capturer": 1,
    }
    got = cs.analyse(last, worlds=20, seed=1)
    assert got["exact"].notna().all() and got["exact"].is_monotonic_decreasing
    assert got.attrs["exact_note"] is None


def test_tournament_gives_the_tables_the_command_writes(tmp_path):
    proc = cli(
        "tournament", "random", "greedy", "expert", "--games", "4", "--seed", "3", "--out", str(tmp_path / "cli")
    )
    assert proc.returncode == 0, proc.stderr
    t = cs.tournament(["random", "greedy", "expert"], games=4, seed=3, out=tmp_path / "api")
    report = tmp_path / "cli" / "report"
    assert t.ratings.to_csv(index=False) == (report / "ratings.csv").read_text()
    assert t.matches.to_csv(index=False) == (report / "matches.csv").read_text()
    assert t.win_rate.to_csv(index_label="policy") == (report / "win_rate_matrix.csv").read_text()
    assert t.margin.to_csv(index_label="policy") == (report / "margin_matrix.csv").read_text()
    again = cs.open_run(t.path)
    assert isinstance(again, cs.Tournament)
    pd.testing.assert_frame_equal(again.ratings, t.ratings)
    assert isinstance(again.chart(), Figure) and again.chart().axes
