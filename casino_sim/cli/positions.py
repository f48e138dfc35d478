"""Commands that answer about one position: moves, apply, choose, analyse (docs/notation.md)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from casino_sim.cli.declared import command
from casino_sim.cli.options import BotTimeoutOpt, EngineName, EngineOpt, Format, console, ensure_compiled, policy_loader
from casino_sim.cli.position_tools import (
    apply_text,
    is_jsonl,
    load_position,
    moves_jsonl_lines,
    no_move_reason,
    numbered_lines,
)
from casino_sim.core.fields import FieldError
from casino_sim.engines import get_engine
from casino_sim.experiments.study_declarations import ANALYSE


def moves(
    position: Annotated[str, typer.Argument(help="Position JSON file, a .jsonl file of positions, or - for stdin.")],
    format: Annotated[
        Format, typer.Option("--format", help="text: one numbered move per line; json: one array.")
    ] = Format.text,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="Read one position per line (for -).")] = False,
    engine: EngineOpt = EngineName.numba,
) -> None:
    """List every legal move of the player to move (positions and moves: docs/notation.md)."""

    eng = get_engine(engine.value)
    if is_jsonl(position, jsonl):
        if engine == EngineName.numba:
            ensure_compiled("moves")
        for line in moves_jsonl_lines(eng, position):
            print(line)
        return
    pos = load_position(position)
    eng.check_rules(pos.rules)  # refused before any compiling is announced
    if engine == EngineName.numba:
        ensure_compiled("moves")
    legal = eng.legal_moves(pos)
    if format == Format.json:
        print(json.dumps([m.to_json() for m in legal]))
    else:
        for line in numbered_lines(pos, legal):
            print(line)
    if not legal:  # on stderr: standard output stays the (empty) answer scripts read
        print(no_move_reason(pos), file=sys.stderr)


def apply(
    position: Annotated[str, typer.Argument(help="Position JSON file, or - for stdin.")],
    move: Annotated[
        str,
        typer.Argument(
            help='The move as JSON, e.g. \'{"kind": "trail", "card": "KC"}\', or its number in the list '
            "`casino-sim moves` prints."
        ),
    ],
    engine: EngineOpt = EngineName.numba,
) -> None:
    """Print the position after one legal move as JSON (no deal, no end of round; docs/notation.md)."""

    print(
        apply_text(
            get_engine(engine.value),
            position,
            move,
            on_ready=lambda: ensure_compiled("apply") if engine == EngineName.numba else None,
        )
    )


def choose(
    position: Annotated[str, typer.Argument(help="Position JSON file, or - for stdin.")],
    policy: Annotated[
        str, typer.Option("--policy", help="A policy name, a .toml file, module:function or exec:COMMAND.")
    ] = "rollout",
    seed: Annotated[int, typer.Option(help="Seed for the policy's random choices.")] = 0,
    format: Annotated[
        Format, typer.Option("--format", help="text: the move in words; json: the move record.")
    ] = Format.text,
    bot_timeout: BotTimeoutOpt = None,
) -> None:
    """The move a policy plays in a position (rollout and searcher sample the hidden cards; docs/notation.md)."""
    # deferred, so that `casino-sim --help` never loads them: numba
    from casino_sim.policies.decide import check_search_position, choose_move

    pos = load_position(position)
    if seed < 0:
        raise FieldError("seed", f"must be >= 0, got {seed}")
    chosen = policy_loader()(policy)
    if chosen.searches:
        check_search_position(pos, chosen)  # refused before any compiling is announced
        ensure_compiled("rollout")
    move = choose_move(pos, chosen, seed)
    print(json.dumps(move.to_json()) if format == Format.json else move.describe(pos.to_move))


def _analyse(values: dict, given: frozenset) -> None:
    """Rank every legal move by expected point difference to the end of the round (95% intervals)."""
    # deferred, so that `casino-sim --help` never loads them: numba
    from casino_sim.analysis import analysis_json, analysis_table, print_table
    from casino_sim.experiments.analyse_door import analysed

    result = analysed(load_position(values["position"]), values, policy_loader())
    if values["format"] == Format.json:
        print(json.dumps(analysis_json(result)))
    else:
        print_table(console, analysis_table(result))


analyse = command(ANALYSE, _analyse, _analyse.__doc__)
