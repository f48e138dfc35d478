"""Policies in the Python API: the process's one policy loader, made at the first call with the OpenSpiel kind
registered (casino_sim/openspiel_kind.py). Every API call resolves the policies it names with it, and
`register_policy` adds a Python function to it by name, for the calls that follow."""

from __future__ import annotations

from functools import cache

from casino_sim import openspiel_kind
from casino_sim.loader import PolicyLoader
from casino_sim.policies.policy import Policy, PythonPolicy


@cache
def loader() -> PolicyLoader:
    """The API's policy loader (one per process: what register_policy adds, every API call sees)."""
    return openspiel_kind.register(PolicyLoader())


def policy(spec: str) -> Policy:
    """The policy object of `spec`: a name, a .toml policy file, `module:function` / `file.py:function`, or
    `exec:COMMAND` (what `casino_sim.openspiel_bots.PolicyBot` plays, for one).

    >>> cs.policy("expert").kind
    'heuristic'
    """
    return loader()(spec)


def register_policy(name: str, fn: PythonPolicy, description: str = "") -> Policy:
    """Register a plain Python callable (position, legal_moves, rng) -> move as the policy `name`, for every API
    call of this process (cs.simulate(policy=name), ...). Slow (it runs in Python, one call per move, on the
    reference engine): meant for trying an idea before writing it as weights."""
    return loader().register(name, fn, description)
