"""The policy loader (casino_sim/loader): each holder has its own, policy files load by a kind -> factory table,
and a spec given twice is one policy (a file excepted: it is read anew)."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

from casino_sim import openspiel_kind
from casino_sim.loader import PolicyLoader
from casino_sim.policies import BotPolicy, HeuristicPolicy, PolicyError
from casino_sim.policies.policy import Policy
from tests.support.policies import LOADER

BOT = Path(__file__).resolve().parents[2] / "scripts" / "bots" / "most_cards.py"


def _first(pos, moves, rng):
    return moves[0]


def _kind_error(loader: PolicyLoader, tmp_path: Path) -> str:
    path = tmp_path / "odd.toml"
    path.write_text('name = "odd"\nkind = "oracle"\n')
    with pytest.raises(PolicyError) as e:
        loader(str(path))
    return str(e.value)


def test_a_policy_file_names_a_kind_of_its_loaders_table(tmp_path):
    bare = "field 'kind' must be 'heuristic', 'rollout' or 'searcher', got 'oracle'"
    assert _kind_error(PolicyLoader(), tmp_path) == f"{tmp_path / 'odd.toml'}: {bare}"
    told = "field 'kind' must be 'heuristic', 'rollout', 'searcher' or 'openspiel-ismcts', got 'oracle'"
    assert _kind_error(LOADER, tmp_path).endswith(told)  # the API's loader: the OpenSpiel adapter registered


def test_an_adapter_adds_a_kind_and_its_factory_builds_the_policy(tmp_path):
    loader = PolicyLoader()
    seen = []

    def factory(entry, load) -> Policy:
        seen.append((entry.name, entry.kind, entry.data["params"]["edge"], load("greedy").name))
        return HeuristicPolicy(entry.name, entry.description, entry.source, weights=load("greedy").weights)

    loader.add_kind("edge", factory)
    path = tmp_path / "edge.toml"
    path.write_text('name = "edgy"\nkind = "edge"\n[params]\nedge = 3\n')
    policy = loader(str(path))
    assert seen == [("edgy", "edge", 3, "greedy")] and policy.name == "edgy" and policy.source == str(path)
    assert openspiel_kind.register(loader) is loader
    told = "'heuristic', 'rollout', 'searcher', 'edge' or 'openspiel-ismcts', got 'oracle'"
    assert _kind_error(loader, tmp_path).endswith(told)


def test_each_loader_holds_its_own_policies():
    one, other = PolicyLoader(), PolicyLoader()
    one.register("firsty", _first)
    assert "firsty" in one.known() and "firsty" not in other.known()
    with pytest.raises(PolicyError, match="unknown policy 'firsty'"):
        other("firsty")
    assert one("expert") is one("expert") and one("expert") is not other("expert")
    assert one("expert").plays_like(other("expert"))


def test_a_spec_is_one_policy_but_a_file_is_read_anew(tmp_path):
    loader = PolicyLoader()
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\n[weights]\ncards_taken = 1.0\n')
    assert loader(str(path)) is not loader(str(path)) and loader(str(path)).plays_like(loader(str(path)))
    spec = f"{Path(__file__).resolve()}:_first"
    assert loader(spec) is loader(spec) and loader(spec).name == "test_loader:_first"
    bot = f"exec:{sys.executable} {BOT}"
    assert loader(bot) is loader(bot) and isinstance(loader(bot), BotPolicy)


def test_a_loader_pickles_as_its_kinds_alone(tmp_path):
    loader = openspiel_kind.register(PolicyLoader())
    loader.register("lambda", lambda pos, moves, rng: moves[0])  # a lambda: no pickle of its own
    again = pickle.loads(pickle.dumps(loader))
    assert "lambda" in loader.known() and "lambda" not in again.known()
    assert _kind_error(again, tmp_path) == _kind_error(loader, tmp_path)  # the OpenSpiel kind went along


def test_a_bot_pickles_as_its_command_alone():
    policy = PolicyLoader()(f"exec:{sys.executable} {BOT}")
    again = pickle.loads(pickle.dumps(policy))
    assert (
        vars(again.bot)
        == vars(policy.bot)
        == {
            "spec": policy.bot.spec,
            "argv": [sys.executable, str(BOT)],
            "command": f"{sys.executable} {BOT}",
        }
    )
    assert again.name == policy.name == "most_cards"
