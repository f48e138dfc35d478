"""tune, knockout and regret declared once (experiments/tune_fields.py, experiments/skill_fields.py): a field is the
command's option and the API's argument; one refused value reads in each adapter's words; each door resolves its
config once into a frozen specification (runner/seating.py Resolves) that nothing patches afterwards."""

from __future__ import annotations

import inspect
from dataclasses import replace

import pytest

import casino_sim as cs
from casino_sim.analysis.regret import RegretConfig
from casino_sim.experiments.knockout import KnockoutConfig
from casino_sim.experiments.skill_fields import KNOCKOUT, REGRET
from casino_sim.experiments.tournament import TournamentConfig
from casino_sim.experiments.tune import TuneConfig
from casino_sim.experiments.tune_fields import TUNE
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import LOADER


@pytest.mark.parametrize(
    "declaration, api, field",
    [(TUNE, cs.tune, "validate_deals"), (KNOCKOUT, cs.knockout, "chunk_deals"), (REGRET, cs.regret, "seed")],
)
def test_a_declared_field_is_the_command_s_option_and_the_api_s_argument(declaration, api, field):
    helped = " ".join(run(declaration.name, "--help", env={"COLUMNS": "400"}).stdout.split())
    declared = declaration[field]
    assert " ".join(declared.help.split()) in helped and f"--{field.replace('_', '-')}" in helped
    assert inspect.signature(api).parameters[field].default == declared.default
    assert "resume" not in inspect.signature(api).parameters  # each adapter offers what its users can give


@pytest.mark.parametrize(
    "args, call, words",
    [
        (["tune", "--sigma", "0"], lambda: cs.tune(sigma=0.0), "sigma must be above 0 and at most 10, got 0.0"),
        (["tune", "--population", "1001"], lambda: cs.tune(population=1001), "population must be at most 1,000"),
        (["tune", "--name", "a/b"], lambda: cs.tune(name="a/b"), "name must be letters, digits"),
        (["tune", "--against", "x,"], lambda: cs.tune(against="x,"), "against must name one or more policies"),
        (["knockout", "expert", "--pairs", "sweep"], lambda: cs.knockout("expert", pairs="sweep"), "pairs: 'sweep'"),
        (["knockout", "expert", "--precision", "100"], lambda: cs.knockout("expert", precision=100.0), "precision"),
        (["regret", "expert", "--decisions", "0"], lambda: cs.regret("expert", decisions=0), "decisions must be"),
        (["regret", "expert", "--seed", "-1"], lambda: cs.regret("expert", seed=-1), "seed must be >= 0, got -1"),
    ],
)
def test_one_refusal_reads_in_the_command_s_words_and_the_api_s(args, call, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    said = run(*args)
    assert_one_line_error(said, f"--{words}")
    with pytest.raises(ValueError) as caught:
        call()
    assert words in str(caught.value) and "--" not in str(caught.value)
    assert not (tmp_path / "results").exists()  # refused before any folder is made


def test_tune_names_its_policy_at_the_door_without_patching_the_config():
    asked = TuneConfig(start="greedy", against=("expert",))
    spec = asked.resolve(LOADER)
    assert (asked.name, spec.name) == ("", "greedy-tuned")  # the request as given, the spec as resolved
    assert spec.policies()[0].name == "greedy" and [p.name for p in spec.policies()[1]] == ["expert"]


@pytest.mark.parametrize(
    "config, other",
    [
        (TuneConfig(against=("greedy",)), {"against": ("random",)}),
        (KnockoutConfig(policy="expert"), {"policy": "greedy"}),
        (RegretConfig(policies=("expert",)), {"vs": "greedy"}),
        (TournamentConfig(policies=("random", "greedy")), {"policies": ("random", "expert")}),
    ],
)
def test_each_config_is_resolved_once_and_never_changed_below_the_door(config, other):
    with pytest.raises(TypeError, match="resolve"):
        config.lineup()  # an unresolved request plays nothing: no policy is looked up below the door
    spec = config.resolve(LOADER)
    assert config.resolved is None and spec.lineup().specs == spec.specs()  # resolve() made a new config
    assert replace(spec, threads=1).lineup() is spec.lineup()  # where it plays does not resolve it again
    with pytest.raises(TypeError, match="resolves them again"):
        replace(spec, **other)  # other policies with the old objects: refused, never silently played
