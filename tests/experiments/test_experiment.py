"""experiment PLAN.toml: the example CI plan passes; failures and bad plans are reported clearly."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from casino_sim.runner.rundir import RunDir
from tests.support.cli import assert_one_line_error, run

PLAN = Path(__file__).resolve().parents[2] / "scripts" / "ci-plan.toml"


def test_the_example_ci_plan_passes(tmp_path):
    proc = run("experiment", str(PLAN), "--out", str(tmp_path), "--no-charts")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "all 5 expectations met" in proc.stdout
    report = tmp_path / "greedy-vs-random" / "report"
    assert (report / "summary.csv").exists() and not list(report.glob("*.svg"))  # --no-charts: tables, no charts


def test_the_out_folder_is_refused_unless_forced_or_resumed(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(
        '[[run]]\nname = "r"\npolicy = "greedy"\nvs = "random"\ndeals = 40\nchunk_deals = 20\n'
        '[[run.expect]]\nmetric = "diff"\nat_least = -100\n'
    )
    out = tmp_path / "out"
    assert run("experiment", str(plan), "--out", str(out), "--no-charts").returncode == 0
    first = RunDir(out / "r").read_rounds()
    assert_one_line_error(run("experiment", str(plan), "--out", str(out)), "already holds runs", "--resume", "--force")
    RunDir(out / "r").chunk_path(1).unlink()  # as if cut short
    resumed = run("experiment", str(plan), "--out", str(out), "--resume", "--no-charts")
    assert resumed.returncode == 0, resumed.stderr
    pd.testing.assert_frame_equal(RunDir(out / "r").read_rounds(), first)
    plan.write_text(plan.read_text().replace("deals = 40", "deals = 20"))
    assert_one_line_error(run("experiment", str(plan), "--out", str(out), "--resume"), "other options", "--force")
    forced = run("experiment", str(plan), "--out", str(out), "--force", "--no-charts")
    assert forced.returncode == 0, forced.stderr
    assert RunDir(out / "r").finished_chunks() == {0} and RunDir(out / "r").read_manifest()["config"]["deals"] == 20


def test_a_missed_expectation_fails_with_a_report(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(
        'name = "p"\n[defaults]\ndeals = 300\n[[run]]\nname = "r"\npolicy = "random"\nvs = "greedy"\n'
        '[[run.expect]]\nmetric = "diff"\nat_least = 0\n'
    )
    proc = run("experiment", str(plan), "--out", str(tmp_path / "out"), "--no-charts")
    assert proc.returncode == 1
    assert "FAIL" in proc.stdout and "1 of 1 expectations failed" in proc.stdout


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('name = "p"\n', "needs at least one [[run]]"),
        ('[[run]]\npolicy = "greedy"\nvs = "nobody"\n', "unknown policy"),
        ('[[run]]\npolicy = "greedy"\ndeals = "many"\n', "field 'deals' must be int"),
        ('[[run]]\npolicy = "greedy"\ncolour = 1\n', "unknown field 'colour'"),
        ('[[run]]\npolicy = "greedy"\n[[run.expect]]\nmetric = "luck"\nat_least = 1\n', "field 'metric'"),
        ('[[run]]\npolicy = "greedy"\n[[run.expect]]\nmetric = "diff"\nabove = 1\n', "unknown field 'above'"),
        ('[[run]]\npolicy = "greedy"\n[[run.expect]]\nmetric = "diff"\nat_least = "x"\n', "must be a number"),
        ("[[run]\n", "not valid TOML"),
        ('[[run]]\nname = "r"\n[[run.expect]]\nmetric = "diff"\nat_least = 1\n', "needs fields 'policy' and 'vs'"),
        ('[defaults]\npolicy = "greedy"\n[[run]]\n[[run.expect]]\nmetric = "diff"\nat_least = 1\n', "'vs'"),
        ('[[run]]\npolicy = "greedy"\nvs = "random"\n', "needs at least one [[run.expect]]"),
        ('[defaults]\ndeal = 5\n[[run]]\npolicy = "greedy"\n', "[defaults]: unknown field 'deal'"),  # not run[0]
    ],
)
def test_bad_plans_name_the_field(text, fragment, tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(text)
    assert_one_line_error(run("experiment", str(plan), "--out", str(tmp_path / "o")), fragment)
    assert_one_line_error(run("experiment", str(tmp_path / "missing.toml")), "no such plan")


def test_an_expectation_s_value_shows_in_its_metric_s_unit():
    import io

    from rich.console import Console

    from casino_sim.cli.ui import expectations_table
    from casino_sim.experiments.plan import Expectation
    from casino_sim.experiments.run_plan import Outcome

    outcomes = [
        Outcome("a", Expectation("win_rate_a", "ci_lo_above", 0.5), 0.6957, True),
        Outcome("a", Expectation("diff", "at_least", 0.1), 0.9974999999999999, True),
    ]
    out = io.StringIO()
    Console(file=out, width=200).print(expectations_table("x", outcomes))
    assert "69.6%" in out.getvalue() and "+0.998" in out.getvalue() and "0.6957" not in out.getvalue()
