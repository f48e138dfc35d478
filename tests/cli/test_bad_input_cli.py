"""Every option of every command, given bad input: one line on stderr, exit code 2, no traceback, and
nothing already written is damaged. A new option without a case here fails `test_every_option_has_a_case`."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino_sim.cli.app import app
from casino_sim.core.errors import USER_ERRORS
from casino_sim.reference.position import Position
from tests.support.cli import EXAMPLE, assert_one_line_error
from tests.support.cli import run as cli

# Options that cannot be given a bad value (on/off flags), with the reason.
NO_BAD_VALUE = {
    ("moves", "jsonl"): "a flag",
    ("simulate", "mirrored"): "a flag",
    ("simulate", "games"): "a flag",
    ("simulate", "check"): "a flag",
    ("simulate", "charts"): "a flag",
    ("experiment", "charts"): "a flag",
    ("bench", "compile_times"): "a flag",
    ("bench", "check"): "a flag",
    ("card-value", "force"): "a flag",
    ("findings", "force"): "a flag",
    ("knockout", "force"): "a flag",
    ("regret", "force"): "a flag",
}
PY_POLICY = "tests.support.exact_policy:exact_best"

# (command, parameter) -> cases: (arguments after the command, a fragment the one error line must hold).
# {pos}, {toml}, {plan}, {run}, {old}, {file} are filled with files made by the `files` fixture.
CASES: dict[tuple[str, str], list[tuple[list[str], str]]] = {
    ("deal", "seed"): [(["--seed", "-1"], "--seed"), (["--seed", "x"], "--seed")],
    ("deal", "rules"): [(["--rules", "poker"], "poker")],
    ("replay", "source"): [(["{root}/nothing"], "nothing"), (["{toml}"], "")],
    ("replay", "round_"): [(["{run}", "--round", "0"], "--round"), (["{run}", "--round", "x"], "--round")],
    ("moves", "position"): [
        (["{root}/nothing.json"], "no such file"),
        (["{toml}"], "not valid JSON"),
        ([], "Missing argument"),
    ],
    ("moves", "format"): [(["{pos}", "--format", "xml"], "--format")],
    ("moves", "engine"): [(["{pos}", "--engine", "gpu"], "--engine")],
    ("apply", "position"): [(["{root}/none.json", '{"kind": "trail", "card": "KC"}'], "no such file")],
    ("apply", "move"): [
        (["{pos}", "{"], "JSON"),
        (["{pos}", '{"kind": "trail", "card": "ZZ"}'], "ZZ"),
        (["{pos}", '{"kind": "fly"}'], "fly"),
    ],
    ("apply", "engine"): [(["{pos}", '{"kind": "trail", "card": "KC"}', "--engine", "gpu"], "--engine")],
    ("simulate", "deals"): [
        (["--deals", "0"], "--deals"),
        (["--deals", "-5"], "--deals"),
        (["--deals", "100000000000"], "--deals"),
        (["--deals", "many"], "--deals"),
    ],
    ("simulate", "policy"): [(["--policy", "nosuch"], "nosuch"), (["--policy", "{toml}"], "broken.toml")],
    ("simulate", "vs"): [(["--vs", "nosuch"], "nosuch"), (["--vs", "{root}/missing.toml"], "missing.toml")],
    ("simulate", "rules"): [(["--rules", "poker"], "poker")],
    ("simulate", "seed"): [(["--seed", "-1"], "--seed")],
    ("simulate", "threads"): [(["--threads", "-1"], "--threads"), (["--threads", "100000"], "--threads")],
    ("simulate", "until_ci"): [(["--until-ci", "0"], "--until-ci"), (["--until-ci", "-2"], "--until-ci")],
    ("simulate", "out"): [
        (["--out", "{file}/sub"], "cannot write"),
        (["--out", "{run}"], "already holds a run"),
        (["--out", "{root}"], "not empty"),
    ],
    ("simulate", "resume"): [
        (["--resume", "{root}/none"], "not a run folder"),
        (["--resume", "{old}"], "another version"),
    ],
    ("simulate", "engine"): [(["--engine", "gpu"], "gpu")],
    ("simulate", "chunk_deals"): [(["--chunk-deals", "0"], "--chunk-deals")],
    ("simulate", "record"): [(["--record", "-1"], "--record")],
    ("simulate", "card_deals"): [
        (["--card-deals", "-1"], "--card-deals"),
        (["--card-deals", "x"], "--card-deals"),
        (["--games", "--card-deals", "5"], "--games"),
    ],
    ("simulate", "force"): [(["--resume", "{run}", "--force"], "--force")],
    ("simulate", "backend"): [(["--backend", "mpi"], "--backend")],
    ("simulate", "scheduler"): [(["--scheduler", "not-an-address"], "scheduler")],
    ("simulate", "seats"): [
        (["--seats", "greedy,random,random"], "--seats names 3 policies, but strict seats 2 players"),
        (["--seats", "greedy,,random", "--rules", "italian:players=3"], "--seats must name a policy"),
        (["--seats", "greedy,nosuch,random", "--rules", "italian:players=3"], "nosuch"),
    ],
    ("report", "kind"): [(["pie", "{run}"], "pie")],
    ("report", "run_dir"): [
        (["summary", "{root}/none"], "not a run folder"),
        (["summary", "{old}"], "another version"),
    ],
    ("report", "out"): [(["summary", "{run}", "--out", "{file}/sub"], "")],
    ("experiment", "plan"): [(["{root}/none.toml"], "none.toml"), (["{toml}"], ""), (["{plan}"], "[[run]]")],
    ("experiment", "out"): [
        (["{plan_ok}", "--out", "{file}/sub"], ""),
        (["{plan_ok}", "--out", "{root}"], "already holds runs"),
    ],
    ("experiment", "force"): [(["{plan_ok}", "--force", "--resume", "--out", "{root}"], "--force")],
    ("experiment", "resume"): [(["{plan_ok}", "--resume", "--out", "{root}/none"], "nothing to resume")],
    ("experiment", "backend"): [(["{plan_ok}", "--backend", "mpi"], "--backend")],
    ("experiment", "scheduler"): [(["{plan_ok}", "--scheduler", "not-an-address"], "scheduler")],
    ("tournament", "policies"): [(["greedy"], "2 to 16"), (["greedy", "nosuch"], "nosuch")],
    ("tournament", "games"): [(["greedy", "random", "--games", "0"], "--deals")],
    ("tournament", "rules"): [(["greedy", "random", "--rules", "poker"], "poker")],
    ("tournament", "seed"): [(["greedy", "random", "--seed", "-3"], "--seed")],
    ("tournament", "threads"): [(["greedy", "random", "--threads", "-1"], "--threads")],
    ("tournament", "chunk_deals"): [(["greedy", "random", "--chunk-deals", "0"], "--chunk-deals")],
    ("tournament", "out"): [(["greedy", "random", "--out", "{file}/sub"], "cannot write")],
    ("tournament", "resume"): [
        (["--resume", "{root}/none"], "not a run folder"),
        (["--resume", "{run}"], "not a tournament"),
    ],
    ("tournament", "force"): [(["--resume", "{root}/none", "--force"], "give one of them")],
    ("tournament", "backend"): [(["greedy", "random", "--backend", "mpi"], "--backend")],
    ("tournament", "scheduler"): [(["greedy", "random", "--scheduler", "not-an-address"], "scheduler")],
    ("bench", "engine"): [(["--engine", "gpu"], "--engine")],
    ("bench", "policy"): [(["--policy", "nosuch"], "nosuch")],
    ("bench", "deals"): [(["--deals", "0"], "--deals")],
    ("bench", "threads"): [(["--threads", "-1"], "--threads")],
    ("bench", "rules"): [(["--rules", "poker"], "poker")],
    ("bench", "format"): [(["--format", "xml"], "--format")],
    ("card-value", "policy"): [(["--policy", "nosuch"], "nosuch")],
    ("card-value", "deals"): [(["--deals", "0"], "--deals")],
    ("card-value", "rules"): [(["--rules", "poker"], "poker")],
    ("card-value", "seed"): [(["--seed", "-1"], "--seed")],
    ("card-value", "threads"): [(["--threads", "-1"], "--threads")],
    ("card-value", "out"): [
        (["--deals", "1", "--out", "{file}/sub"], ""),
        (["--deals", "1", "--out", "{root}"], "not empty"),
    ],
    ("knockout", "policy"): [
        (["nosuch"], "nosuch"),
        (["random"], "random policy"),
        (["rollout"], "rollout policy"),
        ([PY_POLICY], "python policy"),
        ([], "Missing argument"),
    ],
    ("knockout", "deals"): [(["expert", "--deals", "0"], "--deals"), (["expert", "--deals", "x"], "--deals")],
    ("knockout", "precision"): [(["expert", "--precision", "-1"], "--precision")],
    ("knockout", "pairs"): [
        (["expert", "--pairs", "sweep,nosuch"], "unknown feature 'nosuch'"),
        (["expert", "--pairs", "sweep"], "two features"),
        (["expert", "--pairs", "sweep,sweep"], "twice"),
        (["expert", "--pairs", "trail,sweep"], "weight 0"),
    ],
    ("knockout", "rules"): [(["expert", "--rules", "poker"], "poker")],
    ("knockout", "seed"): [(["expert", "--seed", "-1"], "--seed")],
    ("knockout", "threads"): [(["expert", "--threads", "-1"], "--threads")],
    ("knockout", "chunk_deals"): [(["expert", "--chunk-deals", "0"], "--chunk-deals")],
    ("knockout", "out"): [
        (["expert", "--out", "{file}/sub"], "cannot write"),
        (["expert", "--out", "{root}"], "not empty"),
    ],
    ("regret", "policies"): [([], "policies"), (["expert", "nosuch"], "nosuch")],
    ("regret", "vs"): [(["expert", "--vs", "nosuch"], "nosuch"), (["rollout", "--vs", PY_POLICY], "Python policy")],
    ("regret", "decisions"): [(["expert", "--decisions", "0"], "--decisions")],
    ("regret", "rules"): [(["expert", "--rules", "poker"], "poker")],
    ("regret", "seed"): [(["expert", "--seed", "-1"], "--seed")],
    ("regret", "threads"): [(["expert", "--threads", "-1"], "--threads")],
    ("regret", "out"): [
        (["expert", "--out", "{file}/sub"], "cannot write"),
        (["expert", "--out", "{root}"], "not empty"),
    ],
    ("choose", "position"): [(["{root}/none.json"], "no such file")],
    ("choose", "policy"): [(["{pos}", "--policy", "nosuch"], "nosuch")],
    ("choose", "seed"): [(["{pos}", "--seed", "-1"], "--seed")],
    ("choose", "format"): [(["{pos}", "--format", "xml"], "--format")],
    ("analyse", "position"): [(["{root}/none.json"], "no such file"), (["{toml}"], "not valid JSON")],
    ("analyse", "worlds"): [
        (["{pos}", "--worlds", "0"], "--worlds"),
        (["{pos}", "--worlds", "10000000000"], "--worlds"),
    ],
    ("analyse", "policy"): [(["{pos}", "--policy", "nosuch"], "nosuch")],
    ("analyse", "seed"): [(["{pos}", "--seed", "-1"], "--seed")],
    ("analyse", "format"): [(["{pos}", "--format", "xml"], "--format")],
    ("play", "vs"): [(["--vs", "nosuch"], "nosuch")],
    ("play", "rules"): [(["--rules", "poker"], "poker")],
    ("play", "seed"): [(["--seed", "-1"], "--seed")],
    ("play", "hint_worlds"): [(["--hint-worlds", "0"], "--hint-worlds")],
    ("play", "hint_policy"): [(["--hint-policy", "nosuch"], "nosuch")],
    ("play", "players"): [(["--players", "5", "--rules", "brazilian"], "--players must be 2, 3 or 4, got 5")],
    ("play", "partner"): [(["--players", "3", "--rules", "italian", "--partner", "greedy"], "--partner")],
    ("play", "save"): [(["--save", "{file}/game.json"], "cannot write"), (["--save", "{root}"], "is a folder")],
    ("policies show", "name"): [(["nosuch"], "nosuch")],
    ("simulate", "bot_timeout"): [(["--bot-timeout", "0"], "--bot-timeout must be a positive number")],
    ("experiment", "bot_timeout"): [(["{plan_ok}", "--bot-timeout", "-1"], "--bot-timeout must be a positive number")],
    ("tournament", "bot_timeout"): [
        (["greedy", "random", "--bot-timeout", "0"], "--bot-timeout must be a positive number")
    ],
    ("card-value", "bot_timeout"): [(["--bot-timeout", "1e9"], "--bot-timeout must be a positive number")],
    ("regret", "bot_timeout"): [(["expert", "--bot-timeout", "0"], "--bot-timeout must be a positive number")],
    ("choose", "bot_timeout"): [(["{pos}", "--bot-timeout", "soon"], "--bot-timeout")],
    ("play", "bot_timeout"): [(["--bot-timeout", "0"], "--bot-timeout must be a positive number")],
    ("equity", "run_dir"): [(["{root}/nothing"], "not a run folder"), (["{old}"], "")],
    ("equity", "out"): [(["{run}", "--out", "{file}/sub"], "cannot write")],
    ("equity", "resamples"): [(["{run}", "--resamples", "5"], "--resamples"), (["{run}", "--resamples", "x"], "")],
    ("equity", "seed"): [(["{run}", "--seed", "-1"], "--seed")],
    ("simulate", "start_score"): [
        (["--start-score", "10-15"], "--games"),
        (["--games", "--start-score", "ten"], "--start-score"),
        (["--games", "--start-score", "21-0"], "from 0 to 20"),
        (["--games", "--rules", "italian:players=3", "--start-score", "1-2"], "two sides"),
    ],
    ("tune", "start"): [
        (["--start", "nosuch"], "nosuch"),
        (["--start", "rollout"], "--start must be a heuristic"),
        (["--start", "{toml}"], "broken.toml"),
    ],
    ("tune", "against"): [
        (["--against", "nosuch"], "nosuch"),
        (["--against", ","], "--against"),
        (["--against", "expert,,greedy"], "--against must name one or more policies"),
    ],
    ("tune", "rules"): [(["--rules", "poker"], "poker")],
    ("tune", "deals"): [(["--deals", "0"], "--deals"), (["--deals", "many"], "--deals")],
    ("tune", "generations"): [(["--generations", "0"], "--generations")],
    ("tune", "population"): [(["--population", "1"], "--population"), (["--population", "x"], "--population")],
    ("tune", "seed"): [(["--seed", "-1"], "--seed")],
    ("tune", "sigma"): [(["--sigma", "0"], "--sigma")],
    ("tune", "validate_deals"): [(["--validate-deals", "1"], "--validate-deals")],
    ("tune", "name"): [(["--name", "a/b"], "--name")],
    ("tune", "threads"): [(["--threads", "-1"], "--threads")],
    ("tune", "out"): [(["--out", "{file}/sub"], "cannot write"), (["--out", "{run}"], "already holds a run")],
    ("tune", "resume"): [
        (["--resume", "{root}/none"], "not a tune run folder"),
        (["--resume", "{run}"], "does not hold a tune run"),
    ],
    ("tune", "force"): [(["--resume", "{run}", "--force"], "--force")],
    ("tune", "backend"): [(["--backend", "mpi"], "--backend")],
    ("tune", "scheduler"): [(["--scheduler", "not-an-address"], "scheduler")],
    ("findings", "policies"): [
        (["--policies", "greedy,nosuch"], "nosuch"),
        (["--policies", "greedy"], "2 to 16"),
        (["--policies", "greedy,greedy"], "twice"),
        (["--policies", "random,,greedy"], "--policies must name one or more policies"),
    ],
    ("findings", "rules"): [(["--rules", "poker"], "poker"), (["--rules", "italian:players=3"], "without players=")],
    ("findings", "players"): [
        (["--players", "5"], "--players"),
        (["--rules", "strict", "--players", "2,3"], "strict"),
        (["--players", "2,"], "--players must name one or more tables"),
    ],
    ("findings", "deals"): [(["--deals", "0"], "--deals"), (["--deals", "many"], "--deals")],
    ("findings", "until_ci"): [(["--until-ci", "0"], "--until-ci"), (["--until-ci", "-2"], "--until-ci")],
    ("findings", "precision"): [
        (["--precision", "0"], "--precision must be a positive"),
        (["--precision", "x"], "--precision"),
    ],
    ("findings", "precise_rungs"): [(["--precise-rungs", "0"], "--precise-rungs must be between 1 and 16")],
    ("findings", "seed"): [(["--seed", "-1"], "--seed")],
    ("findings", "threads"): [(["--threads", "-1"], "--threads")],
    ("findings", "chunk_deals"): [(["--chunk-deals", "0"], "--chunk-deals")],
    ("findings", "resamples"): [(["--resamples", "5"], "--resamples")],
    ("findings", "out"): [(["--out", "{file}/sub"], "cannot write"), (["--out", "{root}"], "not empty")],
    ("findings", "backend"): [(["--backend", "mpi"], "--backend")],
    ("findings", "scheduler"): [(["--out", "{root}/f", "--scheduler", "not-an-address"], "scheduler")],
    ("findings", "bot_timeout"): [(["--bot-timeout", "0"], "--bot-timeout must be a positive number")],
}


def all_parameters() -> list[tuple[str, str]]:
    """(command path, parameter name) of every command of the CLI."""
    out = []

    def walk(cmd, path):
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, f"{path} {name}".strip())
        else:
            out.extend((path, p.name) for p in cmd.params)

    walk(typer.main.get_command(app), "")
    return out


def test_every_option_has_a_case():
    params = all_parameters()  # once: building typer's command tree takes a tenth of a second
    missing = [p for p in params if p not in CASES and p not in NO_BAD_VALUE]
    assert not missing, f"options without a bad-input case: {missing}"
    stale = [p for p in [*CASES, *NO_BAD_VALUE] if p not in params]
    assert not stale, f"cases for options that no longer exist: {stale}"


def snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad")
    pos = root / "pos.json"
    pos.write_text(json.dumps(EXAMPLE))
    toml = root / "broken.toml"
    toml.write_text("[weights]\ncards_takn = 1.0\n")
    plan = root / "plan.toml"
    plan.write_text('name = "x"\n')
    plan_ok = root / "ok.toml"
    plan_ok.write_text(
        'name = "ok"\n[[run]]\nname = "a"\npolicy = "greedy"\nvs = "random"\ndeals = 10\n'
        '[[run.expect]]\nmetric = "diff"\nat_least = 0\n'
    )
    a_file = root / "a-file"
    a_file.write_text("not a folder")
    run = root / "run"
    assert cli("simulate", "--deals", "20", "--record", "2", "--no-charts", "--out", str(run)).returncode == 0
    old = root / "old"
    old.mkdir()
    (old / "manifest.json").write_text(json.dumps({"format": 99, "kind": "simulate"}))
    return {
        "pos": pos,
        "toml": toml,
        "plan": plan,
        "plan_ok": plan_ok,
        "file": a_file,
        "run": run,
        "old": old,
        "root": root,
    }


CASE_LIST = [(cmd, param, args, fragment) for (cmd, param), cases in CASES.items() for args, fragment in cases]


@pytest.mark.parametrize(
    "command, param, args, fragment", CASE_LIST, ids=[f"{c}-{p}-{i}" for i, (c, p, _, _) in enumerate(CASE_LIST)]
)
def test_bad_input_is_one_line_and_exit_2(files, command, param, args, fragment):
    before = snapshot(files["root"])
    filled = list(args)
    for key, path in files.items():  # fill {pos}, {run}, ... (str.format would trip on JSON braces)
        filled = [a.replace(f"{{{key}}}", str(path)) for a in filled]
    proc = cli(*command.split(), *filled)
    assert_one_line_error(proc, fragment)
    assert proc.stderr.strip().startswith("error: "), proc.stderr
    assert snapshot(files["root"]) == before  # nothing already written is damaged


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 60)
    | st.text(max_size=4)
    | st.sampled_from(["TD", "2S", "KC", "7H", "AS", "10♦", "strict", "italian"]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "hands",
                    "loose",
                    "builds",
                    "captured",
                    "to_move",
                    "rules",
                    "sweeps",
                    "last_capturer",
                    "must_act",
                    "value",
                    "cards",
                    "owner",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    obj=st.dictionaries(
        st.sampled_from(
            ["hands", "loose", "builds", "captured", "to_move", "rules", "sweeps", "last_capturer", "must_act", "extra"]
        ),
        JSONISH,
        max_size=9,
    )
)
def test_fuzzed_positions_are_read_or_refused_with_a_user_error(obj):
    try:
        pos = Position.from_json(obj)
    except USER_ERRORS:
        return
    assert Position.from_json(pos.to_json()) == pos  # whatever is accepted is a real position


@settings(max_examples=40, deadline=None)
@given(text=st.text(max_size=60) | JSONISH.map(json.dumps))
def test_fuzzed_position_files_give_one_line_errors_through_the_cli(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "pos.json"
    path.write_text(text)
    proc = cli("moves", str(path), "--engine", "reference")
    assert proc.returncode in (0, 2)
    if proc.returncode == 2:
        assert_one_line_error(proc)
