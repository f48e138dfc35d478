"""cs.simulate and cs.open_run give the numbers `casino-sim simulate` writes for the same options and seed."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest
from matplotlib.figure import Figure

import casino_sim as cs
from casino_sim.reports.output import csv_bytes
from casino_sim.runner.rundir import RunDir
from tests.support.cli import run as cli

# the report kinds and the CSV file of each one's main table, as the command writes them
TABLE_FILE = {
    "summary": "summary",
    "score": "score_breakdown",
    "sweeps": "sweeps",
    "seat": "seat_advantage",
    "anatomy": "anatomy",
    "convergence": "convergence",
    "games": "games",
    "card-value": "card_values",
}
CASES = {  # the command's options, and the same as API arguments
    "rounds": (
        "--deals 120 --policy expert --vs greedy --seed 5 --card-deals 8 --chunk-deals 50",
        dict(deals=120, policy="expert", vs="greedy", seed=5, card_deals=8, chunk_deals=50),
    ),
    "games": (
        "--games --deals 12 --policy greedy --vs random --rules brazilian --seed 2",
        dict(deals=12, policy="greedy", vs="random", rules="brazilian", seed=2, games=True),
    ),
    "three players": (  # reports by place and team (reports/views.py)
        "--deals 20 --policy expert --vs greedy --rules italian:players=3 --seed 3 --card-deals 2",
        dict(deals=20, policy="expert", vs="greedy", rules="italian:players=3", seed=3, card_deals=2),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_simulate_gives_the_records_and_tables_the_command_writes(case, tmp_path, recwarn):
    options, arguments = CASES[case]
    charts = case == "rounds"  # the others draw none, on either side: the file lists below still agree
    proc = cli("simulate", *options.split(), *([] if charts else ["--no-charts"]), "--out", str(tmp_path / "cli"))
    assert proc.returncode == 0, proc.stderr
    run = cs.simulate(**arguments, out=tmp_path / "api", charts=charts)
    assert not recwarn.list, [str(w.message) for w in recwarn.list]  # no library warning reaches the user
    assert run.path == tmp_path / "api"
    pd.testing.assert_frame_equal(run.rounds, RunDir(tmp_path / "cli").read_rounds())
    written = {kind for kind, name in TABLE_FILE.items() if (tmp_path / "cli" / "report" / f"{name}.csv").exists()}
    assert set(run.kinds) == written and {"summary", "sweeps", "convergence"} <= written
    assert ("games" in written) == (case == "games") and ("card-value" in written) == (case != "games")
    for kind in run.kinds:  # each table as the command's CSV of it, byte for byte (a missing number: empty)
        written = (tmp_path / "cli" / "report" / f"{TABLE_FILE[kind]}.csv").read_bytes()
        assert csv_bytes(run.report(kind)) == written, kind
    assert csv_bytes(run.summary) == (tmp_path / "cli" / "report" / "summary.csv").read_bytes()
    if case == "games":
        pd.testing.assert_frame_equal(run.games, RunDir(tmp_path / "cli").read_table("games"))
    else:
        assert run.games is None
    # the API's folder holds what the command's holds, its report files included (charts only where asked)
    listed = sorted(p.name for p in (run.path / "report").iterdir())
    assert listed == sorted(p.name for p in (tmp_path / "cli" / "report").iterdir())
    assert ("summary.svg" in listed) == charts


def test_a_run_reopened_gives_the_same_tables_and_its_charts(tmp_path):
    run = cs.simulate(deals=30, policy="greedy", vs="random", seed=4, card_deals=3, out=tmp_path / "r", reports=False)
    assert not (run.path / "report").exists()  # the tables and charts are made when asked
    again = cs.open_run(str(tmp_path / "r"))
    assert isinstance(again, cs.Run) and again.config["deals"] == 30 and "greedy vs random" in repr(again)
    pd.testing.assert_frame_equal(again.summary, run.summary)
    pd.testing.assert_frame_equal(again.report("convergence"), run.report("convergence"))
    figure = again.chart("sweeps")
    assert isinstance(figure, Figure) and figure.axes
    footer = [t.get_text() for t in figure.texts]  # the footer naming the run
    assert any(t.startswith("greedy vs random · rules strict · 30 deals") for t in footer), footer
    ten = again.chart("card-value", "ten_diamonds_by_batch")
    assert isinstance(ten, Figure) and ten is not again.chart("card-value")  # the heatmap, drawn afresh
    summary = run.report("summary")
    summary.loc[0, "deals"] = -1  # a copy: the run's own table is untouched
    assert run.summary.loc[0, "deals"] == 30


def test_the_run_folder_records_the_api_call(tmp_path):
    run = cs.simulate(deals=10, policy="expert", seed=3, card_deals=0, out=tmp_path / "r")
    assert run.manifest["command"] == [
        "cs.simulate(deals=10, policy='expert', seed=3, card_deals=0, out='%s')" % (tmp_path / "r")
    ]
    assert "cs.simulate(deals=10" in (run.path / "report" / "report.md").read_text()


def test_a_folder_is_not_overwritten_unless_forced(tmp_path):
    cs.simulate(deals=5, seed=1, card_deals=0, out=tmp_path / "r", reports=False)
    with pytest.raises(ValueError, match="already holds a run"):
        cs.simulate(deals=5, seed=2, card_deals=0, out=tmp_path / "r", reports=False)
    assert cs.simulate(deals=5, seed=2, card_deals=0, out=tmp_path / "r", force=True, reports=False).config["seed"] == 2


def test_a_progress_bar_only_when_asked(tmp_path, capfd):
    cs.simulate(deals=5, seed=1, card_deals=0, out=tmp_path / "quiet", reports=False)
    quiet = capfd.readouterr()
    assert quiet.out == "" and "simulating" not in quiet.err
    cs.simulate(deals=5, seed=1, card_deals=0, out=tmp_path / "bar", progress=True, reports=False)
    assert "simulating" in capfd.readouterr().err


def test_importing_the_package_loads_neither_numba_nor_pandas():
    """Nor the research frameworks (docs/research.md): OpenSpiel and PettingZoo load only with their adapters."""
    heavy = ("numba", "pandas", "matplotlib", "pyspiel", "open_spiel", "pettingzoo", "gymnasium", "casino_sim.research")
    code = f"import sys, casino_sim; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    assert "simulate" in dir(cs) and cs.simulate is cs.api.simulate


def test_the_package_names_the_api_as_the_api_does():
    """casino_sim.API (the names `import casino_sim` gives on first use, without importing the API) is every public
    function and class the API defines: a name added to the API is given by the package."""
    from casino_sim import api

    defined = {
        n
        for n, v in vars(api).items()
        if not n.startswith("_") and getattr(v, "__module__", "").startswith("casino_sim.api.")
    }
    assert set(cs.API) == defined and all(getattr(cs, name) is getattr(api, name) for name in cs.API)
