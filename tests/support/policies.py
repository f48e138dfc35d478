"""The policies tests play: the Python API's policy loader (casino_sim/api/policies.py), so that a policy a test
registers (cs.register_policy) is one the others can name, as a notebook's calls share it."""

from __future__ import annotations

from casino_sim.api.policies import loader, register_policy
from casino_sim.policies.names import folder_safe

LOADER = loader()
get_policy = LOADER  # a policy by spec: a name, a .toml file, module:function or exec:COMMAND


def builtin_policies() -> dict:
    """Every policy the loader knows by name (the built-ins, then those registered)."""
    return LOADER.known()


def policy_from_dict(data: dict, where: str, source: str):
    """The policy of a parsed policy file, as the loader builds it (its base, if any, loaded by name)."""
    return LOADER.from_data(data, where, source)


__all__ = ["LOADER", "builtin_policies", "folder_safe", "get_policy", "policy_from_dict", "register_policy"]
