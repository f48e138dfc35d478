"""Options declared once (experiments/declarations.py): a field shows as declared in the command's help, the API's
signature and the plan loader; one refused value is one FieldError, worded by each adapter."""

from __future__ import annotations

import inspect

import pytest

import casino_sim as cs
from casino_sim.core.fields import FieldError, api_word, cli_word
from casino_sim.experiments.declarations import SIMULATE
from casino_sim.experiments.plan import RUN_OPTIONS
from casino_sim.experiments.study_declarations import ANALYSE, BENCH, CARD_VALUE, EXPERIMENT, FINDINGS
from casino_sim.reports.equity import RESAMPLES
from tests.support.cli import assert_one_line_error, run


def test_a_declared_field_is_the_command_s_option_the_api_s_argument_and_a_plan_s_key():
    helped = " ".join(run("simulate", "--help", env={"COLUMNS": "400"}).stdout.split())
    api = inspect.signature(cs.simulate).parameters
    for name in ("deals", "chunk_deals", "mirrored"):
        field = SIMULATE[name]
        assert field.help in helped and f"--{name.replace('_', '-')}" in helped
        assert api[name].default == field.default
        assert name in RUN_OPTIONS
    assert "resume" not in api and "progress" not in helped  # each adapter offers what its users can give
    assert list(api)[:3] == ["deals", "policy", "vs"] and api["seats"].kind is inspect.Parameter.KEYWORD_ONLY


def test_one_field_error_is_worded_by_each_adapter():
    error = FieldError(("record", "games"), "{record} keeps rounds of single-round runs, not of {games:on}")
    assert str(error) == error.worded(cli_word) == "--record keeps rounds of single-round runs, not of --games"
    assert error.worded(api_word) == "record keeps rounds of single-round runs, not of games=True"
    assert str(FieldError("mirrored", "{mirrored:off} plays as given")) == "--no-mirrored plays as given"
    assert str(FieldError("deals", "must be positive")) == "--deals must be positive"  # the field first


def test_a_bad_value_reads_in_the_command_s_words_and_the_api_s(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    said = run("simulate", "--deals", "0")
    assert_one_line_error(said, "--deals must be between 1 and")
    with pytest.raises(ValueError) as caught:
        cs.simulate(deals=0)
    assert said.stderr.strip() == f"error: --{caught.value}"  # the same line, the option as the parameter


@pytest.mark.parametrize("given", [["--policy", "tuned"], ["--vs", "expert"], ["--policy", "tuned", "--vs", "x"]])
def test_seats_beside_policy_or_vs_is_refused_not_overridden(given, tmp_path, monkeypatch):
    """--seats names every seat's policy: a --policy or --vs beside it used to be dropped silently (issue 48)."""
    monkeypatch.chdir(tmp_path)
    said = run("simulate", "--deals", "100", "--seats", "expert,greedy", *given)
    assert_one_line_error(said, "--seats names every seat's policy and replaces", given[0], "give one of them")
    assert not (tmp_path / "results").exists()
    with pytest.raises(ValueError, match="seats names every seat's policy and replaces policy"):
        cs.simulate(deals=100, seats="expert,greedy", policy="tuned")


def test_seats_alone_still_plays(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    played = cs.simulate(deals=4, seats=["expert", "greedy"], card_deals=0, reports=False)
    assert played.config["policy_a"] == "expert" and played.config["policy_b"] == "greedy"


@pytest.mark.parametrize("declaration", [FINDINGS, CARD_VALUE, BENCH, ANALYSE, EXPERIMENT], ids=lambda d: d.name)
def test_each_study_command_s_help_is_its_declaration(declaration):
    """findings, card-value, bench, analyse and experiment: every option their help lists is a declared field."""
    name = declaration.name.replace("_", "-")
    helped = " ".join(run(name, "--help", env={"COLUMNS": "400"}).stdout.split())
    for field in declaration.offered("cli"):
        assert field.help.split(" (")[0] in helped  # a help's "(default ...)" is shown as the default
        assert field.flag == "" or (field.flag or f"--{field.name.replace('_', '-')}").split("/")[0] in helped


def test_the_api_s_findings_and_analyse_are_their_declarations():
    for function, declaration in ((cs.findings, FINDINGS), (cs.analyse, ANALYSE)):
        api = inspect.signature(function).parameters
        assert list(api) == list(declaration.names("api"))
        assert all(api[f.name].default == f.default for f in declaration.offered("api") if f.default is not None)
    assert FINDINGS["resamples"].default == RESAMPLES  # the equity's bootstrap, declared beside it


def test_a_refused_findings_value_reads_in_each_adapter_s_words(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    said = run("findings", "--policies", "random,greedy", "--resamples", "10")
    assert_one_line_error(said, "--resamples must be at least 100, got 10")
    with pytest.raises(ValueError) as caught:
        cs.findings(["random", "greedy"], resamples=10)
    assert said.stderr.strip() == f"error: --{caught.value}"
    assert not (tmp_path / "results").exists()
