"""Policies: the built-ins, policy files and their errors, Python callables, heuristic choice."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.cards import parse_card as C
from casino_sim.core.rules import STRICT
from casino_sim.policies import FEATURE_NAMES, PolicyError, move_features
from casino_sim.policies.features import knowledge_of
from casino_sim.reference import Position, legal_moves
from casino_sim.reference.round import play_round
from tests.support.policies import builtin_policies, get_policy, register_policy

BUILTINS = {
    "random",
    "greedy",
    "builder",
    "defensive",
    "hold-casinos",
    "expert",
    "tuned",
    "endgame",
    "rollout",
    "searcher",
}


def feature(pos, move, name):
    return move_features(pos, move)[FEATURE_NAMES.index(name)]


def test_every_builtin_is_listed_with_a_description():
    policies = builtin_policies()  # also lists Python callables registered earlier in this process
    assert BUILTINS <= set(policies)
    for p in (policies[name] for name in BUILTINS):
        assert p.description and p.kind in ("random", "heuristic", "rollout", "searcher") and p.source == "built-in"
        if p.kind == "heuristic":
            assert p.weights.shape == (len(FEATURE_NAMES),) and np.any(p.weights)


def test_greedy_takes_the_big_casino_over_more_cards():
    pos = Position.from_json({"hands": [["TS", "8H"], ["2C"]], "loose": ["TD", "4C", "4D", "8C"]})
    move = get_policy("greedy").choose(pos, legal_moves(pos), np.random.default_rng(0))
    assert move.card == C("TS") and C("TD") in move.loose


def test_features_measure_what_they_say():
    pos = Position.from_json({"hands": [["7H", "AS"], ["2C", "3C"]], "loose": ["3D", "4S", "TD"]})
    moves = {(m.kind, m.card, m.loose): m for m in legal_moves(pos)}
    cap = moves[("capture", C("7H"), (C("3D"), C("4S")))]
    assert feature(pos, cap, "cards_taken") == 3
    assert feature(pos, cap, "spades_taken") == 1
    assert feature(pos, cap, "casinos_exposed") == 2  # 10♦ stays loose
    trail = moves[("trail", C("AS"), ())]
    assert feature(pos, trail, "trail_points") == 1 and feature(pos, trail, "trail") == 1
    # a lone ten left on the table: the opponent sweeps it if they hold one of the three unseen tens
    sweep_pos = Position.from_json({"hands": [["3H"], ["2C"]], "loose": ["3D", "TD"]})
    take = next(m for m in legal_moves(sweep_pos) if m.kind == "capture")
    know = knowledge_of(sweep_pos)
    p_ten = know.p_holds_any([C(t) for t in ("TS", "TH", "TD", "TC")])
    assert 0 < p_ten < 1
    assert feature(sweep_pos, take, "sweep_open") == pytest.approx(p_ten)
    assert feature(sweep_pos, take, "points_at_risk") == pytest.approx(2 * p_ten)


def test_policy_file_errors_name_the_field(tmp_path):
    cases = {
        'name = "x"\n[weights]\ncards_takn = 1\n': "weights.cards_takn",
        'name = "x"\n[weights]\ncards_taken = "lots"\n': "weights.cards_taken",
        "[weights]\ncards_taken = 1\n": "'name'",
        'name = "x"\nkind = "oracle"\n': "'kind'",
        'name = "x"\nkind = "rollout"\n[params]\nworlds = 0\n': "params.worlds",
        'name = "x"\nkind = "rollout"\n[params]\nbias = 1\n': "params.bias",
        'name = "x"\nkind = "searcher"\n[params]\nworlds = -1\n': "params.worlds",
        'name = "x"\nkind = "searcher"\n[params]\nexact_plies = 9\n': "params.exact_plies",
        'name = "x"\nkind = "searcher"\n[params]\nexact_plies = 0\n': "params.exact_plies",
        'name = "x"\nkind = "rollout"\n[params]\nexact_plies = 4\n': "params.exact_plies",
        'name = "x"\nkind = "searcher"\n[params]\nrace = -1\n': "params.race",
        'name = "x"\nkind = "rollout"\n[params]\nrace_z = "far"\n': "params.race_z",
        'name = "x"\nkind = "searcher"\n[params]\ntop = -2\n': "params.top",
        'name = "x"\nkind = "searcher"\n[params]\nhorizon = 5\n': "params.horizon",
        'name = "x"\nkind = "rollout"\n[params]\nhorizon = true\n': "params.horizon",
        'name = "x"\nkind = "rollout"\n[params]\ntop = 2.5\n': "params.top",
        'name = "x"\nkind = "searcher"\n[weights]\naces_taken = 1\n': "a searcher has 'params'",
        'name = "x"\ncolour = "red"\n[weights]\n': "'colour'",
        "name = [\n": "not valid TOML",
    }
    for i, (text, fragment) in enumerate(cases.items()):
        path = tmp_path / f"p{i}.toml"
        path.write_text(text)
        with pytest.raises(PolicyError, match=fragment.replace(".", r"\.").replace("[", r"\[")):
            get_policy(str(path))
    with pytest.raises(PolicyError, match="no such policy file"):
        get_policy(str(tmp_path / "missing.toml"))
    with pytest.raises(PolicyError, match="unknown policy"):
        get_policy("grandmaster")


def test_a_users_policy_file_plays(tmp_path):
    path = tmp_path / "trailer.toml"
    path.write_text('name = "trailer"\ndescription = "always trails"\n[weights]\ntrail = 5\n')
    policy = get_policy(str(path))
    pos = Position.from_json({"hands": [["7H", "3S"], ["2C"]], "loose": ["7D"]})
    assert policy.choose(pos, legal_moves(pos), np.random.default_rng(1)).kind == "trail"


def takes_most(pos, moves, rng):
    """Prototype: the capture taking the most cards, else the first move."""
    return max(moves, key=lambda m: (m.kind == "capture", len(m.loose)))


def test_python_callable_policy_plays_a_whole_round():
    policy = register_policy("takes-most", takes_most)
    assert policy.kind == "python" and "most cards" in policy.description
    rng = np.random.default_rng(3)
    result = play_round(STRICT, rng.permutation(52), 0, lambda pos, moves: policy.choose(pos, moves, rng))
    assert len(result.moves) == 48
    with pytest.raises(PolicyError, match="taken"):
        register_policy("greedy", takes_most)


def test_python_callable_by_module_path(tmp_path):
    src = tmp_path / "mine.py"
    src.write_text("def first(pos, moves, rng):\n    return moves[0]\n")
    policy = get_policy(f"{src}:first")
    pos = Position.from_json({"hands": [["7H"], ["2C"]], "loose": ["7D"]})
    assert policy.choose(pos, legal_moves(pos), np.random.default_rng(0)) == legal_moves(pos)[0]
    with pytest.raises(PolicyError, match="no function"):
        get_policy(f"{src}:second")


def test_python_policy_returning_an_illegal_move_is_refused():
    policy = register_policy("cheat", lambda pos, moves, rng: moves[0].__class__("trail", C("KC")))
    pos = Position.from_json({"hands": [["7H"], ["2C"]], "loose": ["7D"]})
    with pytest.raises(PolicyError, match="not one of the legal moves"):
        policy.choose(pos, legal_moves(pos), np.random.default_rng(0))


def test_heuristic_ties_are_broken_by_the_seed():
    pos = Position.from_json({"hands": [["3H", "4H", "5H", "6H"], ["2C"]], "loose": ["KD"]})
    greedy = get_policy("greedy")
    picks = {greedy.choose(pos, legal_moves(pos), np.random.default_rng(s)).card for s in range(40)}
    assert len(picks) > 1  # every trail scores 0: the seed decides
    again = [greedy.choose(pos, legal_moves(pos), np.random.default_rng(7)) for _ in range(3)]
    assert len(set(again)) == 1


def test_a_hidden_hand_has_the_size_the_deal_implies():
    import json

    from casino_sim.core.cards import format_card
    from tests.support.cli import run

    keep = {"2C", "3D", "9C", "KH"}  # B (dealer) holds 2C 3D, 9C is loose, A holds the unseen KH
    rest = [format_card(c) for c in range(52) if format_card(c) not in keep]
    pos = Position.from_json(
        {
            "rules": "strict",
            "to_move": 1,
            "hands": [None, ["2C", "3D"]],
            "loose": ["9C"],
            "captured": [rest[:30], rest[30:]],
            "last_capturer": 0,
        }
    )
    know = knowledge_of(pos)
    assert know.opp_hand_size == 1 and len(know.unseen) == 1  # the last card of the last batch
    proc = run("choose", "-", "--policy", "greedy", stdin=json.dumps(pos.to_json()))
    assert proc.returncode == 0, proc.stderr
