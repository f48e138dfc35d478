"""The engine registry: names for the CLI and the suite, a one-line error for a wrong one, whole engines only."""

from __future__ import annotations

import pytest

from casino_sim.core.errors import InputError
from casino_sim.engines import Engine, engine_names, get_engine, register
from casino_sim.policies.kinds import CallablePolicy
from casino_sim.runner.play import engine_for
from tests.support.policies import get_policy


def test_the_built_in_engines_are_registered():
    assert engine_names() == ("reference", "numba")
    assert all(isinstance(get_engine(n), Engine) and get_engine(n).name == n for n in engine_names())


def test_an_unknown_engine_is_one_line_naming_the_choices():
    with pytest.raises(InputError, match=r"^unknown engine 'abacus' \(choose from: reference, numba\)$"):
        get_engine("abacus")


def test_only_a_whole_engine_registers():
    with pytest.raises(TypeError, match="Engine interface"):
        register(object())


def test_each_policy_plays_where_it_can():
    rollout = get_policy("rollout")
    python = CallablePolicy("first", "the first legal move", fn=lambda pos, moves, rng: moves[0])
    assert engine_for("numba", (rollout, rollout)) == "numba"
    assert engine_for("numba", (python, python)) == "reference"  # a prototype is moved, not refused
    with pytest.raises(InputError, match="^the rollout policy plays only on the numba engine, and a Python policy"):
        engine_for("numba", (python, rollout))  # no engine plays both: refused before any play
    with pytest.raises(InputError, match="^the rollout policy plays only on the numba engine$"):
        engine_for("reference", (rollout, rollout))
