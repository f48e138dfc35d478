"""One name, one policy: two different policies that show under one name are refused by every command that plays
two or more (their results would be pooled into one row); a policy playing itself is not a clash. tune's
default name is no built-in's. Bots show as their own kind, exec."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from casino_sim.analysis.analyse import check_analysis_args
from casino_sim.analysis.regret import RegretConfig
from casino_sim.experiments import tune as tn
from casino_sim.experiments.simulate import SimConfig
from casino_sim.experiments.tournament import TournamentConfig
from casino_sim.policies.names import matchup
from casino_sim.policies.policy import PolicyError
from casino_sim.runner.play import engine_for
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import LOADER, builtin_policies, get_policy

BUILTIN = Path(__file__).resolve().parents[2] / "casino_sim" / "policies" / "builtin"
BOT = Path(__file__).resolve().parents[2] / "scripts" / "bots" / "most_cards.py"


def named_file(tmp_path: Path, name: str, weights_of: str = "greedy", file: str = "mine.toml") -> str:
    """A policy file with a built-in's weights under `name`."""
    text = (BUILTIN / f"{weights_of}.toml").read_text()
    path = tmp_path / file
    path.write_text(re.sub(r'(?m)^name = ".*"$', f'name = "{name}"', text))
    return str(path)


def test_simulate_refuses_two_policies_under_one_name(tmp_path):
    tuned = named_file(tmp_path, "tuned")  # greedy's weights, shown as the built-in tuned
    with pytest.raises(PolicyError, match=r"tuned and .*mine.toml both show as 'tuned'.*`name =`"):
        SimConfig(deals=10, policy_a="tuned", policy_b=tuned).resolve(LOADER).check()
    other = named_file(tmp_path, "greedy", weights_of="expert", file="other.toml")
    with pytest.raises(PolicyError, match="both show as 'greedy'"):
        SimConfig(deals=10, rules="italian:players=3", seats=f"greedy,random,{other}").resolve(LOADER).check()


def test_a_policy_against_itself_is_no_clash(tmp_path):
    SimConfig(deals=10, policy_a="expert", policy_b="expert").resolve(LOADER).check()
    SimConfig(deals=10, rules="italian:players=3", seats="expert,expert,random").resolve(LOADER).check()
    same = named_file(tmp_path, "greedy")  # greedy's own weights under its own name: it plays as greedy does
    SimConfig(deals=10, policy_a="greedy", policy_b=same).resolve(LOADER).check()
    RegretConfig(policies=("expert",), vs="expert").resolve(LOADER)


def test_every_command_of_two_policies_refuses_the_clash(tmp_path):
    tuned = named_file(tmp_path, "tuned")
    with pytest.raises(PolicyError, match="both show as 'tuned'"):
        RegretConfig(policies=("tuned",), vs=tuned).resolve(LOADER)
    with pytest.raises(PolicyError, match="both show as 'tuned'"):
        RegretConfig(policies=("tuned", tuned)).resolve(LOADER)
    with pytest.raises(PolicyError, match="both show as 'tuned'"):
        tn.TuneConfig(against=("tuned", tuned)).resolve(LOADER)
    same = named_file(tmp_path, "greedy")  # a tournament's entries are its rows: even alike, two are refused
    with pytest.raises(PolicyError, match="both show as 'greedy'"):
        TournamentConfig(policies=("greedy", same)).resolve(LOADER)


def test_the_cli_and_the_api_refuse_in_one_line(tmp_path):
    import casino_sim as cs

    tuned = named_file(tmp_path, "tuned")
    proc = run("simulate", "--policy", "tuned", "--vs", tuned, "--deals", "10", "--out", str(tmp_path / "r"))
    assert_one_line_error(proc, "both show as 'tuned'", "`name =`")
    assert not (tmp_path / "r").exists()
    with pytest.raises(ValueError, match="both show as 'tuned'"):
        cs.simulate(deals=10, policy="tuned", vs=tuned, out=tmp_path / "api")
    with pytest.raises(ValueError, match="both show as 'tuned'"):
        cs.tournament(["greedy", "tuned", tuned], games=2, out=tmp_path / "t")


def test_tune_names_its_policy_after_the_start_and_refuses_a_taken_name():
    assert (
        tn.TuneConfig().resolve(LOADER).name == "expert-tuned"
        and tn.TuneConfig(start="greedy").resolve(LOADER).name == "greedy-tuned"
    )
    assert tn.TuneConfig().resolve(LOADER).name not in builtin_policies()
    tn.TuneConfig(deals=10).resolve(LOADER)
    for taken in ("tuned", "greedy", "expert"):
        with pytest.raises(tn.InputError, match=f"--name '{taken}' is the name of"):
            tn.TuneConfig(name=taken).resolve(LOADER)
    assert tn.TuneConfig(name="mine").resolve(LOADER).name == "mine"


def test_a_bot_shows_as_exec_not_python():
    spec = f"exec:python3 {BOT}"
    bot = get_policy(spec)
    assert bot.kind == "exec" and bot.describe().startswith("most_cards (exec, exec:")
    assert engine_for("numba", (bot, get_policy("expert"))) == "reference"  # it still plays where it can
    with pytest.raises(PolicyError, match=r"'most_cards' \(exec\)"):
        check_analysis_args(bot, 100, 0)
    with pytest.raises(tn.InputError, match="exec: bot"):
        tn.TuneConfig(against=(spec,)).resolve(LOADER)
    shown = run("policies", "show", spec)
    assert shown.returncode == 0 and shown.stdout.startswith("most_cards (exec,"), shown.stderr


def test_seats_are_named_in_the_order_given_everywhere(tmp_path):
    import casino_sim as cs
    from casino_sim.experiments.simulate import default_out, write_reports
    from casino_sim.reports.captions import run_caption
    from casino_sim.runner.rundir import RunDir
    from tests.support.runs import simulate_dir

    # seed 0 deals the first round from the seat whose left-hand neighbour plays random: the sides' first rows
    # then met random before greedy, and the reports said "expert vs random, greedy"
    options = dict(deals=2, chunk_deals=2, rules="italian:players=3", seats="expert,greedy,random", seed=0)
    config = SimConfig(**options, engine="reference", card_deals=0).resolve(LOADER)
    assert matchup(config.policy_a, config.policy_b, config.seats, config.rules) == "expert vs greedy, random"
    assert default_out(config, tmp_path).name.endswith("-expert-vs-greedy-random")
    simulate_dir(tmp_path / "run", **options, engine="reference", card_deals=0)
    tables = write_reports(RunDir(tmp_path / "run"))
    assert tables["summary"]["matchup"].tolist() == ["expert vs greedy, random"]
    assert "expert vs greedy, random" in (tmp_path / "run" / "report" / "report.md").read_text()
    assert run_caption(RunDir(tmp_path / "run").read_manifest()).startswith("expert vs greedy, random · ")
    assert repr(cs.open_run(tmp_path / "run")).startswith("<Run expert vs greedy, random,")
    teams = matchup("expert", "greedy", "expert,greedy,random,greedy", "italian:players=4,teams=true")
    assert teams == "expert+random vs greedy"  # as the team reports name the sides


def test_play_refuses_a_partner_that_shows_as_the_opponents(tmp_path):
    tuned = named_file(tmp_path, "tuned")
    proc = run("play", "--rules", "brazilian:players=4", "--vs", "tuned", "--partner", tuned, stdin="quit\n")
    assert_one_line_error(proc, "both show as 'tuned'")
