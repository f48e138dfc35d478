"""The kernels read a rule set through kernels/layout.py's R_* indices: each must name the slot of RuleSet.as_array()
that holds its field, or a kernel would play one rule with another's value."""

from __future__ import annotations

from dataclasses import fields

from casino_sim.core.rules import ENGINE_FIELDS, RuleSet, get_rules
from casino_sim.kernels import layout as L

R_NAMES = sorted(name for name in vars(L) if name.startswith("R_"))


def test_every_rule_field_has_one_index_and_every_index_a_field():
    assert ENGINE_FIELDS == tuple(f.name for f in fields(RuleSet) if f.name != "name")
    assert sorted(f"R_{name.upper()}" for name in ENGINE_FIELDS) == R_NAMES
    assert L.N_RULES == len(ENGINE_FIELDS) == len(RuleSet(name="strict").as_array())


def test_each_index_reads_its_own_field():
    """Distinct values in every field: a swapped or shifted index reads another field's value."""
    rules = RuleSet(name="distinct", **{name: 100 + i for i, name in enumerate(reversed(ENGINE_FIELDS))})
    arr = rules.as_array()
    for r_name in R_NAMES:
        assert arr[getattr(L, r_name)] == getattr(rules, r_name.removeprefix("R_").lower()), r_name


def test_the_indices_are_plain_ints_numba_can_fold():
    assert all(type(getattr(L, name)) is int for name in (*R_NAMES, "N_RULES"))


def test_a_real_rule_set_reads_back_through_the_indices():
    rules = get_rules("italian:players=4,teams=true")
    arr = rules.as_array()
    assert arr[L.R_PLAYERS] == 4 and arr[L.R_TEAMS] == 1 and arr[L.R_NEXT_TURN_OBLIGATION] == 1
    assert arr[L.R_SWEEP_POINTS] == rules.sweep_points and arr[L.R_TARGET] == rules.target
